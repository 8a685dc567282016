"""What an engine answers a host: its messages, written (``line()``) and read.

``id``, ``game``, ``gepok``, ``ready``, ``info``, ``move``, ``pong``, ``error``;
:func:`parse_engine_line` reads them. Pure text: it imports ``recorder.errors``,
``players.search_info`` and the package's ``text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.errors import excerpt
from gamerec.validator.players.lines.text import (
    _ID_FIELDS,
    _SIGNED,
    MAX_DIGITS,
    InfoError,
    ProtocolError,
    _count,
    _require_count,
    _require_text,
    _require_word,
    _text_after,
    _Words,
)
from gamerec.validator.players.search_info import Score, SearchInfo


@dataclass(frozen=True, slots=True)
class Identity:
    """``id name|author|version TEXT``: who the engine is (handshake)."""

    key: str
    text: str

    def __post_init__(self) -> None:
        """Check the key and the text."""
        if self.key not in _ID_FIELDS:
            raise ProtocolError(f"id gives {', '.join(_ID_FIELDS)}, not {excerpt(self.key)}")
        _require_text(self.text, f"id {self.key}")

    def line(self) -> str:
        """The line (without its newline)."""
        return f"id {self.key} {self.text}"


@dataclass(frozen=True, slots=True)
class Plays:
    """``game NAME [SEATS ...]``: a game the engine plays, and with how many seats (handshake).

    Attributes:
        game: the game's name, in any spelling GRN's ``Game`` tag reads.
        seats: the seat counts it plays; empty: every count the game allows.
    """

    game: str
    seats: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        """Check the name and the counts."""
        _require_word(self.game, "a game's name")
        for count in self.seats:
            _require_count(count, "a seat count", least=1)

    def line(self) -> str:
        """The line (without its newline)."""
        return " ".join(("game", self.game, *map(str, self.seats)))


@dataclass(frozen=True, slots=True)
class HelloDone:
    """``gepok V``: the handshake is over; V is the version the engine speaks."""

    version: int

    def __post_init__(self) -> None:
        """Check the version."""
        _require_count(self.version, "the protocol version", least=1)

    def line(self) -> str:
        """The line (without its newline)."""
        return f"gepok {self.version}"


@dataclass(frozen=True, slots=True)
class Ready:
    """``ready``: the engine has set up the game of ``newgame``."""

    def line(self) -> str:
        """The line (without its newline)."""
        return "ready"


@dataclass(frozen=True, slots=True)
class Info:
    """``info FIELD ...``: facts about the search under way (see ``search_info``)."""

    info: SearchInfo

    def __post_init__(self) -> None:
        """At least one field; every value writable."""
        info = self.info
        if info.empty:
            raise InfoError("an info line gives at least one field")
        for name, value in (("depth", info.depth), ("nodes", info.nodes), ("time", info.time_ms)):
            if value is not None:
                _require_count(value, f"info {name}")
        if info.score is not None:
            score = info.score
            if score.kind != "value":
                _require_count(score.amount, f"info score {score.kind}", least=1)
            elif abs(score.amount) >= 10**MAX_DIGITS:
                raise InfoError(f"info score {score.amount} has more than {MAX_DIGITS} digits")
        for move in info.pv:
            _require_word(move, "a move of info pv")
        if info.text:
            _require_text(info.text, "info string")
        if info.text and info.pv:
            raise InfoError("an info line gives pv or string, not both: each runs to its end")

    def line(self) -> str:
        """The line (without its newline): fields in a fixed order, ``pv`` and ``string`` last."""
        info = self.info
        parts = ["info"]
        if info.depth is not None:
            parts += ["depth", str(info.depth)]
        if info.score is not None:
            parts += ["score", info.score.protocol_text()]
        if info.nodes is not None:
            parts += ["nodes", str(info.nodes)]
        if info.time_ms is not None:
            parts += ["time", str(info.time_ms)]
        if info.pv:
            parts += ["pv", *info.pv]
        if info.text:
            parts += ["string", info.text]
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class MoveAnswer:
    """``move MOVE``: the engine's move, a GRN move token of the game (docs/notation.md)."""

    token: str

    def __post_init__(self) -> None:
        """The move is one word."""
        _require_word(self.token, "the move")

    def line(self) -> str:
        """The line (without its newline)."""
        return f"move {self.token}"


@dataclass(frozen=True, slots=True)
class Pong:
    """``pong WORD``: the answer to ``ping WORD``."""

    token: str

    def __post_init__(self) -> None:
        """The token is one word."""
        _require_word(self.token, "the pong token")

    def line(self) -> str:
        """The line (without its newline)."""
        return f"pong {self.token}"


@dataclass(frozen=True, slots=True)
class EngineError:
    """``error TEXT``: the engine cannot do what it was asked, and says why."""

    text: str

    def __post_init__(self) -> None:
        """The text is one line."""
        _require_text(self.text, "an error's text")

    def line(self) -> str:
        """The line (without its newline)."""
        return f"error {self.text}"


EngineMessage = Identity | Plays | HelloDone | Ready | Info | MoveAnswer | Pong | EngineError


def _identity(words: _Words) -> Identity:
    if len(words) < 3:
        raise ProtocolError(f"write id name|author|version TEXT, not {excerpt(words.line)}")
    return Identity(words.word(1), words.rest(2))


def _plays(words: _Words) -> Plays:
    if len(words) < 2:
        raise ProtocolError(f"write game NAME [SEATS ...], not {excerpt(words.line)}")
    counts = tuple(_count(word, "a seat count", least=1) for word in words.words(2))
    return Plays(words.word(1), counts)


def _hello_done(words: _Words) -> HelloDone:
    words.exactly(1, "gepok VERSION")
    return HelloDone(_count(words.word(1), "the protocol version", least=1))


def _ready(words: _Words) -> Ready:
    words.exactly(0, "ready")
    return Ready()


def _move(words: _Words) -> MoveAnswer:
    words.exactly(1, "move MOVE (one GRN move token)")
    return MoveAnswer(words.word(1))


def _pong(words: _Words) -> Pong:
    words.exactly(1, "pong WORD")
    return Pong(words.word(1))


def _engine_error(words: _Words) -> EngineError:
    return EngineError(_text_after(words, "error TEXT"))


def _info(words: _Words) -> Info:
    try:
        return Info(_search_info(words))
    except InfoError:
        raise
    except ProtocolError as error:
        raise InfoError(str(error)) from None


_INFO_KEYS: Final = ("depth", "score", "nodes", "time", "pv", "string")


def _search_info(words: _Words) -> SearchInfo:
    counts: dict[str, int] = {}
    score: Score | None = None
    pv: tuple[str, ...] = ()
    text = ""
    given: set[str] = set()
    index = 1
    while index < len(words):
        key = words.word(index)
        if key not in _INFO_KEYS:
            raise InfoError(f"info gives {', '.join(_INFO_KEYS)}, not {excerpt(key)}")
        if key in given:
            raise InfoError(f"info: {key} is given twice")
        if index + 1 == len(words):
            raise InfoError(f"info: {key} needs a value")
        given.add(key)
        if key == "pv":
            pv, index = words.words(index + 1), len(words)
        elif key == "string":
            text, index = words.rest(index + 1), len(words)
        elif key == "score":
            score, index = _score(words, index + 1)
        else:
            counts[key], index = _count(words.word(index + 1), f"info {key}"), index + 2
    return SearchInfo(
        score=score,
        depth=counts.get("depth"),
        nodes=counts.get("nodes"),
        time_ms=counts.get("time"),
        pv=pv,
        text=text,
    )


def _score(words: _Words, index: int) -> tuple[Score, int]:
    word = words.word(index)
    if word in ("win", "loss"):
        if index + 1 == len(words):
            raise InfoError(f"info: score {word} needs a number of plies")
        plies = _count(words.word(index + 1), f"info score {word}", least=1)
        return Score("win" if word == "win" else "loss", plies), index + 2
    if not _SIGNED.fullmatch(word):
        raise InfoError(f"info score must be a whole number, win N or loss N, not {excerpt(word)}")
    return Score("value", int(word)), index + 1


_ENGINE_KEYWORDS: Final[dict[str, Callable[[_Words], EngineMessage]]] = {
    "id": _identity,
    "game": _plays,
    "gepok": _hello_done,
    "ready": _ready,
    "info": _info,
    "move": _move,
    "pong": _pong,
    "error": _engine_error,
}


def parse_engine_line(line: str) -> EngineMessage:
    """Read one line an engine sent (without its newline).

    Raises:
        InfoError: an ``info`` line whose fields do not follow the grammar.
        ProtocolError: any other line that is not an engine message of version 1.
    """
    words = _Words(line)
    reader = _ENGINE_KEYWORDS.get(words.keyword)
    if reader is None:
        raise ProtocolError(f"unknown message {excerpt(words.keyword)}")
    return reader(words)
