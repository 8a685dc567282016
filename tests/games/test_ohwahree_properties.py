"""Oh-Wah-Ree: properties over random games (hypothesis), for 2, 3 and 4 seats.

- stones are conserved and the origin pit is empty after every move;
- the game ends (where the mover always has a choice, or with two seats);
- replay reaches the same position as check-and-play, and agrees with it ply for ply on
  mutated records (same plies accepted, same first illegal ply, code and message);
- sowing any count matches a step-by-step reference that skips the origin on every lap;
- check accepts exactly the moves that legal_moves lists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.validator.games.ohwahree import (
    ENGINE,
    PIT_COUNT,
    RESIGN,
    Move,
    OhWahReeState,
    OhWahReeVariant,
    Sow,
    SowDirection,
    pit_owners,
    seat_pits,
)
from gamerec.validator.games.protocol import Illegal

PROPERTY = settings(deadline=None, max_examples=60)

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.sampled_from([2, 3, 4])
DEFAULT_VARIANTS = st.builds(OhWahReeVariant, PLAYERS)
VARIANTS = st.one_of(
    DEFAULT_VARIANTS,
    st.just(OhWahReeVariant(4, direction="ccw")),
    # 1..3 stones: short games, many empty pits; 12 and 13: long sowings (13 exceeds the replay's
    # sowing tables, so those plies go through the state class).
    st.builds(OhWahReeVariant, PLAYERS, st.sampled_from([1, 2, 3, 12, 13])),
)
TOKENS: st.SearchStrategy[Move] = st.one_of(
    st.builds(Sow, st.integers(-1, 14), st.sampled_from([None, "ccw", "cw"])),
    st.just(RESIGN),
)


class Mutation(NamedTuple):
    """One edit of a record: ``kind`` at ply ``at`` (modulo the length), with ``other``/``move``."""

    kind: str
    at: int
    other: int
    move: Move


MUTATIONS = st.lists(
    st.builds(
        Mutation,
        st.sampled_from(
            ["redirect", "repit", "replace", "insert", "delete", "swap", "truncate", "append"]
        ),
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        TOKENS,
    ),
    max_size=4,
)
CLAIM_KINDS = st.sampled_from(["none", "zeros", "true", "one-wrong", "random", "short"])


def step_by_step(
    variant: OhWahReeVariant, moves: Sequence[Move], claims: Sequence[int] | None = None
) -> tuple[OhWahReeState, int, Illegal | None, list[int]]:
    """The reference replay: check then play each ply. Also gives the seat to move per ply."""
    state = ENGINE.new_game(variant)
    seats_to_move: list[int] = []
    for ply, move in enumerate(moves):
        claim = claims[ply] if claims is not None and ply < len(claims) else 0
        illegal = state.check(move, claim or None)
        if illegal is not None:
            return state, ply, illegal, seats_to_move
        seats_to_move.append(state.to_move)
        state.play(move)
    return state, len(moves), None, seats_to_move


def mutate(moves: list[Move], mutations: list[Mutation]) -> list[Move]:
    moves = list(moves)
    for kind, at, other, move in mutations:
        size = max(len(moves), 1)
        near = moves[at % size] if moves else RESIGN
        if kind == "redirect" and isinstance(near, Sow):  # the same pit, another direction
            moves[at % size] = Sow(near.pit, (None, "ccw", "cw")[other % 3])
        elif kind == "repit" and isinstance(near, Sow):  # a pit nearby, the same direction
            moves[at % size] = Sow(near.pit + other % 5 - 2, near.direction)
        elif kind == "replace" and moves:
            moves[at % size] = move
        elif kind == "insert":
            moves.insert(at % (size + 1), move)
        elif kind == "delete" and moves:
            del moves[at % size]
        elif kind == "swap" and moves:
            moves[at % size], moves[other % size] = moves[other % size], moves[at % size]
        elif kind == "truncate":
            moves = moves[: at % (size + 1)]
        elif kind == "append":
            moves.append(move)
    return moves


def assert_same_outcome(
    variant: OhWahReeVariant, moves: list[Move], claims: list[int] | None
) -> None:
    outcome = ENGINE.replay(variant, moves, claims)
    state, plies, illegal, _ = step_by_step(variant, moves, claims)
    assert outcome.plies == plies
    assert outcome.illegal == illegal
    assert outcome.state.digest() == state.digest()
    assert outcome.state.position() == state.position()
    assert outcome.state.ply == state.ply
    assert outcome.state.is_over == state.is_over


# ---------------------------------------------------------------------------------------------
# Conservation, origin, the end
# ---------------------------------------------------------------------------------------------


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS)
def test_stones_are_conserved_and_the_origin_is_empty_after_every_move(
    variant: OhWahReeVariant, seed: int
) -> None:
    rng = random.Random(seed)
    state = ENGINE.new_game(variant)
    for _ in range(3000):
        if state.is_over:
            break
        move = rng.choice(state.legal_moves())
        assert isinstance(move, Sow)
        state.play(move)
        assert sum(state.pits) + sum(state.stores) == variant.total_stones
        assert state.pits[move.pit - 1] == 0


@PROPERTY
@given(
    variant=st.one_of(DEFAULT_VARIANTS, st.builds(OhWahReeVariant, PLAYERS, st.integers(1, 8))),
    seed=SEEDS,
)
def test_the_game_ends(variant: OhWahReeVariant, seed: int) -> None:
    moves = ENGINE.random_game(variant, random.Random(seed))
    state = ENGINE.new_game(variant)
    for move in moves:
        state.play(move)
    assert state.is_over
    assert state.legal_moves() == []
    illegal = state.check(RESIGN)
    assert illegal is not None
    assert illegal.code == "GAME_ALREADY_OVER"


def test_four_seats_with_fixed_ccw_can_cycle_for_ever() -> None:
    # Three lone stones, four pits apart, go round the ring: every move is forced, one seat at
    # a time is skipped, never two in a row, and after 36 plies the position is back.
    variant = OhWahReeVariant(4, direction="ccw")
    state = OhWahReeState.from_position(
        variant, [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], [18, 18, 18, 15], to_move=1
    )
    start = state.digest()
    for _ in range(36):
        assert not state.is_over
        assert len(state.legal_moves()) == 1
        state.play(state.legal_moves()[0])
    assert state.digest() == start


def test_random_game_stops_at_a_forced_cycle() -> None:
    variant = OhWahReeVariant(4, 1, "ccw")
    lengths_unfinished = []
    for seed in range(40):
        moves = ENGINE.random_game(variant, random.Random(seed))
        outcome = ENGINE.replay(variant, moves)
        assert outcome.illegal is None
        if not outcome.state.is_over:
            lengths_unfinished.append(len(moves))
    assert lengths_unfinished  # some games do cycle
    assert max(lengths_unfinished) < 10_000


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS)
def test_random_game_is_the_same_for_the_same_seed(variant: OhWahReeVariant, seed: int) -> None:
    first = ENGINE.random_game(variant, random.Random(seed))
    assert ENGINE.random_game(variant, random.Random(seed)) == first


def test_random_game_plays_what_choose_picks() -> None:
    variant = OhWahReeVariant(3)
    moves = ENGINE.random_game(variant, random.Random(1), lambda state, legal: legal[-1])
    state = ENGINE.new_game(variant)
    for move in moves:
        assert move == state.legal_moves()[-1]
        state.play(move)
    assert state.is_over


# ---------------------------------------------------------------------------------------------
# Replay agrees with check and play
# ---------------------------------------------------------------------------------------------


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS)
def test_replay_reaches_the_same_position_as_playing(variant: OhWahReeVariant, seed: int) -> None:
    moves = ENGINE.random_game(variant, random.Random(seed))
    outcome = ENGINE.replay(variant, moves)
    state, plies, illegal, _ = step_by_step(variant, moves)
    assert (outcome.plies, outcome.illegal) == (plies, illegal) == (len(moves), None)
    assert outcome.state.digest() == state.digest()
    assert outcome.state.scores() == state.scores()
    assert outcome.state.ranking() == state.ranking()


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, mutations=MUTATIONS, claim_kind=CLAIM_KINDS)
def test_replay_agrees_with_check_and_play_on_mutated_records(
    variant: OhWahReeVariant, seed: int, mutations: list[Mutation], claim_kind: str
) -> None:
    rng = random.Random(seed)
    moves = mutate(ENGINE.random_game(variant, rng), mutations)
    assert_same_outcome(variant, moves, claims_for(claim_kind, variant, moves, rng))


@PROPERTY
@given(players=st.sampled_from([2, 3, 4]), seed=SEEDS, claim_kind=CLAIM_KINDS)
def test_replay_agrees_with_check_and_play_through_resignations(
    players: int, seed: int, claim_kind: str
) -> None:
    variant = OhWahReeVariant(players)
    rng = random.Random(seed)
    state = ENGINE.new_game(variant)
    moves: list[Move] = []
    while not state.is_over:
        move = RESIGN if rng.random() < 0.03 else rng.choice(state.legal_moves())
        state.play(move)
        moves.append(move)
    moves.extend(rng.choice([RESIGN, Sow(1), Sow(7, "cw")]) for _ in range(rng.randint(0, 2)))
    assert_same_outcome(variant, moves, claims_for(claim_kind, variant, moves, rng))


EVERY_TOKEN: list[Move] = [
    *(Sow(pit, way) for pit in range(-1, PIT_COUNT + 3) for way in (None, "ccw", "cw")),
    RESIGN,
]


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS)
def test_replay_judges_every_possible_next_ply_as_check_does(
    variant: OhWahReeVariant, seed: int
) -> None:
    rng = random.Random(seed)
    moves = ENGINE.random_game(variant, rng)
    for plies in sorted(rng.sample(range(len(moves) + 1), min(3, len(moves) + 1))):
        before, _, _, seats_to_move = step_by_step(variant, moves[:plies])
        for move in EVERY_TOKEN:
            outcome = ENGINE.replay(variant, [*moves[:plies], move])
            illegal = before.check(move)
            assert outcome.illegal == illegal, move
            after = before.copy()
            if illegal is None:
                after.play(move)
            assert outcome.plies == after.ply
            assert outcome.state.digest() == after.digest()
        for claim in range(variant.players + 2):
            move = (before.legal_moves() or [RESIGN])[0]
            outcome = ENGINE.replay(variant, [*moves[:plies], move], [*seats_to_move, claim])
            assert outcome.illegal == before.check(move, claim or None)


def claims_for(
    kind: str, variant: OhWahReeVariant, moves: Sequence[Move], rng: random.Random
) -> list[int] | None:
    """Seat claims for a record: none, all unstated, right, one wrong, random or too short.

    "Right" claims are the seats to move of the reference replay, random after its first
    illegal ply.
    """
    players = variant.players
    if kind == "none":
        return None
    if kind == "random":
        return [rng.randint(0, players + 1) for _ in moves]
    if kind == "zeros":
        return [0] * len(moves)
    _, _, _, seats_to_move = step_by_step(variant, moves)
    claims = seats_to_move + [rng.randint(1, players) for _ in moves[len(seats_to_move) :]]
    if kind == "one-wrong" and claims:
        ply = rng.randrange(len(claims))
        claims[ply] = claims[ply] % players + 1
    if kind == "short":
        claims = claims[: rng.randint(0, len(claims))]
    return claims


# ---------------------------------------------------------------------------------------------
# Sowing against a step-by-step reference (rules §4.2, §4.3)
# ---------------------------------------------------------------------------------------------


def reference_move(
    pits: list[int], stores: list[int], *, players: int, seat: int, pit: int, step: int
) -> tuple[list[int], list[int]]:
    """Sow stone by stone, skipping the origin whenever it comes round; then capture."""
    pits, stores = list(pits), list(stores)
    owners = pit_owners(players)
    origin = pit - 1
    stones, pits[origin] = pits[origin], 0
    here = origin
    while stones:
        here = (here + step) % PIT_COUNT
        if here != origin:
            pits[here] += 1
            stones -= 1
    while owners[here] != seat and pits[here] in (2, 3):
        stores[seat - 1] += pits[here]
        pits[here] = 0
        here = (here - step) % PIT_COUNT
    return pits, stores


@settings(deadline=None, max_examples=300)
@given(data=st.data(), players=PLAYERS, stones=st.integers(1, 60))
def test_sowing_matches_a_step_by_step_reference(
    data: st.DataObject, players: int, stones: int
) -> None:
    variant = OhWahReeVariant(players, 5)  # 60 stones in all
    seat = data.draw(st.integers(1, players))
    pit = data.draw(st.sampled_from(seat_pits(players, seat)))
    direction: SowDirection = "ccw"
    if variant.direction_is_free:
        direction = data.draw(st.sampled_from(["ccw", "cw"]))
    pits = [0] * PIT_COUNT
    pits[pit - 1] = stones
    left = variant.total_stones - stones
    for index in data.draw(st.permutations([i for i in range(PIT_COUNT) if i != pit - 1])):
        pits[index] = data.draw(st.integers(0, min(left, 3)))
        left -= pits[index]
    stores = [0] * players
    stores[data.draw(st.integers(0, players - 1))] = left
    state = OhWahReeState.from_position(variant, pits, stores, seat)
    step = 1 if direction == "ccw" else -1
    expected = reference_move(pits, stores, players=players, seat=seat, pit=pit, step=step)
    state.play(Sow(pit, direction if variant.direction_is_free else None))
    assert (list(state.pits), list(state.stores)) == expected
    assert state.pits[pit - 1] == 0


# ---------------------------------------------------------------------------------------------
# Conformance: check accepts exactly the listed moves
# ---------------------------------------------------------------------------------------------


def canonical(variant: OhWahReeVariant, move: Sow) -> Sow:
    """The listed form of a move: ``4ccw`` is ``4`` where every move is ccw."""
    if not variant.direction_is_free and move.direction == "ccw":
        return Sow(move.pit)
    return move


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(0, 200))
def test_check_accepts_exactly_the_listed_moves(
    variant: OhWahReeVariant, seed: int, plies: int
) -> None:
    rng = random.Random(seed)
    state = ENGINE.new_game(variant)
    for _ in range(plies):
        if state.is_over:
            break
        state.play(rng.choice(state.legal_moves()))
    listed = state.legal_moves()
    assert all(state.check(move) is None for move in listed)
    assert len(set(listed)) == len(listed)
    for pit in range(-1, PIT_COUNT + 2):
        for direction in (None, "ccw", "cw"):
            move = Sow(pit, direction)
            accepted = state.check(move) is None
            assert accepted == (canonical(variant, move) in listed), move
