"""The lines of the engine protocol (docs/engine-protocol.md), read and written both ways.

Pure text: no process, no game rules. Every message is a frozen dataclass whose ``line()``
writes it (without the newline); :func:`parse_host_line` reads what a host sends an engine,
:func:`parse_engine_line` what an engine answers. Both raise :class:`ProtocolError` with a
sentence that names the problem and quotes the line (cut short) for anything that is not a
message of the protocol's version 1; a malformed ``info`` line raises :class:`InfoError`, its
subclass, because the host treats it as a warning rather than a fault.

The grammar, in short (the document is the contract):

- a line is UTF-8 text without control characters (a tab separates like a space); words are
  separated by runs of spaces and tabs; keywords are lower case; blank lines mean nothing;
- host to engine: ``gep V``, ``newgame Tag=Value ...``, ``position [MOVE ...]``,
  ``go [clock T1,T2,...] [increment MS] [delay MS] [bronstein MS] [movetime MS]``,
  ``ping WORD``, ``error TEXT``, ``gameover Tag=Value ...``, ``quit``;
- engine to host: ``id name|author|version TEXT``, ``game NAME [SEATS ...]``, ``gepok V``,
  ``ready``, ``info FIELD ...``, ``move MOVE``, ``pong WORD``, ``error TEXT``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from gamerec.recorder.errors import GamerecError, excerpt
from gamerec.validator.players.clocks import ClockError, ClockState
from gamerec.validator.players.search_info import Score, SearchInfo

#: The protocol version this module reads and writes.
PROTOCOL_VERSION: Final = 1
#: The most digits a number of the protocol may have (so that no line can ask for a huge one).
MAX_DIGITS: Final = 18

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_WORD = re.compile(r"[^ \t]+")
_NOT_IN_WORD = re.compile(r"[ \t\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SPACE = " \t"
_COUNT = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_ID_FIELDS: Final = ("name", "author", "version")
#: The GRN tags a ``newgame`` line must hold.
NEWGAME_REQUIRED: Final = ("Game", "Players", "Seat")
#: The ``newgame`` tags that are not the game's variant.
NOT_VARIANT: Final = frozenset({"Game", "Seat", "TimeControl"})


class ProtocolError(GamerecError):
    """A line that is not a message of the protocol; the message names the problem."""


class InfoError(ProtocolError):
    """An ``info`` line that does not follow the grammar of its fields."""


# -- text of one line ---------------------------------------------------------------------------


def one_line(text: str) -> str:
    """``text`` made fit for the end of a line: control characters become spaces, trimmed."""
    return _CONTROL.sub(" ", text).strip(_SPACE)


def _require_text(text: str, what: str) -> None:
    """A free text field must be non-empty, on one line, without space at its ends."""
    if not text or _CONTROL.search(text) or text != text.strip(_SPACE):
        raise ProtocolError(f"{what} must be non-empty text on one line, not {excerpt(text)}")


def _require_word(word: str, what: str) -> None:
    """A word has no space, tab or control character and is not empty."""
    if not word or _CONTROL.search(word) or any(space in word for space in _SPACE):
        raise ProtocolError(f"{what} must be one word, not {excerpt(word)}")


def _require_count(value: int, what: str, least: int = 0) -> None:
    if not least <= value < 10**MAX_DIGITS:
        raise ProtocolError(f"{what} must be a whole number from {least}, not {value}")


# -- host to engine ----------------------------------------------------------------------------


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


# -- engine to host ----------------------------------------------------------------------------


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


# -- reading -----------------------------------------------------------------------------------


class _Words:
    """The words of one line, with the rest of the line after any of them.

    The words are kept as strings, each distinct word once (a ``position`` line of a million
    plies repeats a few hundred tokens), and a word's place in the line is looked up only for
    :meth:`rest`, so a line costs a few bytes a word rather than a match object each.
    """

    def __init__(self, line: str) -> None:
        found = _CONTROL.search(line)
        if found:
            raise ProtocolError(
                f"a line holds the control character U+{ord(found.group()):04X} at column "
                f"{found.start() + 1}: {excerpt(line)}"
            )
        self.line = line
        seen: dict[str, str] = {}
        self.parts = [seen.setdefault(word, word) for word in _words_of(line)]
        if not self.parts:
            raise ProtocolError("an empty line is no message")
        self.keyword = self.parts[0]

    def __len__(self) -> int:
        return len(self.parts)

    def word(self, index: int) -> str:
        return self.parts[index]

    def words(self, start: int) -> tuple[str, ...]:
        return tuple(self.parts[start:])

    def rest(self, index: int) -> str:
        """The line from word ``index`` to its end, or ``""``."""
        if index >= len(self.parts):
            return ""
        for count, match in enumerate(_WORD.finditer(self.line)):
            if count == index:
                return self.line[match.start() :].rstrip(_SPACE)
        raise AssertionError("a word counted but not found")  # pragma: no cover

    def exactly(self, count: int, form: str) -> None:
        """The line has ``count`` words after the keyword, as ``form`` shows."""
        if len(self.parts) != count + 1:
            raise ProtocolError(f"write {form}, not {excerpt(self.line)}")


def _words_of(line: str) -> Iterator[str]:
    """The words of a line, one at a time (separated by runs of spaces and tabs)."""
    for part in line.replace("\t", " ").split(" ") if len(line) < 4096 else _pieces(line):
        if part:
            yield part


def _pieces(line: str) -> Iterator[str]:
    """The words of a long line one at a time, without a list of them all at once."""
    return (match.group() for match in _WORD.finditer(line))


def _count(word: str, what: str, least: int = 0) -> int:
    if not _COUNT.fullmatch(word) or int(word) < least:
        floor = f" of at least {least}" if least else ""
        raise ProtocolError(f"{what} must be a whole number{floor}, not {excerpt(word)}")
    return int(word)


def _tag_count(value: str, tag: str, least: int) -> int:
    return _count(value, f"the tag {tag}", least)


def _checked_tags(
    tags: Sequence[tuple[str, str]], keyword: str, required: Sequence[str]
) -> dict[str, str]:
    """The tags as a mapping, each name a GRN tag name, each value one word, none twice."""
    names: dict[str, str] = {}
    for name, value in tags:
        if not _TAG_NAME.fullmatch(name):
            raise ProtocolError(f"{keyword}: {excerpt(name)} is not a tag name")
        _require_word(value, f"{keyword}: the value of {name}")
        if "=" in value:
            raise ProtocolError(f"{keyword}: the value of {name} holds '=': {excerpt(value)}")
        if name in names:
            raise ProtocolError(f"{keyword}: the tag {name} is given twice")
        names[name] = value
    missing = [name for name in required if name not in names]
    if missing:
        raise ProtocolError(f"{keyword} needs the tag(s) {', '.join(missing)}")
    return names


def _tags_of(words: _Words) -> tuple[tuple[str, str], ...]:
    tags = []
    for word in words.words(1):
        name, equals, value = word.partition("=")
        if not equals:
            raise ProtocolError(f"{words.keyword}: write Tag=Value, not {excerpt(word)}")
        tags.append((name, value))
    return tuple(tags)


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


def _text_after(words: _Words, form: str) -> str:
    text = words.rest(1)
    if not text:
        raise ProtocolError(f"write {form}, not {excerpt(words.line)}")
    return text


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


def is_blank(line: str) -> bool:
    """Whether a line is empty or only spaces and tabs (it means nothing; readers skip it)."""
    return not line.strip(_SPACE)
