"""Every JSON reader refuses a key given twice, and ProtoJSON a field under both its names.

A sealed field given twice was read with its later value and verified, while a reader that
keeps the first value showed the forged one (issue 38). The error names the field and the
place; the cheap check (a count of colons) and the exact scan agree.
"""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder import json_keys
from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.foreign import ludii
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.registry import entries
from gamerec.validator.generation import generate

ROOT = Path(__file__).resolve().parents[2]
AP = ROOT / "fixtures" / "foreign" / "abstractplay" / "oust-hex7.json"
WIN = ROOT / "fixtures" / "foreign" / "ludii" / "oust-win-in-three.trl"

entries()


def refusal(data: bytes, encoding: Encoding, name: str) -> str:
    with pytest.raises(RecordMalformedError) as caught:
        list(read_records(io.BytesIO(data), encoding, name=name))
    return str(caught.value)


def a_record() -> pb.GameRecord:
    record = next(generate("Oust", {}, 1, seed=3))
    record.metadata.time_control = "300+5"
    record.metadata.event = "Open"
    record.seats[0].name = "Ann"
    return record


def test_a_sealed_field_given_twice_in_protojson_is_refused_naming_it() -> None:
    text = encode_record(a_record(), Encoding.JSON).decode()
    forged = text.replace('"timeControl": "300+5"', '"timeControl": "300+5", "timeControl": "1+0"')
    assert forged != text
    message = refusal(forged.encode(), Encoding.JSON, "r.json")
    assert "r.json: line 1" in message
    assert "'metadata.timeControl' is given twice" in message


def test_a_field_under_its_json_name_and_its_proto_name_is_refused() -> None:
    text = encode_record(a_record(), Encoding.JSON).decode()
    forged = text.replace('"timeControl": "300+5"', '"timeControl": "300+5", "time_control": "1"')
    message = refusal(forged.encode(), Encoding.JSON, "r.json")
    twice = "metadata.timeControl: the field is given twice, as 'timeControl' and 'time_control'"
    assert twice in message


def test_a_seat_name_given_twice_on_a_json_lines_line_names_the_line_and_the_seat() -> None:
    line = encode_record(a_record(), Encoding.JSONL)
    forged = line.replace(b'"name":"Ann"', b'"name":"Ann","name":"Eve"', 1)
    data = line + forged
    message = refusal(data, Encoding.JSONL, "r.jsonl")
    assert "r.jsonl: line 2" in message
    assert "'seats[0].name' is given twice" in message


def test_both_names_of_a_field_inside_a_list_are_refused_with_its_index() -> None:
    mapping = orjson.loads(encode_record(a_record(), Encoding.JSONL))
    mapping["seats"][1]["playerId"] = "p2"
    mapping["seats"][1]["player_id"] = "p3"
    message = refusal(orjson.dumps(mapping), Encoding.JSONL, "r.jsonl")
    assert "seats[1].playerId: the field is given twice, as 'playerId' and 'player_id'" in message


@pytest.mark.parametrize(("escape", "text"), [("\\u003a", ":"), ("\\u003A", ":"), ("\\u0031", "1")])
def test_a_duplicate_hidden_behind_an_escaped_colon_is_still_found(escape: str, text: str) -> None:
    # An escaped colon makes the cheap count disagree the other way; the exact scan decides
    # (either case of the colon's escape; other escapes that start alike also go to it).
    line = encode_record(a_record(), Encoding.JSONL)
    value = f'"a{escape}b"'.encode()
    forged = line.replace(b'"event":"Open"', b'"event":"Open","event":' + value, 1)
    message = refusal(forged, Encoding.JSONL, "r.jsonl")
    assert "'metadata.event' is given twice" in message
    honest = line.replace(b'"event":"Open"', b'"event":' + value, 1)
    (record,) = read_records(io.BytesIO(honest), Encoding.JSONL)
    assert record.metadata.event == f"a{text}b"


def test_an_abstract_play_player_given_twice_is_refused() -> None:
    text = AP.read_text()
    first = text.index('"name"', text.index('"players"'))
    forged = text[:first] + '"name": "Mallory", ' + text[first:]
    message = refusal(forged.encode(), Encoding.ABSTRACT_PLAY, "g.json")
    assert "'header.players[0].name' is given twice" in message


def test_the_embedded_record_of_a_ludii_trial_is_read_strictly() -> None:
    (record,) = read_records(WIN)
    record.seats[0].name = "Ann"  # a trial has no place for it: the copy is embedded
    text = ludii.trial_text(record)
    forged = text.replace('"name":"Ann"', '"name":"Ann","name":"Eve"')
    assert forged != text
    message = refusal(forged.encode(), Encoding.LUDII, "t.trl")
    assert "the embedded gamerec record: the key 'seats[0].name' is given twice" in message
    assert "t.trl: line 15: " in message  # the gamerec= line, before LUDII_VERSION=


_KEYS = st.sampled_from(["a", "b", "c:", "d\\u003a"])
_VALUES = st.recursive(
    st.none() | st.integers(-1000, 1000) | st.text(alphabet=':ab\\"', max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.lists(st.tuples(_KEYS, inner), max_size=4),
    max_leaves=12,
)


def _text(value: object) -> str:
    """JSON text of a value in which a list of pairs is an object (keys may repeat)."""
    if isinstance(value, list) and all(isinstance(item, tuple) for item in value) and value:
        return "{" + ",".join(f'"{key}":{_text(item)}' for key, item in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_text(item) for item in value) + "]"
    return orjson.dumps(value).decode()


def _repeats(value: object) -> bool:
    if isinstance(value, list) and value and all(isinstance(item, tuple) for item in value):
        keys = [key for key, _ in value]
        return len(keys) != len(set(keys)) or any(_repeats(item) for _, item in value)
    if isinstance(value, list):
        return any(_repeats(item) for item in value)
    return False


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_VALUES)
def test_the_cheap_check_refuses_exactly_the_texts_with_a_key_given_twice(value: object) -> None:
    text = _text(value).encode()
    try:
        json_keys.loads(text)
    except json_keys.DuplicateKeyError:
        assert _repeats(value)
    else:
        assert not _repeats(value)
