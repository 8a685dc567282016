"""The Swiss for two seats: the FIDE (Dutch) system, C.04.3, as far as this module goes.

What it applies (docs/events.md, "Swiss for two seats"):

- **Absolute criteria**: C1 no two players meet twice; C2 a player has at most one
  pairing-allocated bye; C3 two players with the same absolute colour preference do not meet.
- **Order and brackets**: players by score, then pairing number; a bracket is the players
  moved down from above (first) and a scoregroup. Its first ``k`` players are S1, the others
  S2, for ``k`` from half the bracket down to 0 (most pairs first); S2 is tried in
  transposition order (lexicographic, as C.04.3 D.1 lists them) and S1[i] meets S2[i]; the
  players left over float down to the next bracket. Within a ``k``, the pairings with the
  fewest pairs of players who want the same colour come first (C12). A bracket's pairing
  is kept only when the players below can still all be paired (else the next is tried).
- **Bye**: with an odd number of players, the player the last bracket leaves over; it must
  not have had a bye (C2).
- **Colours** (C.04.3 E): both preferences granted when they differ; else the stronger
  (absolute, strong, mild) is granted (between two absolute ones, the larger colour
  difference); else the colours alternate from the latest round in which the two had
  different colours; else the higher-ranked player's preference; with no preference at all,
  the higher-ranked player has the initial colour (white) when his pairing number is odd.

Not applied (a later step): the exchanges between S1 and S2 (D.2) and the quality criteria
C5-C21 beyond the number of pairs and colour preferences (floats in consecutive rounds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, islice

#: Transpositions tried per choice of S1, beyond which the next choice is tried.
TRANSPOSITIONS = 2000
#: Choices of S1 (the first players, then exchanges) tried per bracket and number of pairs.
EXCHANGES = 200
#: Steps the completion check may take before it assumes the rest can be paired.
COMPLETION_STEPS = 20000


@dataclass(frozen=True)
class Entrant:
    """A player to pair.

    Attributes:
        number: the pairing number.
        score: the score before the round.
        opponents: the pairing numbers met.
        colours: one letter per round so far: ``w``, ``b``, or ``-`` (did not play).
        had_bye: whether the player had a pairing-allocated bye.
    """

    number: int
    score: Fraction
    opponents: frozenset[int]
    colours: str
    had_bye: bool = False


@dataclass(frozen=True)
class Preference:
    """A colour preference: ``colour`` (``w`` or ``b``), ``strength`` 3 absolute .. 1 mild."""

    colour: str
    strength: int
    difference: int


class NoPairingError(Exception):
    """No pairing meets the absolute criteria."""


@lru_cache(maxsize=4096)
def preference(colours: str) -> Preference | None:
    """A player's colour preference from the colours played (C.04.3 A.6)."""
    played = colours.replace("-", "")
    if not played:
        return None
    difference = played.count("w") - played.count("b")
    if difference < -1 or played[-2:] == "bb":
        return Preference("w", 3, difference)
    if difference > 1 or played[-2:] == "ww":
        return Preference("b", 3, difference)
    if difference:
        return Preference("w" if difference < 0 else "b", 2, difference)
    return Preference("w" if played[-1] == "b" else "b", 1, difference)


def compatible(a: Entrant, b: Entrant) -> bool:
    """C1 and C3: not met before, not the same absolute colour preference."""
    if b.number in a.opponents:
        return False
    pa, pb = preference(a.colours), preference(b.colours)
    return not (pa and pb and pa.strength == pb.strength == 3 and pa.colour == pb.colour)


def _agreeable(a: Entrant, b: Entrant) -> bool:
    pa, pb = preference(a.colours), preference(b.colours)
    return not (pa and pb and pa.colour == pb.colour)


def colours(higher: Entrant, lower: Entrant) -> tuple[int, int]:
    """``(white, black)`` for a pair, ``higher`` being the higher-ranked (module docstring)."""
    ph, pl = preference(higher.colours), preference(lower.colours)
    white_for_higher: bool
    if ph is None and pl is None:
        white_for_higher = higher.number % 2 == 1
    elif ph is None or pl is None:
        white_for_higher = (ph.colour == "w") if ph else (pl is not None and pl.colour == "b")
    elif ph.colour != pl.colour:
        white_for_higher = ph.colour == "w"
    elif ph.strength != pl.strength or (
        ph.strength == 3 and abs(ph.difference) != abs(pl.difference)
    ):
        stronger_is_higher = (ph.strength, abs(ph.difference)) > (pl.strength, abs(pl.difference))
        white_for_higher = (ph.colour == "w") == stronger_is_higher
    else:
        white_for_higher = _alternated(higher.colours, lower.colours, ph.colour)
    return (higher.number, lower.number) if white_for_higher else (lower.number, higher.number)


def _alternated(higher: str, lower: str, wanted: str) -> bool:
    """E.4: alternate from the latest round in which the two had different colours."""
    for mine, theirs in zip(reversed(higher), reversed(lower), strict=False):
        if mine in "wb" and theirs in "wb" and mine != theirs:
            return mine == "b"
    return wanted == "w"


def _s1_choices(size: int, k: int) -> Iterator[tuple[int, ...]]:
    """The positions of S1 in a bracket of ``size`` for ``k`` pairs, in the order tried.

    The first ``k``, then exchanges (D.2): fewest players exchanged first, then the smallest
    difference between the positions moved up and those moved down, then lexicographic order.
    """
    yielded = 0
    for moved in range(min(k, size - k) + 1):
        options = []
        for out in combinations(range(k), moved):
            for into in combinations(range(k, size), moved):
                kept = sorted(set(range(k)) - set(out) | set(into))
                options.append((sum(into) - sum(out), tuple(kept)))
        for _, chosen in sorted(options):
            yield chosen
            yielded += 1
            if yielded >= EXCHANGES:
                return


def _wanted(entrant: Entrant) -> str:
    found = preference(entrant.colours)
    return found.colour if found else ""


def _assignments(
    s1: Sequence[Entrant], s2: Sequence[Entrant], conflicts: int
) -> Iterator[tuple[list[Entrant], int]]:
    """S2's players for S1's in transposition order (lexicographic), with their conflicts.

    Only assignments with at most ``conflicts`` pairs of players who want the same colour.

    Every transposition that pairs two players who cannot meet is skipped, and so is every
    branch that must exceed ``conflicts`` (counted by colours wanted) or, once a branch has
    failed, after which S1 cannot be completed (a bipartite matching).
    """
    chosen: list[Entrant] = []
    used = [False] * len(s2)
    rows: list[tuple[list[bool], list[bool]] | None] = [None] * len(s1)

    def row(i: int) -> tuple[list[bool], list[bool]]:
        made = rows[i]
        if made is None:
            made = rows[i] = (
                [compatible(s1[i], b) for b in s2],
                [_agreeable(s1[i], b) for b in s2],
            )
        return made

    want1 = [_wanted(a) for a in s1]
    want2 = [_wanted(b) for b in s2]
    # S1 players from index i on wanting white and black; S2's free players by colour wanted
    tail = {c: [want1[i:].count(c) for i in range(len(s1) + 1)] for c in "wb"}
    free = {c: want2.count(c) for c in ("w", "b", "")}
    failed = [False]

    def bound(index: int) -> int:
        white = max(0, tail["w"][index] - free["b"] - free[""])
        black = max(0, tail["b"][index] - free["w"] - free[""])
        return white + black

    def extend(index: int, count: int) -> Iterator[tuple[list[Entrant], int]]:
        if index == len(s1):
            yield list(chosen), count
            return
        if count + bound(index) > conflicts:
            return
        if (index == 0 or failed[0]) and not _matchable(row, len(s1), index, used):
            failed[0] = True
            return
        fits, agree = row(index)
        found = False
        for j in range(len(s2)):
            if used[j] or not fits[j]:
                continue
            added = 0 if agree[j] else 1
            if count + added > conflicts:
                continue
            used[j] = True
            free[want2[j]] -= 1
            chosen.append(s2[j])
            for made in extend(index + 1, count + added):
                found = True
                yield made
            chosen.pop()
            free[want2[j]] += 1
            used[j] = False
        if not found:
            failed[0] = True

    return extend(0, 0)


def _matchable(
    row: Callable[[int], tuple[list[bool], list[bool]]], size: int, start: int, used: list[bool]
) -> bool:
    """Whether S1's players from ``start`` can each have a free S2 player they fit.

    Augmenting paths (Kuhn's algorithm) over the fits.
    """
    owner: dict[int, int] = {}

    def augment(s1_index: int, seen: set[int]) -> bool:
        for column, fit in enumerate(row(s1_index)[0]):
            if fit and not used[column] and column not in seen:
                seen.add(column)
                if column not in owner or augment(owner[column], seen):
                    owner[column] = s1_index
                    return True
        return False

    return all(augment(index, set()) for index in range(start, size))


def _homogeneous(
    bracket: Sequence[Entrant], k: int, conflicts: int
) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant]]]:
    """``k`` pairs of a bracket (or remainder) with exactly ``conflicts`` colour conflicts.

    Exchanges, then transpositions.
    """
    seen: set[frozenset[tuple[int, int]]] = set()
    for chosen in _s1_choices(len(bracket), k):
        s1 = [bracket[i] for i in chosen]
        s2 = [p for i, p in enumerate(bracket) if i not in chosen]
        for partners, count in islice(_assignments(s1, s2, conflicts), TRANSPOSITIONS):
            if count != conflicts:
                continue
            pairs = list(zip(s1, partners, strict=True))
            key = frozenset((min(a.number, b.number), max(a.number, b.number)) for a, b in pairs)
            if key in seen:
                continue
            seen.add(key)
            yield pairs, [p for p in s2 if all(p is not q for q in partners)]


def _options(
    moved: Sequence[Entrant], residents: Sequence[Entrant]
) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant]]]:
    """A bracket's pairings in the order tried, with the players left to float down.

    Most pairs first; then the fewest pairs of players who want the same colour (C12); then
    the most moved-down players paired (the higher-ranked first), each with a resident in
    transposition order; then the remainder's pairs (exchanges, then transpositions).
    """
    size = len(moved) + len(residents)
    for total in range(size // 2, -1, -1):
        for conflicts in range(total + 1):
            for paired in range(min(len(moved), len(residents), total), -1, -1):
                rest = total - paired
                for chosen in combinations(moved, paired):
                    unpaired = [p for p in moved if p not in chosen]
                    for partners, upper in islice(
                        _assignments(chosen, residents, conflicts), TRANSPOSITIONS
                    ):
                        remainder = [p for p in residents if all(p is not q for q in partners)]
                        if 2 * rest > len(remainder):
                            continue
                        first = list(zip(chosen, partners, strict=True))
                        for pairs, left in _homogeneous(remainder, rest, conflicts - upper):
                            yield first + pairs, sorted(unpaired + left, key=_rank)


def _rank(entrant: Entrant) -> tuple[Fraction, int]:
    return (-entrant.score, entrant.number)


def completable(players: Sequence[Entrant]) -> bool:
    """Whether ``players`` can all be paired under C1-C3 (a bounded search).

    With an odd number, one player who had no bye is left over for the bye.
    """
    steps = [0]

    def search(left: list[Entrant]) -> bool:
        if not left:
            return True
        steps[0] += 1
        if steps[0] > COMPLETION_STEPS:
            return True
        first, rest = left[0], left[1:]
        return any(
            compatible(first, other) and search(rest[:i] + rest[i + 1 :])
            for i, other in enumerate(rest)
        )

    if len(players) % 2 == 0:
        return search(list(players))
    return any(
        not bye.had_bye and search([p for p in players if p is not bye])
        for bye in reversed(players)
    )


def _any_pairing(players: Sequence[Entrant]) -> list[tuple[Entrant, Entrant]] | None:
    """Any pairing under C1 and C3: the last resort when the brackets' bounded search found none.

    The first player with the first it can meet, backtracking.
    """
    if not players:
        return []
    first, rest = players[0], list(players[1:])
    for i, other in enumerate(rest):
        if compatible(first, other):
            tail = _any_pairing(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(first, other), *tail]
    return None


Pairing = tuple[list[tuple[Entrant, Entrant]], Entrant | None]


def _pair(groups: list[list[Entrant]], carried: list[Entrant]) -> Pairing | None:
    """The brackets paired from the top; the last one leaves at most the bye over (C2)."""
    below = [p for g in groups[1:] for p in g]
    for pairs, left in _options(carried, groups[0]):
        if len(groups) == 1:
            if len(left) > 1 or (left and left[0].had_bye):
                continue
            return pairs, left[0] if left else None
        if left and not completable(left + below):
            continue
        rest = _pair(groups[1:], left)
        if rest is not None:
            return pairs + rest[0], rest[1]
    return None


def _last_resort(ranked: list[Entrant]) -> Pairing | None:
    if len(ranked) % 2 == 0:
        pairs = _any_pairing(ranked)
        return None if pairs is None else (pairs, None)
    for bye in reversed(ranked):
        if not bye.had_bye:
            pairs = _any_pairing([p for p in ranked if p is not bye])
            if pairs is not None:
                return pairs, bye
    return None


def pair_round(entrants: Sequence[Entrant]) -> tuple[list[tuple[int, int]], int | None]:
    """The boards ``(white, black)``, best-ranked first, and the bye (None when even).

    Raises:
        NoPairingError: no pairing meets C1-C3.
    """
    ranked = sorted(entrants, key=_rank)
    groups: list[list[Entrant]] = []
    for entrant in ranked:
        if groups and groups[-1][0].score == entrant.score:
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
    found = (_pair(groups, []) if groups else ([], None)) or _last_resort(ranked)
    if found is None:
        raise NoPairingError(
            "no pairing avoids a repeat, two equal absolute colour preferences and a second bye"
        )
    pairs, bye = found
    boards = [colours(*sorted(pair, key=_rank)) for pair in pairs]
    position = {p.number: i for i, p in enumerate(ranked)}
    boards.sort(key=lambda b: min(position[b[0]], position[b[1]]))
    boards.sort(key=lambda b: -max(_score(ranked, b[0]), _score(ranked, b[1])))
    return boards, None if bye is None else bye.number


def _score(ranked: Sequence[Entrant], number: int) -> Fraction:
    return next(p.score for p in ranked if p.number == number)
