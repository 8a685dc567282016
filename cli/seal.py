"""``gamerec seal IN -o OUT``: seal records (docs/seals.md), naming the keys that will sign."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.collected import (
    InArgument,
    InFromOption,
    OutOption,
    ToOption,
    output_encoding,
    written_note,
)
from gamerec.cli.edge import fail, reported_errors

if TYPE_CHECKING:
    from gamerec.v1 import record_pb2 as pb


def seal(
    source: InArgument,
    dest: OutOption,
    *,
    keys: Annotated[
        list[str] | None,
        typer.Option(
            "--key",
            metavar="SEAT=PUB",
            help="Seat SEAT's public key file (.pub line, PEM, or a private key file); "
            "repeatable. Default: the keys of the record's seal, if any.",
            show_default=False,
        ),
    ] = None,
    host: Annotated[
        str | None,
        typer.Option("--host", metavar="PUB", help="The host's public key file (the platform)."),
    ] = None,
    from_: InFromOption = None,
    to: ToOption = None,
) -> None:
    """Seal records: a hash chain over each record's canonical form, with the signers' keys.

    The keys are part of what is sealed, so name every seat that will sign (--key 1=ana.pub
    --key 2=ben.pub) and the host. A record sealed before keeps the signatures whose heads did
    not change (a comment added since is not sealed). Then sign: gamerec sign.
    """
    from gamerec.recorder.codecs import read_records, write_records
    from gamerec.recorder.signing import load_public_key

    encoding = output_encoding(dest, to)
    with reported_errors():
        seat_keys = {seat: load_public_key(path) for seat, path in _seat_options(keys or [])}
        host_key = load_public_key(host) if host else None
        records = _sealed(read_records(source, from_), seat_keys, host_key)
        count = write_records(records, dest, encoding)
    written_note(count, dest, encoding)


def _seat_options(options: list[str]) -> Iterator[tuple[int, str]]:
    """``SEAT=PATH`` options as (seat, path); exit 2 on a malformed one."""
    for option in options:
        seat, equals, path = option.partition("=")
        if not equals or not seat.isdigit() or int(seat) < 1 or not path:
            fail(f"--key {option!r}: expected SEAT=FILE, such as --key 1=ana.pub")
        yield int(seat), path


def _sealed(
    records: Iterable[pb.GameRecord], seat_keys: dict[int, bytes], host_key: bytes | None
) -> Iterator[pb.GameRecord]:
    """Every record sealed with its old keys changed by the ones given."""
    from gamerec.recorder.errors import EncodingError
    from gamerec.recorder.seal import seal_record

    for number, record in enumerate(records, start=1):
        keys = list(record.seal.seat_keys)
        for seat, key in seat_keys.items():
            if seat > len(record.seats):
                raise EncodingError(
                    f"record {number}: --key names seat {seat}, but it has "
                    f"{len(record.seats)} seats"
                )
            keys += [b""] * (seat - len(keys))
            keys[seat - 1] = key
        try:
            yield seal_record(record, keys, host_key)
        except EncodingError as error:
            raise EncodingError(f"record {number}: cannot seal it: {error}") from None
