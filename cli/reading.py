"""The records a command reads: the files its paths name, read with a meter, and what failed.

Typer-free (``gamerec validate``'s plain path uses it, :mod:`gamerec.cli.plain`); every command
that reads records from paths reads them here, through ``gamerec.recorder.inputs``.

Imports: ``gamerec.cli.plain``, ``gamerec.cli.progress`` and ``gamerec.cli.verdicts`` (when
needed), ``gamerec.recorder``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from gamerec.cli.plain import echo

if TYPE_CHECKING:
    from gamerec.cli.progress import Meter
    from gamerec.recorder.encoding import Encoding
    from gamerec.recorder.inputs import InputFailure, InputRecord, ParsedRecord
    from gamerec.recorder.limits import Limits


def input_paths(paths: list[str]) -> list[str]:
    """The files ``paths`` name, folders walked; what the walk skipped is said on stderr."""
    from gamerec.recorder.inputs import walk_inputs

    walk = walk_inputs(paths)
    if note := walk.skipped_note():
        echo(f"gamerec: {note}", err=True)
    return walk.files


def records_of(
    files: list[str],
    encoding: Encoding | None,
    limits: Limits | None = None,
    meter: Meter | None = None,
) -> Iterator[ParsedRecord | InputFailure]:
    """Every record of every input (folders expanded), with an InputFailure where one breaks.

    A record that cannot be decoded, or is over one of the ``limits``, fails alone: the
    records after it are still read. A fault that ends an input (a file that cannot be opened,
    a broken ``.pbs`` length prefix) fails the rest of that input; the next input is read.
    The ``meter``, when given, counts the bytes read.
    """
    from gamerec.recorder.inputs import parsed, parsed_inputs

    if meter is None:
        return parsed_inputs(files, encoding, limits)
    return parsed(metered_inputs(files, encoding, limits, meter))


def metered_inputs(
    files: list[str], encoding: Encoding | None, limits: Limits | None, meter: Meter
) -> Iterator[InputRecord | InputFailure]:
    """The raw records of every input file, counted by ``meter`` (whose total is set here)."""
    from gamerec.cli.progress import inputs_total
    from gamerec.recorder.inputs import read_inputs

    meter.total, sizes = inputs_total(files)
    return meter.items(read_inputs(files, encoding, limits), sizes)


def unreadable_json(failure: InputFailure) -> str:
    """What could not be read, as the ``--json`` line of an UnreadableInput."""
    from gamerec.cli.verdicts import message_json
    from gamerec.v1 import lines_pb2

    reason = failure.message.removeprefix(f"{failure.source}: ")
    line = lines_pb2.UnreadableInput(
        source=failure.source, record_number=failure.number, unreadable=reason
    )
    return message_json(line)
