"""What ProtoJSON's reader refuses beyond protobuf's: the seal's bytes and clocks in one form.

**The seal's bytes** (docs/seals.md 5.1), one text per seal.

ProtoJSON's specification lets a reader take bytes in the standard or the URL-safe base64
alphabet, padded or not, and protobuf's Python reader even skips characters outside the
alphabet, so one seal could be written in many texts. gamerec writes the standard alphabet
with padding, and reads a seal's bytes only in that form (zero pad bits too), as GRN does. A
``GameRecord`` has no bytes outside its seal.

**Clocks** (``Move.clock``, a ``google.protobuf.Duration``): protobuf's reader takes any number
of fraction digits and drops those past the ninth, so ``1.1234567891s`` would read as a value
the file does not show. A clock is read only as ``-?S(.F)?s`` with 1 to 12 digits of seconds
and 1 to 9 of fraction, in the main line and in every variation. (The ProtoJSON reader's fast
path checks each clock it converts, :func:`is_strict_clock`, and leaves any other to the
general path, which runs :func:`check_clocks` first.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from gamerec.recorder.base64_text import canonical_bytes
from gamerec.recorder.errors import RecordMalformedError, excerpt

#: The seal's bytes fields, under both their ProtoJSON and .proto names.
_SINGLE = ("hostKey", "host_key", "identityHead", "identity_head", "finalHead", "final_head")
_SIGNATURE_LISTS = ("finalSignatures", "final_signatures")


#: A clock as ProtoJSON may write it, read strictly (see the module docstring).
_CLOCK = re.compile(r"-?[0-9]{1,12}(?:\.[0-9]{1,9})?s")


def is_strict_clock(text: str) -> bool:
    """Whether a clock's text is one :func:`check_clocks` takes."""
    return _CLOCK.fullmatch(text) is not None


def check_clocks(mapping: dict[str, Any], source: str, where: str) -> None:
    """Refuse a clock with more than 9 fraction digits or another form than ``-?S(.F)?s``.

    Raises:
        RecordMalformedError: the first such clock, named by its path.
    """
    match = _CLOCK.fullmatch
    lines = [mapping.get("moves")]
    while lines:
        moves = lines.pop()
        if type(moves) is not list:
            continue
        for move in moves:
            if type(move) is not dict:
                continue
            clock = move.get("clock")
            if type(clock) is str and match(clock) is None:
                path, text = _first_bad_clock(mapping)
                raise RecordMalformedError(
                    f"{path}.clock: {excerpt(text)} is not a duration such as 598.250s "
                    "(up to 9 fraction digits)",
                    source=source,
                    where=where,
                )
            variations = move.get("variations")
            if type(variations) is list:
                lines.extend(line.get("moves") for line in variations if type(line) is dict)


def _first_bad_clock(mapping: dict[str, Any]) -> tuple[str, str]:
    """The path and text of a clock :func:`check_clocks` refuses (only for its message)."""
    lines: list[tuple[str, Any]] = [("moves", mapping.get("moves"))]
    while lines:
        path, moves = lines.pop()
        for index, move in enumerate(_list(moves)):
            if type(move) is not dict:
                continue
            clock = move.get("clock")
            if type(clock) is str and not _CLOCK.fullmatch(clock):
                return f"{path}[{index}]", clock
            for number, line in enumerate(_list(move.get("variations"))):
                if type(line) is dict:
                    lines.append((f"{path}[{index}].variations[{number}].moves", line.get("moves")))
    raise AssertionError("no clock to refuse")  # pragma: no cover (called only after one)


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
    return canonical_bytes(text) is not None


def _texts(seal: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every string that stands for bytes in the seal, with its path.

    A ply's head only when it is not canonical: the caller refuses those alone.
    """
    for name in _SINGLE:
        yield from _string(name, seal.get(name))
    for name in ("seatKeys", "seat_keys"):
        for index, value in enumerate(_list(seal.get(name))):
            yield from _string(f"{name}[{index}]", value)
    for name in _SIGNATURE_LISTS:
        yield from _signatures(name, seal.get(name))
    for index, ply in enumerate(_list(seal.get("plies"))):
        if type(ply) is not dict:
            continue
        head = ply.get("head")
        # A ply's path is written only for a head the caller refuses (a record has many plies).
        if type(head) is str and not _canonical(head):
            yield f"plies[{index}].head", head
        if "signatures" in ply:
            yield from _signatures(f"plies[{index}].signatures", ply["signatures"])


def _signatures(path: str, value: Any) -> Iterator[tuple[str, str]]:
    for index, entry in enumerate(_list(value)):
        if type(entry) is dict:
            yield from _string(f"{path}[{index}].signature", entry.get("signature"))


def _string(path: str, value: Any) -> Iterator[tuple[str, str]]:
    if type(value) is str:
        yield path, value


def _list(value: Any) -> list[Any]:
    return value if type(value) is list else []
