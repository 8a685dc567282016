"""What ``gamerec play``'s screen shows, as pure functions of the match's state.

The screen has four parts, each made here from a ``MatchState`` (GetMatch's answer, which
holds the record so far) and what the person chose (their seat, the board flipped):

- the board: the project's text picture (``gamerec replay``'s, :mod:`..render.text`) with
  every seat's stones in the seat's colour (the SVG pictures' colour-blind-safe ones) and the
  last ply's places bracketed and bold;
- the clocks: every seat's, the running one counted down from the state's reading by the
  time since it was read (the referee's clock is the one that counts; the screen only shows
  it);
- the plies so far, numbered, the last one marked;
- the status: whose turn, a draw on offer, the end and why.

:func:`screen_text` puts them together as plain text (docs/playing.md shows one, made by
it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.style import Style
from rich.text import Text

from gamerec.recorder.notation import format_action, game_label
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.render.ending import match_ending, special_words
from gamerec.validator.render.model import BoardModel
from gamerec.validator.render.scene import scene_at
from gamerec.validator.render.svg import SEAT_COLOURS
from gamerec.validator.render.text import LABEL_WIDTH, draw_text

#: Below this many milliseconds a clock shows tenths of a second.
TENTHS_BELOW_MS: Final = 20_000
#: The mark of the seat to move and of the last ply.
TURN_MARK: Final = ">"
LAST_MARK: Final = "<"
_STATUS_WORDS: Final = {
    mpb.MATCH_STATUS_OPEN: "open",
    mpb.MATCH_STATUS_FINISHED: "finished",
    mpb.MATCH_STATUS_ABORTED: "aborted",
}


def seat_colour(seat: int) -> str:
    """The colour of ``seat``'s stones (the SVG pictures' colours)."""
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


# -- the board ----------------------------------------------------------------------------------


def board_picture(record: pb.GameRecord, flipped: bool = False) -> Text:
    """The position after the record's last ply, coloured, upside down when ``flipped``.

    Raises:
        RulesError, ReplayStoppedError: the record cannot be replayed (never for a record the
            referee keeps).
    """
    scene = scene_at(record)
    picture = draw_text(scene.model, scene.position, scene.placed)
    lines = picture.split("\n")
    board_rows = _board_rows(scene.model)
    if flipped:
        lines = _flipped(scene.model, lines, board_rows)
    return _coloured(scene.model, lines, board_rows)


def _board_rows(model: BoardModel) -> range:
    """Which lines of the text picture are board rows (the rest: column labels and status).

    Lines of edge labels (Oust's letters) count as rows: they turn over with the board.
    """
    first = 1 if model.text.column_labels else 0
    return range(first, first + len(model.text.grid_rows))


def _flipped(model: BoardModel, lines: list[str], rows: range) -> list[str]:
    """The picture upside down: the board's rows reversed (a table of pits: its columns)."""
    lines = list(lines)
    if model.kind != "pit":
        lines[rows.start : rows.stop] = reversed(lines[rows.start : rows.stop])
        return lines
    width = model.text.cell_width
    for index in rows:
        label, cells = lines[index][: _pit_margin()], lines[index][_pit_margin() :]
        chunks = [cells[at : at + width] for at in range(0, len(cells), width)]
        chunks[-1] = chunks[-1].ljust(width)
        lines[index] = (label + "".join(reversed(chunks))).rstrip()
    return lines


def _pit_margin() -> int:
    """The columns before a table of pits' first cell (two spaces and a 7-column label)."""
    return 9


def _coloured(model: BoardModel, lines: list[str], rows: range) -> Text:
    """The picture with every seat's marks in its colour, the last ply's places bold."""
    marks = {model.mark(seat): seat for seat in range(1, model.seats + 1)}
    marks.update({f"#{seat}": seat for seat in range(1, model.seats + 1)})
    owner_row = rows.start + 1 if model.kind == "pit" else -1
    margin = _pit_margin() if model.kind == "pit" else LABEL_WIDTH + model.text.gap
    text = Text()
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        start = len(text)
        text.append(line)
        if index in rows:
            seat_marks = marks if model.kind != "pit" or index == owner_row else {}
            _colour_cells(text, line, start, margin, seat_marks)
    return text


def _colour_cells(text: Text, line: str, start: int, margin: int, marks: dict[str, int]) -> None:
    """Style each cell of one board row: its seat's colour, bold when bracketed."""
    at = margin
    for cell in line[margin:].split(" "):
        if cell:
            bare = cell.strip("[]")
            seat = marks.get(bare)
            style = Style(bold=True) if cell != bare else Style()
            if seat is not None:
                style += Style(color=seat_colour(seat), bold=True)
            if cell != bare or seat is not None:
                text.stylize(style, start + at, start + at + len(cell))
        at += len(cell) + 1


# -- clocks, plies, status ------------------------------------------------------------------------


def clock_text(milliseconds: int) -> str:
    """``4:58`` (``1:02:03`` past an hour), ``0:19.4`` below 20 seconds."""
    milliseconds = max(0, milliseconds)
    if milliseconds < TENTHS_BELOW_MS:
        return f"0:{milliseconds // 1000:02d}.{milliseconds % 1000 // 100}"
    seconds = milliseconds // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def shown_clocks(state: mpb.MatchState, elapsed_ms: int) -> list[int]:
    """Every seat's clock ``elapsed_ms`` after ``state`` was read (the running one counts down).

    Empty when the match has no clock.
    """
    clocks = [clock.ToMilliseconds() for clock in state.clocks]
    if state.to_move and state.status == mpb.MATCH_STATUS_OPEN and clocks:
        running = state.to_move - 1
        clocks[running] = max(0, clocks[running] - max(0, elapsed_ms))
    return clocks


def seat_lines(state: mpb.MatchState, me: int, elapsed_ms: int) -> list[str]:
    """One line per seat: the turn mark, the seat, its name (``you``), its clock."""
    clocks = shown_clocks(state, elapsed_ms)
    resigned = set(state.pending_resignations)
    lines = []
    for seat, player in enumerate(state.record.seats, start=1):
        mark = TURN_MARK if seat == state.to_move else " "
        you = " (you)" if seat == me else ""
        clock = f"  {clock_text(clocks[seat - 1])}" if clocks else ""
        note = "  resigns at its turn" if seat in resigned else ""
        lines.append(f"{mark} seat {seat}  {player.name}{you}{clock}{note}")
    return lines


def ply_lines(record: pb.GameRecord, last: int = 0) -> list[str]:
    """The plies, one a line (``12. b2xb4  seat 1``), the last marked; ``last`` > 0: only those."""
    plies = [(ply, move) for ply, move in enumerate(record.moves, start=1)]
    shown = plies[-last:] if last else plies
    lines = []
    for ply, move in shown:
        mark = f" {LAST_MARK}" if ply == len(plies) else ""
        token = format_action(move)
        said = special_words(record.rules.game, token)
        line = f"{ply:>3}. {token:<12} seat {move.seat}{mark}"
        lines.append(f"{line}  ({said})" if said else line)
    return lines


def status_line(state: mpb.MatchState, me: int, decided: Sequence[str] = ()) -> str:
    """Whose turn it is (with the placements typed so far), a draw on offer, or the end."""
    if state.HasField("ended"):
        return f"game over: {match_ending(state.ended)}"
    if not state.to_move:
        return f"the match is {_STATUS_WORDS.get(state.status, 'not open')}"
    ply = state.plies + 1
    if state.to_move == me:
        line = f"your move, ply {ply}"
        if decided:
            line += f" (placed {','.join(decided)}: place again)"
    else:
        line = f"seat {state.to_move} to move, ply {ply}"
    if state.draw_offered_by:
        who = "you" if state.draw_offered_by == me else f"seat {state.draw_offered_by}"
        line += f"; {who} offered a draw"
        if state.draw_offered_by != me:
            line += " (draw: accept, decline: decline)"
    return line


def title_line(state: mpb.MatchState) -> str:
    """``Oust  match 3f2a...  clock 300+3``."""
    game = game_label(state.record.rules.game)
    clock = state.time_control or "-"
    return f"{game}  match {state.match_id}  clock {clock}"


def screen_text(
    state: mpb.MatchState,
    me: int,
    *,
    elapsed_ms: int = 0,
    flipped: bool = False,
    decided: Sequence[str] = (),
    notes: Sequence[str] = (),
    last_plies: int = 10,
) -> str:
    """The whole screen as plain text: title, board, seats and clocks, plies, status, notes."""
    parts = [
        title_line(state),
        "",
        board_picture(state.record, flipped).plain,
        "",
        *seat_lines(state, me, elapsed_ms),
        "",
        *(ply_lines(state.record, last_plies) or ["no ply yet"]),
        "",
        status_line(state, me, decided),
        *notes,
    ]
    return "\n".join(parts)
