"""Record moves to engine moves and back: the thin adapter between ``recorder`` and the engines.

A record move (protobuf) maps straight to the engine's move through the game's registry entry
(``move_of``); a move that is no plain move of the game goes through its notation.md token
(``recorder.notation``) and ``Engine.parse_move``, whose errors say what is wrong with it.
Reading a move's fields costs about a microsecond, so a reader remembers each move it has
translated, keyed by the move's serialized bytes: its action and stated seat (a record whose
moves carry annotations, such as a clock on every move, is looked up by its moves' actions
alone, read in one parse: ``recorder.main_line``).
Readers are shared by every record of the same game and variant, since the same few hundred
moves recur across a whole archive. Engine moves are immutable, so sharing them is safe.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Any, Final, NamedTuple

from gamerec.recorder.errors import EncodingError, GamerecError
from gamerec.recorder.main_line import action_of, main_line_actions, main_line_moves
from gamerec.recorder.notation import SPECIAL_ACTIONS, format_action
from gamerec.recorder.sightings import DEFAULT_NOTES, Sightings
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import MoveSyntaxError
from gamerec.validator.identity import RulesIdentity

#: A reader remembers at most this many translations (about 250 bytes each: at most 8 MB);
#: when full it forgets the older half. 2,000 random Oust games hold 16,404 distinct moves
#: of at most 16 bytes, so an archive of one game does not translate its moves again; a
#: hostile archive of unique moves (an annotation each) cannot push the memory past the bound.
MAX_REMEMBERED_MOVES: Final = 32_768
#: Moves this short are remembered at first sight: single placements and sowings, which
#: recur in every game.
MAX_REMEMBERED_KEY_BYTES: Final = 10
#: Longer moves, up to this many bytes, are remembered when seen a second time. On the
#: bench's 20,000-record mixed archive ONE's and Aronda's multi-part moves recur (1,111
#: distinct 22-byte ONE moves make 8,855 plies) while Oust's turns of two cells are half of
#: them seen once (10,859 of 21,907) and of three cells almost all (14,369 of 14,405):
#: remembering those at first sight filled the table and made memory grow with the archive
#: (1.24x from 1,000 to 20,000 records, against 1.20x at most). Longer moves and annotated
#: ones are mostly unique and never remembered.
MAX_REMEMBERED_LONG_KEY_BYTES: Final = 32
#: A reader notes the longer moves it has seen once as bits of a 128 KiB table (made at its
#: first such move; ``recorder.sightings``) and starts the table again after this many notes.
MAX_NOTED_LONG_KEYS: Final = DEFAULT_NOTES
#: When more than one move in this many of a line is not remembered (and the first of them
#: is annotated), the line is read again by its moves' actions in one parse, not move by move.
WHOLE_LINE_SHARE: Final = 4
#: Readers kept for distinct variants at most (a reader per variant seen).
MAX_READERS: Final = 256

_SERIALIZE: Final = pb.Move.SerializeToString


def main_line_keys(record: pb.GameRecord, serialized: bytes | None = None) -> list[bytes]:
    """The serialized bytes of every move of the record's main line, in order.

    The same bytes as ``move.SerializeToString()`` for each move, found in one parse of the
    record's bytes instead of one call per move (a third of the time for a 100-ply record;
    ``recorder.main_line``). ``serialized``, when at hand (the record is then not serialized
    again): a serialized GameRecord whose ``moves`` entries are the record's main line exactly
    as ``record.SerializeToString()`` writes them; the bytes the record was parsed from
    (binary), or the main line alone as the GRN reader hands it over (``Frame.decode``).
    """
    return main_line_moves(record.SerializeToString() if serialized is None else serialized)


class UnreadableMoveError(GamerecError):
    """A record move that no engine move can stand for.

    Attributes:
        code: ``EMPTY_MOVE`` (no action), ``MOVE_OF_OTHER_GAME`` (an action of another game)
            or ``MALFORMED_MOVE`` (no token can be written, or the game has no such action).
        text: the move as far as it can be written, else ``"?"``.
    """

    def __init__(self, code: str, message: str, text: str = "?") -> None:
        """Build the problem from its finding code, sentence and move text."""
        self.code = code
        self.text = text
        super().__init__(message)


class ReadMoves(NamedTuple):
    """The engine moves of a record's plies, as far as they can be read.

    Attributes:
        moves: the engine move of each ply, in order, up to the first unreadable one.
        seats: the seat each of those plies states (0 = unstated).
        problem: why ply ``len(moves) + 1`` cannot be read, or None when all could.
    """

    moves: list[Any]
    seats: list[int]
    problem: UnreadableMoveError | None


class MoveReader:
    """Turns the record moves of one rules identity into engine moves, remembering them."""

    def __init__(self, identity: RulesIdentity) -> None:
        """Prepare a reader for records judged under ``identity``."""
        self._identity = identity
        # Two dicts with the same keys, so that a whole record is looked up with map (C speed).
        self._move_by_key: dict[bytes, Any] = {}
        self._seat_by_key: dict[bytes, int] = {}
        # The long moves seen once, a bit each (see MAX_REMEMBERED_LONG_KEY_BYTES).
        self._long_sightings = Sightings(notes=MAX_NOTED_LONG_KEYS)

    def token(self, move: pb.Move) -> str:
        """The notation.md token of a record move.

        Raises:
            UnreadableMoveError: the move has no action, an action of another game, or no
                token.
        """
        action = move.WhichOneof("action")
        if action is None:
            raise UnreadableMoveError("EMPTY_MOVE", "the ply has no action (no move was recorded)")
        if action not in SPECIAL_ACTIONS and action != self._identity.action:
            raise UnreadableMoveError(
                "MOVE_OF_OTHER_GAME",
                f"the ply holds a move of kind {action!r}, which is not a move of "
                f"{self._identity.name}",
            )
        try:
            return format_action(move)
        except EncodingError as error:
            raise UnreadableMoveError("MALFORMED_MOVE", str(error)) from None

    def engine_move(self, move: pb.Move) -> Any:
        """The engine move a record move stands for.

        Raises:
            UnreadableMoveError: see :meth:`token`; also a token the game does not have
                (``pass`` in ONE), as ``MALFORMED_MOVE``.
        """
        read = self.engine_moves([move])
        if read.problem is not None:
            raise read.problem
        return read.moves[0]

    def engine_moves(self, moves: Iterable[pb.Move]) -> ReadMoves:
        """The engine move and stated seat of every record move, up to the first unreadable."""
        return self.engine_moves_of_keys(list(map(_SERIALIZE, moves)))

    def main_line(self, record: pb.GameRecord, serialized: bytes | None = None) -> ReadMoves:
        """:meth:`engine_moves` of the record's whole main line (see :func:`main_line_keys`)."""
        data = record.SerializeToString() if serialized is None else serialized
        return self.engine_moves_of_keys(main_line_moves(data), data)

    def engine_moves_of_keys(self, keys: list[bytes], serialized: bytes | None = None) -> ReadMoves:
        """:meth:`engine_moves` of moves given as their serialized bytes.

        A move carrying an annotation (a clock, a timestamp, a comment: its bytes are its
        own, so it is rarely remembered) is looked up by its seat and action alone. When more
        than one move in :data:`WHOLE_LINE_SHARE` is not remembered, the first of them is
        annotated and ``serialized`` is given (bytes of a GameRecord whose main line the keys
        are, see :func:`main_line_keys`), the whole line is read again so, in one parse
        (``recorder.main_line.main_line_actions``): a record with a clock on every move reads
        almost as fast as one without. Otherwise each move not remembered is stripped of its
        annotations on its own (``recorder.main_line.action_of``).
        """
        engine_moves = list(map(self._move_by_key.get, keys))
        # The two dicts hold the same keys, so a remembered move has its seat here too.
        seats: list[Any] = list(map(self._seat_by_key.get, keys))
        # Some moves are new (or long): translate those one by one. all() is the cheaper test
        # (a truth test per move, not an == None); a falsy engine move (ONE's resignation is
        # the empty tuple) only costs the loop, which skips what is not None.
        if not all(engine_moves):
            if (
                serialized is not None
                and engine_moves.count(None) * WHOLE_LINE_SHARE > len(keys)
                and _first_unknown_is_annotated(keys, engine_moves)
            ):
                return self._read_by_actions(keys, serialized)
            for index, engine_move in enumerate(engine_moves):
                if engine_move is not None:
                    continue
                try:
                    engine_moves[index], seats[index] = self._read(keys[index])
                except UnreadableMoveError as problem:
                    return ReadMoves(engine_moves[:index], seats[:index], problem)
        return ReadMoves(engine_moves, seats, None)

    def _read_by_actions(self, keys: list[bytes], serialized: bytes) -> ReadMoves:
        """The line read by its moves' seats and actions, its annotated moves remembered too.

        Each move is remembered by its own bytes as well, as any move is (only short ones
        recur: a glyph, a short comment; a clock makes every move's bytes its own).
        """
        read = self.engine_moves_of_keys(main_line_actions(serialized))
        remembered = self._move_by_key
        for key, engine_move, seat in zip(keys, read.moves, read.seats, strict=False):
            if len(key) <= MAX_REMEMBERED_LONG_KEY_BYTES and key not in remembered:
                self._remember(key, engine_move, seat)
        return read

    def _read(self, key: bytes) -> tuple[Any, int]:
        """A move not remembered by its bytes: by its seat and action alone, else translated.

        An annotated move is remembered by its own bytes too, as any move is (a short comment
        or a glyph recurs: ``good move``, ``!``).
        """
        action = action_of(key)
        if action == key:
            return self._translate(key)
        engine_move = self._move_by_key.get(action)
        read = (engine_move, self._seat_by_key[action]) if engine_move is not None else None
        if read is None:
            read = self._translate(action)
        self._remember(key, *read)
        return read

    def _translate(self, key: bytes) -> tuple[Any, int]:
        """Translate one move not seen before, and remember it.

        A plain move of the game maps straight from its fields (the registry's ``move_of``);
        anything else goes the token path, whose errors name what is wrong with it.
        """
        move = pb.Move.FromString(key)
        engine_move = self._identity.entry.move_of(move)
        if engine_move is None:
            engine_move = self._by_token(move)
        self._remember(key, engine_move, move.seat)
        return engine_move, move.seat

    def _remember(self, key: bytes, engine_move: Any, seat: int) -> None:
        """Remember a translation when it is worth it, within the bound."""
        if self._worth_remembering(key):
            if len(self._move_by_key) >= MAX_REMEMBERED_MOVES:
                self._forget_older_half()
            self._move_by_key[key] = engine_move
            self._seat_by_key[key] = seat

    def _worth_remembering(self, key: bytes) -> bool:
        """Whether a move just translated should be remembered: short, or long and seen before."""
        size = len(key)
        if size <= MAX_REMEMBERED_KEY_BYTES:
            return True
        if size > MAX_REMEMBERED_LONG_KEY_BYTES:
            return False
        return self._long_sightings.seen_before(key)

    def _forget_older_half(self) -> None:
        """Forget the half of the translations made first (dicts keep insertion order)."""
        older = list(islice(self._move_by_key, len(self._move_by_key) // 2))
        for key in older:
            del self._move_by_key[key], self._seat_by_key[key]

    def _by_token(self, move: pb.Move) -> Any:
        """The engine move of a record move through its token (the exact errors)."""
        text = self.token(move)
        identity = self._identity
        try:
            engine_move = identity.engine.parse_move(identity.variant, text)
        except MoveSyntaxError as error:
            raise UnreadableMoveError("MALFORMED_MOVE", str(error), text) from None
        # Engine moves are never None (None marks a move not remembered in engine_moves).
        assert engine_move is not None
        return engine_move

    def text(self, move: pb.Move) -> str:
        """The move's token, or ``"?"`` when it has none (for messages)."""
        try:
            return self.token(move)
        except UnreadableMoveError:
            return "?"


def _first_unknown_is_annotated(keys: list[bytes], engine_moves: list[Any]) -> bool:
    """Whether the first move not remembered has more bytes than its seat and action."""
    try:
        key = keys[engine_moves.index(None)]  # == None only for None: engine moves are tuples
    except ValueError:  # every move was remembered (a falsy one made all() false)
        return False
    return action_of(key) != key


_READERS: dict[tuple[str, Any], MoveReader] = {}


def reader_for(identity: RulesIdentity) -> MoveReader:
    """The shared reader of a game and variant (variants are frozen, hashable values)."""
    key = (identity.name, identity.variant)
    reader = _READERS.get(key)
    if reader is None:
        if len(_READERS) >= MAX_READERS:
            _READERS.clear()
        reader = _READERS[key] = MoveReader(identity)
    return reader
