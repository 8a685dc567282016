"""Aronda properties over random legal games (hypothesis), and the replay hot path.

The rule invariants of docs/rules/aronda.md §5 are written out here independently of the engine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.validator.games.aronda import (
    ALL_FIELDS,
    CAPACITY,
    EDGE,
    ENGINE,
    FIELD_COUNT,
    NEIGHBOURS,
    PASS,
    REASON_CODES,
    RESIGN,
    SECOND_PIECE_OPTIONS,
    SUPPLY_OPTIONS,
    ArondaState,
    ArondaVariant,
    Move,
    fields_in,
    format_move,
    parse_move,
    take_from_outside,
)
from gamerec.validator.games.protocol import Illegal, digest_of

VARIANTS = [ArondaVariant(s, p) for s in SUPPLY_OPTIONS for p in SECOND_PIECE_OPTIONS]
variants = st.sampled_from(VARIANTS)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
GAME_SETTINGS = settings(max_examples=40, deadline=None)
LONG_GAME_SETTINGS = settings(max_examples=8, deadline=None)


def game(variant: ArondaVariant, seed: int) -> list[Move]:
    """The seeded random game of ``variant``."""
    return ENGINE.random_game(variant, random.Random(seed))


def states_after_each_placement(variant: ArondaVariant, moves: list[Move]) -> Iterator[ArondaState]:
    """The start, then the state after every single placement and after every ply."""
    state = ArondaState(variant)
    yield state.copy()
    for move in moves:
        if len(move) == 2:
            # The position between the two pieces of a turn: the engine's own one-piece step.
            between = state.copy()
            between._place(state.to_move, move[0])
            yield between
        state.play(move)
        yield state.copy()


# -- rule invariants, written from §3 and §5 -----------------------------------------------------


def owner_of(state: ArondaState, field: int) -> int:
    """The seat owning ``field``, 0 for none."""
    return next((seat for seat in (1, 2) if state.owned(seat) >> field & 1), 0)


def fields_meeting_the_outside_condition(state: ArondaState, seat: int) -> list[int]:
    """Fields without an owner of which ``seat`` owns at least the capacity in neighbours."""
    return [
        field
        for field in range(FIELD_COUNT)
        if owner_of(state, field) == 0
        and sum(owner_of(state, n) == seat for n in NEIGHBOURS[field]) >= CAPACITY[field]
    ]


@GAME_SETTINGS
@given(variants, seeds)
def test_ownership_is_permanent(variant: ArondaVariant, seed: int) -> None:
    owners = [0] * FIELD_COUNT
    for state in states_after_each_placement(variant, game(variant, seed)):
        now = [owner_of(state, field) for field in range(FIELD_COUNT)]
        assert all(before in (0, after) for before, after in zip(owners, now, strict=True))
        owners = now


@GAME_SETTINGS
@given(variants, seeds)
def test_after_every_placement_no_unowned_field_meets_the_outside_condition(
    variant: ArondaVariant, seed: int
) -> None:
    for state in states_after_each_placement(variant, game(variant, seed)):
        for seat in (1, 2):
            assert fields_meeting_the_outside_condition(state, seat) == []


@GAME_SETTINGS
@given(variants, seeds)
def test_pieces_are_conserved_and_below_capacity_on_unowned_fields(
    variant: ArondaVariant, seed: int
) -> None:
    for state in states_after_each_placement(variant, game(variant, seed)):
        for seat in (1, 2):
            on_board = [state.pieces(seat, field) for field in range(FIELD_COUNT)]
            assert sum(on_board) + state.supply(seat) == 16
            for field, count in enumerate(on_board):
                if owner_of(state, field):
                    assert count == 0
                else:
                    assert 0 <= count <= CAPACITY[field] - 1


@GAME_SETTINGS
@given(variants, seeds)
def test_the_winner_owns_13_fields_unless_won_by_block_passes_or_rules(
    variant: ArondaVariant, seed: int
) -> None:
    state = ArondaState(variant)
    for move in game(variant, seed):
        state.play(move)
    scores = state.scores()
    assert state.is_over and state.to_move == 0 and state.winners()
    if state.ending == "thirteen-fields":
        (winner,) = state.winners()
        assert scores[winner - 1] >= 13 and scores[2 - winner] <= 12
    elif state.ending == "passes":
        assert variant.supply == "pass"
        assert state.winners() == tuple(s for s in (1, 2) if scores[s - 1] == max(scores))
    else:
        assert state.ending in ("blocked", "second-piece")
        assert max(scores) <= 12 and len(state.winners()) == 1


@GAME_SETTINGS
@given(variants, seeds)
def test_replay_of_every_prefix_gives_the_state_of_play(variant: ArondaVariant, seed: int) -> None:
    moves = game(variant, seed)
    state = ArondaState(variant)
    for ply in range(len(moves) + 1):
        outcome = ENGINE.replay(variant, moves[:ply])
        assert outcome.illegal is None and outcome.plies == ply
        replayed = outcome.state
        assert replayed.digest() == state.digest()
        assert replayed.position() == state.position()
        assert (replayed.is_over, replayed.winners(), replayed.ranking()) == (
            state.is_over,
            state.winners(),
            state.ranking(),
        )
        assert replayed.legal_moves() == state.legal_moves()
        if ply < len(moves):
            state.play(moves[ply])


def candidate_turns() -> list[Move]:
    """Every single and ordered pair of board fields, one off-board field, pass and resign."""
    singles: list[Move] = [(field,) for field in range(FIELD_COUNT + 1)]
    pairs: list[Move] = [(a, b) for a in range(FIELD_COUNT) for b in range(FIELD_COUNT)]
    return [*singles, *pairs, PASS]


CANDIDATES = candidate_turns()


@settings(max_examples=15, deadline=None)
@given(variants, seeds, st.floats(min_value=0, max_value=1))
def test_check_accepts_exactly_the_listed_turns(
    variant: ArondaVariant, seed: int, where: float
) -> None:
    moves = game(variant, seed)
    state = ENGINE.replay(variant, moves[: int(where * len(moves))]).state
    assert isinstance(state, ArondaState)
    listed = state.legal_moves()
    assert len(set(listed)) == len(listed)
    accepted = [move for move in CANDIDATES if state.check(move) is None]
    assert sorted(accepted) == sorted(listed)
    assert (state.check(RESIGN) is None) == (not state.is_over)


@LONG_GAME_SETTINGS
@given(variants, seeds)
def test_every_listed_turn_passes_check_along_a_game(variant: ArondaVariant, seed: int) -> None:
    state = ArondaState(variant)
    for move in game(variant, seed):
        legal = state.legal_moves()
        assert move in legal
        assert all(state.check(turn, state.to_move) is None for turn in legal)
        state.play(move)
    assert state.legal_moves() == []


# -- replay() agrees with check()/play() ----------------------------------------------------------


def stepwise(
    variant: ArondaVariant, moves: list[Move], seats: list[int]
) -> tuple[ArondaState, int, Illegal | None]:
    """The reference verdict: check then play each ply on a state."""
    state = ArondaState(variant)
    for ply, move in enumerate(moves):
        claim = seats[ply] if ply < len(seats) and seats[ply] else None
        illegal = state.check(move, claim)
        if illegal is not None:
            return state, ply, illegal
        state.play(move)
    return state, len(moves), None


def random_field(rng: random.Random) -> int:
    """A field code: often an edge field, sometimes one off the board."""
    if rng.random() < 0.4:
        return rng.choice(list(fields_in(EDGE)))
    return rng.randrange(FIELD_COUNT + 2)


def mutate(moves: list[Move], rng: random.Random) -> tuple[list[Move], list[int]]:
    """A move list and seat claims derived from a legal game by one random change."""
    moves = list(moves)
    seats: list[int] = []
    kind = rng.randrange(10)
    at = rng.randrange(len(moves))
    if kind == 0:
        moves[at] = (random_field(rng), random_field(rng))
    elif kind == 1:
        moves[at] = (random_field(rng),)
    elif kind == 2:
        moves[at] = PASS
    elif kind == 3:
        moves.insert(at, RESIGN)
    elif kind == 4:
        moves.append((random_field(rng), random_field(rng)))
    elif kind == 5 and at + 1 < len(moves):
        moves[at], moves[at + 1] = moves[at + 1], moves[at]
    elif kind == 6:
        del moves[at]
    elif kind == 7:
        moves[at] = moves[at][:1] if len(moves[at]) == 2 else (*moves[at], random_field(rng))
    elif kind == 8:
        moves[at] = (*moves[at], random_field(rng), random_field(rng))
    else:
        seats = [0] * len(moves)
        seats[at] = rng.choice((1, 2))
    return moves, seats


def assert_replay_agrees(variant: ArondaVariant, moves: list[Move], seats: list[int]) -> str:
    """Assert replay() matches the stepwise reference; return the reason code ("" if legal)."""
    state, plies, illegal = stepwise(variant, moves, seats)
    outcome = ENGINE.replay(variant, moves, seats)
    assert (outcome.plies, outcome.illegal) == (plies, illegal)
    assert outcome.state.digest() == state.digest()
    return "" if illegal is None else illegal.code


@settings(max_examples=80, deadline=None)
@given(variants, seeds, seeds)
def test_replay_agrees_with_check_and_play_on_mutated_move_lists(
    variant: ArondaVariant, seed: int, mutation: int
) -> None:
    moves, seats = mutate(game(variant, seed), random.Random(mutation))
    assert_replay_agrees(variant, moves, seats)


def test_replay_agreement_covers_every_reason_code() -> None:
    seen = set()
    rng = random.Random(4)
    for seed in range(150):
        variant = VARIANTS[seed % len(VARIANTS)]
        moves = game(variant, seed)
        for _ in range(4):
            seen.add(assert_replay_agrees(variant, *mutate(moves, rng)))
    assert seen - {""} == set(REASON_CODES)


# -- the state before a refused turn (the replay takes a first piece back) -----------------------


def state_slots(state: object) -> dict[str, object]:
    """Everything an ArondaState holds, as plain values."""
    return {name: getattr(state, name) for name in ArondaState.__slots__}


def refused_turns(
    variant: ArondaVariant, moves: list[Move], ply: int, rng: random.Random
) -> Iterator[Move]:
    """Turns for ply ``ply`` whose first piece is legal but which are refused after it.

    A second piece on an owned field, off the board, next to nothing of the mover, or on the
    field of a first piece that won the game; and the first piece alone where a second has a
    legal field.
    """
    move = moves[ply]
    if ply == 0 or move in (PASS, RESIGN):
        return
    first = move[0]
    yield (first,)
    for second in (FIELD_COUNT, FIELD_COUNT + 7, rng.randrange(FIELD_COUNT), first):
        yield (first, second)


def first_piece_possesses(variant: ArondaVariant, moves: list[Move], ply: int) -> bool:
    """Whether the first piece of ``moves[ply]`` fills its field."""
    state = ENGINE.replay(variant, moves[:ply]).state
    assert isinstance(state, ArondaState)
    field = moves[ply][0]
    return state.pieces(state.to_move, field) + 1 == CAPACITY[field]


def test_a_turn_refused_after_its_first_piece_leaves_the_state_of_the_ply_before() -> None:
    rng = random.Random(12)
    kinds: set[str] = set()
    possessing = after_pass = 0
    for seed in range(60):
        variant = VARIANTS[seed % len(VARIANTS)]
        moves = game(variant, seed)
        for ply in range(len(moves)):
            before = ENGINE.replay(variant, moves[:ply]).state
            assert isinstance(before, ArondaState)
            for turn in refused_turns(variant, moves, ply, rng):
                outcome = ENGINE.replay(variant, [*moves[:ply], turn])
                if outcome.illegal is None:
                    continue
                kinds.add(outcome.illegal.code)
                possessing += first_piece_possesses(variant, moves, ply)
                after_pass += moves[ply - 1] == PASS  # the passes in a row must come back too
                assert outcome.plies == ply
                refused = outcome.state
                assert isinstance(refused, ArondaState)
                assert state_slots(refused) == state_slots(before)
                # The state is whole: the game goes on from it as from the ply before.
                refused.play(moves[ply])
                after = ENGINE.replay(variant, moves[: ply + 1]).state
                assert state_slots(refused) == state_slots(after)
    assert {"WRONG_PLACEMENT_COUNT", "FIELD_OWNED", "NO_SUCH_FIELD", "NOT_CONNECTED"} <= kinds
    assert possessing > 100 and after_pass > 5


def test_a_second_piece_after_the_winning_first_leaves_the_state_before_the_turn() -> None:
    won = 0
    for seed in range(200):
        variant = VARIANTS[seed % len(VARIANTS)]
        moves = game(variant, seed)
        last = moves[-1]
        end = ENGINE.replay(variant, moves).state
        assert isinstance(end, ArondaState)
        if end.ending != "thirteen-fields" or len(last) != 1:
            continue
        won += 1
        outcome = ENGINE.replay(variant, [*moves[:-1], (last[0], last[0])])
        assert outcome.illegal is not None
        assert outcome.illegal.code == "WRONG_PLACEMENT_COUNT"
        refused, before = outcome.state, ENGINE.replay(variant, moves[:-1]).state
        assert isinstance(refused, ArondaState)
        assert isinstance(before, ArondaState)
        assert state_slots(refused) == state_slots(before)
    assert won > 5


# -- the cascade (§5 step 2) ----------------------------------------------------------------------


def closure_reference(owned: int, unowned: int) -> set[int]:
    """§5 step 2 as a set fixpoint: add qualifying fields until nothing changes."""
    mine = set(fields_in(owned))
    free = set(fields_in(unowned))
    taken: set[int] = set()
    while True:
        new = {
            field
            for field in free - taken
            if len((mine | taken) & set(NEIGHBOURS[field])) >= CAPACITY[field]
        }
        if not new:
            return taken
        taken |= new


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=ALL_FIELDS),
    st.integers(min_value=0, max_value=ALL_FIELDS),
    st.permutations(range(FIELD_COUNT)),
    st.permutations(range(FIELD_COUNT)),
)
def test_the_cascade_does_not_depend_on_the_examination_order(
    owned: int, other: int, order: list[int], another_order: list[int]
) -> None:
    unowned = ALL_FIELDS & ~owned & ~other
    expected = closure_reference(owned, unowned)
    assert set(fields_in(take_from_outside(owned, unowned, order))) == expected
    assert take_from_outside(owned, unowned, another_order) == take_from_outside(owned, unowned)


@settings(max_examples=20, deadline=None)
@given(variants, seeds, st.randoms(use_true_random=False))
def test_cascades_of_real_games_resolve_alike_in_shuffled_orders(
    variant: ArondaVariant, seed: int, shuffler: random.Random
) -> None:
    state = ArondaState(variant)
    for move in game(variant, seed):
        running = state.copy()
        for field in move:
            if field < 0 or running.is_over:
                break
            seat = running.to_move
            before = running.owned(seat)
            unowned = ALL_FIELDS & ~(before | running.owned(3 - seat)) & ~(1 << field)
            running._place(seat, field)
            inside = bool(running.owned(seat) >> field & 1)
            grown = before | (1 << field) if inside else before
            order = list(range(FIELD_COUNT))
            shuffler.shuffle(order)
            outside = take_from_outside(grown, unowned, order) if inside else 0
            assert running.owned(seat) == grown | outside
        state.play(move)


# -- random games and notation --------------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(variants, seeds)
def test_random_games_are_complete_legal_and_seeded(variant: ArondaVariant, seed: int) -> None:
    moves = game(variant, seed)
    assert game(variant, seed) == moves
    assert RESIGN not in moves
    outcome = ENGINE.replay(variant, moves)
    assert outcome.illegal is None and outcome.state.is_over


def test_choose_picks_each_turn_of_a_random_game() -> None:
    seen: list[list[Move]] = []

    def first_listed(state: object, legal: list[Move]) -> Move:
        seen.append(legal)
        return legal[-1]

    moves = ENGINE.random_game(VARIANTS[0], random.Random(1), first_listed)
    assert moves == [legal[-1] for legal in seen]


@GAME_SETTINGS
@given(variants, seeds)
def test_every_turn_of_a_game_round_trips_through_its_token(
    variant: ArondaVariant, seed: int
) -> None:
    for move in game(variant, seed):
        token = format_move(move)
        assert token == token.lower().strip()
        assert parse_move(token) == move
        assert parse_move(f"  {token.upper()}\t") == move


field_tokens = st.one_of(
    st.just("c"),
    st.builds(lambda r, k: f"{r}{k}", st.sampled_from("imo"), st.integers(0, 10**6)),
)


@given(st.lists(field_tokens, min_size=1, max_size=4))
def test_any_field_token_list_round_trips(parts: list[str]) -> None:
    token = ",".join(parts)
    move = parse_move(token)
    assert len(move) == len(parts)
    assert format_move(move) == token


def digest_as_documented(state: ArondaState) -> str:
    """ArondaState.digest's bytes written the plain way, one field at a time."""
    variant = state.variant
    data = bytearray(b"aronda/1")
    data += bytes(
        (
            SUPPLY_OPTIONS.index(variant.supply),
            SECOND_PIECE_OPTIONS.index(variant.second_piece),
        )
    )
    for field in range(FIELD_COUNT):
        data += bytes((owner_of(state, field), state.pieces(1, field), state.pieces(2, field)))
    data += bytes((state.supply(1), state.supply(2), state.to_move, state.ply == 0))
    winners = sum(1 << seat for seat in state.winners())
    data += bytes((state._passes, state._must_pass, winners))
    data += bytes((state.position().resigned or (0,))[:1])
    return digest_of(bytes(data))


@GAME_SETTINGS
@given(variants, seeds)
def test_the_digest_is_the_documented_bytes_after_every_placement(
    variant: ArondaVariant, seed: int
) -> None:
    for state in states_after_each_placement(variant, game(variant, seed)):
        assert state.digest() == digest_as_documented(state)
