"""``gamerec convert IN OUT``: records from any encoding to any other."""

from __future__ import annotations

from typing import Annotated

import typer

from gamerec.cli.arguments import LimitOption, encoding_help, limits_of
from gamerec.cli.collected import Counted
from gamerec.cli.edge import fail, reported_errors
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import EncodingError


def convert(
    source: Annotated[
        str,
        typer.Argument(metavar="IN", help="The records to read: a file, or - for standard input."),
    ],
    dest: Annotated[
        str,
        typer.Argument(
            metavar="OUT",
            help="Where to write: a file (replaced only on success), or - for standard output.",
        ),
    ],
    from_: Annotated[
        Encoding | None,
        typer.Option(
            "--from",
            help=f"Encoding of IN ({encoding_help()}); default: its extension, else sniffed.",
        ),
    ] = None,
    to: Annotated[
        Encoding | None,
        typer.Option(
            "--to",
            help=f"Encoding of OUT ({encoding_help()}); default: its extension; grn for -.",
        ),
    ] = None,
    limit: LimitOption = None,
) -> None:
    """Convert records between .pb, .pbs, .json, .jsonl and .grn (any number of records).

    OUT is written only when every record converts: into a temporary file beside it,
    renamed over OUT at the end. A note of how many records were written goes to stderr.
    """
    from gamerec.recorder.codecs import read_records, write_records

    limits = limits_of(limit)
    encoding = to or (Encoding.GRN if dest == "-" else encoding_for_path(dest))
    if encoding is None:
        fail(f"{dest}: cannot tell the encoding from the extension; use --to")
    with reported_errors():
        records = Counted(read_records(source, from_, limits=limits))
        try:
            count = write_records(records, dest, encoding)
        except EncodingError as error:
            label = "<stdin>" if source == "-" else source
            place = f"record {records.count}: " if records.count else ""
            raise EncodingError(f"{label}: {place}{error}") from None
    if dest != "-":
        label = "record" if count == 1 else "records"
        typer.echo(f"gamerec: {count} {label} written to {dest} ({encoding.value})", err=True)
