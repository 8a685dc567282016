"""The fast ProtoJSON reader gives json_format's record, or the old error, for any input.

``fast_record`` maps a parsed mapping straight to the message constructor and gives up when in
doubt; ``parse_json_record`` then lets ``json_format.ParseDict`` decide. Two promises are held
here: whenever ``fast_record`` gives a record, ParseDict gives an equal one; and
``parse_json_record`` gives what the code it replaced gave (kept below as ``reference_parse``),
the same record or the same error, word for word. The inputs: every fixture, generated games of
every game, Hypothesis records, a table of odd and hostile mappings, random mutations of valid
ones, and records that exceed each limit.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from google.protobuf import duration_pb2, json_format, timestamp_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import read_records
from gamerec.recorder.errors import EncodingError, LimitExceededError, RecordMalformedError
from gamerec.recorder.limits import (
    DEFAULT_LIMITS,
    Limits,
    check_mapping,
    check_record,
    exceeded,
    walk_moves,
)
from gamerec.recorder.protojson import (
    encode_json,
    encode_jsonl,
    fast_mapping,
    fast_record,
    parse_json_record,
)
from gamerec.recorder.protojson.reading import _schema_reason
from gamerec.recorder.protojson_strict import check_clocks, check_seal_base64
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from tests.strategies import records

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
JSON_FIXTURES = sorted(
    path
    for path in FIXTURES.rglob("*")
    if path.suffix in {".json", ".jsonl"}
    and "foreign" not in path.parts
    and not path.name.startswith("abstractplay-")  # Abstract Play's, not ProtoJSON
)
OTHER_FIXTURES = sorted(
    path for path in FIXTURES.rglob("*") if path.suffix in {".grn", ".pb", ".pbs"}
)
SOURCE = "r.jsonl"
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))


# -- the code path that fast_record replaced, frozen -------------------------------------------


def _old_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _old_get(value: Any, key: str) -> Any:
    return value.get(key) if isinstance(value, dict) else None


Check = Callable[[str, str, int, str], None]


def checker(limits: Limits, where: str) -> Check:
    """Raises the error of a value above its limit, as the limits module words it."""

    def check(limit: str, prefix: str, found: int, unit: str) -> None:
        maximum: int = getattr(limits, limit)
        if found > maximum:
            raise exceeded(limit, prefix, found, unit, maximum, source=SOURCE, where=where)

    return check


def reference_check_mapping(value: dict[str, Any], limits: Limits, where: str) -> None:
    """check_mapping as it was: one walk, with paths, over the move tree."""
    check = checker(limits, where)
    moves = _old_list(value.get("moves"))
    check("max_plies", "the main line has ", len(moves), "plies")
    total = 0
    for path, depth, move in walk_moves(
        moves,
        lambda move: _old_list(_old_get(move, "variations")),
        lambda line: _old_list(_old_get(line, "moves")),
    ):
        variations = len(_old_list(_old_get(move, "variations")))
        total += 1 + variations
        check("max_moves", "the record has at least ", total, "moves and variations")
        if variations:
            check("max_variation_depth", f"{path}: variations nested ", depth + 1, "deep")


def reference_texts(record: pb.GameRecord) -> Iterator[tuple[str, str]]:
    """Every text field a tag stands for, with its path (comments apart)."""
    yield "rules.rules_version", record.rules.rules_version
    for index, seat in enumerate(record.seats):
        for field in ("name", "player_id", "colour"):
            yield f"seats[{index}].{field}", getattr(seat, field)
    metadata = record.metadata
    for field in ("event", "site", "round", "date", "time_control", "client"):
        yield f"metadata.{field}", getattr(metadata, field)
    for name, value in metadata.extra_tags.items():
        yield "metadata.extra_tags (a tag name)", name
        yield f"metadata.extra_tags[{name[:40]!r}]", value


def reference_check_record(record: pb.GameRecord, limits: Limits, where: str) -> None:
    """check_record as it was: the counts, then one walk, with paths, over texts and moves."""
    check = checker(limits, where)
    check("max_seats", "seats: ", len(record.seats), "seats")
    check("max_plies", "the main line has ", len(record.moves), "plies")
    check("max_tags", "metadata.extra_tags: ", len(record.metadata.extra_tags), "free tags")
    for path, text in reference_texts(record):
        check("max_tag_chars", f"{path}: ", len(text), "characters")
    check("max_comment_chars", "comment: ", len(record.comment), "characters")
    total = 0
    for path, depth, move in walk_moves(
        record.moves, lambda move: move.variations, lambda line: line.moves
    ):
        total += 1 + len(move.variations)
        check("max_moves", "the record has at least ", total, "moves and variations")
        if move.variations:
            check("max_variation_depth", f"{path}: variations nested ", depth + 1, "deep")
        check("max_comment_chars", f"{path}.comment: ", len(move.comment), "characters")


def reference_parse(
    data: bytes, first_line: int = 1, limits: Limits = DEFAULT_LIMITS
) -> pb.GameRecord:
    """parse_json_record as it was: orjson, the limits, the strict checks, ParseDict, the limits."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        where = f"line {first_line + error.lineno - 1}, column {error.colno}"
        raise RecordMalformedError(f"not JSON: {error.msg}", source=SOURCE, where=where) from None
    where = f"line {first_line}"
    if not isinstance(value, dict):
        raise RecordMalformedError(
            f"expected a JSON object (one GameRecord), found {type(value).__name__}",
            source=SOURCE,
            where=where,
        )
    reference_check_mapping(value, limits, where)
    check_seal_base64(value, SOURCE, where)  # gamerec's own refusals come before ParseDict's
    check_clocks(value, SOURCE, where)
    twin = reference_twin(value, pb.GameRecord.DESCRIPTOR)
    if twin is not None:  # issue 38: a field under both its names is refused
        path, first, second = twin
        reason = f"not a GameRecord: {path}: the field is given twice, as {first!r} and {second!r}"
        raise RecordMalformedError(reason, source=SOURCE, where=where)
    record = pb.GameRecord()
    try:
        json_format.ParseDict(value, record)
    except (json_format.ParseError, ValueError, TypeError, KeyError, RecursionError) as error:
        raise RecordMalformedError(
            f"not a GameRecord: {_schema_reason(str(error))}", source=SOURCE, where=where
        ) from None
    reference_check_record(record, limits, where)
    return record


def reference_twin(value: Any, message: Any) -> tuple[str, str, str] | None:
    """The first field (depth first, in field order) a mapping holds under both its names."""
    if not isinstance(value, dict):
        return None
    for field in message.fields:
        if field.json_name != field.name and field.json_name in value and field.name in value:
            return field.json_name, field.json_name, field.name
        key = field.json_name if field.json_name in value else field.name
        if key not in value or field.message_type is None:
            continue
        if field.message_type.GetOptions().map_entry:
            continue
        items = value[key]
        each: list[tuple[int | None, Any]] = [(None, items)]
        if field.is_repeated:
            each = list(enumerate(items)) if isinstance(items, list) else []
        for index, item in each:
            inner = reference_twin(item, field.message_type)
            if inner is not None:
                step = field.json_name if index is None else f"{field.json_name}[{index}]"
                return f"{step}.{inner[0]}", inner[1], inner[2]
    return None


def reference_mapping(record: pb.GameRecord) -> dict[str, Any]:
    """record_mapping as it was: MessageToDict, extra tags sorted."""
    try:
        mapping = json_format.MessageToDict(record)
    except (ValueError, TypeError, json_format.SerializeToJsonError) as error:
        raise EncodingError(f"the record has no ProtoJSON form: {error}") from None
    extra = mapping.get("metadata", {}).get("extraTags")
    if extra:
        mapping["metadata"]["extraTags"] = dict(sorted(extra.items()))
    return mapping


def written(encode: Callable[[], bytes]) -> tuple[str, Any]:
    """What an encoder gives: its bytes, or its error's message."""
    try:
        return ("bytes", encode())
    except EncodingError as error:
        return ("error", str(error))


def assert_written_as_before(record: pb.GameRecord) -> tuple[str, Any]:
    """encode_jsonl and encode_json give the old bytes, or the old error; return the line."""
    line = written(lambda: encode_jsonl(record))
    assert line == written(lambda: orjson.dumps(reference_mapping(record)) + b"\n")
    assert written(lambda: encode_json(record)) == written(
        lambda: orjson.dumps(reference_mapping(record), option=orjson.OPT_INDENT_2) + b"\n"
    )
    return line


def assert_written_fast(record: pb.GameRecord) -> None:
    """The fast writer gives MessageToDict's mapping, keys in the same order."""
    fast = fast_mapping(record)
    assert fast is not None
    assert orjson.dumps(fast) == orjson.dumps(json_format.MessageToDict(record))
    assert assert_written_as_before(record)[0] == "bytes"


def outcome(parse: Callable[[], pb.GameRecord]) -> tuple[Any, ...]:
    """What a parse gives: its record, or its error with every attribute that callers read."""
    try:
        return ("record", parse())
    except LimitExceededError as error:
        return ("limit", str(error), error.reason, error.where, error.limit, error.value)
    except RecordMalformedError as error:
        return ("malformed", str(error), error.reason, error.where)


def assert_parses_as_before(
    data: bytes, first_line: int = 1, limits: Limits = DEFAULT_LIMITS
) -> tuple[Any, ...]:
    """parse_json_record gives what reference_parse gives; return that."""
    new = outcome(lambda: parse_json_record(data, SOURCE, first_line, limits=limits))
    assert new == outcome(lambda: reference_parse(data, first_line, limits))
    return new


def assert_never_differs(mapping: dict[str, Any]) -> pb.GameRecord | None:
    """fast_record leaves the mapping alone, and gives ParseDict's record or nothing."""
    before = copy.deepcopy(mapping)
    fast = fast_record(mapping)
    assert mapping == before
    if fast is not None:
        assert fast == json_format.ParseDict(mapping, pb.GameRecord())
    return fast


def canonical_mappings(record: pb.GameRecord) -> Iterator[dict[str, Any]]:
    """The record's ProtoJSON mappings: camelCase names, proto names, enum numbers."""
    yield json_format.MessageToDict(record)
    yield json_format.MessageToDict(record, preserving_proto_field_name=True)
    yield json_format.MessageToDict(record, use_integers_for_enums=True)


def assert_read_fast(record: pb.GameRecord) -> None:
    """Every canonical mapping of a record is read by the fast path, as ParseDict reads it."""
    for mapping in canonical_mappings(record):
        fast = fast_record(mapping)
        assert fast is not None, f"the fast path gave up on {mapping}"
        assert fast == json_format.ParseDict(mapping, pb.GameRecord()) == record
    assert assert_parses_as_before(encode_jsonl(record)) == ("record", record)
    assert_written_fast(record)


# -- valid records of every source -------------------------------------------------------------


@pytest.mark.parametrize("path", JSON_FIXTURES, ids=lambda path: path.name)
def test_every_json_fixture_reads_as_before(path: Path) -> None:
    data = path.read_bytes()
    if path.suffix == ".json":
        found = [assert_parses_as_before(data.removeprefix(b"\xef\xbb\xbf"))]
    else:
        lines = enumerate(data.splitlines(keepends=True), start=1)
        found = [assert_parses_as_before(line, number) for number, line in lines if line.strip()]
    for kind, *rest in found:
        if kind == "record":
            assert_read_fast(rest[0])


def test_the_json_fixtures_hold_records_and_errors() -> None:
    assert len(JSON_FIXTURES) >= 15
    assert sum(1 for path in JSON_FIXTURES if "broken" in path.parts) == 3


def decodable(path: Path) -> list[pb.GameRecord]:
    """The records of a fixture, none if it does not decode (the broken fixtures)."""
    try:
        return list(read_records(path))
    except RecordMalformedError:
        return []


@pytest.mark.parametrize("path", OTHER_FIXTURES, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_records_of_every_other_fixture_read_fast(path: Path) -> None:
    for record in decodable(path):
        assert_read_fast(record)


def test_most_other_fixtures_decode() -> None:
    assert sum(1 for path in OTHER_FIXTURES if decodable(path)) >= 50


GENERATED = [
    *(("ONE", {"Players": str(players)}) for players in range(2, 7)),
    ("ONE", {"Players": "3", "Board": "10,10,20"}),
    ("Aronda", {}),
    ("Oust", {}),
    ("Oust", {"Board": "5", "Pie": "off"}),
    *(("Oh-Wah-Ree", {"Players": str(players)}) for players in (2, 3, 4)),
]


@pytest.mark.parametrize(("game", "tags"), GENERATED, ids=str)
def test_generated_games_read_fast(game: str, tags: dict[str, str]) -> None:
    for record in generate(game, tags, 6, seed=1):
        assert_read_fast(record)


@FUZZ
@given(records())
def test_any_record_reads_fast(record: pb.GameRecord) -> None:
    assert_read_fast(record)


# -- odd and hostile mappings ------------------------------------------------------------------

MOVE = {"one": {"path": [{"ring": 3, "index": 7}]}}


def wrapped(value: Any, depth: int) -> Any:
    """A value inside ``depth`` nested lists."""
    for _ in range(depth):
        value = [value]
    return value


STAMP = "2026-11-29T20:15:03Z"

#: Mappings that are unusual but plain: the fast path must read them itself.
TAKEN_FAST: dict[str, dict[str, Any]] = {
    "empty record": {},
    "empty sub-messages are present": {"metadata": {}, "result": {}, "rules": {"one": {}}},
    "empty action messages": {"moves": [{"resign": {}}, {"pass": {}}, {"swap": {}}]},
    "empty lists and map": {"moves": [], "seats": [], "metadata": {"extraTags": {}}},
    "null means default": {
        "formatVersion": None,
        "rules": None,
        "seats": None,
        "moves": [{"seat": None, "clock": None, "one": None, "glyph": None}],
        "metadata": {"startTime": None, "extraTags": None},
        "comment": None,
    },
    "null oneof member beside a set one": {"rules": {"one": None, "aronda": {"players": 2}}},
    "null optional stays absent": {"seats": [{"rating": None}]},
    "zero optional is present": {"seats": [{"rating": 0}]},
    "proto names": {
        "format_version": 1,
        "rules": {"rules_version": "1", "oh_wah_ree": {"stones_per_pit": 5}},
        "seats": [{"player_id": "p"}],
        "metadata": {"time_control": "15+10", "start_time": STAMP, "extra_tags": {"a": "b"}},
        "moves": [{"oh_wah_ree": {"pit": 4, "direction": "SOW_DIRECTION_CW"}}],
    },
    "mixed names in one message": {"metadata": {"timeControl": "1", "start_time": STAMP}},
    "enum numbers": {"rules": {"game": 1}, "moves": [{**MOVE, "glyph": 2}]},
    "unknown enum numbers are kept": {"rules": {"game": 99}, "moves": [{**MOVE, "glyph": -7}]},
    "int32 extremes": {"seats": [{"rating": -(2**31)}, {"rating": 2**31 - 1}]},
    "uint32 extremes": {"formatVersion": 2**32 - 1, "result": {"winners": [0, 2**32 - 1]}},
    "times with offsets and fractions": {
        "metadata": {"startTime": "2026-11-29T20:15:03.123456789+05:30"},
        "moves": [{**MOVE, "clock": "-1.5s", "timestamp": "0001-01-01T00:00:00Z"}],
    },
    "every oneof member once": {
        "rules": {"oust": {"boardSide": 5}},
        "moves": [{"aronda": {"placements": [{"ring": "ARONDA_RING_CENTRE"}]}}],
        "result": {"scores": {"values": [3, 4]}},
    },
    "unicode text": {"comment": "ünï 😀 \u0000 \x7f", "metadata": {"extraTags": {"Ö": "😀"}}},
}

#: Mappings that ProtoJSON reads or refuses in ways the fast path leaves to json_format.
HOSTILE: dict[str, Any] = {
    "unknown key": {"colour": "red"},
    "unknown nested key": {"moves": [{**MOVE, "ply": 1}]},
    "extension-like key": {"[gamerec.v1.x]": 1},
    "key of another message": {"rules": {"seat": 1}},
    "two members of a oneof": {"moves": [{"one": {}, "pass": {}}]},
    "two members of a variant": {"rules": {"one": {}, "oust": {}}},
    "two claims": {"result": {"unfinished": {}, "scores": {}}},
    "both spellings of a scalar": {"formatVersion": 1, "format_version": 2},
    "both spellings, snake first": {"format_version": 2, "formatVersion": 1},
    "both spellings of a repeated field": {"rules": {"one": {"ringSizes": [1], "ring_sizes": [2]}}},
    "both spellings of a map": {"metadata": {"extraTags": {"a": "1"}, "extra_tags": {"b": "2"}}},
    "both spellings of a time": {"metadata": {"startTime": STAMP, "start_time": STAMP}},
    "both spellings of a oneof member": {"rules": {"ohWahRee": {}, "oh_wah_ree": {}}},
    "both spellings, one null": {"rules": {"ohWahRee": {"players": 2}, "oh_wah_ree": None}},
    "both spellings, the first null": {"rules": {"oh_wah_ree": None, "ohWahRee": {"players": 2}}},
    "null in a list": {"moves": [None]},
    "null in a scalar list": {"result": {"winners": [1, None]}},
    "null map value": {"metadata": {"extraTags": {"a": None}}},
    "bool for an integer": {"formatVersion": True},
    "bool in an integer list": {"result": {"winners": [False]}},
    "bool for an enum": {"moves": [{"glyph": True}]},
    "bool for a string": {"comment": False},
    "bool for a message": {"metadata": True},
    "integral float": {"formatVersion": 3.0},
    "integral float in a list": {"rules": {"one": {"ringSizes": [10.0, 20]}}},
    "fractional float": {"formatVersion": 3.5},
    "float for an enum": {"moves": [{"glyph": 1.9}]},
    "float for a string": {"comment": 1.5},
    "numeric string": {"formatVersion": "3"},
    "numeric string with a space": {"formatVersion": " 3"},
    "numeric string with a tab": {"formatVersion": "\t3"},
    "numeric string with underscores": {"formatVersion": "1_0"},
    "numeric string in exponent form": {"seats": [{"rating": "-1e3"}]},
    "numeric string, not integral": {"formatVersion": "1.5"},
    "int64-sized string": {"formatVersion": "9223372036854775807"},
    "uint32 max as a string": {"formatVersion": "4294967295"},
    "enum number as a string": {"moves": [{"glyph": "2"}]},
    "unknown enum name": {"moves": [{"glyph": "GLYPH_SUPERB"}]},
    "enum name of another enum": {"rules": {"game": "GLYPH_GOOD"}},
    "enum name in lower case": {"rules": {"game": "game_one"}},
    "enum number beyond int32": {"moves": [{"glyph": 2**31}]},
    "negative uint32": {"formatVersion": -1},
    "uint32 beyond range": {"formatVersion": 2**32},
    "int32 beyond range": {"seats": [{"rating": 2**31}]},
    "int32 below range": {"seats": [{"rating": -(2**31) - 1}]},
    "integer beyond 64 bits": {"formatVersion": 2**64 - 1},
    "int for a string": {"comment": 5},
    "list for a string": {"comment": ["a"]},
    "dict for a string": {"seats": [{"name": {}}]},
    "list for a message": {"metadata": []},
    "empty string for a message": {"metadata": ""},
    "string for a message": {"metadata": "x"},
    "int for a message": {"rules": 1},
    "empty list for a list element": {"moves": [[]]},
    "string for a list element": {"moves": ["one"]},
    "dict for a list": {"moves": {}},
    "string for a list": {"result": {"winners": "12"}},
    "empty string for a list": {"rules": {"one": {"ringSizes": ""}}},
    "dict for a scalar list": {"result": {"winners": {"1": 2}}},
    "empty dict for a scalar list": {"result": {"winners": {}}},
    "empty dict for a nested scalar list": {"result": {"scores": {"values": {}}}},
    "empty string for a message list": {"moves": ""},
    "empty dict for a seat list": {"seats": {}},
    "empty dict for a point list": {"moves": [{"one": {"path": {}}}]},
    "empty string for a cell list": {"moves": [{"oust": {"placements": ""}}]},
    "empty dict for a field list": {"moves": [{"aronda": {"placements": {}}}]},
    "empty dict for a variation list": {"moves": [{"variations": {}}]},
    "list for a map": {"metadata": {"extraTags": [["a", "b"]]}},
    "list of pairs for a map": {"metadata": {"extraTags": ["ab"]}},
    "int map value": {"metadata": {"extraTags": {"a": 1}}},
    "dict for a time": {"metadata": {"startTime": {"seconds": 5}}},
    "int for a time": {"metadata": {"startTime": 5}},
    "time without offset": {"metadata": {"startTime": "2026-11-29T20:15:03"}},
    "time with lower-case t": {"metadata": {"startTime": "2026-11-29t20:15:03Z"}},
    "time beyond year 9999": {"metadata": {"startTime": "10000-01-01T00:00:00Z"}},
    "time with ten fraction digits": {"moves": [{"timestamp": "2026-11-29T20:15:03.1234567890Z"}]},
    "duration without s": {"moves": [{"clock": "90"}]},
    "duration as a number": {"moves": [{"clock": 90}]},
    "duration as a dict": {"moves": [{"clock": {"seconds": 90}}]},
    "duration beyond range": {"moves": [{"clock": "315576000001s"}]},
    "duration with a space": {"moves": [{"clock": " 1s"}]},
    "constructor-only name": {"moves": [{"DESCRIPTOR": 1}]},
    "deep lists for a string": {"comment": wrapped("x", 200)},
    "deep lists for a message": {"metadata": wrapped({}, 200)},
    "deep lists for a list": {"moves": wrapped({}, 200)},
    "deep junk under an unknown key": {"x": wrapped({"a": wrapped([], 3)}, 200)},
}


def nested(depth: int, leaf: dict[str, Any]) -> dict[str, Any]:
    """A record whose first move holds variations ``depth`` deep, ``leaf`` the deepest move."""
    move = leaf
    for _ in range(depth):
        move = {**MOVE, "variations": [{"moves": [move]}]}
    return {"moves": [move]}


DEEPEST_LEAF = {**MOVE, "clock": "1s", "timestamp": STAMP, "glyph": "GLYPH_GOOD"}


@pytest.mark.parametrize("name", TAKEN_FAST)
def test_odd_but_plain_mappings_are_read_fast(name: str) -> None:
    mapping = TAKEN_FAST[name]
    assert assert_never_differs(mapping) is not None
    assert assert_parses_as_before(orjson.dumps(mapping))[0] == "record"


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_mappings_read_or_fail_as_before(name: str) -> None:
    mapping = HOSTILE[name]
    assert_never_differs(mapping)
    assert_parses_as_before(orjson.dumps(mapping))


def test_the_hostile_table_holds_both_refusals_and_forms_only_json_format_reads() -> None:
    kinds = [assert_parses_as_before(orjson.dumps(mapping))[0] for mapping in HOSTILE.values()]
    assert kinds.count("malformed") > 40
    assert kinds.count("record") > 10


@pytest.mark.parametrize("depth", [1, 2, 47, 48])
def test_variations_nested_as_deep_as_the_limit_read_fast(depth: int) -> None:
    mapping = nested(depth, DEEPEST_LEAF)
    assert assert_never_differs(mapping) is not None
    assert assert_parses_as_before(orjson.dumps(mapping))[0] == "record"


def nested_text(depth: int) -> bytes:
    """``nested(depth, MOVE)`` as JSON text, written out (orjson writes 255 levels at most)."""
    move = orjson.dumps(MOVE)[:-1]
    text = orjson.dumps(MOVE)
    for _ in range(depth):
        text = move + b',"variations":[{"moves":[' + text + b"]}]}"
    return b'{"moves":[' + text + b"]}"


@pytest.mark.parametrize("depth", [49, 60, 240])
def test_variations_nested_deeper_than_the_limit_fail_as_before(depth: int) -> None:
    assert orjson.loads(nested_text(2)) == nested(2, MOVE)
    assert assert_parses_as_before(nested_text(depth))[0] == "limit"


def test_json_nested_deeper_than_orjson_reads_fails_as_before() -> None:
    assert assert_parses_as_before(nested_text(400))[0] == "malformed"


@pytest.mark.parametrize("depth", [3, 10])
def test_variations_deeper_than_a_lower_limit_fail_as_before(depth: int) -> None:
    limits = Limits(max_variation_depth=2)
    found = assert_parses_as_before(orjson.dumps(nested(depth, DEEPEST_LEAF)), limits=limits)
    assert found[0] == "limit"


@pytest.mark.parametrize(
    "text",
    [b"", b"{", b"[]", b"3", b'"x"', b"null", b'{"a": 1,}', b'{"comment": "\\ud800"}', b"\xff"],
)
def test_what_is_not_a_json_object_fails_as_before(text: bytes) -> None:
    assert assert_parses_as_before(text)[0] == "malformed"


# -- timestamps --------------------------------------------------------------------------------

TIMESTAMP_MIN_SECONDS = -62135596800
TIMESTAMP_MAX_SECONDS = 253402300799


@FUZZ
@given(
    st.integers(TIMESTAMP_MIN_SECONDS, TIMESTAMP_MAX_SECONDS),
    st.integers(0, 999_999_999),
    st.integers(0, 9),
)
def test_any_utc_timestamp_reads_as_from_json_string_reads_it(
    seconds: int, nanos: int, digits: int
) -> None:
    whole = timestamp_pb2.Timestamp(seconds=seconds).ToJsonString().removesuffix("Z")
    text = whole + (f".{nanos:09d}"[: digits + 1] if digits else "") + "Z"
    expected = timestamp_pb2.Timestamp()
    expected.FromJsonString(text)
    mapping = {"metadata": {"startTime": text}, "moves": [{"timestamp": text}]}
    assert assert_never_differs(mapping) == pb.GameRecord(
        metadata=pb.Metadata(start_time=expected), moves=[pb.Move(timestamp=expected)]
    )


TIME_TEXTS_ODD = [
    "2024-02-29T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2000-02-29T23:59:59.5Z",
    "1969-12-31T23:59:59.999999999Z",
    "0001-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z",
    "2026-11-29T24:00:00Z",
    "2026-11-29T23:60:00Z",
    "2026-11-29T23:59:60Z",
    "2026-11-29T23:59:61Z",
    "2026-13-01T00:00:00Z",
    "2026-00-10T00:00:00Z",
    "2026-11-00T00:00:00Z",
    "2026-11-31T00:00:00Z",
    "2026-1-29T20:15:03Z",
    "2026-11-29T2:15:03Z",
    "2026-11-29T20:15:3Z",
    "\uff12\uff10\uff12\uff16-11-29T20:15:03Z",
    "2026-11-29T20:15:03.Z",
    "2026-11-29T20:15:03.1234567890Z",
    "2026-11-29T20:15:03.000000000Z",
    "2026-11-29T20:15:03z",
    "2026-11-29t20:15:03Z",
    "2026-11-29 20:15:03Z",
    "2026-11-29T20:15:03ZZ",
    "2026-11-29T20:15:03Z\n",
    " 2026-11-29T20:15:03Z",
    "2026-11-29T20:15:03+00:00",
    "2026-11-29T20:15:03-05:30",
    "2026-11-29T20:15:03.5+01:00",
    "0001-01-01T00:00:00+00:01",
    "9999-12-31T23:59:59-00:01",
    "2026-11-29T20:15:03",
    "",
]


@pytest.mark.parametrize("text", TIME_TEXTS_ODD)
def test_odd_timestamps_read_or_fail_as_before(text: str) -> None:
    mapping = {"metadata": {"startTime": text}, "moves": [{"timestamp": text}]}
    assert_never_differs(mapping)
    assert_parses_as_before(orjson.dumps(mapping))


# -- random mutations of valid mappings --------------------------------------------------------


def _schema_messages() -> list[Descriptor]:
    found: dict[str, Descriptor] = {}
    pending = [pb.GameRecord.DESCRIPTOR]
    while pending:
        message = pending.pop()
        if message.full_name not in found:
            found[message.full_name] = message
            pending.extend(f.message_type for f in message.fields if f.message_type is not None)
    return list(found.values())


MESSAGES = _schema_messages()
FIELD_KEYS = sorted({name for m in MESSAGES for f in m.fields for name in (f.name, f.json_name)})
ENUM_NAMES = sorted(
    value.name for enum in pb.DESCRIPTOR.enum_types_by_name.values() for value in enum.values
)
TIME_TEXTS = [
    STAMP,
    "2026-11-29T20:15:03.5+01:00",
    "9999-12-31T23:59:59.999999999Z",
    "0000-12-31T23:59:59Z",
    "2026-11-29 20:15:03Z",
    "1.5s",
    "-0.000000001s",
    "315576000000s",
    "1.0000000001s",
    "s",
    "",
]
NUMBER_TEXTS = ["1.0", "1e3", " 1", "\t1", "1_0", "+1", "0x1", "-0", "١", "NaN"]

hostile_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.sampled_from([0, 1, -1, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32 - 1, 2**32]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-10, 10).map(float),
    st.integers(-(2**33), 2**33).map(str),
    st.sampled_from(NUMBER_TEXTS + ENUM_NAMES + TIME_TEXTS),
    st.text(max_size=6),
)
hostile_values = st.recursive(
    hostile_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(FIELD_KEYS) | st.text(max_size=3), inner, max_size=3),
    ),
    max_leaves=6,
)

Node = tuple[dict[str, Any], Descriptor | None]


def field_named(message: Descriptor, key: str) -> FieldDescriptor | None:
    """The field a key names, by json name or proto name."""
    for field in message.fields:
        if key in (field.json_name, field.name):
            return field
    return None


def nodes(mapping: dict[str, Any], message: Descriptor) -> Iterator[Node]:
    """Every object of a mapping that stands for a message or a map, with its message type."""
    yield mapping, message
    for key, value in mapping.items():
        field = field_named(message, key)
        inner = field.message_type if field is not None else None
        if inner is None or inner.full_name.startswith("google.protobuf."):
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                yield from [(item, None)] if inner.GetOptions().map_entry else nodes(item, inner)


def other_spelling(message: Descriptor, key: str) -> str:
    """The field's other name (the same one when both are equal)."""
    field = field_named(message, key)
    if field is None:
        return key
    return field.name if key == field.json_name else field.json_name


@st.composite
def mutated_mappings(draw: st.DrawFn) -> dict[str, Any]:
    """A record's mapping with one to three odd or hostile changes anywhere in it."""
    record = draw(records(depth=1))
    mapping = json_format.MessageToDict(record, preserving_proto_field_name=draw(st.booleans()))
    for _ in range(draw(st.integers(1, 3))):
        node, message = draw(st.sampled_from(list(nodes(mapping, pb.GameRecord.DESCRIPTOR))))
        if message is None:
            node[draw(st.text(max_size=3))] = draw(hostile_values)
            continue
        names = sorted({name for f in message.fields for name in (f.name, f.json_name)})
        key = draw(st.sampled_from([*names, "unknown", "[x.y]"]))
        change = draw(st.sampled_from(["set", "twin", "delete", "oneof"]))
        if change == "set":
            node[key] = draw(hostile_values)
        elif change == "twin" and key in node:
            node[other_spelling(message, key)] = draw(st.one_of(st.just(node[key]), hostile_values))
        elif change == "delete":
            node.pop(key, None)
        elif change == "oneof" and message.oneofs:
            oneof = draw(st.sampled_from(list(message.oneofs)))
            member = draw(st.sampled_from(list(oneof.fields)))
            spelling = draw(st.sampled_from([member.name, member.json_name]))
            node[spelling] = draw(st.one_of(st.just({}), st.none(), hostile_values))
    return mapping


@FUZZ
@given(mutated_mappings())
def test_mutated_mappings_read_or_fail_as_before(mapping: dict[str, Any]) -> None:
    assert_never_differs(mapping)
    assert_parses_as_before(orjson.dumps(mapping))


# -- writing -----------------------------------------------------------------------------------


def _times_at_the_ends_of_their_range() -> pb.GameRecord:
    record = pb.GameRecord()
    record.metadata.start_time.FromJsonString("9999-12-31T23:59:59.999999999Z")
    record.moves.add().clock.FromJsonString("-315576000000.999999999s")
    record.moves.add().timestamp.FromJsonString("0001-01-01T00:00:00Z")
    return record


def _with_start(seconds: int = 0, nanos: int = 0) -> pb.GameRecord:
    start = timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)
    return pb.GameRecord(metadata=pb.Metadata(start_time=start))


def _with_clock(seconds: int = 0, nanos: int = 0) -> pb.GameRecord:
    return pb.GameRecord(moves=[pb.Move(clock=duration_pb2.Duration(seconds=seconds, nanos=nanos))])


#: Records whose mapping is odd but plain: the fast writer must write them itself.
WRITTEN_FAST = {
    "empty": pb.GameRecord(),
    "unknown enum numbers": pb.GameRecord(
        rules=pb.Rules(
            game=pb.Game.ValueType(-3), one=pb.OneVariant(mirror=pb.OneMirror.ValueType(99))
        ),
        moves=[pb.Move(glyph=pb.Glyph.ValueType(77))],
    ),
    "empty sub-messages": pb.GameRecord(
        metadata=pb.Metadata(), result=pb.ClaimedResult(unfinished=pb.Unfinished())
    ),
    "zero rating": pb.GameRecord(seats=[pb.Seat(rating=0), pb.Seat()]),
    "extra tags out of order": pb.GameRecord(
        metadata=pb.Metadata(extra_tags={"b": "1", "a": "2", "C": "", "ä": "x"})
    ),
    "times at the ends of their range": _times_at_the_ends_of_their_range(),
    "unknown fields are not written": pb.GameRecord.FromString(b"\xf8\x01\x05\x38\x01"),
}

#: Records with a value that has no ProtoJSON form: the old error, word for word.
NOT_WRITABLE = {
    "timestamp after 9999": _with_start(seconds=10**12),
    "timestamp before year 1": _with_start(seconds=-62135596801),
    "negative timestamp nanos": _with_start(nanos=-1),
    "duration sign mismatch": _with_clock(seconds=1, nanos=-5),
    "duration nanos out of range": _with_clock(nanos=2 * 10**9),
    "duration seconds out of range": _with_clock(seconds=10**12),
}


@pytest.mark.parametrize("name", WRITTEN_FAST)
def test_odd_but_plain_records_are_written_fast(name: str) -> None:
    assert_written_fast(WRITTEN_FAST[name])


@pytest.mark.parametrize("name", NOT_WRITABLE)
def test_records_without_a_json_form_fail_as_before(name: str) -> None:
    assert fast_mapping(NOT_WRITABLE[name]) is None
    assert assert_written_as_before(NOT_WRITABLE[name])[0] == "error"


# -- the limits --------------------------------------------------------------------------------

small_limits = st.builds(
    Limits,
    max_plies=st.integers(0, 8),
    max_moves=st.integers(0, 20),
    max_variation_depth=st.integers(0, 3),
    max_tags=st.integers(0, 3),
    max_tag_chars=st.integers(0, 40),
    max_seats=st.integers(0, 6),
    max_comment_chars=st.integers(0, 40),
)


def measures(record: pb.GameRecord) -> dict[str, int]:
    """What each limit bounds in a record: counts, the longest text and comment, the depth."""
    moves = list(walk_moves(record.moves, lambda move: move.variations, lambda line: line.moves))
    return {
        "max_plies": len(record.moves),
        "max_moves": sum(1 + len(move.variations) for _, _, move in moves),
        "max_variation_depth": max(
            (depth + 1 for _, depth, move in moves if move.variations), default=0
        ),
        "max_tags": len(record.metadata.extra_tags),
        "max_tag_chars": max(len(text) for _, text in reference_texts(record)),
        "max_seats": len(record.seats),
        "max_comment_chars": max(
            len(text) for text in [record.comment] + [m.comment for *_, m in moves]
        ),
    }


@st.composite
def records_and_limits(draw: st.DrawFn) -> tuple[pb.GameRecord, Limits]:
    """A record, and limits each of which is the default, or just below, at or above its value."""
    record = draw(records(depth=2))
    chosen = {
        name: draw(
            st.sampled_from([getattr(DEFAULT_LIMITS, name), max(found - 1, 0), found, found + 1])
        )
        for name, found in measures(record).items()
    }
    return record, Limits(**chosen)


@FUZZ
@given(records_and_limits())
def test_records_over_a_limit_fail_as_before(drawn: tuple[pb.GameRecord, Limits]) -> None:
    record, limits = drawn
    assert_parses_as_before(encode_jsonl(record), limits=limits)


@FUZZ
@given(records_and_limits())
def test_check_record_refuses_what_its_walk_refused(drawn: tuple[pb.GameRecord, Limits]) -> None:
    record, limits = drawn

    def old() -> pb.GameRecord:
        reference_check_record(record, limits, "line 1")
        return record

    def new(serialized: bytes | None) -> Callable[[], pb.GameRecord]:
        def check() -> pb.GameRecord:
            check_record(record, limits, source=SOURCE, where="line 1", serialized=serialized)
            return record

        return check

    assert outcome(new(None)) == outcome(new(record.SerializeToString())) == outcome(old)


junk: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.integers(), st.text(max_size=2), st.just({}), st.just([])
)
move_lines: st.SearchStrategy[Any] = st.deferred(
    lambda: st.lists(move_shapes, max_size=3) | junk  # type: ignore[has-type]
)
variation_shapes = st.fixed_dictionaries({}, optional={"moves": move_lines}) | junk
move_shapes = (
    st.fixed_dictionaries(
        {}, optional={"variations": st.lists(variation_shapes, max_size=3) | junk}
    )
    | junk
)


@FUZZ
@given(st.fixed_dictionaries({}, optional={"moves": move_lines}), small_limits)
@example({"moves": [2**64, {"variations": [{"moves": [{}]}]}]}, Limits(max_moves=2))
def test_check_mapping_refuses_what_its_walk_refused(
    mapping: dict[str, Any], limits: Limits
) -> None:
    def new() -> pb.GameRecord:
        check_mapping(mapping, limits, source=SOURCE, where="line 1")
        return pb.GameRecord()

    def old() -> pb.GameRecord:
        reference_check_mapping(mapping, limits, "line 1")
        return pb.GameRecord()

    def with_text(text: bytes, moves_text: bytes | None = None) -> Callable[[], pb.GameRecord]:
        def check() -> pb.GameRecord:
            where = "line 1"
            check_mapping(
                mapping, limits, source=SOURCE, where=where, text=text, moves_text=moves_text
            )
            return pb.GameRecord()

        return check

    # The text the mapping is read from: as written, and with its keys escaped (a text that
    # never spells "variations" out). json, not orjson: the junk holds integers of any size.
    written = json.dumps(mapping).encode()
    escaped = written.replace(b'"variations"', b'"vari\\u0061tions"')
    assert json.loads(escaped) == mapping
    assert outcome(new) == outcome(old) == outcome(with_text(written))
    assert outcome(with_text(escaped)) == outcome(old)
    # The main line as orjson writes it (the reader's), when orjson can write it.
    if isinstance(mapping.get("moves"), list):
        try:
            moves_text = orjson.dumps(mapping["moves"])
        except orjson.JSONEncodeError:
            return
        assert outcome(with_text(escaped, moves_text)) == outcome(old)


@pytest.mark.parametrize(
    "key",
    [b'"variations"', b'"vari\\u0061tions"', b'"\\u0076ariations"'],
    ids=["plain", "escaped", "first"],
)
def test_variations_too_deep_are_refused_however_the_text_spells_their_key(key: bytes) -> None:
    line: list[Any] = [{}]
    for _ in range(3):
        line = [{"variations": [{"moves": line}]}]
    text = orjson.dumps({"moves": line}).replace(b'"variations"', key)
    mapping = orjson.loads(text)
    moves_text = orjson.dumps(mapping["moves"])
    for written in (None, moves_text):
        with pytest.raises(LimitExceededError, match="variations nested 3 deep"):
            check_mapping(mapping, Limits(max_variation_depth=2), text=text, moves_text=written)
        check_mapping(mapping, Limits(max_variation_depth=3), text=text, moves_text=written)


def test_check_mapping_stops_as_soon_as_its_walk_did_on_shared_lists() -> None:
    line: list[Any] = [{}] * 1000
    for _ in range(40):  # 1000 ** 40 moves if the shared lists were walked in full
        line = [{"variations": [{"moves": line}] * 1000}] * 1000
    limits = Limits(max_variation_depth=48)
    with pytest.raises(LimitExceededError, match="more than the limit of 250,000"):
        check_mapping({"moves": line}, limits)
