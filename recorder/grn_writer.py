"""GRN writing: the canonical text of records (the reader is ``gamerec.recorder.grn``).

Tags in a fixed order (``gamerec.recorder.grn_tags``), every ply numbered, the glyph right
after the token, the comment text in its own block ``{ ... }``, the commands in another
(``{[%seat 2] [%clk 0:09:58] [%ts 2026-11-29T20:15:03Z]}``), lines of at most
:data:`LINE_WIDTH` characters where the words allow it, one blank line between records.
Reading a written record gives back an equal message. Imports only the recorder's own
modules (notation, tags, values, seals, limits) and the generated messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import BinaryIO

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_seal import ply_seal_command
from gamerec.recorder.grn_tags import header_tags
from gamerec.recorder.grn_values import (
    escape_comment,
    escape_tag_value,
    format_clock,
    format_timestamp,
)
from gamerec.recorder.limits import HARDEST_VARIATION_DEPTH as MAX_VARIATION_DEPTH
from gamerec.recorder.notation import GameValue, format_action
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb

#: The widest line the writer makes where the words allow it.
LINE_WIDTH = 79

GLYPHS: dict[pb.Glyph.ValueType, str] = {
    pb.GLYPH_UNSPECIFIED: "",
    pb.GLYPH_GOOD: "!",
    pb.GLYPH_MISTAKE: "?",
    pb.GLYPH_BRILLIANT: "!!",
    pb.GLYPH_BLUNDER: "??",
    pb.GLYPH_INTERESTING: "!?",
    pb.GLYPH_DUBIOUS: "?!",
}


def format_grn(record: pb.GameRecord) -> str:
    """The canonical GRN text of one record, ending with a newline.

    Raises:
        EncodingError: the record has no GRN form (see ``gamerec.recorder.grn_tags.header_tags``
            and ``gamerec.recorder.notation.format_action``); the message names the ply.
    """
    tags = "".join(f'[{name} "{escape_tag_value(value)}"]\n' for name, value in header_tags(record))
    words = []
    if record.comment:
        words.append(_comment_block(record.comment))
    _append_line(words, record.moves, 1, record.rules.game, depth=0, seals=record.seal.plies)
    movetext = _wrap(words)
    return f"{tags}\n{movetext}\n" if movetext else tags


def write_grn(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    """Write records as GRN, one blank line between them; return how many were written."""
    count = 0
    for record in records:
        text = format_grn(record)
        stream.write((f"\n{text}" if count else text).encode("utf-8"))
        count += 1
    return count


def _comment_block(text: str) -> str:
    return "{ " + escape_comment(text) + " }"


def _command_block(move: pb.Move, sealed: spb.SealedPly | None) -> str:
    commands = []
    if move.seat:
        commands.append(f"[%seat {move.seat}]")
    if move.HasField("clock"):
        commands.append(f"[%clk {format_clock(move.clock)}]")
    if move.HasField("timestamp"):
        commands.append(f"[%ts {format_timestamp(move.timestamp)}]")
    if sealed is not None:
        commands.append(ply_seal_command(sealed))
    return "{" + " ".join(commands) + "}" if commands else ""


def _append_line(
    words: list[str],
    moves: Iterable[pb.Move],
    first_ply: int,
    game: GameValue,
    depth: int,
    *,
    seals: Sequence[spb.SealedPly] = (),
) -> None:
    if depth > MAX_VARIATION_DEPTH:
        raise EncodingError(f"variations are nested deeper than {MAX_VARIATION_DEPTH} levels")
    for ply, move in enumerate(moves, start=first_ply):
        try:
            glyph = GLYPHS.get(move.glyph)
            if glyph is None:
                raise EncodingError(f"glyph {move.glyph} is unknown to this version")
            words.append(f"{ply}. {format_action(move, game)}{glyph}")
            if move.comment:
                words.append(_comment_block(move.comment))
            commands = _command_block(move, seals[ply - 1] if ply <= len(seals) else None)
        except EncodingError as error:
            raise EncodingError(f"ply {ply}{' of a variation' if depth else ''}: {error}") from None
        if commands:
            words.append(commands)
        for variation in move.variations:
            start = len(words)
            _append_line(words, variation.moves, ply, game, depth + 1)
            if len(words) == start:
                words.append("()")
            else:
                words[start] = "(" + words[start]
                words[-1] += ")"


def _wrap(words: list[str]) -> str:
    """Join words with spaces into lines of at most LINE_WIDTH characters where possible."""
    lines: list[str] = []
    current = ""
    for word in words:
        last_line = len(current) - current.rfind("\n") - 1
        if current and last_line + 1 + len(word.split("\n", 1)[0]) > LINE_WIDTH:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return "\n".join(lines)
