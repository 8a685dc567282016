"""``gamerec convert IN OUT``: records from any encoding to any other."""

from __future__ import annotations

from typing import Annotated

import typer

from gamerec.cli.arguments import LimitOption, encoding_help, limits_of
from gamerec.cli.collected import Counted, FieldNotes, output_encoding, written_note
from gamerec.cli.edge import reported_errors
from gamerec.recorder.encoding import Encoding
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
    """Convert records between encodings: .pb .pbs .json .jsonl .grn, Abstract Play, Ludii.

    Any number of records; Abstract Play's records and Ludii's trials are docs/formats.md's.

    OUT is written only when every record converts: into a temporary file beside it,
    renamed over OUT at the end. A note of how many records were written goes to stderr,
    and for Abstract Play or Ludii a warning naming each field that format has no place for
    (kept in an embedded copy that only gamerec reads back).
    """
    from gamerec.cli.progress import Meter, parsed_frames
    from gamerec.recorder.codecs import write_records

    limits = limits_of(limit)
    encoding = output_encoding(dest, to)
    notes = FieldNotes()
    with reported_errors(), Meter("convert", None, output=dest) as meter:
        records = Counted(parsed_frames(source, from_, limits, meter))
        try:
            count = write_records(
                records, dest, encoding, warn=lambda text: notes.add(text, records.count)
            )
        except EncodingError as error:
            label = "<stdin>" if source == "-" else source
            place = f"record {records.count}: " if records.count else ""
            raise EncodingError(f"{label}: {place}{error}") from None
    notes.echo(count)
    written_note(count, dest, encoding)
