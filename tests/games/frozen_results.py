"""Frozen copies of the engines' result and snapshot methods as they were before issue 39.

Issue 39 made ``scores``, ``ranking``, ``winners``, ``digest`` and ``position`` of the final
state cheaper; ``test_final_state_results`` holds every new method to the copy here over
positions of random legal play. Never edit these: they are the reference, written the plain
way, one field and one seat at a time, as the engines had them at commit 65611e2.
"""

from __future__ import annotations

from itertools import chain, compress
from typing import Any

from gamerec.validator.games import aronda, one, oust
from gamerec.validator.games.protocol import Position, Site, digest_of

# -- ONE ---------------------------------------------------------------------------------------


def one_largest_groups(self: Any) -> tuple[int, ...]:
    """``OneState._find_largest_groups``: flood-fill every group once."""
    board = self._board
    cells = self._cells.copy()
    neighbours = board.neighbours
    largest = [0] * (self.seats + 1)
    for p in compress(board.points, board.on_points(cells)):  # the stones only
        seat = cells[p]
        if seat <= 0:  # emptied: a stone of a group already counted
            continue
        cells[p] = one.EMPTY
        group, size = [p], 0
        while group:
            size += 1
            for q in neighbours[group.pop()]:
                if cells[q] == seat:
                    cells[q] = one.EMPTY
                    group.append(q)
        largest[seat] = max(largest[seat], size)
    return tuple(largest[1:])


def one_scores(self: Any) -> tuple[int, ...]:
    """``OneState.scores``: largest(s) + 2 x captured(s)."""
    return tuple(
        group + 2 * taken
        for group, taken in zip(one_largest_groups(self), self.captured, strict=True)
    )


def one_ranking(self: Any) -> tuple[int, ...]:
    """``OneState._rank_seats``."""
    scores = one_scores(self)
    largest = one_largest_groups(self)
    if self._variant.tiebreak == "largest-group":
        keys = [(score, group) for score, group in zip(scores, largest, strict=True)]
    else:
        keys = [(score, 0) for score in scores]
    playing = [s for s in range(1, self.seats + 1) if s not in self._resigned]
    ranks = [0] * (self.seats + 1)
    for s in playing:
        ranks[s] = 1 + sum(1 for t in playing if keys[t - 1] > keys[s - 1])
    for behind, s in enumerate(reversed(self._resigned)):
        ranks[s] = len(playing) + 1 + behind
    return tuple(ranks[1:])


def one_winners(self: Any) -> tuple[int, ...]:
    """``OneState.winners``."""
    if not self.is_over:
        return ()
    return tuple(seat for seat, rank in enumerate(one_ranking(self), start=1) if rank == 1)


def one_position(self: Any) -> Position:
    """``OneState.position``."""
    cells = self._cells
    return Position(
        to_move=self._to_move,
        sites=tuple(Site(one.point_name(p), cells[p]) for p in self._board.points),
        supplies=self.supplies,
        captured=self.captured,
        resigned=self.resigned,
    )


def one_digest(self: Any) -> str:
    """``OneState.digest``."""
    variant = self._variant
    cells = self._cells
    fields = (
        one.NAME,
        str(variant.players),
        self._board.text(),
        variant.mirror,
        variant.tiebreak,
        bytes(self._board.on_points(cells)).translate(one._DIGITS).decode("ascii"),
        ",".join(map(str, self.supplies)),
        ",".join(map(str, self.captured)),
        ",".join(map(str, self._resigned)),
        str(self._to_move),
        "1" if self._ending else "0",
        one.point_name(self._banned) if self._banned != one.NO_POINT else "-",
    )
    return digest_of("|".join(fields).encode("ascii"))


# -- Aronda ------------------------------------------------------------------------------------


def aronda_scores(self: Any) -> tuple[int, ...]:
    """``ArondaState.scores``."""
    return (self._owned[1].bit_count(), self._owned[2].bit_count())


def aronda_ranking(self: Any) -> tuple[int, ...]:
    """``ArondaState.ranking``."""
    if self._ending:
        return tuple(1 if seat in self._winners else 2 for seat in (1, 2))
    scores = aronda_scores(self)
    return tuple(1 + sum(other > score for other in scores) for score in scores)


def aronda_winners(self: Any) -> tuple[int, ...]:
    """``ArondaState.winners``."""
    return tuple(self._winners)


def aronda_owner_of(self: Any, code: int) -> int:
    """``ArondaState._owner_of``."""
    if self._owned[1] >> code & 1:
        return 1
    return 2 if self._owned[2] >> code & 1 else 0


def aronda_position(self: Any) -> Position:
    """``ArondaState.position``."""
    sites = tuple(
        Site(name, aronda_owner_of(self, code), (self._pieces[1][code], self._pieces[2][code]))
        for code, name in enumerate(aronda.FIELD_NAMES)
    )
    supplies = (self._supply[1], self._supply[2])
    return Position(self.to_move, sites, supplies, (), self._resigned)


def aronda_digest(self: Any) -> str:
    """``ArondaState.digest``."""
    data = bytearray(b"aronda/1")
    data += bytes(
        (
            aronda.SUPPLY_OPTIONS.index(self._variant.supply),
            aronda.SECOND_PIECE_OPTIONS.index(self._variant.second_piece),
        )
    )
    first, second = self._owned[1], self._owned[2]
    owners = [
        1 if first >> code & 1 else 2 if second >> code & 1 else 0
        for code in range(aronda.FIELD_COUNT)
    ]
    fields = zip(owners, self._pieces[1], self._pieces[2], strict=True)
    data += bytes(chain.from_iterable(fields))
    data += bytes((self._supply[1], self._supply[2], self.to_move, self._ply == 0))
    data += bytes((self._passes, self._must_pass, sum(1 << s for s in self._winners)))
    data += bytes((self._resigned[0] if self._resigned else 0,))
    return digest_of(bytes(data))


# -- Oust --------------------------------------------------------------------------------------


def oust_scores(self: Any) -> tuple[int, ...]:
    """``OustState.scores``."""
    return (int(self._winner == 1), int(self._winner == 2))


def oust_ranking(self: Any) -> tuple[int, ...]:
    """``OustState.ranking``."""
    ranks: tuple[int, ...] = {1: (1, 2), 2: (2, 1)}.get(self._winner, (1, 1))
    return ranks


def oust_winners(self: Any) -> tuple[int, ...]:
    """``OustState.winners``."""
    return (self._winner,) if self._winner else ()


def oust_position(self: Any) -> Position:
    """``OustState.position``."""
    first, second = self._stones[1], self._stones[2]
    sites = tuple(
        Site(oust.cell_name(code), 1 if first >> code & 1 else 2 if second >> code & 1 else 0)
        for code in self._board.cells
    )
    return Position(to_move=self.to_move, sites=sites, resigned=self._resigned)


def oust_digest(self: Any) -> str:
    """``OustState.digest``."""
    swap_open = self._variant.pie and self._ply == 1 and not self._turn
    header = bytes(
        (
            self._variant.side,
            swap_open,
            self.to_move,
            bool(self._turn),
            self._winner,
            self._resigned[0] if self._resigned else 0,
        )
    )
    order = self._board.order
    cells = bytearray(len(self._board.cells))
    for seat in (1, 2):
        for code in oust.cells_of(self._stones[seat]):
            cells[order[code]] = seat
    return digest_of(b"oust:" + header + cells)


# -- Oh-Wah-Ree --------------------------------------------------------------------------------


def ohwahree_scores(self: Any) -> tuple[int, ...]:
    """``OhWahReeState.scores``."""
    totals = list(self._stores)
    for stones, owner in zip(self._pits, self._owners, strict=True):
        totals[owner - 1] += stones
    return tuple(totals)


def ohwahree_ranking(self: Any) -> tuple[int, ...]:
    """``OhWahReeState.ranking``."""
    scores = ohwahree_scores(self)
    playing = [seat for seat in range(1, self.seats + 1) if seat not in self._resigned]
    ranks = [0] * self.seats
    for seat in playing:
        ranks[seat - 1] = 1 + sum(scores[other - 1] > scores[seat - 1] for other in playing)
    for place, seat in enumerate(reversed(self._resigned), len(playing) + 1):
        ranks[seat - 1] = place
    return tuple(ranks)


def ohwahree_winners(self: Any) -> tuple[int, ...]:
    """``OhWahReeState.winners``."""
    if self._to_move != 0:
        return ()
    return tuple(seat for seat, rank in enumerate(ohwahree_ranking(self), 1) if rank == 1)


def ohwahree_position(self: Any) -> Position:
    """``OhWahReeState.position``."""
    sites = tuple(
        Site(str(index + 1), owner, (stones,))
        for index, (stones, owner) in enumerate(zip(self._pits, self._owners, strict=True))
    )
    return Position(
        to_move=self._to_move,
        sites=sites,
        captured=tuple(self._stores),
        resigned=tuple(self._resigned),
    )


def ohwahree_digest(self: Any) -> str:
    """``OhWahReeState.digest``."""
    variant = self._variant
    text = ";".join(
        (
            "oh-wah-ree",
            f"{variant.players},{variant.stones_per_pit},{variant.direction}",
            ",".join(map(str, self._pits)),
            ",".join(map(str, self._stores)),
            str(self._to_move),
            str(self._skipped),
            ",".join(map(str, self._resigned)),
        )
    )
    return digest_of(text.encode("ascii"))


#: Per game name: the frozen method of each name.
FROZEN: dict[str, dict[str, Any]] = {
    "ONE": {
        "largest_groups": one_largest_groups,
        "scores": one_scores,
        "ranking": one_ranking,
        "winners": one_winners,
        "position": one_position,
        "digest": one_digest,
    },
    "Aronda": {
        "scores": aronda_scores,
        "ranking": aronda_ranking,
        "winners": aronda_winners,
        "position": aronda_position,
        "digest": aronda_digest,
    },
    "Oust": {
        "scores": oust_scores,
        "ranking": oust_ranking,
        "winners": oust_winners,
        "position": oust_position,
        "digest": oust_digest,
    },
    "Oh-Wah-Ree": {
        "scores": ohwahree_scores,
        "ranking": ohwahree_ranking,
        "winners": ohwahree_winners,
        "position": ohwahree_position,
        "digest": ohwahree_digest,
    },
}
