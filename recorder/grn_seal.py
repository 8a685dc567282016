"""The seal in GRN (docs/seals.md "In each encoding"): its tags, and one command per ply.

==================  ===========================================================================
tag                 field of ``GameRecord.seal``
==================  ===========================================================================
Seal                version (``1``); present whenever the record is sealed
SealStart           identity_head, base64
SealKeyN            seat_keys[N-1] as an OpenSSH public key line (``ssh-ed25519 AAAA...``);
                    ``""``: seat N has no key
SealKeyHost         host_key, the same form
SealHead            final_head, base64
SealSigned          final_signatures: ``1:<base64> 2:<base64> host:<base64>``
==================  ===========================================================================

A main-line ply's entry (its head and signatures) rides in the ply's command comment as
``[%seal <head base64> 1:<signature base64> host:<signature base64>]``, as ``[%clk]`` does
(``-`` for an empty head).
Base64 is the standard alphabet with padding, as ProtoJSON writes bytes, and is read strictly:
only the text the writer makes of the bytes (padding, no white space, zero pad bits), so one
seal has one text. A signer is ``host`` or a seat number from 1 with no leading zero; a key is
exactly ``ssh-ed25519 <base64>`` (no comment: nothing in the file may go unsealed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from gamerec.recorder.base64_text import canonical_bytes
from gamerec.recorder.errors import EncodingError, RecordMalformedError, excerpt
from gamerec.recorder.grn_values import parse_uint32
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb

#: The seal's tags with a fixed name, lower-cased (``SealKeyN`` is a pattern).
SEAL_TAGS: Final = frozenset({"seal", "sealstart", "sealhead", "sealsigned", "sealkeyhost"})
SEAL_KEY_TAG: Final = re.compile(r"sealkey([1-9][0-9]{0,8}|host)", re.IGNORECASE)


def is_seal_tag(name: str) -> bool:
    """Whether a tag name is one of the seal's (any case)."""
    return name.lower() in SEAL_TAGS or SEAL_KEY_TAG.fullmatch(name) is not None


def read_seal_tag(record: pb.GameRecord, name: str, value: str, max_seats: int) -> None:
    """Store one of the seal's tags in ``record.seal``.

    Raises:
        RecordMalformedError: a value the seal cannot hold (not base64, not a key, ...).
    """
    seal = record.seal
    seal.SetInParent()
    lower = name.lower()
    if lower == "seal":
        if not _NUMBER.fullmatch(value):
            raise RecordMalformedError(
                f"Seal: expected the seal's version as a number without a leading zero ('1'), "
                f"found {excerpt(value)}"
            )
        seal.version = parse_uint32(value, "a seal version")
    elif lower == "sealstart":
        seal.identity_head = _bytes(value, "SealStart")
    elif lower == "sealhead":
        seal.final_head = _bytes(value, "SealHead")
    elif lower == "sealsigned":
        seal.final_signatures.extend(parse_signatures(value.split(), "SealSigned"))
    else:
        _read_key(seal, name, value, max_seats)


def _read_key(seal: spb.Seal, name: str, value: str, max_seats: int) -> None:
    # Signing (and hashlib, OpenSSL) is loaded for a sealed record only: reading GRN starts
    # faster without it.
    from gamerec.recorder.signing import (  # noqa: PLC0415 (a sealed record's key)
        KeyFileError,
        openssh_line,
        parse_openssh_line,
    )

    match = SEAL_KEY_TAG.fullmatch(name)
    assert match is not None
    key = b""
    if value:
        try:
            key = parse_openssh_line(value)
        except KeyFileError as error:
            raise RecordMalformedError(f"{name}: {error}") from None
        if openssh_line(key) != value:
            raise RecordMalformedError(
                f"{name}: expected exactly 'ssh-ed25519 <base64>' as gamerec writes the key "
                "(one space, no comment, canonical base64), found "
                f"{excerpt(value)}"
            )
    which = match.group(1).lower()
    if which == "host":
        seal.host_key = key
        return
    number = int(which)
    if number > max_seats:
        raise RecordMalformedError(f"{name}: seat {number} is past the seats limit ({max_seats})")
    while len(seal.seat_keys) < number:
        seal.seat_keys.append(b"")
    seal.seat_keys[number - 1] = key


def _bytes(text: str, what: str) -> bytes:
    """Strict base64: the one text b64encode makes of the bytes (padding, zero pad bits)."""
    data = canonical_bytes(text)
    if data is not None:
        return data
    import base64  # noqa: PLC0415 (a sealed record's bytes, when they are wrong)
    import binascii  # noqa: PLC0415

    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise RecordMalformedError(f"{what}: {excerpt(text)} is not base64") from None
    if _b64(data) != text:
        raise RecordMalformedError(
            f"{what}: {excerpt(text)} is not canonical base64 (its pad bits must be zero)"
        )
    return data


#: A number in the seal's text: no sign, no leading zero.
_NUMBER = re.compile(r"0|[1-9][0-9]{0,9}")
#: A signer: ``host`` (any case, as GRN reads words) or a seat from 1, no leading zero.
_SIGNER = re.compile(r"host|[1-9][0-9]{0,9}", re.IGNORECASE)


def parse_signatures(words: Iterable[str], what: str) -> list[spb.Signature]:
    """Signatures written ``1:<base64>`` / ``host:<base64>``.

    Raises:
        RecordMalformedError: a word that is not a signer and base64.
    """
    from gamerec.recorder.seal import HOST  # noqa: PLC0415 (a sealed record's signatures)

    signatures = []
    for word in words:
        signer, colon, text = word.partition(":")
        if not colon:
            raise RecordMalformedError(f"{what}: expected signer:signature, found {excerpt(word)}")
        if not _SIGNER.fullmatch(signer):
            raise RecordMalformedError(
                f"{what}: expected a signer 'host' or a seat number from 1 (no leading zero) "
                f"before ':', found {excerpt(signer)}"
            )
        number = HOST if signer.lower() == "host" else parse_uint32(signer, "a signing seat")
        signatures.append(spb.Signature(signer=number, signature=_bytes(text, what)))
    return signatures


def parse_ply_seal(argument: str) -> spb.SealedPly:
    """A ply's ``[%seal <head> <signer>:<signature>...]`` argument.

    Raises:
        RecordMalformedError: the head or a signature is not base64.
    """
    words = argument.split()
    head = b"" if words[0] == "-" else _bytes(words[0], "[%seal]")
    sealed = spb.SealedPly(head=head)
    sealed.signatures.extend(parse_signatures(words[1:], "[%seal]"))
    return sealed


def ply_seal_bytes(argument: str) -> bytes:
    """``parse_ply_seal(argument).SerializeToString()``: a ply's entry as its message's bytes.

    The usual entry, a head alone written as canonical base64, is read without the message
    (``SealedPly.head``: field 1, its length, the bytes); any other entry, and any error, is
    :func:`parse_ply_seal`'s.

    Raises:
        RecordMalformedError: as :func:`parse_ply_seal`.
    """
    if " " not in argument:
        head = canonical_bytes(argument)
        if head is not None and 0 < len(head) < 128:  # its length is one byte
            return _HEAD_KEY + bytes((len(head),)) + head
    return parse_ply_seal(argument).SerializeToString()


#: The field key of ``SealedPly.head`` (field 1, length-delimited).
_HEAD_KEY: Final = b"\x0a"


# -- writing ---------------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    import base64  # noqa: PLC0415 (a sealed record's bytes)

    return base64.b64encode(data).decode()


def format_signatures(signatures: Iterable[spb.Signature]) -> str:
    """``1:<base64> host:<base64>``."""
    from gamerec.recorder.seal import HOST  # noqa: PLC0415 (a sealed record's signatures)

    return " ".join(
        f"{'host' if entry.signer == HOST else entry.signer}:{_b64(entry.signature)}"
        for entry in signatures
    )


def seal_tags(record: pb.GameRecord) -> list[tuple[str, str]]:
    """The seal's tags (none when the record is not sealed).

    Raises:
        EncodingError: the seal covers more plies than the record holds (GRN writes a ply's
            entry on the ply), or a key is not 32 bytes.
    """
    if not record.HasField("seal"):
        return []
    seal = record.seal
    if len(seal.plies) > len(record.moves):
        raise EncodingError(
            f"the seal covers {len(seal.plies)} plies but the record holds "
            f"{len(record.moves)}; GRN writes each ply's seal on its ply, so it cannot hold it"
        )
    tags = [("Seal", str(seal.version))]
    if seal.identity_head:
        tags.append(("SealStart", _b64(seal.identity_head)))
    for number, key in enumerate(seal.seat_keys, start=1):
        tags.append((f"SealKey{number}", _key_text(key)))
    if seal.host_key:
        tags.append(("SealKeyHost", _key_text(seal.host_key)))
    if seal.final_head:
        tags.append(("SealHead", _b64(seal.final_head)))
    if seal.final_signatures:
        tags.append(("SealSigned", format_signatures(seal.final_signatures)))
    return tags


def _key_text(key: bytes) -> str:
    if key and len(key) != 32:
        raise EncodingError(f"a seal key has {len(key)} bytes, not 32, so GRN cannot write it")
    from gamerec.recorder.signing import openssh_line  # noqa: PLC0415 (a sealed record's key)

    return openssh_line(key) if key else ""


def ply_seal_command(sealed: spb.SealedPly) -> str:
    """``[%seal <head> 1:<signature>]`` for a ply's seal entry (``-``: no head)."""
    signatures = format_signatures(sealed.signatures)
    head = _b64(sealed.head) if sealed.head else "-"
    return f"[%seal {head}{' ' + signatures if signatures else ''}]"
