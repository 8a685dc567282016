"""``gamerec sign IN --key K [--as seat N | --as host] -o OUT``: sign sealed records."""

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
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from gamerec.v1 import record_pb2 as pb


def sign(
    source: InArgument,
    dest: OutOption,
    *,
    key: Annotated[
        str,
        typer.Option(
            "--key",
            metavar="K",
            help="The private key file (ssh-keygen -t ed25519, openssl genpkey -algorithm "
            "ed25519, or gamerec keys new).",
        ),
    ],
    signer: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="WHO",
            help="Who signs: 'seat N' (also seatN or N) or 'host'; default: the place the "
            "seal gives the key.",
        ),
    ] = None,
    seat_number: Annotated[
        int | None,
        typer.Argument(metavar="[N]", help="The seat number after --as seat.", show_default=False),
    ] = None,
    from_: InFromOption = None,
    to: ToOption = None,
) -> None:
    """Sign sealed records as a seat or as the host, with an Ed25519 private key.

    A seat signs the chain head after every ply it made (the record's seat of each ply) and
    the final head; the host signs the head after every ply (it countersigns each) and the
    final head. The key must be the one the seal names for
    that signer (gamerec seal --key); without --as, the key signs as whoever the seal names
    for it. Exit code 2 when a record is not sealed, its seal does not hold, or the key is
    not the signer's.
    """
    from gamerec.recorder.codecs import read_records, write_records
    from gamerec.recorder.signing import load_private_key

    who = None if signer is None and seat_number is None else signer_of(signer or "", seat_number)
    encoding = output_encoding(dest, to)
    with reported_errors():
        private = load_private_key(key)
        count = write_records(_signed(read_records(source, from_), private, who), dest, encoding)
    written_note(count, dest, encoding)


def signer_of(text: str, number: int | None) -> int:
    """The signer ``--as`` names: a seat (1-based) or 0 for the host; exit 2 otherwise."""
    word = text.strip().lower()
    if word == "host" and number is None:
        return 0
    if word == "seat" and number is not None and number >= 1:
        return number
    digits = word.removeprefix("seat").strip()
    if digits.isdigit() and int(digits) >= 1 and number is None:
        return int(digits)
    fail(f"--as {text!r}: expected 'seat N' (seatN, N) or 'host'")


def _signed(
    records: Iterable[pb.GameRecord], key: Ed25519PrivateKey, signer: int | None
) -> Iterator[pb.GameRecord]:
    from gamerec.recorder.errors import GamerecError
    from gamerec.recorder.signing import sign_record

    for number, record in enumerate(records, start=1):
        try:
            yield sign_record(record, key, signer)
        except GamerecError as error:
            raise type(error)(f"record {number}: {error}") from None
