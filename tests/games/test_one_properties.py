"""Properties of ONE over random legal games (hypothesis).

Every property runs on the boards 10,10,20,20, 10,10,20 and 6,6,12,12,24 with every player
count; hypothesis draws the Mirror and Tiebreak options, the seed, how eagerly the players
capture (so that long chains happen) and how often they resign.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.validator.games.one import (
    CODE_STRIDE,
    ENGINE,
    MIRROR_OPTIONS,
    NO_POINT,
    RESIGN,
    TIEBREAK_OPTIONS,
    Move,
    OneState,
    OneVariant,
    point_name,
)
from gamerec.validator.games.protocol import GameState, Illegal, digest_of

BOARDS = [(10, 10, 20, 20), (10, 10, 20), (6, 6, 12, 12, 24)]
TABLES = [(rings, players) for rings in BOARDS for players in range(2, 7)]
EXAMPLES = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Style:
    """How a random player picks: capture eagerness and resignation rate."""

    def __init__(self, rng: random.Random, greed: float, resign_rate: float) -> None:
        self.rng, self.greed, self.resign_rate = rng, greed, resign_rate

    def choose(self, state: GameState[Move], legal: list[Move]) -> Move:
        captures = [move for move in legal if len(move) > 1]
        if captures and self.rng.random() < self.greed:
            longest = max(map(len, captures))
            return self.rng.choice([m for m in captures if len(m) == longest])
        return self.rng.choice(legal)


styles = st.builds(
    Style,
    st.integers(0, 2**32).map(random.Random),
    st.sampled_from([0.0, 0.5, 1.0]),
    st.sampled_from([0.0, 0.0, 0.03]),
)


def rules(table: tuple[tuple[int, ...], int], data: st.DataObject) -> OneVariant:
    rings, players = table
    mirror = data.draw(st.sampled_from(MIRROR_OPTIONS), label="mirror")
    tiebreak = data.draw(st.sampled_from(TIEBREAK_OPTIONS), label="tiebreak")
    return OneVariant(players=players, rings=rings, mirror=mirror, tiebreak=tiebreak)


def play_out(variant: OneVariant, style: Style) -> tuple[list[OneState], list[Move]]:
    """A whole game played with check and play; returns the state before every ply and after
    the last one, and the plies."""
    state = ENGINE.new_game(variant)
    states, moves = [state.copy()], []
    while not state.is_over:
        legal = state.legal_moves()
        resigns = style.rng.random() < style.resign_rate
        move = RESIGN if resigns else style.choose(state, legal)
        state.play(move)
        states.append(state.copy())
        moves.append(move)
    return states, moves


def reference(
    variant: OneVariant, moves: list[Move], seats: list[int]
) -> tuple[int, Illegal | None, str]:
    """What check and play say of a move list: plies played, first verdict, final digest."""
    state = ENGINE.new_game(variant)
    for ply, (move, seat) in enumerate(zip(moves, seats, strict=True)):
        illegal = state.check(move, seat or None)
        if illegal is not None:
            return ply, illegal, state.digest()
        state.play(move)
    return len(moves), None, state.digest()


def candidates(state: OneState, rng: random.Random, count: int) -> list[Move]:
    """Moves worth asking ``check`` about: near misses, chains, off-board points, garbage."""
    board = state.board
    points = board.points
    found: list[Move] = [RESIGN]
    for _ in range(count):
        kind = rng.randrange(4)
        if kind == 0:
            found.append((rng.randrange(board.span + 3 * CODE_STRIDE),))
        elif kind == 1:
            found.append((rng.choice(points), rng.choice(points)))
        else:
            path = [rng.choice(points)]
            for _ in range(rng.randint(1, 4)):
                jumps = board.jumps[path[-1]] if path[-1] < board.span else ()
                if kind == 2 and jumps:
                    path.append(rng.choice(jumps)[1])
                else:
                    path.append(rng.randrange(board.span + CODE_STRIDE))
            found.append(tuple(path))
    return found


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{','.join(map(str, t[0]))}-P{t[1]}")
class TestRandomGames:
    @EXAMPLES
    @given(data=st.data(), style=styles)
    def test_stones_are_conserved(
        self, table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
    ) -> None:
        variant = rules(table, data)
        states, _ = play_out(variant, style)
        total = variant.players * variant.stones
        for state in states:
            on_board = sum(1 for site in state.position().sites if site.owner)
            assert on_board == state.stones_on_board
            assert on_board + sum(state.supplies) + sum(state.captured) == total

    @EXAMPLES
    @given(data=st.data(), style=styles)
    def test_legal_moves_and_check_agree(
        self, table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
    ) -> None:
        variant = rules(table, data)
        states, _ = play_out(variant, style)
        for state in states[:: max(1, len(states) // 12)] + states[-1:]:
            legal = state.legal_moves()
            assert len(set(legal)) == len(legal)
            for move in legal:
                assert state.check(move) is None, ENGINE.format_move(variant, move)
            listed = set(legal)
            for move in candidates(state, style.rng, 40):
                verdict = state.check(move)
                if move == RESIGN:
                    assert (verdict is None) == (not state.is_over)
                else:
                    assert (verdict is None) == (move in listed), ENGINE.format_move(variant, move)

    @EXAMPLES
    @given(data=st.data(), style=styles)
    def test_random_game_always_ends(
        self, table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
    ) -> None:
        variant = rules(table, data)
        moves = ENGINE.random_game(variant, style.rng, style.choose)
        # Each placement uses a stone and each capture takes at least one placed stone.
        assert len(moves) <= 2 * variant.players * variant.stones
        state = ENGINE.replay(variant, moves).state
        assert state.is_over and state.legal_moves() == []
        assert any(len(move) == 1 for move in moves)

    @EXAMPLES
    @given(data=st.data(), style=styles)
    def test_every_seat_still_playing_had_the_same_number_of_turns(
        self, table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
    ) -> None:
        variant = rules(table, data)
        states, _ = play_out(variant, style)
        turns = Counter(state.to_move for state in states[:-1])
        final = states[-1]
        playing = [seat for seat in range(1, variant.players + 1) if seat not in final.resigned]
        assert len({turns[seat] for seat in playing}) == 1
        if len(playing) > 1:
            assert final.ending  # only the end of the supplies or resignations end a game

    @EXAMPLES
    @given(data=st.data(), style=styles)
    def test_replay_of_the_move_list_gives_the_same_position(
        self, table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
    ) -> None:
        variant = rules(table, data)
        states, moves = play_out(variant, style)
        seats = [state.to_move for state in states[:-1]]
        for claimed in (None, seats):
            outcome = ENGINE.replay(variant, moves, claimed)
            assert outcome.illegal is None and outcome.plies == len(moves)
            state = cast(OneState, outcome.state)
            assert state.digest() == states[-1].digest()
            assert state.position() == states[-1].position()
            assert state.scores() == states[-1].scores()
            assert state.ranking() == states[-1].ranking()
        middle = len(moves) // 2
        assert ENGINE.replay(variant, moves[:middle]).state.digest() == states[middle].digest()

    @EXAMPLES
    @given(data=st.data(), style=styles)
    def test_replay_agrees_with_check_and_play_on_mutated_move_lists(
        self, table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
    ) -> None:
        variant = rules(table, data)
        states, moves = play_out(variant, style)
        seats = [state.to_move for state in states[:-1]]
        rng = style.rng
        for _ in range(4):
            mutated, claims = list(moves), list(seats)
            for _ in range(rng.randint(1, 3)):
                mutate(mutated, claims, states, rng)
            fast = ENGINE.replay(variant, mutated, claims)
            expected = reference(variant, mutated, claims)
            assert (fast.plies, fast.illegal, fast.state.digest()) == expected


def mutate(
    moves: list[Move], claims: list[int], states: list[OneState], rng: random.Random
) -> None:
    """Change a move list in one of the ways a faulty record might."""
    at = rng.randrange(len(moves) + 1)
    kind = rng.randrange(7)
    if kind == 0 and at < len(moves):  # a different token
        moves[at] = rng.choice(candidates(states[min(at, len(states) - 1)], rng, 3))
    elif kind == 1 and at < len(moves):  # a ply lost
        del moves[at]
        del claims[at]
    elif kind == 2 and at < len(moves):  # a ply written twice
        moves.insert(at, moves[at])
        claims.insert(at, claims[at])
    elif kind == 3 and at + 1 < len(moves):  # two plies swapped
        moves[at], moves[at + 1] = moves[at + 1], moves[at]
    elif kind == 4:  # a resignation
        moves.insert(at, RESIGN)
        claims.insert(at, 0)
    elif kind == 5 and at < len(claims):  # the wrong seat claimed
        claims[at] = rng.randint(0, 7)
    else:  # plies after the end (earlier mutations may have deleted every ply)
        moves.append(rng.choice(moves) if moves else RESIGN)
        claims.append(0)


def digest_as_documented(state: OneState) -> str:
    """OneState.digest's bytes written the plain way: each field as text, joined by ``|``."""
    variant, board = state.variant, state.board
    banned = state._banned
    fields = (
        "ONE",
        str(variant.players),
        board.text(),
        variant.mirror,
        variant.tiebreak,
        "".join(str(state._cells[p]) for p in board.points),
        ",".join(map(str, state.supplies)),
        ",".join(map(str, state.captured)),
        ",".join(map(str, state.resigned)),
        str(state.to_move),
        "1" if state._ending else "0",
        point_name(banned) if banned != NO_POINT else "-",
    )
    return digest_of("|".join(fields).encode("ascii"))


@pytest.mark.parametrize("table", TABLES, ids=lambda t: f"{','.join(map(str, t[0]))}-P{t[1]}")
@EXAMPLES
@given(data=st.data(), style=styles)
def test_the_digest_is_the_documented_text_at_every_ply(
    table: tuple[tuple[int, ...], int], data: st.DataObject, style: Style
) -> None:
    states, _ = play_out(rules(table, data), style)
    for state in states:
        assert state.digest() == digest_as_documented(state)
