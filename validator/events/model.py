"""The event as data: its settings, players, rounds, pairings, byes and results."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from gamerec.recorder.errors import GamerecError

#: The formats an event can have.
FORMATS = ("swiss", "roundrobin")
#: The tie-breaks a director can order (docs/events.md, "Tie-breaks").
TIEBREAKS = (
    "buchholz",
    "buchholz-cut1",
    "buchholz-median",
    "sonneborn-berger",
    "direct",
    "wins",
    "progressive",
)
DEFAULT_TIEBREAKS = ("buchholz-cut1", "buchholz", "sonneborn-berger", "direct", "wins")


class EventError(GamerecError):
    """A director's request that cannot be done; the message names event, round and player."""

    def __init__(self, event: str, message: str, *, round_: int | None = None) -> None:
        """Build the message ``event 'NAME'[, round R]: MESSAGE``."""
        where = f"event {event!r}" + (f", round {round_}" if round_ is not None else "")
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Settings:
    """What the director fixed when the event was made.

    Attributes:
        name: the event's name (records name it in their Event tag).
        game: the game played (any spelling the CLI accepts).
        seats: seats at a table (2 to 6).
        format: ``swiss`` or ``roundrobin``.
        rounds: the rounds planned (0: as many as the format needs).
        points: points by place, first place first (seats sharing a place share them).
        bye_points: the points of a pairing-allocated bye.
        tiebreaks: the tie-breaks in the order they apply.
        time_control: the time control, as the director writes it (informative).
    """

    name: str
    game: str
    seats: int
    format: str
    rounds: int
    points: tuple[Fraction, ...]
    bye_points: Fraction
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    time_control: str = ""


@dataclass
class Player:
    """A player of the event.

    Attributes:
        number: the pairing number (order of entry; 1 first).
        name: the name, unique in the event (records name seats by it).
        rating: a rating when known (orders nothing; shown and exported).
        joined: the first round the player can be paired in (above 1: a late entry).
        withdrawn: the last round played before withdrawing, None while playing.
    """

    number: int
    name: str
    rating: int | None = None
    joined: int = 1
    withdrawn: int | None = None

    def active_in(self, round_: int) -> bool:
        """Whether the player is paired in ``round_``."""
        return self.joined <= round_ and (self.withdrawn is None or round_ <= self.withdrawn)


@dataclass
class Result:
    """The result of one table: the place of each seat and the records it comes from.

    Attributes:
        ranks: the place of each seat (1 first; equal places share).
        key: what identifies the game (two copies of one game have the same key).
        sources: the records it was read from (``file#number``), first one first.
        adjudicated: why the result was adjudicated from the position reached (a game
            collected from a server that did not finish by its deadline); empty when the
            game ended as its rules or its referee ended it.
    """

    ranks: tuple[int, ...]
    key: str
    sources: list[str] = field(default_factory=list)
    adjudicated: str = ""


@dataclass(frozen=True)
class ServerMatch:
    """A table's match on a server (``gamerec event start``).

    Attributes:
        server: the server's ``HOST:PORT``.
        match_id: the match's id there.
        host_key: the server's host key (32 bytes, hex) that sealed the new match; the
            records collected must carry it.
        start_at: when the clocks start (RFC 3339, UTC); empty: at creation.
    """

    server: str
    match_id: str
    host_key: str
    start_at: str = ""


@dataclass
class Table:
    """One table (a board, for two seats) of a round.

    Attributes:
        number: the table's number in the round (1 first).
        seats: the player of each seat, first seat first (two seats: white, black).
        manual: whether the director changed it by hand.
        result: its result, once known.
        match: its match on a server, once the round is started there.
    """

    number: int
    seats: tuple[str, ...]
    manual: bool = False
    result: Result | None = None
    match: ServerMatch | None = None


@dataclass
class Round:
    """One round: its tables and its byes (player name: points)."""

    number: int
    tables: list[Table] = field(default_factory=list)
    byes: dict[str, Fraction] = field(default_factory=dict)
    manual_byes: set[str] = field(default_factory=set)

    def players(self) -> list[str]:
        """Every player of the round, by table then seat, byes last."""
        return [name for table in self.tables for name in table.seats] + list(self.byes)

    def missing(self) -> list[Table]:
        """The tables still without a result."""
        return [table for table in self.tables if table.result is None]


@dataclass
class Event:
    """An event: settings, players and the rounds paired so far."""

    settings: Settings
    players: list[Player] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)

    def error(self, message: str, round_: int | None = None) -> EventError:
        """An :class:`EventError` naming this event (and the round)."""
        return EventError(self.settings.name, message, round_=round_)

    def player(self, name: str, round_: int | None = None) -> Player:
        """The player called ``name`` (exactly); an error naming the event when none is."""
        for player in self.players:
            if player.name == name:
                return player
        raise self.error(f"there is no player {name!r}", round_)

    def round(self, number: int) -> Round:
        """Round ``number``; an error when it is not paired."""
        if not 1 <= number <= len(self.rounds):
            raise self.error(f"round {number} is not paired (rounds paired: {len(self.rounds)})")
        return self.rounds[number - 1]


def place_points(ranks: tuple[int, ...], points: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """The points of each seat: seats sharing a place share the points of the places they cover."""
    out = []
    for rank in ranks:
        sharing = sum(1 for other in ranks if other == rank)
        covered = points[rank - 1 : rank - 1 + sharing]
        out.append(sum(covered, Fraction(0)) / sharing)
    return tuple(out)
