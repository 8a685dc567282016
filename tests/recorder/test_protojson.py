"""ProtoJSON records: ``.json`` (one, indented) and ``.jsonl`` (one per line)."""

from __future__ import annotations

import io

import orjson
import pytest

from gamerec.recorder.errors import EmptyInputError, LimitExceededError, RecordMalformedError
from gamerec.recorder.protojson import encode_json, encode_jsonl, read_json, read_jsonl
from gamerec.v1 import record_pb2 as pb

MAX = 1 << 20


def json_records(text: str) -> list[pb.GameRecord]:
    return list(read_json(io.BytesIO(text.encode()), "r.json", MAX))


def jsonl_records(text: str) -> list[pb.GameRecord]:
    return list(read_jsonl(io.BytesIO(text.encode()), "r.jsonl", MAX))


def test_json_is_canonical_protojson_with_camel_case_names_and_enum_names() -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE, one=pb.OneVariant(ring_sizes=[6, 6])))
    record.moves.add(seat=2, glyph=pb.GLYPH_GOOD).clock.FromSeconds(90)
    assert orjson.loads(encode_json(record)) == {
        "rules": {"game": "GAME_ONE", "one": {"ringSizes": [6, 6]}},
        "moves": [{"seat": 2, "glyph": "GLYPH_GOOD", "clock": "90s"}],
    }
    assert encode_json(record).startswith(b'{\n  "rules"')
    assert encode_jsonl(record).count(b"\n") == 1


def test_extra_tags_are_written_sorted_by_name() -> None:
    record = pb.GameRecord()
    for name in ("b", "C", "a"):
        record.metadata.extra_tags[name] = name
    assert list(orjson.loads(encode_jsonl(record))["metadata"]["extraTags"]) == ["C", "a", "b"]


def test_json_reads_either_field_name_form_but_not_both() -> None:
    assert json_records('{"format_version": 1}')[0].format_version == 1
    assert json_records('{"formatVersion": 1}')[0].format_version == 1
    with pytest.raises(RecordMalformedError, match="formatVersion: the field is given twice"):
        json_records('{"format_version": 1, "formatVersion": 1}')  # issue 38: never pick one


def test_a_json_syntax_error_names_its_line_and_column() -> None:
    with pytest.raises(RecordMalformedError) as caught:
        json_records('{\n  "rules": {\n    "game": "GAME_ONE",\n  }\n}')
    assert caught.value.where == "line 3, column 23"
    assert caught.value.reason == "not JSON: trailing comma is not allowed"


def test_json_that_is_not_a_record_names_the_field() -> None:
    with pytest.raises(RecordMalformedError) as caught:
        json_records('{"moves": [{"glyph": "GLYPH_SUPERB"}]}')
    assert caught.value.where == "line 1"
    assert "moves[0].glyph: Invalid enum value GLYPH_SUPERB" in caught.value.reason


@pytest.mark.parametrize("text", ["3", '"x"', "null"])
def test_json_must_be_an_object(text: str) -> None:
    with pytest.raises(RecordMalformedError, match="expected a JSON object"):
        json_records(text)


def test_a_json_array_is_a_collection_of_abstract_play_records() -> None:
    # An array is Abstract Play's collection (docs/formats.md); an empty one holds none, and
    # an item that is no object is refused with its number and byte.
    with pytest.raises(EmptyInputError, match="the JSON array holds no record"):
        json_records("[]")
    with pytest.raises(RecordMalformedError, match="record 1: expected an object") as caught:
        json_records("[3]")
    assert caught.value.where == "byte 1"


def test_jsonl_holds_one_record_per_line_and_skips_blank_lines() -> None:
    found = jsonl_records('{"comment": "a"}\n\n  \n{"comment": "b"}\r\n{"comment": "c"}')
    assert [record.comment for record in found] == ["a", "b", "c"]


def test_a_jsonl_error_names_the_line_of_the_record() -> None:
    with pytest.raises(RecordMalformedError) as caught:
        jsonl_records('{"comment": "a"}\n\n{"comment": }\n')
    assert caught.value.where == "line 3, column 13"
    with pytest.raises(RecordMalformedError) as schema:
        jsonl_records('{"comment": "a"}\n{"seats": [{"rating": 1.5}]}\n')
    assert schema.value.where == "line 2"
    assert "seats[0].rating" in schema.value.reason


def test_a_byte_order_mark_before_the_json_is_skipped() -> None:
    assert json_records("\ufeff{}") == [pb.GameRecord()]
    assert jsonl_records("\ufeff{}\n{}") == [pb.GameRecord(), pb.GameRecord()]


def test_a_json_line_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(LimitExceededError):
        list(read_jsonl(io.BytesIO(b'{"comment": "' + b"x" * 100 + b'"}\n'), "r", 50))
    with pytest.raises(LimitExceededError):
        list(read_json(io.BytesIO(b'{"comment": "' + b"x" * 100 + b'"}'), "r", 50))
