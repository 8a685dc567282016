"""A tournament's field and schedule: who plays whom, in which seats, in which round.

:class:`Entrant`, :class:`ScheduledGame`, :func:`schedule` (round robin or gauntlet, every
rotation of every table) and :class:`TournamentError`. It imports ``recorder.errors``,
``validator.games`` and ``validator.generation``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.errors import GamerecError
from gamerec.validator.games import engine
from gamerec.validator.generation import variant_options

#: The event of a tournament's records when none is given.
DEFAULT_EVENT: Final = "gamerec tournament"
#: The record's ``Client`` tag.
CLIENT: Final = "gamerec tournament"


class TournamentError(GamerecError):
    """The tournament cannot be run as asked (a field too small, a file of another event)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """An engine of the field.

    Attributes:
        name: its name in the records and the table.
        command: its command line (split by ``shlex``, run without a shell).
    """

    name: str
    command: str


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game of the schedule.

    Attributes:
        number: its number in the tournament (1-based).
        round: its round (1-based).
        in_round: its number in the round (1-based).
        seats: the entrants' names, in seat order.
        encounter: the number of its encounter (1-based; its rotations share the opening).
    """

    number: int
    round: int
    in_round: int
    seats: tuple[str, ...]
    encounter: int

    @property
    def round_tag(self) -> str:
        """The record's ``Round`` tag: ``<round>.<game of the round>``."""
        return f"{self.round}.{self.in_round}"


def schedule(
    names: Sequence[str], seats: int, rounds: int, *, gauntlet: bool = False
) -> list[ScheduledGame]:
    """Every game of the tournament, in order (see the module docstring).

    Raises:
        TournamentError: fewer entrants than seats, a name twice, or fewer than one round.
    """
    if len(set(names)) != len(names):
        raise TournamentError("every engine needs a name of its own")
    if len(names) < seats:
        raise TournamentError(
            f"the game has {seats} seats and only {len(names)} engines were given"
        )
    if rounds < 1:
        raise TournamentError("a tournament has at least one round")
    tables = [
        table
        for table in itertools.combinations(range(len(names)), seats)
        if not gauntlet or table[0] == 0
    ]
    games: list[ScheduledGame] = []
    encounter = 0
    for round_number in range(1, rounds + 1):
        in_round = 0
        for table in tables:
            encounter += 1
            for turn in range(seats):
                in_round += 1
                order = table[turn:] + table[:turn]
                games.append(
                    ScheduledGame(
                        len(games) + 1,
                        round_number,
                        in_round,
                        tuple(names[index] for index in order),
                        encounter,
                    )
                )
    return games


def _seats(game: str, variant: Mapping[str, str]) -> int:
    rules = engine(game)
    return rules.new_game(rules.variant_from_tags(variant_options(rules.name, variant))).seats


def seats_of(game: str, variant: Mapping[str, str]) -> int:
    """How many seats ``game`` has under ``variant``.

    Raises:
        VariantError: an unknown game or variant.
    """
    return _seats(game, variant)
