"""Bytes fields (a seal's heads, keys and signatures) read fast as json_format reads them.

A sealed record's ProtoJSON holds a base64 head for every ply; the fast path reads such values
with json_format's own expression (``protojson.bytes_fields``) and leaves anything that
expression refuses to json_format, so a sealed record reads as it did, only faster.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from google.protobuf import json_format

from gamerec.recorder.protojson import fast_record
from gamerec.v1 import record_pb2 as pb
from tests.recorder.test_protojson_fast import assert_never_differs, assert_parses_as_before
from tests.sealing import GAME_FIXTURES, signed

HEAD = "MFh8ndJCJdNLKCRpMncYCqBsj37EtCBU8rq4ENT8enw="
#: Base64 texts as they come: canonical, unpadded, URL-safe, too short, with junk or spaces,
#: not a string; some json_format reads, some it refuses.
ODD_BASE64: list[Any] = [
    *(HEAD, HEAD.rstrip("="), HEAD.replace("+", "-").replace("/", "_"), HEAD + "=", ""),
    *("QQ", "QQ=", "QQ==", "QQ===", "Q", "Q===", "!!!!", "QQ==QQ==", " QQ==", "QQ==\n"),
    *("+/+/", "-_-_", "+_-/", "-_-_-_-_" + HEAD[8:]),
    *("\u00e9", 1, None, [], {}),
]


@pytest.mark.parametrize("name", GAME_FIXTURES)
def test_sealed_and_signed_records_read_fast(name: str) -> None:
    record = signed(name)
    mapping = json_format.MessageToDict(record)
    fast = fast_record(mapping)
    assert fast is not None, "the fast path gave up on a sealed record"
    assert fast == json_format.ParseDict(mapping, pb.GameRecord()) == record
    assert assert_parses_as_before(orjson.dumps(mapping)) == ("record", record)


@pytest.mark.parametrize("value", ODD_BASE64)
def test_odd_base64_reads_or_fails_as_before(value: Any) -> None:
    mapping = json_format.MessageToDict(signed(GAME_FIXTURES[0]))
    mapping["seal"]["plies"][0]["head"] = value
    mapping["seal"]["seatKeys"][0] = value
    assert_never_differs(mapping)
    assert_parses_as_before(orjson.dumps(mapping))
