"""What ``find``, ``dedupe``, ``stats`` and ``standings`` share: their options and their edges.

Light on purpose (loaded when one of them runs): options, where records go, and how an
input that cannot be read is reported (one line on stderr; the rest is still read).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import encoding_help
from gamerec.cli.edge import EXIT_FAILED, error_line, fail
from gamerec.recorder.encoding import Encoding, encoding_for_path

if TYPE_CHECKING:
    from gamerec.recorder.inputs import InputFailure
    from gamerec.v1 import record_pb2 as pb

#: ``-o OUT``: where the records go.
OutputOption = Annotated[
    str | None,
    typer.Option(
        "-o",
        "--output",
        metavar="OUT",
        help="Write the records here: a file (its extension gives the encoding; replaced only "
        "when the job is done) or - for standard output (GRN unless --to).",
    ),
]
#: ``--to``: the encoding of OUT.
ToOption = Annotated[
    Encoding | None,
    typer.Option("--to", help=f"Encoding of OUT ({encoding_help()}); default: its extension."),
]
#: ``--workers``: cores to judge on.
WorkersOption = Annotated[
    int, typer.Option("--workers", "-j", min=0, help="Worker processes; 0 means all cores.")
]


def output_encoding(dest: str, to: Encoding | None) -> Encoding:
    """The encoding records are written to ``dest`` in (exit 2 when it cannot be told)."""
    encoding = to or (Encoding.GRN if dest == "-" else encoding_for_path(dest))
    if encoding is None:
        fail(f"{dest}: cannot tell the encoding from the extension; use --to")
    return encoding


class Failures:
    """Counts what cannot be read, reporting each on stderr as it is met."""

    def __init__(self) -> None:
        """No failure yet."""
        self.count = 0

    def report(self, failure: InputFailure) -> None:
        """One line on stderr: the input, the place and the reason."""
        self.count += 1
        place = f"#{failure.number}: " if failure.number else ""
        message = failure.message
        if failure.number and not message.startswith(failure.source):
            message = f"{failure.source} {place}{message}"
        typer.echo(error_line(message), err=True)

    def report_all(self, failures: Iterable[InputFailure]) -> None:
        """Report every failure."""
        for failure in failures:
            self.report(failure)

    def exit_code(self, otherwise: int) -> int:
        """2 when something could not be read, else ``otherwise``."""
        return EXIT_FAILED if self.count else otherwise


class Counted:
    """Records passed through, counted."""

    def __init__(self, records: Iterable[pb.GameRecord]) -> None:
        """Count ``records`` as they are read."""
        self._records = records
        self.count = 0

    def __iter__(self) -> Iterator[pb.GameRecord]:
        """The records."""
        for record in self._records:
            self.count += 1
            yield record


def written_note(count: int, dest: str, encoding: Encoding) -> None:
    """``gamerec: 12 records written to OUT (grn)`` on stderr (nothing for ``-``)."""
    if dest != "-":
        noun = "record" if count == 1 else "records"
        typer.echo(f"gamerec: {count:,} {noun} written to {dest} ({encoding.value})", err=True)
