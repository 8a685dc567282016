"""Telling an input that holds no game record at all from a record that is broken.

A README, a ``package.json`` or a picture given where a record is expected fails to decode
like a broken record does, and the decoder's reason (``the group of field 4 ends with the
wrong marker``) says nothing to someone who gave the wrong file. When the bytes show that
they are no record of any encoding, :func:`not_a_record` says so plainly first and keeps the
decoder's exact reason as a second part::

    README.md is not a game record: it reads as text, but not as GRN (line 1, column 1:
    unexpected '#'; ...) nor as ProtoJSON (line 1, column 1: not JSON: ...); read as binary
    protobuf: byte 25: the group of field 4 (metadata) ends with the wrong marker

A record that starts well and breaks later (a ``.pb`` cut short) keeps its own message.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import LimitExceededError, RecordMalformedError

if TYPE_CHECKING:
    from gamerec.recorder.raw import Frame

#: Bytes that text (UTF-8 with tabs and line ends) never holds.
_CONTROL: Final = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: How much of a text is read as GRN and as ProtoJSON to say where each reading fails.
_TRIED_BYTES: Final = 4096
#: The longest excerpt of a reason quoted in the plain message.
_EXCERPT_CHARS: Final = 160
_FIRST_KEY: Final = re.compile(rb'\s*\{\s*"([^"\\]*)"')
_FIRST_ITEM_KEY: Final = re.compile(rb'\s*\[\s*\{\s*"([^"\\]*)"')


class NotARecordError(RecordMalformedError):
    """An input that is no game record in any encoding: ``README.md is not a game record: ...``.

    Attributes:
        detail: the decoder's own reason, with its place (also the message's last part).
        where: the place of the decoder's fault, as in the error it replaces.
    """

    def __init__(self, plainly: str, detail: str, *, fault: RecordMalformedError) -> None:
        """The message ``<source> is not a game record: <plainly>; <detail>``."""
        super().__init__(f"{plainly}; {detail}", source=fault.source, where=fault.where)
        self.detail = detail
        self.args = (f"{fault.source} is not a game record: {plainly}; {detail}",)


def not_a_record(frame: Frame, error: RecordMalformedError) -> NotARecordError | None:
    """The plain error for a frame that failed to decode and holds no record; else None."""
    if isinstance(error, LimitExceededError):
        return None
    whole_binary_input = frame.encoding is Encoding.PB and not frame.where
    if whole_binary_input and reads_as_text(frame.data):
        readings = [
            f"{name} ({_first_fault(frame, encoding)})"
            for name, encoding in (("GRN", Encoding.GRN), ("ProtoJSON", Encoding.JSON))
        ]
        plainly = f"it reads as text, but not as {readings[0]} nor as {readings[1]}"
        return NotARecordError(plainly, f"read as binary protobuf: {_fault(error)}", fault=error)
    if whole_binary_input and error.where == "byte 0":
        plainly = "its first bytes are no field of a GameRecord"
        return NotARecordError(plainly, f"as binary protobuf: {_fault(error)}", fault=error)
    whole_json_input = frame.encoding is Encoding.JSON or (
        frame.encoding is Encoding.JSONL and frame.line == 1
    )
    if whole_json_input:
        key = first_json_key(frame.data)
        if key is not None and key not in record_field_names() | ABSTRACT_PLAY_KEYS:
            plainly = (
                f'it is JSON, but neither a GameRecord (its first key "{_excerpt(key)}" is no '
                "field of one) nor an Abstract Play record (it has no header)"
            )
            return NotARecordError(plainly, f"as ProtoJSON: {_fault(error)}", fault=error)
    return None


def reads_as_text(data: bytes) -> bool:
    """Whether the bytes are UTF-8 text with no control characters but tab and line ends."""
    if _CONTROL.search(data):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def first_json_key(head: bytes) -> str | None:
    """The first key of the JSON object ``head`` starts (a byte-order mark allowed), or None."""
    found = _FIRST_KEY.match(head.removeprefix(b"\xef\xbb\xbf"))
    return None if found is None else found.group(1).decode("utf-8", "replace")


def first_item_key(head: bytes) -> str | None:
    """The first key of the first object of the JSON array ``head`` starts, or None."""
    found = _FIRST_ITEM_KEY.match(head.removeprefix(b"\xef\xbb\xbf"))
    return None if found is None else found.group(1).decode("utf-8", "replace")


#: The keys of an Abstract Play game record (schema gamerecord 1-0-0).
ABSTRACT_PLAY_KEYS: Final = frozenset({"header", "moves"})


def record_field_names() -> frozenset[str]:
    """The names a GameRecord's fields have in ProtoJSON (JSON names and proto names)."""
    from gamerec.v1 import record_pb2 as pb  # noqa: PLC0415 (protobuf only when it is needed)

    fields = pb.GameRecord.DESCRIPTOR.fields
    return frozenset(name for field in fields for name in (field.name, field.json_name))


def _first_fault(frame: Frame, encoding: Encoding) -> str:
    """Where and why the start of a text fails to read as one record of ``encoding``."""
    from gamerec.recorder.codecs import decode_record  # noqa: PLC0415 (only to explain a fault)

    head = frame.data[:_TRIED_BYTES]
    try:
        decode_record(head, encoding, name=frame.source, limits=frame.limits)
    except RecordMalformedError as error:
        return _fault(error)
    return "its start reads as a record, but not the whole of it"


def _fault(error: RecordMalformedError) -> str:
    reason = error.reason.removeprefix("not a GameRecord: ")
    return _excerpt(f"{error.where}: {reason}" if error.where else reason)


def _excerpt(text: str) -> str:
    return text if len(text) <= _EXCERPT_CHARS else text[: _EXCERPT_CHARS - 1] + "…"
