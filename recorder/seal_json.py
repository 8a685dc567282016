"""The seal's bytes in ProtoJSON, read strictly: one text per seal (docs/seals.md 5.1).

ProtoJSON's specification lets a reader take bytes in the standard or the URL-safe base64
alphabet, padded or not, and protobuf's Python reader even skips characters outside the
alphabet, so one seal could be written in many texts. gamerec writes the standard alphabet
with padding, and reads a seal's bytes only in that form (zero pad bits too), as GRN does. A
``GameRecord`` has no bytes outside its seal.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterator
from typing import Any

from gamerec.recorder.errors import RecordMalformedError, excerpt

#: The seal's bytes fields, under both their ProtoJSON and .proto names.
_SINGLE = ("hostKey", "host_key", "identityHead", "identity_head", "finalHead", "final_head")
_SIGNATURE_LISTS = ("finalSignatures", "final_signatures")


def check_seal_base64(mapping: dict[str, Any], source: str, where: str) -> None:
    """Refuse a seal whose bytes are not canonical, padded, standard base64.

    Values that are not strings are left to the schema's reader, which refuses them.

    Raises:
        RecordMalformedError: the first such value, named by its path.
    """
    seal = mapping.get("seal")
    if type(seal) is not dict:
        return
    for path, text in _texts(seal):
        if not _canonical(text):
            raise RecordMalformedError(
                f"seal.{path}: {excerpt(text)} is not base64 as gamerec writes bytes "
                "(the standard alphabet, padded, zero pad bits): a seal has one text",
                source=source,
                where=where,
            )


def _canonical(text: str) -> bool:
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return False
    return base64.b64encode(data).decode() == text


def _texts(seal: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every string that stands for bytes in the seal, with its path."""
    for name in _SINGLE:
        yield from _string(name, seal.get(name))
    for name in ("seatKeys", "seat_keys"):
        for index, value in enumerate(_list(seal.get(name))):
            yield from _string(f"{name}[{index}]", value)
    for name in _SIGNATURE_LISTS:
        yield from _signatures(name, seal.get(name))
    for index, ply in enumerate(_list(seal.get("plies"))):
        if type(ply) is dict:
            yield from _string(f"plies[{index}].head", ply.get("head"))
            yield from _signatures(f"plies[{index}].signatures", ply.get("signatures"))


def _signatures(path: str, value: Any) -> Iterator[tuple[str, str]]:
    for index, entry in enumerate(_list(value)):
        if type(entry) is dict:
            yield from _string(f"{path}[{index}].signature", entry.get("signature"))


def _string(path: str, value: Any) -> Iterator[tuple[str, str]]:
    if type(value) is str:
        yield path, value


def _list(value: Any) -> list[Any]:
    return value if type(value) is list else []
