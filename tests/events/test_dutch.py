"""The two-seat Swiss (FIDE Dutch): the Handbook's rules on fixed cases, then properties."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.validator.events.dutch import (
    Entrant,
    NoPairingError,
    Preference,
    colours,
    compatible,
    pair_round,
    preference,
)


def _fresh(count: int) -> list[Entrant]:
    return [Entrant(n, Fraction(0), frozenset(), "") for n in range(1, count + 1)]


def test_round_one_pairs_the_top_half_with_the_bottom_half_colours_alternating() -> None:
    """C.04.3: S1 = 1..4 meets S2 = 5..8; player 1 has the initial colour, then it alternates."""
    assert pair_round(_fresh(8)) == ([(1, 5), (6, 2), (3, 7), (8, 4)], None)


def test_round_one_of_an_odd_field_gives_the_bye_to_the_last_player() -> None:
    """C.04.1: the bye goes to the lowest-ranked player (here the highest number)."""
    assert pair_round(_fresh(7)) == ([(1, 4), (5, 2), (3, 6)], 7)


def test_preferences_follow_a6() -> None:
    """Absolute (difference beyond 1, or the same colour twice), strong (1), mild (0)."""
    assert preference("") is None
    assert preference("w") == Preference("b", 2, 1)
    assert preference("wb") == Preference("w", 1, 0)
    assert preference("bw") == Preference("b", 1, 0)
    assert preference("ww") == Preference("b", 3, 2)
    assert preference("wbb") == Preference("w", 3, -1)
    assert preference("w-b") == Preference("w", 1, 0)  # a round not played does not count
    assert preference("b-b") == Preference("w", 3, -2)


def _entrant(number: int, history: str, score: str = "1") -> Entrant:
    return Entrant(number, Fraction(score), frozenset(), history)


def test_colours_follow_e1_to_e5() -> None:
    # E.1: both preferences granted
    assert colours(_entrant(1, "b"), _entrant(2, "w")) == (1, 2)
    # E.2: the stronger preference wins (absolute over strong)
    assert colours(_entrant(1, "wbw"), _entrant(2, "ww")) == (1, 2)
    # E.3 (2017: the wider colour difference between two absolute ones)
    assert colours(_entrant(1, "bwbb"), _entrant(2, "bb-b")) == (2, 1)
    # E.4: alternate from the latest round with different colours
    assert colours(_entrant(1, "bwwb"), _entrant(2, "wbwb")) == (2, 1)
    # E.5: the higher-ranked player's preference
    assert colours(_entrant(1, "w"), _entrant(2, "w")) == (2, 1)


def test_same_absolute_preferences_cannot_meet_c3() -> None:
    assert not compatible(_entrant(1, "ww"), _entrant(2, "bww"))
    assert compatible(_entrant(1, "ww"), _entrant(2, "bb"))
    assert not compatible(Entrant(1, Fraction(0), frozenset({2}), "w"), _entrant(2, "b"))


def test_s2_is_tried_in_transposition_order_d1() -> None:
    """C.04.3 D.1: S1 = 1..5 against S2 in lexicographic transpositions: 6 7 8 9 10, ...

    With 1 having met 6 and 2 having met 7, the first transposition that pairs everyone is
    7 6 8 9 10 (1-7, 2-6, 3-8, 4-9, 5-10)."""
    players = [Entrant(n, Fraction(1), frozenset(), "") for n in range(1, 11)]
    players[0] = Entrant(1, Fraction(1), frozenset({6}), "")
    players[5] = Entrant(6, Fraction(1), frozenset({1}), "")
    players[1] = Entrant(2, Fraction(1), frozenset({7}), "")
    players[6] = Entrant(7, Fraction(1), frozenset({2}), "")
    boards, bye = pair_round(players)
    assert sorted(tuple(sorted(b)) for b in boards) == [(1, 7), (2, 6), (3, 8), (4, 9), (5, 10)]
    assert bye is None


def test_a_downfloater_meets_the_next_bracket() -> None:
    """Scores 2, 1, 1, 1: the lone leader floats down and meets the first resident, 1.

    The moved-down player is paired first (S1 = the MDPs), then the remainder 3 - 4."""
    players = [
        Entrant(1, Fraction(1), frozenset(), "w"),
        Entrant(2, Fraction(2), frozenset(), "b"),
        Entrant(3, Fraction(1), frozenset(), "b"),
        Entrant(4, Fraction(1), frozenset(), "w"),
    ]
    boards, _ = pair_round(players)
    assert boards == [(2, 1), (3, 4)]


def _play(
    boards: list[tuple[int, int]],
    rng: random.Random,
    score: dict[int, Fraction],
    met: dict[int, set[int]],
    played: dict[int, str],
) -> None:
    """Give each board a random result and note who met whom with which colour."""
    for white, black in boards:
        result = rng.choice([Fraction(1), Fraction(1, 2), Fraction(0)])
        score[white] += result
        score[black] += 1 - result
        met[white].add(black)
        met[black].add(white)
        played[white] += "w"
        played[black] += "b"


def _simulate(count: int, rounds: int, seed: int) -> list[tuple[list[tuple[int, int]], int | None]]:
    """Play ``rounds`` Swiss rounds with random results; check nothing, return each round."""
    rng = random.Random(seed)
    score = {n: Fraction(0) for n in range(1, count + 1)}
    met: dict[int, set[int]] = {n: set() for n in score}
    played = {n: "" for n in score}
    byes: set[int] = set()
    made = []
    for _ in range(rounds):
        entrants = [Entrant(n, score[n], frozenset(met[n]), played[n], n in byes) for n in score]
        boards, bye = pair_round(entrants)
        made.append((boards, bye))
        _play(boards, rng, score, met, played)
        if bye is not None:
            byes.add(bye)
            score[bye] += 1
            played[bye] += "-"
    return made


@settings(max_examples=60, deadline=None)
@given(count=st.integers(4, 24), seed=st.integers(0, 10**6), data=st.data())
def test_swiss_properties(count: int, seed: int, data: st.DataObject) -> None:
    """No repeat, colours within A.6's bounds, each player paired once, byes to distinct ones."""
    rounds = data.draw(st.integers(1, min(7, count // 2)))
    colours_of: dict[int, str] = {n: "" for n in range(1, count + 1)}
    met: set[frozenset[int]] = set()
    byes: list[int] = []
    for boards, bye in _simulate(count, rounds, seed):
        seated = [p for b in boards for p in b] + ([bye] if bye else [])
        assert sorted(seated) == list(range(1, count + 1))
        for white, black in boards:
            assert frozenset((white, black)) not in met
            met.add(frozenset((white, black)))
            colours_of[white] += "w"
            colours_of[black] += "b"
        byes += [bye] if bye else []
    assert len(byes) == len(set(byes))
    for history in colours_of.values():
        assert abs(history.count("w") - history.count("b")) <= 2
        assert "www" not in history and "bbb" not in history


def _brute(entrants: list[Entrant]) -> bool:
    """Whether any pairing (and bye to a player without one) meets C1-C3."""

    def search(left: list[Entrant]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        return any(
            compatible(first, other) and search(rest[:i] + rest[i + 1 :])
            for i, other in enumerate(rest)
        )

    if len(entrants) % 2 == 0:
        return search(entrants)
    return any(not e.had_bye and search([o for o in entrants if o is not e]) for e in entrants)


@pytest.mark.parametrize("seed", range(40))
def test_a_repeat_is_refused_only_when_none_can_be_avoided(seed: int) -> None:
    """Small fields played to exhaustion: the engine pairs exactly when a pairing exists."""
    rng = random.Random(seed)
    count = rng.randint(3, 8)
    score = {n: Fraction(0) for n in range(1, count + 1)}
    met: dict[int, set[int]] = {n: set() for n in score}
    played = {n: "" for n in score}
    byes: set[int] = set()
    for _ in range(count + 1):
        entrants = [Entrant(n, score[n], frozenset(met[n]), played[n], n in byes) for n in score]
        try:
            boards, bye = pair_round(entrants)
        except NoPairingError:
            assert not _brute(entrants)
            return
        assert all(black not in met[white] for white, black in boards)
        _play(boards, rng, score, met, played)
        if bye is not None:
            assert bye not in byes
            byes.add(bye)
            played[bye] += "-"
