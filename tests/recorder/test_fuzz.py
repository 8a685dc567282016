"""No input crashes a decoder: whatever the bytes, a decoder returns records or raises
RecordMalformedError (with a place), never a bare DecodeError, UnicodeDecodeError or KeyError.

Each fuzzer runs 150 examples by default; set GAMEREC_FUZZ_EXAMPLES for a long run, e.g.
``GAMEREC_FUZZ_EXAMPLES=20000 pytest tests/recorder/test_fuzz.py``.
"""

from __future__ import annotations

import io
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.v1 import record_pb2 as pb
from recorder.codecs import Encoding, encode_record, read_records
from recorder.errors import RecordMalformedError
from tests.strategies import records

FUZZ = settings(
    max_examples=int(os.environ.get("GAMEREC_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
ENCODINGS = [None, *Encoding]

GRN_ALPHABET = (
    '[]{}()"\\ \n\t.,!?$*-x%:0123456789abcmoiwGameOUST resign pass swap clk ts seat\ufeff\xe9'
)
grn_like = st.text(alphabet=GRN_ALPHABET, max_size=200)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "rules",
                    "game",
                    "moves",
                    "one",
                    "path",
                    "ring",
                    "seats",
                    "rating",
                    "metadata",
                    "extraTags",
                    "startTime",
                    "clock",
                    "result",
                    "scores",
                    "values",
                    "glyph",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)


def decode_all(data: bytes, encoding: Encoding | None) -> list[pb.GameRecord]:
    """Decode every record, letting only RecordMalformedError through as 'rejected'."""
    try:
        return list(read_records(io.BytesIO(data), encoding, name="fuzz"))
    except RecordMalformedError as error:
        assert error.source == "fuzz"
        assert error.reason
        return []


@FUZZ
@given(st.binary(max_size=400), st.sampled_from(ENCODINGS))
def test_any_bytes_are_records_or_a_malformed_error(data: bytes, encoding: Encoding | None) -> None:
    decode_all(data, encoding)


@FUZZ
@given(st.text(max_size=300), st.sampled_from(ENCODINGS))
def test_any_text_is_records_or_a_malformed_error(text: str, encoding: Encoding | None) -> None:
    decode_all(text.encode("utf-8", "surrogatepass"), encoding)


@FUZZ
@given(grn_like)
def test_grn_like_text_is_records_or_a_malformed_error(text: str) -> None:
    decode_all(text.encode("utf-8"), Encoding.GRN)


@FUZZ
@given(json_values, st.sampled_from([Encoding.JSON, Encoding.JSONL, None]))
def test_any_json_value_is_a_record_or_a_malformed_error(
    value: object, encoding: Encoding | None
) -> None:
    decode_all(json.dumps(value).encode(), encoding)


@st.composite
def damaged(draw: st.DrawFn) -> tuple[bytes, Encoding]:
    """A valid encoding of a record, then cut, or with a byte changed, added or removed."""
    encoding = draw(st.sampled_from(list(Encoding)))
    data = bytearray(encode_record(draw(records(depth=1)), encoding))
    kind = draw(st.sampled_from(["cut", "change", "insert", "delete"]))
    at = draw(st.integers(0, max(len(data) - 1, 0)))
    if kind == "cut":
        del data[at:]
    elif kind == "change" and data:
        data[at] = draw(st.integers(0, 255))
    elif kind == "insert":
        data.insert(at, draw(st.integers(0, 255)))
    elif data:
        del data[at]
    return bytes(data), encoding


@FUZZ
@given(damaged())
def test_damaged_records_are_records_or_a_malformed_error(case: tuple[bytes, Encoding]) -> None:
    data, encoding = case
    decode_all(data, encoding)
    decode_all(data, None)
