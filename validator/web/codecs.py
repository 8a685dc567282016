"""The web door's codecs: request bodies as the servicers take them, answers as they give them.

The gRPC door hands its servicers serialized messages (bytes in, bytes out: the event loop never
parses a record). The web door keeps that: a body becomes a :class:`Payload` (the message's
bytes and its type) and an answer's bytes become the response body.

- ``proto`` (``application/proto``, ``application/connect+proto``, gRPC and gRPC-Web): the
  bytes pass as they are, in both directions; the servicer parses them, as on gRPC.
- ``json`` (``application/json``, ``application/connect+json``): the text is read strictly
  (a key given twice refused with its path, ``gamerec.recorder.json_keys``; a field given under
  both its JSON and its .proto name refused; an unknown field refused, naming it), then by
  ``connectrpc.compat``'s ProtoJSON codec (``ignore_unknown_fields=False``) into the message,
  whose bytes go on. Answers are written with the same mapping, compact (orjson).

A body that cannot be read is ``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest`` and an
``ErrorInfo`` (reason ``BAD_JSON``) naming the field, as the services' own refusals are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, cast

import orjson
from connectrpc.codec import Codec
from connectrpc.compat import google_protobuf_binary_codec, google_protobuf_json_codec
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2  # type: ignore[import-untyped]

from gamerec.recorder import json_keys
from gamerec.recorder.errors import bounded
from gamerec.recorder.protojson import field_given_twice
from gamerec.validator.service.statuses import status_with
from gamerec.validator.web.errors import connect_error

#: The domain of the codecs' ``ErrorInfo`` details.
DOMAIN: Final = "gamerec.v1"
#: json_format's words for an unknown field: the field and where it is.
_UNKNOWN_FIELD: Final = re.compile(r'has no field named "([^"]+)" at "([^"]*)"')
_FIELD_CHAIN: Final = re.compile(r"Failed to parse (\w+) field: ")


@dataclass(frozen=True, slots=True)
class Payload:
    """A message as the servicers take and give it.

    Attributes:
        data: the serialized message.
        kind: its type.
    """

    data: bytes
    kind: type[Message]


class RawProtoCodec:
    """``proto``: the bytes of a body are the request's bytes, an answer's are the body."""

    def name(self) -> str:
        """The codec's name, as content types carry it."""
        return "proto"

    def encode(self, message: Payload | Message) -> bytes:
        """An answer's bytes."""
        if isinstance(message, Payload):
            return message.data
        return google_protobuf_binary_codec().encode(message)

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Payload:
        """The request as it came (its servicer parses it)."""
        return Payload(bytes(data), message_class)


class StrictJsonCodec:
    """``json``: ProtoJSON read strictly (see the module docstring), written by connectrpc."""

    def __init__(self) -> None:
        """Read with connectrpc.compat's ProtoJSON codec, unknown fields refused."""
        self._json: Codec[Message, Message] = google_protobuf_json_codec(
            ignore_unknown_fields=False
        )

    def name(self) -> str:
        """The codec's name, as content types carry it."""
        return "json"

    def encode(self, message: Payload | Message) -> bytes:
        """An answer as compact ProtoJSON.

        The mapping is json_format's, as connectrpc.compat's codec writes it; orjson writes
        it compact, in half the time that codec's indented ``MessageToJson`` takes (a Play's
        answer: about 0.5 ms against 1 ms, on the event loop of every JSON call).
        """
        if isinstance(message, Payload):
            message = message.kind.FromString(message.data)
        return orjson.dumps(json_format.MessageToDict(message))

    def decode(self, data: bytes | bytearray, message_class: type[Message]) -> Payload:
        """The request's bytes, read strictly from its JSON.

        Raises:
            ConnectError: INVALID_ARGUMENT, naming the field at fault.
        """
        text = bytes(data) or b"{}"
        try:
            value: Any = json_keys.loads(text)
        except json_keys.DuplicateKeyError as error:
            field = f"{error.path}.{error.key}" if error.path else error.key
            twice_key = "the key is given twice (a JSON object's keys are unique)"
            raise _bad_json(field, twice_key) from None
        except orjson.JSONDecodeError as error:
            raise _bad_json("", f"the body is not JSON: {error}") from None
        if not isinstance(value, dict):
            raise _bad_json("", f"the body is not a JSON object of {_name(message_class)}")
        twice = field_given_twice(value, cast(Descriptor, message_class.DESCRIPTOR), "")
        if twice is not None:
            field, _, problem = twice.partition(": ")
            raise _bad_json(field, problem)
        try:
            message = self._json.decode(text, message_class)
        except Exception as error:  # json_format's ParseError, ValueError, TypeError, ...
            field, problem = _json_format_reason(str(error), message_class)
            raise _bad_json(field, problem) from None
        return Payload(message.SerializeToString(), message_class)


def _name(kind: type[Message]) -> str:
    return str(kind.DESCRIPTOR.full_name)


def _json_format_reason(message: str, kind: type[Message]) -> tuple[str, str]:
    """The field and the reason of json_format's refusal."""
    unknown = _UNKNOWN_FIELD.search(message)
    if unknown is not None:
        where = unknown.group(2).split(".", 1)
        path = (where[1] + "." if len(where) > 1 else "") + unknown.group(1)
        return path, f"no such field in {_name(kind)} (unknown fields are refused)"
    fields = _FIELD_CHAIN.findall(message)
    inner = _FIELD_CHAIN.sub("", message).split("\n", 1)[0].strip().rstrip(". ")
    return ".".join(fields), inner


def _bad_json(field: str, problem: str) -> Exception:
    """INVALID_ARGUMENT naming the field, as the services word a bad field."""
    problem = bounded(problem)
    violation = error_details_pb2.BadRequest.FieldViolation(field=field, description=problem)
    status = status_with(
        code_pb2.INVALID_ARGUMENT,
        problem,
        reason="BAD_JSON",
        domain=DOMAIN,
        field_name=field,
        details=(error_details_pb2.BadRequest(field_violations=[violation]),),
    )
    return connect_error(status.code, status.details, status.trailing_metadata)


#: The codecs the web door speaks.
CODECS: Final = (RawProtoCodec(), StrictJsonCodec())
