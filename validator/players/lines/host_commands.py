"""What a host sends an engine: its commands, written (``line()``) and read.

``gep``, ``newgame``, ``position``, ``go``, ``ping``, ``error``, ``gameover``, ``quit``;
:func:`parse_host_line` reads them. Pure text: it imports ``recorder.errors``,
``players.clocks`` and the package's ``text``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from gamerec.recorder.errors import excerpt
from gamerec.validator.players.clocks import ClockError, ClockState
from gamerec.validator.players.lines.text import (
    _NOT_IN_WORD,
    NEWGAME_REQUIRED,
    NOT_VARIANT,
    PROTOCOL_VERSION,
    ProtocolError,
    _checked_tags,
    _count,
    _require_count,
    _require_text,
    _require_word,
    _tag_count,
    _tags_of,
    _text_after,
    _Words,
)


@dataclass(frozen=True, slots=True)
class Hello:
    """``gep V``: the first line a host sends; V is the highest version the host speaks."""

    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        """Check the version."""
        _require_count(self.version, "the protocol version", least=1)

    def line(self) -> str:
        """The line (without its newline)."""
        return f"gep {self.version}"


@dataclass(frozen=True, slots=True)
class NewGame:
    """``newgame Tag=Value ...``: a new game, as GRN tags, and the engine's seat.

    Attributes:
        tags: ``Game``, ``Players``, the variant's tags, ``TimeControl`` when there is one, and
            ``Seat`` (the engine's seat, 1-based), in that order.
    """

    tags: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        """Check the tags (see :func:`_checked_tags`)."""
        names = _checked_tags(self.tags, "newgame", NEWGAME_REQUIRED)
        players = _tag_count(names["Players"], "Players", least=1)
        seat = _tag_count(names["Seat"], "Seat", least=1)
        if seat > players:
            raise ProtocolError(f"newgame: Seat={seat} is not a seat of a game of {players}")

    @classmethod
    def of(
        cls, game: str, variant: Mapping[str, str], seat: int, time_control: str = ""
    ) -> NewGame:
        """The ``newgame`` line of ``game``: ``variant`` holds its tags, ``Players`` included."""
        tags = [("Game", game)]
        tags += [("Players", variant["Players"])] if "Players" in variant else []
        tags += [(tag, value) for tag, value in variant.items() if tag != "Players"]
        tags += [("TimeControl", time_control)] if time_control else []
        return cls((*tags, ("Seat", str(seat))))

    @property
    def game(self) -> str:
        """The game's name (the ``Game`` tag)."""
        return dict(self.tags)["Game"]

    @property
    def seat(self) -> int:
        """The engine's seat."""
        return int(dict(self.tags)["Seat"])

    @property
    def players(self) -> int:
        """The number of seats."""
        return int(dict(self.tags)["Players"])

    @property
    def variant(self) -> dict[str, str]:
        """The variant's tags, ``Players`` included (everything but Game, TimeControl, Seat)."""
        return {tag: value for tag, value in self.tags if tag not in NOT_VARIANT}

    @property
    def time_control(self) -> str:
        """The ``TimeControl`` tag, or ``""``."""
        return dict(self.tags).get("TimeControl", "")

    def line(self) -> str:
        """The line (without its newline)."""
        return "newgame " + " ".join(f"{tag}={value}" for tag, value in self.tags)


@dataclass(frozen=True, slots=True)
class Position:
    """``position [MOVE ...]``: every ply so far, from the start, as GRN move tokens."""

    moves: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Every move is one word (checked in one pass: a game resends all its moves)."""
        if not all(self.moves) or _NOT_IN_WORD.search("".join(self.moves)):
            bad = next(move for move in self.moves if not move or _NOT_IN_WORD.search(move))
            _require_word(bad, "a move of position")

    def line(self) -> str:
        """The line (without its newline)."""
        return " ".join(("position", *self.moves))


@dataclass(frozen=True, slots=True)
class Go:
    """``go ...``: think and answer with a move; the clock state rides on the line."""

    clock: ClockState = field(default_factory=ClockState)

    def line(self) -> str:
        """The line (without its newline); fields at their default are left out."""
        clock = self.clock
        parts = ["go"]
        if clock.remaining_ms:
            parts += ["clock", ",".join(map(str, clock.remaining_ms))]
        for key, value in (
            ("increment", clock.increment_ms),
            ("delay", clock.delay_ms),
            ("bronstein", clock.bronstein_ms),
        ):
            if value:
                parts += [key, str(value)]
        if clock.move_limit_ms is not None:
            parts += ["movetime", str(clock.move_limit_ms)]
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping WORD``: the engine answers ``pong WORD`` once it has read every line before."""

    token: str

    def __post_init__(self) -> None:
        """The token is one word."""
        _require_word(self.token, "the ping token")

    def line(self) -> str:
        """The line (without its newline)."""
        return f"ping {self.token}"


@dataclass(frozen=True, slots=True)
class HostError:
    """``error TEXT``: the host refuses the engine's last answer, and says why."""

    text: str

    def __post_init__(self) -> None:
        """The text is one line."""
        _require_text(self.text, "an error's text")

    def line(self) -> str:
        """The line (without its newline)."""
        return f"error {self.text}"


@dataclass(frozen=True, slots=True)
class GameOver:
    """``gameover Result=... [Winner=...] Termination=...``: the game ended (GRN tags)."""

    tags: tuple[tuple[str, str], ...]

    def __post_init__(self) -> None:
        """Check the tags."""
        _checked_tags(self.tags, "gameover", ("Result", "Termination"))

    @classmethod
    def of(cls, result: str, winners: Sequence[int], termination: str) -> GameOver:
        """The line of a result (``31-24`` or ``*``), its winners and its termination."""
        tags = [("Result", result)]
        tags += [("Winner", ",".join(map(str, winners)))] if winners else []
        return cls((*tags, ("Termination", termination)))

    def line(self) -> str:
        """The line (without its newline)."""
        return "gameover " + " ".join(f"{tag}={value}" for tag, value in self.tags)


@dataclass(frozen=True, slots=True)
class Quit:
    """``quit``: the engine exits (so does the end of its input)."""

    def line(self) -> str:
        """The line (without its newline)."""
        return "quit"


HostCommand = Hello | NewGame | Position | Go | Ping | HostError | GameOver | Quit


def _hello(words: _Words) -> Hello:
    words.exactly(1, "gep VERSION")
    return Hello(_count(words.word(1), "the protocol version", least=1))


def _newgame(words: _Words) -> NewGame:
    return NewGame(_tags_of(words))


def _position(words: _Words) -> Position:
    return Position(words.words(1))


_GO_KEYS: Final = ("clock", "increment", "delay", "bronstein", "movetime")


def _go(words: _Words) -> Go:
    fields: dict[str, str] = {}
    pairs = words.words(1)
    for index in range(0, len(pairs), 2):
        key = pairs[index]
        if key not in _GO_KEYS:
            raise ProtocolError(f"go takes {', '.join(_GO_KEYS)}, not {excerpt(key)}")
        if key in fields:
            raise ProtocolError(f"go: {key} is given twice")
        if index + 1 == len(pairs):
            raise ProtocolError(f"go: {key} needs a value")
        fields[key] = pairs[index + 1]
    remaining: tuple[int, ...] = ()
    if "clock" in fields:
        remaining = tuple(_count(part, "a time of go clock") for part in fields["clock"].split(","))
    limit = fields.get("movetime")
    try:
        clock = ClockState(
            remaining_ms=remaining,
            increment_ms=_count(fields.get("increment", "0"), "go increment"),
            delay_ms=_count(fields.get("delay", "0"), "go delay"),
            bronstein_ms=_count(fields.get("bronstein", "0"), "go bronstein"),
            move_limit_ms=None if limit is None else _count(limit, "go movetime"),
        )
    except ClockError as error:
        raise ProtocolError(f"go: {error}") from None
    return Go(clock)


def _ping(words: _Words) -> Ping:
    words.exactly(1, "ping WORD")
    return Ping(words.word(1))


def _host_error(words: _Words) -> HostError:
    return HostError(_text_after(words, "error TEXT"))


def _gameover(words: _Words) -> GameOver:
    return GameOver(_tags_of(words))


def _quit(words: _Words) -> Quit:
    words.exactly(0, "quit")
    return Quit()


_HOST_KEYWORDS: Final[dict[str, Callable[[_Words], HostCommand]]] = {
    "gep": _hello,
    "newgame": _newgame,
    "position": _position,
    "go": _go,
    "ping": _ping,
    "error": _host_error,
    "gameover": _gameover,
    "quit": _quit,
}


def parse_host_line(line: str) -> HostCommand:
    """Read one line a host sent (without its newline).

    Raises:
        ProtocolError: the line is not a host command of version 1.
    """
    words = _Words(line)
    reader = _HOST_KEYWORDS.get(words.keyword)
    if reader is None:
        raise ProtocolError(f"unknown command {excerpt(words.keyword)}")
    return reader(words)
