"""The lines of moves a GRN record's reader builds, and the comments it collects.

A :class:`Line` is the main line or a variation being read: its plain plies kept as bytes
(``grn_plies``) and parsed into their parent in one call when it closes, a move made a message
only when something touches it. A :class:`Comment` collects its pieces and joins them once;
:func:`split_comment` cuts a comment into its text and its commands (``[%clk ...]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

from gamerec.recorder.grn_plies import entry, parse_ply_bytes
from gamerec.recorder.grn_values import unescape
from gamerec.v1 import record_pb2 as pb

_COMMAND = re.compile(r"\\.|\[%([A-Za-z]+)(?:\s+([^\]]*))?\]", re.DOTALL)
_COMMANDS = ("seat", "clk", "ts", "seal")


@lru_cache(maxsize=4096)
def split_comment(raw: str) -> tuple[tuple[str, ...], tuple[tuple[str, str, int], ...]]:
    r"""Split a raw comment into its text pieces and its commands (name, argument, offset).

    Escapes are skipped over, so ``\\[%clk ...]`` is text. Unknown commands stay text.
    """
    pieces: list[str] = []
    commands: list[tuple[str, str, int]] = []
    start = 0
    # No command can start after the last "]"; stopping there keeps a comment full of
    # unclosed "[%clk " linear (each would otherwise scan to the end in vain).
    for match in _COMMAND.finditer(raw, 0, raw.rfind("]") + 1):
        name = (match.group(1) or "").lower()
        if name not in _COMMANDS:
            continue
        argument = (match.group(2) or "").strip()
        pieces.append(raw[start : match.start()])
        commands.append((name, argument, match.start()))
        start = match.end()
    pieces.append(raw[start:])
    texts = tuple(unescape(piece.strip()) for piece in pieces if piece.strip())
    return texts, tuple(commands)


@dataclass(slots=True)
class Comment:
    """The pieces of one comment, collected as they are read and joined once at the end.

    Joining on every piece would copy the whole comment each time (time and memory growing
    with the square of the pieces).
    """

    pieces: list[str] = field(default_factory=list)
    chars: int = 0

    def add(self, pieces: Iterable[str]) -> int:
        """Add text pieces; return the characters of the comment joined by single spaces."""
        for piece in pieces:
            self.chars += len(piece) + (1 if self.pieces else 0)
            self.pieces.append(piece)
        return self.chars

    def text(self) -> str:
        """The comment."""
        return " ".join(self.pieces)


@dataclass(slots=True)
class Line:
    """A line of moves being read: the main line or a variation.

    A plain ply is kept as its serialized bytes (as its parent message holds it: field key,
    length, move); the bytes of the whole line are parsed into the parent in one call when the
    line is closed. A move that needs more than its token (a comment, a variation, a glyph
    written apart) is made a message when it is touched (:attr:`last`).

    Attributes:
        parent: the message the line's moves go into (the record, or a variation).
        key: the field key of ``moves`` in ``parent`` (``grn_plies.RECORD_MOVES``, or
            ``grn_plies.VARIATION_MOVES``).
        first_ply: the ply number of the line's first move.
        opened_at: where the variation's ``(`` is (-1: the main line).
        moves: the moves in order, as bytes (plain plies) or as messages.
    """

    parent: pb.GameRecord | pb.Variation
    key: bytes
    first_ply: int
    opened_at: int = -1
    moves: list[pb.Move | bytes] = field(default_factory=list)
    comment: Comment = field(default_factory=Comment)
    commands: frozenset[str] = frozenset()
    #: Whether any move is a message (else the line's moves are all kept bytes).
    messages: bool = False
    #: The closed line's moves, all kept bytes, joined (what was merged into the parent).
    joined: bytes = b""

    def next_ply(self) -> int:
        """The ply number of the next move of the line."""
        return self.first_ply + len(self.moves)

    @property
    def last(self) -> pb.Move | None:
        """The last move as a message (made from its bytes on first use), or None."""
        if not self.moves:
            return None
        last = self.moves[-1]
        if isinstance(last, bytes):
            last = self.moves[-1] = parse_ply_bytes(last)
            self.messages = True
        return last

    def append(self, move: pb.Move) -> None:
        """Add a move made a message."""
        self.moves.append(move)
        self.messages = True

    def close(self) -> None:
        """Finish the last move's comment and put the moves into their parent, in order."""
        self.finish_move()
        if not self.messages:  # the usual line: every move kept as bytes, parsed in one call
            if self.moves:
                self.joined = b"".join(cast(list[bytes], self.moves))
                self.parent.MergeFromString(self.joined)
            return
        run: list[bytes] = []
        into = self.parent.moves
        for move in self.moves:
            if isinstance(move, bytes):
                run.append(move)
                continue
            if run:
                self.parent.MergeFromString(b"".join(run))
                run.clear()
            into.append(move)
        if run:
            self.parent.MergeFromString(b"".join(run))

    def serialized_moves(self) -> bytes:
        """The closed line's ``moves`` entries as ``parent.SerializeToString()`` writes them.

        A kept ply is already those bytes (``grn_plies``); a move made a message is
        serialized here, after its parent holds an equal copy of it.
        """
        if not self.messages:
            return self.joined
        return b"".join(
            move if isinstance(move, bytes) else entry(self.key, move.SerializeToString())
            for move in self.moves
        )

    def finish_move(self) -> None:
        """Give the last move its comment (collected piece by piece, joined once)."""
        if self.comment.pieces:  # (an empty comment stays: it holds nothing)
            last = self.last
            if last is not None:
                last.comment = self.comment.text()
            self.comment = Comment()
