"""Oust properties over random legal games (sides 3, 5 and 7), checked by hypothesis.

The engine is compared with a slow reference written straight from docs/rules/oust.md §2.1 and
§4.1 (cells as (u, v) pairs, groups by flood fill), so its bitboards and group bookkeeping are
checked by something that shares none of their tricks.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator
from typing import cast

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.validator.games import oust
from gamerec.validator.games.oust import (
    ENGINE,
    PASS,
    RESIGN,
    SWAP,
    Move,
    OustState,
    OustVariant,
    cell_code,
    cell_name,
    hex_board,
    random_game,
)
from gamerec.validator.games.oust.replay import _accepted_prefix
from gamerec.validator.games.protocol import GameState, digest_of

SIDES = st.sampled_from([3, 5, 7])
SEEDS = st.integers(0, 2**32 - 1)

# ---------------------------------------------------------------------------------------------
# The reference: docs/rules/oust.md §2.1 and §4.1, the obvious way

Cell = tuple[int, int]  # (u, v): letter index and number - 1


@functools.cache
def ref_cells(side: int) -> frozenset[Cell]:
    n = side - 1
    return frozenset(
        (q + n, r + n)
        for q in range(-n, n + 1)
        for r in range(-n, n + 1)
        if abs(q) <= n and abs(r) <= n and abs(q + r) <= n
    )


@functools.cache
def ref_neighbours(cell: Cell, side: int) -> frozenset[Cell]:
    u, v = cell
    around = {(u - 1, v), (u + 1, v), (u, v + 1), (u - 1, v + 1), (u, v - 1), (u + 1, v - 1)}
    return frozenset(around & ref_cells(side))


def ref_board(state: OustState) -> dict[Cell, int]:
    """The stones of a state as (u, v) -> seat, read through its public snapshot only."""
    board = {}
    for site in state.position().sites:
        if site.owner:
            code = cell_code(site.name)
            board[(code % 32, code // 32)] = site.owner
    return board


def ref_group(board: dict[Cell, int], start: Cell, side: int) -> frozenset[Cell]:
    seat, found, todo = board[start], {start}, [start]
    while todo:
        for other in ref_neighbours(todo.pop(), side):
            if board.get(other) == seat and other not in found:
                found.add(other)
                todo.append(other)
    return frozenset(found)


def ref_groups(board: dict[Cell, int], side: int) -> list[frozenset[Cell]]:
    groups: list[frozenset[Cell]] = []
    for cell in board:
        if not any(cell in group for group in groups):
            groups.append(ref_group(board, cell, side))
    return groups


def ref_placement(board: dict[Cell, int], side: int, seat: int, cell: Cell) -> set[Cell] | None:
    """§4.1: None when illegal, else the enemy stones removed (empty: non-capturing)."""
    if cell in board or cell not in ref_cells(side):
        return None
    touching = ref_neighbours(cell, side)
    own = [ref_group(board, c, side) for c in touching if board.get(c) == seat]
    if not own:
        return set()
    new_group = {cell}.union(*own)
    enemy = [
        ref_group(board, c, side)
        for stone in new_group
        for c in ref_neighbours(stone, side)
        if board.get(c) == 3 - seat
    ]
    if not enemy or any(len(group) >= len(new_group) for group in enemy):
        return None
    return set().union(*enemy)


def ref_legal(board: dict[Cell, int], side: int, seat: int) -> dict[Cell, set[Cell]]:
    placements = {}
    for cell in ref_cells(side):
        removed = ref_placement(board, side, seat, cell)
        if removed is not None:
            placements[cell] = removed
    return placements


def code_of(cell: Cell) -> int:
    return cell[1] * 32 + cell[0]


# ---------------------------------------------------------------------------------------------
# Walking random games placement by placement


def game(side: int, seed: int, pie: bool = True) -> tuple[OustVariant, list[Move]]:
    variant = OustVariant(side=side, pie=pie)
    return variant, random_game(variant, random.Random(seed))


def placements(variant: OustVariant, moves: list[Move]) -> Iterator[tuple[OustState, int, bool]]:
    """For every placement of a game: the state before it, the cell, and whether it is the
    last placement of its turn. Pass and swap are played in between."""
    state = OustState(variant)
    for move in moves:
        if isinstance(move, str):
            state.play(move)
            continue
        for index, code in enumerate(move):
            yield state.copy(), code, index == len(move) - 1
            state.place(code)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 5, 7]), SEEDS)
def test_legal_placements_and_their_captures_match_the_reference(side: int, seed: int) -> None:
    variant, moves = game(side, seed)
    for before, code, _ in placements(variant, moves):
        board = ref_board(before)
        expected = ref_legal(board, side, before.to_move)
        assert before.legal_placements() == sorted(code_of(cell) for cell in expected)
        after = before.copy()
        after.place(code)
        played = (code % 32, code // 32)
        board[played] = before.to_move
        for cell in expected[played]:
            del board[cell]
        assert ref_board(after) == board


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([2, 3, 5, 7]), SEEDS)
def test_the_turn_goes_on_exactly_when_the_rules_say(side: int, seed: int) -> None:
    variant, moves = game(side, seed)
    for before, code, _ in placements(variant, moves):
        seat = before.to_move
        after = before.copy()
        going_on = after.place(code)
        board = ref_board(after)
        captured = bool(ref_placement(ref_board(before), side, seat, (code % 32, code // 32)))
        enemy_left = any(owner == 3 - seat for owner in board.values())
        can_place = bool(ref_legal(board, side, seat))
        assert going_on == (captured and enemy_left and can_place)
        if going_on:
            continue
        # The turn is over: a win (§6.1), both seats blocked (§6.2), a forced pass (§4.3), or
        # an ordinary turn of the other seat.
        next_can = bool(ref_legal(board, side, 3 - seat))
        won = captured and not enemy_left
        assert after.is_over == (won or not (next_can or can_place))
        if not after.is_over:
            assert after.to_move == 3 - seat and after.must_pass == (not next_can)


@settings(max_examples=50, deadline=None)
@given(SIDES, SEEDS)
def test_no_group_touches_an_enemy_group_that_was_smaller_when_it_was_made(
    side: int, seed: int
) -> None:
    # §4.5: after every placement no group of 2+ touches an enemy group of 2+; and a group
    # just made by a capture touches no enemy stone at all (it removed every one it touched).
    variant, moves = game(side, seed)
    for before, code, _ in placements(variant, moves):
        after = before.copy()
        after.place(code)
        board = ref_board(after)
        groups = ref_groups(board, side)
        for group in groups:
            seat = board[next(iter(group))]
            around = {c for stone in group for c in ref_neighbours(stone, side)}
            touching = {c for c in around if board.get(c) == 3 - seat}
            if len(group) >= 2:
                for enemy in groups:
                    if len(enemy) >= 2 and enemy & touching:
                        raise AssertionError(f"{sorted(group)} touches {sorted(enemy)}")
        if after.owner(code) and len(after.group_of(code)) >= 2:
            new_group = {(c % 32, c // 32) for c in after.group_of(code)}
            assert all(
                board.get(c) != 3 - before.to_move
                for s in new_group
                for c in ref_neighbours(s, side)
            )


@settings(max_examples=50, deadline=None)
@given(SIDES, SEEDS)
def test_a_turn_ends_with_a_non_capturing_placement_unless_none_was_possible(
    side: int, seed: int
) -> None:
    variant, moves = game(side, seed)
    for before, code, last in placements(variant, moves):
        after = before.copy()
        after.place(code)
        capturing = bool(before.board.neighbour_mask[code] & before.board.mask) and any(
            before.owner(c) == before.to_move for c in before.board.neighbours(code)
        )
        if not last:
            assert capturing and after.in_turn
        elif capturing:
            mover = before.to_move
            won = not after.stones(3 - mover)
            blocked = not ref_legal(ref_board(after), side, mover)
            assert won or blocked


@settings(max_examples=50, deadline=None)
@given(SIDES, SEEDS, st.booleans())
def test_replay_of_the_move_list_gives_the_same_digest(side: int, seed: int, pie: bool) -> None:
    variant, moves = game(side, seed, pie)
    state = OustState(variant)
    for move in moves:
        state.play(move)
    outcome = ENGINE.replay(variant, moves)
    assert outcome.illegal is None and outcome.plies == len(moves)
    assert outcome.state.digest() == state.digest()
    assert outcome.state.scores() == state.scores()


@settings(max_examples=50, deadline=None)
@given(SIDES, SEEDS, st.booleans())
def test_the_game_ends_and_its_winner_has_stones_on_the_board(
    side: int, seed: int, pie: bool
) -> None:
    variant, moves = game(side, seed, pie)
    state = cast(OustState, ENGINE.replay(variant, moves).state)
    assert state.is_over and state.end_reason in ("capture", "blocked")
    if state.end_reason == "capture":
        (winner,) = state.winners()
        assert state.stones(winner) and not state.stones(3 - winner)
        assert state.scores() == ((1, 0) if winner == 1 else (0, 1))
    else:
        assert state.winners() == () and state.scores() == (0, 0)


def test_random_side_7_games_end_within_a_few_hundred_plies() -> None:
    variant = OustVariant()
    games = [random_game(variant, random.Random(seed)) for seed in range(20)]
    for moves in games:
        assert ENGINE.replay(variant, moves).state.is_over
    # The shortest game is 3 plies (1. g7 2. h7 3. f7); 2,000 seeded games run 3..180.
    assert min(map(len, games)) >= 3 and max(map(len, games)) < 400


def test_random_game_asks_choose_for_every_placement_of_a_turn() -> None:
    asked: list[list[Move]] = []

    def last_option(state: GameState[Move], options: list[Move]) -> Move:
        asked.append(options)
        return options[-1]

    variant = OustVariant(side=5)
    moves = random_game(variant, random.Random(0), last_option)
    assert moves[1] == SWAP  # the last option at ply 2 is swap
    placements = sum(len(move) for move in moves if isinstance(move, tuple))
    assert len(asked) == placements + moves.count(SWAP) + moves.count(PASS)
    outcome = ENGINE.replay(variant, moves)
    assert outcome.illegal is None and outcome.state.is_over


# ---------------------------------------------------------------------------------------------
# The fast replay agrees with check and play, ply for ply, on damaged records


@st.composite
def damaged_records(draw: st.DrawFn) -> tuple[OustVariant, list[Move], list[int] | None]:
    side = draw(SIDES)
    variant, moves = game(side, draw(SEEDS), draw(st.booleans()))
    cells = list(hex_board(side).cells)
    some_cell = st.one_of(st.sampled_from(cells), st.sampled_from([cell_code("z99"), -32]))
    specials: list[Move] = [PASS, SWAP, RESIGN]
    any_turn = st.one_of(
        st.sampled_from(specials),
        st.lists(some_cell, min_size=1, max_size=3).map(tuple),
    )
    moves = list(moves)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(moves)))
        kind = draw(st.sampled_from(["replace", "drop", "insert", "extend", "cut", "tail"]))
        if kind == "replace" and at < len(moves):
            moves[at] = draw(any_turn)
        elif kind == "drop" and at < len(moves):
            del moves[at]
        elif kind == "insert":
            moves.insert(at, draw(any_turn))
        elif kind in ("extend", "cut") and at < len(moves) and isinstance(moves[at], tuple):
            turn = cast(tuple[int, ...], moves[at])
            moves[at] = (*turn, draw(some_cell)) if kind == "extend" else turn[:-1] or turn
        elif kind == "tail":
            moves.extend(random_game(variant, random.Random(at))[:3])
    seats: list[int] | None = None
    claim_seats, misclaim = draw(st.booleans()), draw(st.booleans())
    if claim_seats:
        seats = [1 + k % 2 for k in range(len(moves))]
        if seats and misclaim:
            wrong = draw(st.integers(0, len(seats) - 1))
            seats[wrong] = draw(st.sampled_from([0, 3 - seats[wrong]]))
    return variant, moves, seats


# Drawing a record plays a random game, so generation is slow by hypothesis's standards.
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_records())
def test_replay_agrees_with_check_and_play_ply_for_ply(
    record: tuple[OustVariant, list[Move], list[int] | None],
) -> None:
    variant, moves, seats = record
    state = OustState(variant)
    plies, illegal = len(moves), None
    for index, move in enumerate(moves):
        claimed = seats[index] if seats else 0
        illegal = state.check(move, claimed or None)
        if illegal is not None:
            plies = index
            break
        state.play(move)
    outcome = ENGINE.replay(variant, moves, seats)
    assert (outcome.plies, outcome.illegal) == (plies, illegal)
    assert outcome.state.digest() == state.digest()
    # The fast loop itself, not only its fallback, stops exactly at the first illegal ply.
    stop = plies + 1 if illegal is not None and illegal.code != "NOT_YOUR_TURN" else plies
    assert _accepted_prefix(variant, moves, min(stop, len(moves)))[0] == plies


def state_picture(state: GameState[Move]) -> tuple[object, ...]:
    """What an Oust state shows: digest, legal moves, the turn, and every stone's group."""
    assert isinstance(state, OustState)
    stones = [code for seat in (1, 2) for code in state.stones(seat)]
    groups = {code: state.group_of(code) for code in stones}
    return state.digest(), state.legal_moves(), state.ply, state.must_pass, groups


def refused_after_a_capture(turn: tuple[int, ...]) -> list[Move]:
    """Turns that play ``turn``'s first, capturing placement and are then refused."""
    off_board = cell_code("z99")
    first = turn[:1]
    refused: list[Move] = [(*first, first[0]), (*first, off_board), (*turn, turn[0])]
    if len(turn) > 1:
        refused.append(first)  # a placement is left after the capture: MUST_PLACE_AGAIN
    return refused


def test_a_turn_refused_after_a_capture_leaves_the_state_of_the_ply_before() -> None:
    captures_undone = 0
    for side, seed in itertools.product((3, 5, 7), range(12)):
        variant, moves = game(side, seed)
        for ply, move in enumerate(moves):
            if not isinstance(move, tuple):
                continue
            before = OustState(variant)
            for played in moves[:ply]:
                before.play(played)
            if not before.board.neighbour_mask[move[0]] & before._stones[before.to_move]:
                continue  # the first placement does not capture
            after = before.copy()
            after.play(move)
            for turn in refused_after_a_capture(move):
                outcome = ENGINE.replay(variant, [*moves[:ply], turn])
                assert outcome.illegal is not None and outcome.plies == ply
                assert state_picture(outcome.state) == state_picture(before)
                outcome.state.play(move)  # the game goes on from it as from the ply before
                assert state_picture(outcome.state) == state_picture(after)
                captures_undone += 1
    assert captures_undone > 100


# ---------------------------------------------------------------------------------------------
# Conformance: listed turns, check and the placement-level API agree


def reachable_states(side: int, seed: int) -> Iterator[OustState]:
    """Every state a random game passes through, turn starts and mid-turn states alike."""
    variant, moves = game(side, seed)
    state = OustState(variant)
    yield state.copy()
    for move in moves:
        if isinstance(move, str):
            state.play(move)
        else:
            for code in move:
                state.place(code)
                yield state.copy()


MANY_TURNS = 400


def by_placements(state: OustState, move: Move) -> bool:
    """Whether ``move`` is a legal (rest of a) turn, asked placement by placement."""
    if isinstance(move, str):
        return state.check(move) is None
    walker = state.copy()
    for index, code in enumerate(move):
        if walker.check_placement(code) is not None:
            return False
        going_on = walker.place(code)
        if going_on != (index < len(move) - 1):
            return False
    return True


@settings(max_examples=8, deadline=None)
@given(st.sampled_from([3, 5]), SEEDS, st.randoms(use_true_random=False))
def test_listed_turns_check_and_placements_agree(side: int, seed: int, rng: random.Random) -> None:
    cells = [*hex_board(side).cells, cell_code("z99")]
    for state in reachable_states(side, seed):
        # Capture chains multiply: a side-5 position can have millions of complete turns.
        turns = list(itertools.islice(state.legal_turns(), MANY_TURNS + 1))
        if len(turns) > MANY_TURNS:
            continue
        assert len(turns) == len(set(turns)) == state.count_turns()
        listed = set(turns)
        for move in turns:
            assert state.check(move) is None and by_placements(state, move)
        samples: list[Move] = [PASS, SWAP]
        samples += [tuple(rng.sample(cells, rng.randint(1, 3))) for _ in range(15)]
        samples += [(*move, rng.choice(cells)) for move in turns[:5] if isinstance(move, tuple)]
        for move in samples:
            legal = state.check(move) is None
            assert legal == (move in listed) == by_placements(state, move), (
                oust.format_move(move),
                state,
            )
        assert [m for m in state.legal_moves() if isinstance(m, tuple)] == [
            (code,) for code in state.legal_placements()
        ]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([3, 5, 7]), SEEDS)
def test_every_listed_move_passes_the_check_it_belongs_to(side: int, seed: int) -> None:
    for state in reachable_states(side, seed):
        for move in state.legal_moves():
            if isinstance(move, str):
                assert state.check(move) is None
                continue
            (code,) = move
            assert state.check_placement(code) is None
            quiet = not any(state.owner(c) == state.to_move for c in state.board.neighbours(code))
            if quiet:
                assert state.check(move) is None
        assert (PASS in state.legal_moves()) == state.must_pass


def test_cell_names_in_messages_are_canonical() -> None:
    assert cell_name(cell_code(" G7 ")) == "g7"


@settings(max_examples=50, deadline=None)
@given(SIDES, SEEDS, st.booleans())
def test_the_digest_is_the_documented_bytes_at_every_ply(side: int, seed: int, pie: bool) -> None:
    """digest(): b"oust:", the header, then each cell's owner in board order (one byte each)."""
    variant, moves = game(side, seed, pie)
    state = OustState(variant)
    for move in [None, *moves]:
        if move is not None:
            state.play(move)
        swap_open = variant.pie and state.ply == 1 and not state.in_turn
        resigned = state.position().resigned
        winner = (*state.winners(), 0)[0]
        header = bytes((side, swap_open, state.to_move, state.in_turn, winner, (*resigned, 0)[0]))
        cells = bytes(state.owner(code) for code in state.board.cells)
        assert state.digest() == digest_of(b"oust:" + header + cells)
