"""Protobuf wire format, by hand: varints, and finding where bad bytes go wrong.

The protobuf runtime says only "Error parsing message" when bytes are not a record. When that
happens, :func:`locate_wire_error` walks the same bytes field by field, following the schema
into sub-messages, and names the first byte that is wrong and why ("field 5 (moves) claims
120 bytes but only 37 remain"). It is never on the happy path.
"""

from __future__ import annotations

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from gamerec.recorder.words import noun_for

#: Nested messages the protobuf decoder accepts (upb's default depth limit).
MAX_MESSAGE_DEPTH = 100
_MAX_VARINT_BYTES = 10


class WireError(Exception):
    """Bytes that break the wire format, at an offset."""

    def __init__(self, offset: int, reason: str) -> None:
        """Record where (byte offset) and why."""
        self.offset = offset
        self.reason = reason
        super().__init__(f"byte {offset}: {reason}")


class NestingError(WireError):
    """Messages nested deeper than the protobuf decoders accept.

    Attributes:
        group: the nesting that went too deep is of groups (wire type 3, fields no schema of
            gamerec has), not of the record's own messages.
    """

    def __init__(self, offset: int, group: int = 0) -> None:
        """Record where the nesting goes too deep (and the field number of a group)."""
        self.group = group
        what = f"groups (wire type 3) of field {group}" if group else "messages"
        super().__init__(offset, f"{what} are nested deeper than {MAX_MESSAGE_DEPTH} levels")


def encode_varint(value: int) -> bytes:
    """The base-128 varint of a non-negative integer."""
    if value < 0x80:  # one byte: most lengths, seats and field values
        return bytes((value,))
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def decode_varint(data: bytes, position: int, end: int, what: str) -> tuple[int, int]:
    """Read a varint at ``position``; return its value and the position after it.

    Raises:
        WireError: the data ends inside the varint, or it is longer than 10 bytes.
    """
    value = 0
    for count in range(_MAX_VARINT_BYTES):
        if position + count >= end:
            raise WireError(position, f"{what} is cut off by the end of the data")
        byte = data[position + count]
        value |= (byte & 0x7F) << (7 * count)
        if byte < 0x80:
            return value, position + count + 1
    raise WireError(position, f"{what} is not a varint (more than {_MAX_VARINT_BYTES} bytes)")


def field_body(field: bytes) -> bytes:
    """The body of a length-delimited field whose key is one byte (field numbers below 16)."""
    # Most bodies are shorter than 128 bytes: their length is one byte.
    if field[1] < 0x80:
        return field[2:]
    return field[decode_varint(field, 1, len(field), "a field's length")[1] :]


def locate_wire_error(data: bytes, descriptor: Descriptor) -> WireError | None:
    """The first wire-format fault in ``data`` read as a ``descriptor`` message, if any."""
    try:
        _walk(data, 0, len(data), descriptor, depth=1)
    except WireError as error:
        return error
    return None


def _walk(data: bytes, start: int, end: int, descriptor: Descriptor | None, depth: int) -> None:
    if depth > MAX_MESSAGE_DEPTH:
        raise NestingError(start)
    position = start
    while position < end:
        tag_start = position
        if data[position] < 0x80:  # a one-byte tag (fields 1-15): most of them
            tag, position = data[position], position + 1
        else:
            tag, position = decode_varint(data, position, end, "a field tag")
        if tag >> 3 == 0:
            raise WireError(tag_start, "field number 0 does not exist")
        field = descriptor.fields_by_number.get(tag >> 3) if descriptor else None
        position = _skip_value(data, _Field(tag, tag_start, field), position, end, depth)


class _Field:
    """A field's tag, where the tag starts, and its schema entry when the schema knows it."""

    __slots__ = ("descriptor", "number", "start", "wire_type")

    def __init__(self, tag: int, start: int, descriptor: FieldDescriptor | None) -> None:
        self.number = tag >> 3
        self.wire_type = tag & 7
        self.start = start
        self.descriptor = descriptor

    @property
    def label(self) -> str:
        name = f" ({self.descriptor.name})" if self.descriptor else ""
        return f"field {self.number}{name}"

    def has_type(self, kind: int) -> bool:
        return self.descriptor is not None and self.descriptor.type == kind


def _skip_value(data: bytes, field: _Field, position: int, end: int, depth: int) -> int:
    """Check one field value and return the position after it."""
    if field.wire_type == 0:
        if position < end and data[position] < 0x80:  # a one-byte value, its label unbuilt
            return position + 1
        return decode_varint(data, position, end, f"the value of {field.label}")[1]
    if field.wire_type in (1, 5):
        size = 8 if field.wire_type == 1 else 4
        if position + size > end:
            raise WireError(
                field.start, f"{field.label} needs {size} bytes but only {_left(end - position)}"
            )
        return position + size
    if field.wire_type == 2:
        return _skip_length_delimited(data, field, position, end, depth)
    if field.wire_type == 3:
        return _skip_group(data, field, position, end, depth)
    if field.wire_type == 4:
        raise WireError(field.start, f"an end-group marker for {field.label} that no group opened")
    raise WireError(
        field.start, f"{field.label} has wire type {field.wire_type}, which does not exist"
    )


def _skip_length_delimited(data: bytes, field: _Field, position: int, end: int, depth: int) -> int:
    length, position = decode_varint(data, position, end, f"the length of {field.label}")
    if length > end - position:
        raise WireError(
            field.start,
            f"{field.label} claims {_bytes(length)} but only {_left(end - position)}",
        )
    if field.descriptor is not None and field.has_type(FieldDescriptor.TYPE_MESSAGE):
        _walk(data, position, position + length, field.descriptor.message_type, depth + 1)
    elif field.descriptor is not None and field.descriptor.type in _PACKED_SIZES:
        _check_packed(data, field, position, position + length)
    elif field.has_type(FieldDescriptor.TYPE_STRING):
        try:
            data[position : position + length].decode("utf-8")
        except UnicodeDecodeError as error:
            raise WireError(position + error.start, f"{field.label} is not UTF-8 text") from None
    return position + length


#: The scalar types a repeated field may pack, with their size (0: a varint each).
_PACKED_SIZES: dict[int, int] = {
    FieldDescriptor.TYPE_INT32: 0,
    FieldDescriptor.TYPE_INT64: 0,
    FieldDescriptor.TYPE_UINT32: 0,
    FieldDescriptor.TYPE_UINT64: 0,
    FieldDescriptor.TYPE_SINT32: 0,
    FieldDescriptor.TYPE_SINT64: 0,
    FieldDescriptor.TYPE_BOOL: 0,
    FieldDescriptor.TYPE_ENUM: 0,
    FieldDescriptor.TYPE_FIXED32: 4,
    FieldDescriptor.TYPE_SFIXED32: 4,
    FieldDescriptor.TYPE_FLOAT: 4,
    FieldDescriptor.TYPE_FIXED64: 8,
    FieldDescriptor.TYPE_SFIXED64: 8,
    FieldDescriptor.TYPE_DOUBLE: 8,
}


def _check_packed(data: bytes, field: _Field, start: int, end: int) -> None:
    """Check the packed values of a repeated number field (the bytes of one length-delimited)."""
    size = _PACKED_SIZES[field.descriptor.type] if field.descriptor is not None else 0
    if size:
        if (end - start) % size:
            raise WireError(
                start,
                f"the packed values of {field.label} take {_bytes(end - start)}, not a multiple "
                f"of {size}: the last value is cut short",
            )
        return
    position = start
    while position < end:
        value_start = position
        if all(byte & 0x80 for byte in data[position:end]):
            raise WireError(
                value_start,
                f"the packed values of {field.label} end inside a number (cut short)",
            )
        position = decode_varint(data, position, end, f"a packed value of {field.label}")[1]


def _skip_group(data: bytes, field: _Field, position: int, end: int, depth: int) -> int:
    """Skip a (deprecated) group up to its end marker."""
    if depth + 1 > MAX_MESSAGE_DEPTH:
        raise NestingError(field.start, group=field.number)
    while position < end:
        inner_start = position
        tag, position = decode_varint(data, position, end, "a field tag")
        if tag & 7 == 4:
            if tag >> 3 != field.number:
                raise WireError(
                    inner_start, f"the group of {field.label} ends with the wrong marker"
                )
            return position
        if tag >> 3 == 0:
            raise WireError(inner_start, "field number 0 does not exist")
        position = _skip_value(data, _Field(tag, inner_start, None), position, end, depth + 1)
    raise WireError(field.start, f"the group of {field.label} is never closed")


def _bytes(count: int) -> str:
    """``1 byte``, ``9 bytes`` (no thousands commas: counts beside byte offsets)."""
    return f"{count} {noun_for(count, 'byte')}"


def _left(count: int) -> str:
    """``1 remains``, ``3 remain``: what is left of the bytes, in a message."""
    return f"{count} {noun_for(count, 'remains', 'remain')}"
