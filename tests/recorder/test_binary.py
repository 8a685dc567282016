"""Binary records: ``.pb`` and the length-delimited ``.pbs`` stream."""

from __future__ import annotations

import io

import pytest

from gamerec.recorder.binary import parse_record, read_pb, read_pbs, write_pbs
from gamerec.recorder.errors import LimitExceededError, RecordMalformedError
from gamerec.recorder.wire import decode_varint, encode_varint, locate_wire_error
from gamerec.v1 import record_pb2 as pb

MAX = 64 * 1024 * 1024


def records(count: int) -> list[pb.GameRecord]:
    return [
        pb.GameRecord(rules=pb.Rules(game=pb.GAME_OUST), comment=f"record {n}")
        for n in range(1, count + 1)
    ]


def pbs(items: list[pb.GameRecord]) -> bytes:
    stream = io.BytesIO()
    write_pbs(items, stream)
    return stream.getvalue()


class ReadWatcher(io.BytesIO):
    """A stream that remembers the largest read it was asked for."""

    largest = 0

    def read(self, size: int | None = -1) -> bytes:
        self.largest = max(self.largest, size or 0)
        return super().read(size)


def test_a_pbs_frame_is_the_varint_length_then_the_record() -> None:
    record = records(1)[0]
    data = record.SerializeToString()
    assert pbs([record]) == encode_varint(len(data)) + data


def test_pbs_records_come_back_in_order() -> None:
    assert list(read_pbs(io.BytesIO(pbs(records(3))), "s", MAX)) == records(3)


def test_an_empty_pbs_stream_holds_no_record() -> None:
    assert list(read_pbs(io.BytesIO(b""), "s", MAX)) == []


def test_pbs_is_read_one_record_at_a_time() -> None:
    data = pbs(records(2)) + b"\x05\x08"
    stream = read_pbs(io.BytesIO(data), "s", MAX)
    assert next(stream) == records(1)[0]
    assert next(stream).comment == "record 2"
    with pytest.raises(RecordMalformedError):
        next(stream)


def test_a_truncated_last_frame_names_its_record_and_byte() -> None:
    data = pbs(records(3))
    with pytest.raises(RecordMalformedError) as caught:
        list(read_pbs(io.BytesIO(data[:-4]), "s.pbs", MAX))
    first_two = len(pbs(records(2)))
    assert caught.value.where == f"record 3 at byte {first_two}"
    assert "truncated: the frame claims 14 bytes but only 10 remain" in caught.value.reason


def test_a_frame_cut_to_one_byte_says_so_in_the_singular() -> None:
    with pytest.raises(RecordMalformedError) as caught:
        list(read_pbs(io.BytesIO(b"\x01"), "s.pbs", MAX))
    assert caught.value.reason == "truncated: the frame claims 1 byte but only 0 remain"
    with pytest.raises(RecordMalformedError) as caught:
        list(read_pbs(io.BytesIO(b"\x02\x08"), "s.pbs", MAX))
    assert caught.value.reason == "truncated: the frame claims 2 bytes but only 1 remains"


def test_a_frame_longer_than_the_limit_fails_before_it_is_read() -> None:
    stream = ReadWatcher(encode_varint(2**31) + b"\x08\x01")
    with pytest.raises(LimitExceededError) as caught:
        list(read_pbs(stream, "s.pbs", MAX))
    assert stream.largest <= 1
    assert caught.value.where == "record 1 at byte 0"
    assert "claims 2147483648 bytes, more than the limit of 67108864" in caught.value.reason


def test_the_frame_limit_is_a_parameter() -> None:
    with pytest.raises(LimitExceededError):
        list(read_pbs(io.BytesIO(pbs(records(1))), "s", max_record_bytes=10))


def test_a_broken_length_prefix_is_an_error() -> None:
    with pytest.raises(RecordMalformedError, match="not a varint"):
        list(read_pbs(io.BytesIO(b"\xff" * 12), "s", MAX))
    with pytest.raises(RecordMalformedError, match="cut off"):
        list(read_pbs(io.BytesIO(pbs(records(1)) + b"\x80"), "s", MAX))


def test_a_frame_that_is_not_a_record_names_the_bad_byte_inside_it() -> None:
    good = pbs(records(1))
    with pytest.raises(RecordMalformedError) as caught:
        list(read_pbs(io.BytesIO(good + b"\x03\x3a\x05a"), "s", MAX))
    assert caught.value.where == f"record 2 at byte {len(good)}"
    assert caught.value.reason.startswith(f"byte {len(good) + 1}: not a GameRecord: field 7")


@pytest.mark.parametrize(
    ("data", "where", "reason"),
    [
        (b"\x3a\x05ab", "byte 0", "field 7 (comment) claims 5 bytes but only 2 remain"),
        (b"\x3a\x02a", "byte 0", "field 7 (comment) claims 2 bytes but only 1 remains"),
        (b"\x3a\x01", "byte 0", "field 7 (comment) claims 1 byte but only 0 remain"),
        (b"\x3a\x02\xff\xfe", "byte 2", "field 7 (comment) is not UTF-8 text"),
        (b"\x0f", "byte 0", "field 1 (format_version) has wire type 7"),
        (b"\x00\x01", "byte 0", "field number 0 does not exist"),
        (b"\x2a\x04\x0a\x05\x0a\x00", "byte 2", "field 1 (seat) claims 5 bytes"),
        (b"\x08\x80", "byte 1", "the value of field 1 (format_version) is cut off"),
    ],
)
def test_a_pb_that_is_not_a_record_names_the_first_bad_byte(
    data: bytes, where: str, reason: str
) -> None:
    with pytest.raises(RecordMalformedError) as caught:
        parse_record(data, "r.pb")
    assert caught.value.where == where
    assert reason in caught.value.reason


def test_a_pb_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(LimitExceededError):
        list(read_pb(io.BytesIO(b"\x08\x01" * 10), "r.pb", max_record_bytes=8))


def test_an_empty_pb_is_an_empty_record() -> None:
    assert list(read_pb(io.BytesIO(b""), "r.pb", MAX)) == [pb.GameRecord()]


def test_valid_bytes_have_no_wire_fault() -> None:
    data = records(1)[0].SerializeToString()
    assert locate_wire_error(data, pb.GameRecord.DESCRIPTOR) is None


@pytest.mark.parametrize("value", [0, 1, 127, 128, 300, 2**31, 2**64 - 1])
def test_varints_round_trip(value: int) -> None:
    data = encode_varint(value)
    assert decode_varint(data, 0, len(data), "v") == (value, len(data))
