"""A progress display on stderr for the long commands, drawn only when stderr is a terminal.

A :class:`Meter` knows the total of a job (the bytes of its inputs, the games to generate)
and how much is done; once the job has run for :data:`DEFAULT_DELAY` seconds (the
``GAMEREC_PROGRESS_AFTER`` environment variable changes it), and only when stderr is a
terminal, it draws a rich progress bar there: done of total, a percentage, the time left and
a note (``1,234 records, 2 invalid``). rich is imported only then, so short jobs start as
fast as ever. Lines the command prints while the bar is drawn go through :meth:`Meter.echo`:
to stdout as they are when stdout is no terminal (``> out.txt`` holds exactly the command's
lines), above the bar when both are terminals. Nothing is drawn on stdout, ever.
"""

from __future__ import annotations

import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO

from gamerec.cli.plain import echo

if TYPE_CHECKING:
    from gamerec.recorder.encoding import Encoding
    from gamerec.recorder.inputs import InputFailure, InputRecord
    from gamerec.recorder.limits import Limits
    from gamerec.recorder.raw import Frame
    from gamerec.v1 import record_pb2 as pb

#: Seconds a job runs before its progress is drawn.
DEFAULT_DELAY: Final = 0.5
DELAY_VARIABLE: Final = "GAMEREC_PROGRESS_AFTER"
#: Seconds between two redraws (and between two flushes of the lines printed meanwhile).
_REDRAW_EVERY: Final = 0.1

Unit = Literal["bytes", "games", "records"]


def _delay() -> float:
    try:
        return max(float(os.environ.get(DELAY_VARIABLE, DEFAULT_DELAY)), 0.0)
    except ValueError:
        return DEFAULT_DELAY


class Meter:
    """How far a long job is, drawn on stderr when it is a terminal (see the module docstring).

    Use it as a context manager: the bar is removed on exit, before the command's summary.
    """

    def __init__(
        self, label: str, total: int | None, unit: Unit = "bytes", *, output: str = ""
    ) -> None:
        """A meter of ``total`` units (None: unknown, the bar then only pulses).

        ``output`` is where the command writes its records: ``-`` on a terminal means no bar,
        since the records themselves are written there, not through :meth:`echo`.
        """
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.note = ""
        self._stream: TextIO = sys.stderr
        self._enabled = self._stream.isatty() and not (output == "-" and sys.stdout.isatty())
        self._start = time.perf_counter()
        self._delay = _delay()
        self._drawn_at = 0.0
        self._display: Any = None  # a rich Progress, once drawn
        self._task: Any = None
        self._pending: list[str] = []

    def __enter__(self) -> Meter:
        """The meter itself."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Remove the bar (the lines printed meanwhile are all out first)."""
        self.close()

    def advance(self, amount: int = 1) -> None:
        """Count ``amount`` more units done."""
        self.done += amount
        self._tick()

    def update(self, done: int | None = None, note: str | None = None) -> None:
        """Set how much is done, and the note shown after the bar."""
        if done is not None:
            self.done = done
        if note is not None:
            self.note = note
        self._tick()

    def echo(self, line: str, *, err: bool = False) -> None:
        """Print a line of the command (stdout, or stderr with ``err``) without breaking the bar."""
        if self._display is None or not (err or sys.stdout.isatty()):
            echo(line, err=err)
            return
        self._pending.append(line)
        self._tick()

    def close(self) -> None:
        """Print what is pending and remove the bar."""
        if self._display is None:
            return
        self._flush()
        self._display.update(self._task, completed=self.done, total=self.total, note=self.note)
        self._display.stop()
        self._display = None

    def _tick(self) -> None:
        if not self._enabled:
            return
        now = time.perf_counter()
        if now - self._drawn_at < _REDRAW_EVERY:
            return
        self._drawn_at = now
        if self._display is None:
            if now - self._start < self._delay:
                return
            self._show()
        self._flush()
        self._display.update(self._task, completed=self.done, total=self.total, note=self.note)
        self._display.refresh()

    def _show(self) -> None:
        """Start drawing (rich is imported here, and only here)."""
        from rich import progress  # only when a bar is drawn (start-up)
        from rich.console import Console

        amount = (
            progress.DownloadColumn() if self.unit == "bytes" else progress.MofNCompleteColumn()
        )
        self._display = progress.Progress(
            progress.TextColumn("{task.description}"),
            progress.BarColumn(),
            progress.TaskProgressColumn(),
            amount,
            progress.TimeRemainingColumn(),
            progress.TextColumn("{task.fields[note]}"),
            console=Console(file=self._stream),
            auto_refresh=False,  # no drawing thread: the batch forks worker processes
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._task = self._display.add_task(self.label, total=self.total, note=self.note)
        self._display.start()

    def _flush(self) -> None:
        if not self._pending:
            return
        from rich.text import Text

        lines, self._pending = self._pending, []
        self._display.console.print(Text("\n".join(lines)), soft_wrap=True)

    # -- meters of inputs ----------------------------------------------------------------------

    def frames(self, frames: Iterable[Frame]) -> Iterator[Frame]:
        """The frames of one input, each counted by its bytes as it is read."""
        for frame in frames:
            self.advance(len(frame.data))
            yield frame

    def items(
        self, items: Iterable[InputRecord | InputFailure], sizes: dict[str, int]
    ) -> Iterator[InputRecord | InputFailure]:
        """The records of many inputs (``sizes``: bytes per input), each counted as it is read.

        An input counts as wholly done once the next one starts (what lies between its
        records, such as ``.pbs`` length prefixes, is counted then).
        """
        from gamerec.recorder.inputs import InputRecord

        finished = 0
        source = None
        for item in items:
            if item.source != source:
                finished += sizes.get(source or "", 0)
                source = item.source
                self.done = finished
            if isinstance(item, InputRecord):
                whole = finished + sizes.get(source, 0)
                self.done = min(self.done + len(item.frame.data), whole)
            self._tick()
            yield item
        self.done = self.total or self.done


def parsed_frames(
    source: str, encoding: Encoding | None, limits: Limits | None, meter: Meter
) -> Iterator[pb.GameRecord]:
    """The records of one input (as ``codecs.read_records``), the bytes read counted."""
    from gamerec.recorder.codecs import read_frames

    meter.total = inputs_total([source])[0]
    for frame in meter.frames(read_frames(source, encoding, limits=limits)):
        yield frame.parse()


def inputs_total(files: Iterable[str]) -> tuple[int | None, dict[str, int]]:
    """The bytes of all inputs (None when one has no size: a pipe) and of each, by name."""
    from gamerec.recorder.inputs import STDIN, source_name

    sizes = {}
    for path in files:
        try:
            status = os.fstat(sys.stdin.fileno()) if path == STDIN else os.stat(path)
        except (OSError, ValueError):
            continue  # reading it reports the fault
        if not stat.S_ISREG(status.st_mode):
            return None, {}
        sizes[source_name(path)] = status.st_size
    return sum(sizes.values()), sizes
