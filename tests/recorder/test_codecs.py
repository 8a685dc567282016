"""The codecs API: encodings by extension and by content, reading and writing anywhere."""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest

from gamerec.recorder.codecs import (
    SNIFF_BYTES,
    Encoding,
    decode_record,
    encode_record,
    encoding_for_path,
    read_records,
    sniff_encoding,
    write_records,
)
from gamerec.recorder.encoding import OWN_ENCODINGS
from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.v1 import record_pb2 as pb

OUST = pb.GameRecord(rules=pb.Rules(game=pb.GAME_OUST))
ONE = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE), comment="second")
PAIR = [OUST, ONE]


def encoded(records: list[pb.GameRecord], encoding: Encoding) -> bytes:
    stream = io.BytesIO()
    write_records(records, stream, encoding)
    return stream.getvalue()


@pytest.mark.parametrize(
    ("name", "encoding"),
    [
        ("a.pb", Encoding.PB),
        ("dir.x/a.PBS", Encoding.PBS),
        ("a.json", Encoding.JSON),
        ("a.jsonl", Encoding.JSONL),
        ("a.Grn", Encoding.GRN),
        ("a.txt", None),
        ("pb", None),
    ],
)
def test_the_extension_names_the_encoding(name: str, encoding: Encoding | None) -> None:
    assert encoding_for_path(name) == encoding


@pytest.mark.parametrize("encoding", list(OWN_ENCODINGS))
def test_sniffing_recognises_every_encoding_of_a_record(encoding: Encoding) -> None:
    assert sniff_encoding(encoded([ONE], encoding), at_end=True) == encoding


def test_sniffing_recognises_collections() -> None:
    assert sniff_encoding(encoded(PAIR, Encoding.PBS), at_end=True) == Encoding.PBS
    assert sniff_encoding(encoded(PAIR, Encoding.JSONL)) == Encoding.JSONL


def test_sniffing_text_looks_at_the_first_non_space_character() -> None:
    assert sniff_encoding(b'\xef\xbb\xbf \n[Game "ONE"]') == Encoding.GRN
    assert sniff_encoding(b'  {"comment": "a"}\n{}') == Encoding.JSONL
    assert sniff_encoding(b'{\n  "comment": "a"\n}\n') == Encoding.JSON
    assert sniff_encoding(b"  \n") == Encoding.GRN
    assert sniff_encoding(b"") == Encoding.PBS


def test_a_binary_frame_whose_length_byte_looks_like_text_is_still_binary() -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE), comment="x" * 85)
    data = encoded([record], Encoding.PBS)
    assert data[:1] == b"["  # a 91-byte frame
    assert sniff_encoding(data, at_end=True) == Encoding.PBS


def test_a_frame_that_does_not_parse_cleanly_means_pb() -> None:
    assert sniff_encoding(b"\x08\x01\x12\x02\x08\x01", at_end=True) == Encoding.PB


def test_read_records_takes_the_encoding_from_the_extension(tmp_path: Path) -> None:
    path = tmp_path / "pair.jsonl"
    path.write_bytes(encoded(PAIR, Encoding.JSONL))
    assert list(read_records(path)) == PAIR
    assert list(read_records(str(path))) == PAIR


def test_read_records_sniffs_an_unknown_extension(tmp_path: Path) -> None:
    path = tmp_path / "pair.dat"
    path.write_bytes(encoded(PAIR, Encoding.PBS))
    assert list(read_records(path)) == PAIR


def test_an_explicit_encoding_overrides_the_extension(tmp_path: Path) -> None:
    path = tmp_path / "pair.json"
    path.write_bytes(encoded(PAIR, Encoding.GRN))
    assert list(read_records(path, Encoding.GRN)) == PAIR
    with pytest.raises(RecordMalformedError):
        list(read_records(path))


def test_read_records_sniffs_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(encoded(PAIR, Encoding.GRN)))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert list(read_records("-")) == PAIR


def test_sniffing_a_stream_reads_a_long_first_frame_whole() -> None:
    big = pb.GameRecord(comment="x" * (SNIFF_BYTES + 10))
    assert list(read_records(io.BytesIO(encoded([big, ONE], Encoding.PBS)))) == [big, ONE]


def test_errors_name_the_source() -> None:
    with pytest.raises(RecordMalformedError) as caught:
        list(read_records(io.BytesIO(b'[Game "Go"]'), name="club.grn"))
    assert str(caught.value) == (
        "club.grn: line 1, column 8: unknown game 'Go'; "
        "expected one of ONE, Aronda, Oust, Oh-Wah-Ree"
    )


def test_a_missing_file_is_an_os_error() -> None:
    with pytest.raises(FileNotFoundError):
        list(read_records("no/such/file.pb"))


def test_write_records_returns_the_count_and_streams(tmp_path: Path) -> None:
    path = tmp_path / "out.pbs"
    assert write_records(iter(PAIR), path) == 2
    assert list(read_records(path)) == PAIR


def test_a_written_file_gets_ordinary_permissions(tmp_path: Path) -> None:
    path = tmp_path / "out.grn"
    old = os.umask(0o022)
    try:
        write_records([ONE], path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_a_failed_write_leaves_no_file_and_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "out.grn"

    def records() -> object:
        yield ONE
        raise RecordMalformedError("broken input", source="in.pbs", where="record 2 at byte 9")

    with pytest.raises(RecordMalformedError):
        write_records(records(), path)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_an_existing_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "out.pb"
    path.write_bytes(b"old")
    with pytest.raises(EncodingError, match=r"write them to \.pbs"):
        write_records(PAIR, path)
    assert path.read_bytes() == b"old"
    assert list(tmp_path.iterdir()) == [path]


@pytest.mark.parametrize("encoding", [Encoding.PB, Encoding.JSON])
def test_a_one_record_encoding_refuses_none_or_several(encoding: Encoding) -> None:
    with pytest.raises(EncodingError, match="holds one record"):
        encoded([], encoding)
    with pytest.raises(EncodingError, match="there are several"):
        encoded(PAIR, encoding)


def test_an_unknown_output_extension_is_an_encoding_error(tmp_path: Path) -> None:
    with pytest.raises(EncodingError, match="cannot tell the encoding"):
        write_records([ONE], tmp_path / "out.txt")


def test_a_stream_needs_an_explicit_encoding() -> None:
    with pytest.raises(EncodingError):
        write_records([ONE], io.BytesIO())


def test_standard_output_is_written_when_the_destination_is_a_dash(
    capfdbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert write_records([ONE], "-", Encoding.JSONL) == 1
    assert decode_record(capfdbinary.readouterr().out) == ONE


@pytest.mark.parametrize("encoding", list(OWN_ENCODINGS))
def test_decode_record_reads_what_encode_record_wrote(encoding: Encoding) -> None:
    assert decode_record(encode_record(ONE, encoding), encoding) == ONE
    assert decode_record(encode_record(ONE, encoding)) == ONE


def test_decode_record_wants_exactly_one_record() -> None:
    with pytest.raises(RecordMalformedError, match="found several"):
        decode_record(encoded(PAIR, Encoding.GRN))
    with pytest.raises(RecordMalformedError, match="holds no record"):
        decode_record(b"", Encoding.JSONL)
