"""Round robins: FIDE's Berger tables for two seats, schedules of tables for 3-6 seats.

**Two seats** (FIDE Handbook C.05, Annex 1, the Berger tables): ``n`` players (``n`` even;
an odd field adds a player ``n + 1`` whose opponent has the round's bye) play ``n - 1``
rounds. In round ``r`` the *anchor* is ``a = ((r - 1) * n / 2) mod (n - 1) + 1``; player
``n`` meets the anchor (the anchor has white in odd rounds, player ``n`` in even rounds), and
on board ``i + 1`` (``i = 1 .. n/2 - 1``) player ``(a - 1 + i) mod (n - 1) + 1`` has white
against player ``(a - 1 - i) mod (n - 1) + 1``. This reproduces the Handbook's tables.

**Tables of 3-6 seats**: :func:`table_round`; the seats rotate (each player takes the seat
positions in turn) and the tables are made from the meetings of the rounds before, so pairs
meet as evenly as this greedy method reaches (docs/events.md says how far).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from gamerec.validator.events.tables import Meetings, Seats, added, improve, seat


def berger_round(players: int, round_: int) -> tuple[list[tuple[int, int]], int | None]:
    """Round ``round_`` of FIDE's Berger table for ``players``: the boards and the bye.

    Boards are ``(white, black)`` pairing numbers, board 1 first; the bye is the player who
    meets the added player of an odd field (None when the field is even).

    Raises:
        ValueError: fewer than 2 players or a round outside ``1 .. rounds``.
    """
    if players < 2:
        raise ValueError("a round robin needs at least 2 players")
    n = players + players % 2
    if not 1 <= round_ <= n - 1:
        raise ValueError(f"a round robin of {players} players has rounds 1 to {n - 1}")
    anchor = ((round_ - 1) * (n // 2)) % (n - 1) + 1
    boards = [(anchor, n) if round_ % 2 else (n, anchor)]
    for i in range(1, n // 2):
        boards.append(((anchor - 1 + i) % (n - 1) + 1, (anchor - 1 - i) % (n - 1) + 1))
    if n == players:
        return boards, None
    bye = next(a if b == n else b for a, b in boards if n in (a, b))
    return [(a, b) for a, b in boards if n not in (a, b)], bye


def berger_rounds(players: int) -> int:
    """How many rounds a two-seat round robin of ``players`` has."""
    return players + players % 2 - 1


def table_rounds(players: int, seats: int) -> int:
    """The fewest rounds in which every player can meet every other at tables of ``seats``."""
    return max(1, -(-(players - 1) // (seats - 1)))


def table_round(
    numbers: Sequence[int], seats: int, meetings: Meetings, seat_counts: Seats, byes: Counter[int]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """One round of a round robin at tables of ``seats``: the tables (seat order) and the byes.

    ``numbers`` are the players in pairing-number order. When they do not fill whole tables,
    the ``len % seats`` players with the fewest byes have a bye (the highest numbers among
    equals). A player's *turn* is the seat after the ones it took so far: seat
    ``(number - 1 + games) mod seats`` (from 0). Each table starts with the first player not
    yet seated, then takes one at a time the unseated player that adds the least
    ``(meeting cost, 1 if its turn is taken at the table else 0, number order)`` (meeting
    cost as in :func:`gamerec.validator.events.tables.group`); swaps of any two players of
    two tables then lower the meeting cost as there; the seats are given by
    :func:`gamerec.validator.events.tables.seat`.
    """
    spare = len(numbers) % seats
    bye = sorted(sorted(numbers, key=lambda p: (byes[p], -p))[:spare])
    games = Counter(player for player, _ in seat_counts.elements())
    turn = {p: (p - 1 + games[p]) % seats for p in numbers}
    unseated = [p for p in numbers if p not in bye]
    tables: list[list[int]] = []
    while unseated:
        table = [unseated.pop(0)]
        while len(table) < seats:
            taken = {turn[p] for p in table}
            best = min(
                range(len(unseated)),
                key=lambda i: (added(unseated[i], table, meetings), turn[unseated[i]] in taken, i),
            )
            table.append(unseated.pop(best))
        tables.append(table)
    improve(tables, meetings)
    return [seat(table, seat_counts) for table in tables], bye
