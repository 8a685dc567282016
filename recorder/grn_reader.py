"""The GRN reader of one record's text: its tags, then its move text, into a GameRecord.

``gamerec.recorder.grn`` cuts the input into records and hands each record's text to a
:class:`RecordReader` (notation.md and ``grn``'s docstring say what is read). The tags are
matched as one run and merged at once (``grn_tag_section``, its base); a run of plain plies is
split by one ``findall`` and its plies looked up as bytes (``grn_plies``); anything unusual is
read token by token, which places every error at its line and column.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Final

from gamerec.recorder.errors import (
    EXCERPT_CHARS,
    LimitExceededError,
    RecordMalformedError,
    excerpt,
)
from gamerec.recorder.grn_lexer import (
    PLAIN_PLIES,
    PLAIN_PLY,
    PLAIN_RUN,
    PLY_TOKEN,
    Places,
    token_error,
)
from gamerec.recorder.grn_lines import Comment, Line, split_comment
from gamerec.recorder.grn_plies import (
    GLYPHS_BY_TEXT,
    PLY_BYTES,
    RECORD_MOVES,
    VARIATION_MOVES,
    action_bytes,
    command_names,
    numbered,
    plain_ply_bytes,
    run_seals,
    seat_number,
    seated_run,
)
from gamerec.recorder.grn_seal import ply_seal_bytes
from gamerec.recorder.grn_tag_section import TOKENS_PER_CHECK, SectionReader, placed
from gamerec.recorder.grn_tags import read_result_claim
from gamerec.recorder.grn_timed import timed_run
from gamerec.recorder.grn_values import parse_clock, parse_timestamp
from gamerec.recorder.limits import Limits, check_lists
from gamerec.v1 import record_pb2 as pb

__all__ = ["TOKENS_PER_CHECK", "RecordReader", "main_line_places"]

_NO_COMMANDS: frozenset[str] = frozenset()
_SEAT_ONLY = frozenset({"seat"})
_WRITERS_COMMANDS = frozenset({"seat", "clk", "ts"})


def main_line_places(places: Places, wanted: set[int]) -> dict[int, tuple[int, int]]:
    """Where some main-line plies' tokens stand in a record's decoded text (``grn.ply_places``)."""
    found: dict[int, tuple[int, int]] = {}
    last = max(wanted)
    depth = ply = 0
    for token in PLY_TOKEN.finditer(places.text):
        kind = token.lastgroup
        if kind in ("end", "result", "bad"):
            break
        if kind in ("open", "close"):
            depth += 1 if kind == "open" else -1
        elif depth == 0 and kind in _MOVE_GROUPS:
            ply += 1
            if ply in wanted:
                found[ply] = places.line_column(token.start(_MOVE_GROUPS[kind]))
            if ply >= last:
                break
    return found


#: The token kinds that hold a move, and the group of the move in each.
_MOVE_GROUPS: Final = {"whole_ply": "ply_move", "move": "move_token"}


class RecordReader(SectionReader):
    """Reads one record's text: the tag section (``grn_tag_section``), then the move text."""

    def __init__(self, places: Places, limits: Limits, deadline: float | None = None) -> None:
        """Start reading the record's text ``places.text`` under ``limits``."""
        super().__init__(places, limits, deadline)
        self.moves_read = 0
        self.lines = [Line(self.record, RECORD_MOVES, 1)]
        self.pending_ply: str | None = None
        self.game_comment = Comment()
        self.ply_seals: list[bytes] = []
        #: Whether the text holds a ply's seal entry at all (a run of plies looks for them).
        self.sealed_text = "[%seal " in places.text
        #: Whether the text may end with a run of timed plies (``grn_timed``), one unsealed.
        self.timed_text = not self.sealed_text and places.text[-64:].rstrip().endswith("Z]}")

    def read(self) -> pb.GameRecord:
        """The record (see the module docstring for what is checked)."""
        token = self._read_tags()
        while True:
            kind = token.lastgroup
            if kind == "whole_ply":
                after = self._plain_plies(token)
                if after is not token:
                    token = after
                    continue
            if kind == "end":
                break
            if kind == "result":
                token = self._result(token)
                break
            if kind == "bad":
                raise token_error(self.places, token)
            if kind == "tag":
                raise self._fail(token.start(kind), "a tag must come before the move text")
            assert kind is not None
            _HANDLERS[kind](self, token)
            token = next(self.tokens)
        self._finish(token)
        if len(self.places.text) > 2 * self.limits.max_list_items:  # "a1,a1,...": 2 an item
            self._check_lists()
        return self.record

    def _check_lists(self) -> None:
        """The list-items limit, its error placed at the ply's token (a main-line ply)."""
        try:
            check_lists(self.record, self.limits, source=self.places.source)
        except LimitExceededError as error:
            ply = re.match(r"moves\[(\d+)\]", error.reason)
            found = main_line_places(self.places, {int(ply[1]) + 1}) if ply else {}
            line, column = next(iter(found.values()), (self.places.line, self.places.column))
            raise LimitExceededError(
                error.reason,
                source=error.source,
                where=f"line {line}, column {column}",
                limit=error.limit,
                value=error.value,
                maximum=error.maximum,
            ) from None

    # -- move text ----------------------------------------------------------------------------

    @property
    def _line(self) -> Line:
        return self.lines[-1]

    def _no_pending_ply(self, index: int) -> None:
        if self.pending_ply is not None:
            raise self._fail(index, f"expected a move after ply number {self.pending_ply}")

    def _plain_plies(self, token: re.Match[str]) -> re.Match[str]:
        """Read a run of the most common ply, ``12. c7 {[%seat 2]}``; return the token after it.

        Each is read as :meth:`_whole_ply` reads it, without the checks the conditions here
        make pass: no ply number pending, the number written exactly as expected, no comment
        text left for the last move, room under the plies and moves limits. The whole run is
        split into its plies by one ``findall`` (:data:`PLAIN_PLIES`), their numbers checked
        in one comparison and their moves looked up by their text (``grn_plies.plain_ply_bytes``);
        the tokens then go on after the last ply read. The run stops at the first ply it
        cannot read so (``token`` itself, when it is that ply).
        """
        line = self.lines[-1]
        if self.pending_ply is not None or line.comment.pieces:
            return token
        moves = line.moves
        room = self.limits.max_moves - self.moves_read
        if len(self.lines) == 1:
            room = min(room, self.limits.max_plies - len(moves))
        text, start = self.places.text, token.start()
        game = self.record.rules.game
        if token.group("ply_seat") is not None or self.timed_text:
            ending = self._ending_run(token, line, room)
            if ending is not None:
                return ending
        numbers, rests, stops = zip(*PLAIN_PLIES.findall(text, start), strict=True)
        found = numbers.index("")
        room = min(max(room, 0), found)
        read = numbered(numbers[:room], line.first_ply + len(moves))
        plies: Sequence[str] = rests[:read]
        seals: list[bytes] = []
        if self.sealed_text:
            plies, seals = run_seals(plies, self._unsealed(line))
            read = len(plies)
        known = PLY_BYTES.setdefault((line.key, game), {})
        try:
            kept = list(map(known.__getitem__, plies))
        except KeyError:  # a ply not read before
            kept = plain_ply_bytes(plies, known, line.key, game, self.limits.max_comment_chars)
            read = len(kept)
        if read and rests[read - 1].count("{") > rests[read - 1].count("{[%"):
            # The last ply has a comment of words: a comment after the run would add to it,
            # which the token-by-token reading does (line.comment), so the ply is left to it.
            read -= 1
            kept = kept[:read]
        if not read:
            return token
        moves += kept
        self.ply_seals += seals[:read]
        self.moves_read += read
        line.commands = command_names(rests[read - 1])
        if read < found:  # go on at the first ply not read here
            end = next(islice(PLAIN_PLY.finditer(text, start), read, None)).start()
        elif stops[found]:  # go on after the run
            end = PLAIN_RUN.match(text, start).end()  # type: ignore[union-attr] # a ply is there
        else:  # the run ends the text
            end = len(text)
        self.tokens_read += read - 1  # the first was counted as it was read
        self._tokens_from(end)
        return next(self.tokens)

    def _unsealed(self, line: Line) -> int:
        """``grn_plies.run_seals``' count: the line's plies before a run without a seal entry.

        -1 when no ply of the line may carry one: a variation, or a record without a seal.
        """
        if line is not self.lines[0] or not self.record.HasField("seal"):
            return -1
        return len(line.moves) - len(self.ply_seals)

    def _ending_run(self, token: re.Match[str], line: Line, room: int) -> re.Match[str] | None:
        """The end token, after the run of plies from ``token`` when it ends the text, else None.

        The run is of the usual plies with seats (``grn_plies.seated_run``), or of plies with a
        writer's seat, clock and time (``grn_timed.timed_run``), at most ``room`` of them.
        """
        text, start, game = self.places.text, token.start(), self.record.rules.game
        first = line.first_ply + len(line.moves)
        if token.group("ply_seat") is not None:  # the usual move text
            plies = seated_run(text[start:], first, room, line.key, game)
            commands = _SEAT_ONLY
        elif self.timed_text:  # live play's move text
            plies = timed_run(text, start, first, room, key=line.key, game=game)
            commands = _WRITERS_COMMANDS
        else:
            return None
        return None if plies is None else self._run_to_end(line, plies, commands)

    def _run_to_end(
        self, line: Line, plies: list[bytes], commands: frozenset[str]
    ) -> re.Match[str]:
        """Keep a run of plies that ends the text; return the end token after it.

        ``commands``: the commands each of the plies gives (the last one's are the line's).
        """
        line.moves += plies
        self.moves_read += len(plies)
        line.commands = commands
        self.tokens_read += len(plies) - 1  # the first was counted as it was read
        self._tokens_from(len(self.places.text))
        return next(self.tokens)

    def _whole_ply(self, token: re.Match[str]) -> None:
        """A ply number, its move, the move's glyph and its seat command, read as one."""
        self._ply_number(token.start("ply_number"), token.group("ply_number"))
        move = self._move_at(
            token.start("ply_move"), token.group("ply_move"), token.group("ply_glyph")
        )
        seat = token.group("ply_seat")
        if seat is not None:
            line = self._line
            line.commands |= _SEAT_ONLY
            try:
                move.seat = seat_number(seat)
            except RecordMalformedError as error:
                raise placed(self.places, error, token.start("ply_comment") + 1) from None

    def _ply(self, token: re.Match[str]) -> None:
        self._ply_number(token.start("ply"), token.group("ply"))

    def _ply_number(self, index: int, number: str) -> None:
        self._no_pending_ply(index)
        expected = self._line.next_ply()
        if number.lstrip("0") != str(expected):
            found = number if len(number) <= EXCERPT_CHARS else excerpt(number)
            raise self._fail(index, f"expected ply number {expected}, found {found}")
        self.pending_ply = number

    def _move(self, token: re.Match[str]) -> None:
        self._move_at(token.start("move"), token.group("move_token"), token.group("move_glyph"))

    def _move_at(self, index: int, text: str, glyph: str | None) -> pb.Move:
        """Read one move token (with the glyph written right after it) into the line."""
        try:
            action = pb.Move.FromString(action_bytes(self.record.rules.game, text))
        except RecordMalformedError as error:
            raise placed(self.places, error, index) from None
        line = self._line
        self._count_move(index, line)
        line.finish_move()
        line.append(action)
        line.commands = _NO_COMMANDS
        self.pending_ply = None
        if glyph:
            action.glyph = GLYPHS_BY_TEXT[glyph]
        return action

    def _count_move(self, index: int, line: Line) -> None:
        """Check the plies and moves limits before one more move is kept."""
        self._count_in_tree(index)
        if len(self.lines) == 1 and len(line.moves) >= self.limits.max_plies:
            plies = len(line.moves) + 1
            raise self._exceeded(index, "max_plies", "the main line has at least ", plies, "plies")

    def _count_in_tree(self, index: int) -> None:
        """Count one more move or variation against the moves limit."""
        self.moves_read += 1
        if self.moves_read > self.limits.max_moves:
            unit = "moves and variations"
            raise self._exceeded(
                index, "max_moves", "the record has at least ", self.moves_read, unit
            )

    def _glyph(self, token: re.Match[str]) -> None:
        self._set_glyph(token.start("glyph"), GLYPHS_BY_TEXT[token.group("glyph")])

    def _nag(self, token: re.Match[str]) -> None:
        index = token.start("nag") - 1
        number = int(token.group("nag"))
        if not 1 <= number <= len(GLYPHS_BY_TEXT):
            self._no_pending_ply(index)
            if self._line.last is None:
                raise self._fail(index, "a glyph must follow the move it judges")
            raise self._fail(index, f"${number} is not a glyph gamerec keeps (only $1 to $6)")
        self._set_glyph(index, pb.Glyph.ValueType(number))

    def _set_glyph(self, index: int, glyph: pb.Glyph.ValueType) -> None:
        self._no_pending_ply(index)
        move = self._line.last
        if move is None:
            raise self._fail(index, "a glyph must follow the move it judges")
        if move.glyph:
            raise self._fail(index, "this move already has a glyph; a move has one at most")
        move.glyph = glyph

    def _comment(self, token: re.Match[str]) -> None:
        index = token.start("comment")
        self._no_pending_ply(index)
        raw = token.group("comment_body")
        pieces, commands = split_comment(raw)
        line = self._line
        if line.last is None and len(self.lines) > 1:
            raise self._fail(
                index, "a comment at the start of a variation has no move to belong to"
            )
        if line.last is None:
            if commands:
                name, _, offset = commands[0]
                error = RecordMalformedError(
                    f"[%{name}] needs a move; a comment before the first move is the game's comment"
                )
                raise self._place_in_comment(index, raw, offset, error)
            self._check_comment(index, self.game_comment.add(pieces))
            return
        if pieces:
            self._check_comment(index, line.comment.add(pieces))
        for name, argument, offset in commands:
            try:
                self._apply_command(line, name, argument)
            except RecordMalformedError as error:
                raise self._place_in_comment(index, raw, offset, error) from None

    def _check_comment(self, index: int, chars: int) -> None:
        if chars > self.limits.max_comment_chars:
            raise self._exceeded(index, "max_comment_chars", "a comment of ", chars, "characters")

    def _apply_command(self, line: Line, name: str, argument: str) -> None:
        last = line.last
        assert last is not None
        if not argument:
            raise RecordMalformedError(f"[%{name}] needs a value")
        if name in line.commands:
            raise RecordMalformedError(f"this move already has a [%{name}] command")
        line.commands |= {name}
        if name == "clk":
            last.clock.CopyFrom(parse_clock(argument))
        elif name == "ts":
            last.timestamp.CopyFrom(parse_timestamp(argument))
        elif name == "seal":
            self._ply_seal(line, argument)
        else:
            last.seat = seat_number(argument)

    def _ply_seal(self, line: Line, argument: str) -> None:
        """A main-line ply's seal entry; entries must be those of plies 1, 2, ... in turn."""
        if line is not self.lines[0]:
            raise RecordMalformedError("[%seal] belongs to main-line plies, not variations")
        if not self.record.HasField("seal"):
            raise RecordMalformedError('[%seal] needs the record\'s [Seal "1"] tag')
        ply = len(line.moves)
        if ply != len(self.ply_seals) + 1:
            raise RecordMalformedError(
                f"[%seal] of ply {ply}, but ply {len(self.ply_seals) + 1} has none: every "
                "sealed ply carries its entry, from ply 1 on"
            )
        self.ply_seals.append(ply_seal_bytes(argument))

    def _place_in_comment(
        self, index: int, raw: str, offset: int, error: RecordMalformedError
    ) -> Exception:
        """An error about a command inside a comment, placed at the command."""
        return placed(self.places, error, index + 1 + offset)

    def _open(self, token: re.Match[str]) -> None:
        index = token.start("open")
        self._no_pending_ply(index)
        line = self._line
        last = line.last
        if last is None:
            raise self._fail(index, "a variation must follow the move it replaces")
        if len(self.lines) > self.limits.max_variation_depth:
            depth = len(self.lines)
            raise self._exceeded(index, "max_variation_depth", "variations nested ", depth, "deep")
        self._count_in_tree(index)
        variation = last.variations.add()
        self.lines.append(Line(variation, VARIATION_MOVES, line.next_ply() - 1, opened_at=index))

    def _close(self, token: re.Match[str]) -> None:
        index = token.start("close")
        self._no_pending_ply(index)
        if len(self.lines) == 1:
            raise self._fail(index, "')' closes no variation")
        self.lines.pop().close()

    def _result(self, token: re.Match[str]) -> re.Match[str]:
        """The result marker; return the token after it (which must end the record)."""
        index = token.start("result")
        self._no_pending_ply(index)
        if len(self.lines) > 1:
            raise self._fail(index, "a result marker may only end the main line")
        following = next(self.tokens)
        if following.lastgroup == "bad":
            raise token_error(self.places, following)
        if following.lastgroup != "end":
            where = following.start(following.lastgroup or 0)
            raise self._fail(where, "only the next record may follow the result marker")
        marker = token.group("result")
        if self.result_tag is None:
            read_result_claim(self.record.result, marker)
        elif self.result_tag != marker:
            raise self._fail(
                index, f"the result marker {marker} differs from the Result tag {self.result_tag}"
            )
        return following

    def _finish(self, end: re.Match[str]) -> None:
        self._no_pending_ply(end.end())
        if len(self.lines) > 1:
            raise self._fail(self._line.opened_at, "this variation is never closed by ')'")
        if self.game_comment.pieces:
            self.record.comment = self.game_comment.text()
        self._line.close()
        for ply_seal in self.ply_seals:
            self.record.seal.plies.add().MergeFromString(ply_seal)


#: The reader's method for each kind of token in the move text (the others end it).
_HANDLERS: Final[dict[str, Callable[[RecordReader, re.Match[str]], None]]] = {
    "whole_ply": RecordReader._whole_ply,
    "ply": RecordReader._ply,
    "move": RecordReader._move,
    "glyph": RecordReader._glyph,
    "nag": RecordReader._nag,
    "comment": RecordReader._comment,
    "open": RecordReader._open,
    "close": RecordReader._close,
}
