"""Abstract Play's game records: reading, writing, round trips, the schema, bad input.

The hand-made records of fixtures/foreign/abstractplay/ are written to the published schema
(a copy in fixtures/foreign/abstractplay/schema/, which every file the writer produces is
validated against); their moves were played on Abstract Play's own labels by the second
referee of tests/reference/abstractplay_oust.py.
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator

from gamerec.recorder.codecs import (
    Encoding,
    encode_record,
    read_frames,
    read_records,
    write_records,
)
from gamerec.recorder.errors import (
    EmptyInputError,
    EncodingError,
    LimitExceededError,
    RecordMalformedError,
)
from gamerec.recorder.foreign import abstractplay as ap
from gamerec.recorder.foreign import json_array
from gamerec.recorder.limits import Limits
from gamerec.recorder.notation import format_action
from gamerec.recorder.syntax import oust
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.judge import validate
from tests.reference.abstractplay_oust import AbstractPlayOust, random_game

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "fixtures" / "foreign" / "abstractplay"
FIXTURES = sorted(FOLDER.glob("*.json"))
BROKEN = ROOT / "fixtures" / "broken"
SCHEMA = Draft7Validator(json.loads((FOLDER / "schema" / "gamerecord.json").read_text()))
#: JavaScript's Date.toISOString, which gameslib writes every date with.
ISO_DATE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def records_of(path: Path) -> list[pb.GameRecord]:
    return list(read_records(path))


def exported(records: list[pb.GameRecord]) -> Any:
    """The JSON value the writer writes for some records."""
    stream = io.BytesIO()
    write_records(records, stream, Encoding.ABSTRACT_PLAY)
    return orjson.loads(stream.getvalue())


#: The hand-made record with gameslib's quirks: a null result (a serialised -Infinity), which
#: the schema does not allow, and which a round trip must give back as it was.
QUIRKS = "oust-quirks.json"


def assert_follows_the_schema(value: Any, allowed: tuple[str, ...] = ()) -> None:
    """Every record of a written file is valid under the published schema, dates included."""
    for record in value if isinstance(value, list) else [value]:
        errors = [error.message for error in SCHEMA.iter_errors(record)]
        assert errors == list(allowed)
        for key in ("date-start", "date-end", "date-generated"):
            assert ISO_DATE.fullmatch(record["header"][key]), record["header"][key]


# -- the hand-made records ---------------------------------------------------------------------


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
def test_every_hand_made_record_follows_the_schema_and_is_a_valid_game(path: Path) -> None:
    value = json.loads(path.read_text())
    assert_follows_the_schema(value, quirks_of(path))
    verdicts = [validate(record) for record in records_of(path)]
    assert verdicts and all(verdict.valid for verdict in verdicts), [
        [error.message for error in verdict.errors] for verdict in verdicts
    ]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
@pytest.mark.parametrize("through", [None, Encoding.GRN, Encoding.PBS, Encoding.JSONL])
def test_a_record_read_and_written_back_is_an_equal_json_value(
    path: Path, through: Encoding | None
) -> None:
    records = records_of(path)
    if through is not None:  # through gamerec's own encodings first
        data = b"".join(encode_record(record, through) for record in records)
        records = list(read_records(io.BytesIO(data), through))
    value = exported(records)
    assert value == json.loads(path.read_text())
    assert_follows_the_schema(value, quirks_of(path))


def quirks_of(path: Path) -> tuple[str, ...]:
    return ("None is not of type 'integer'",) if path.name == QUIRKS else ()


def test_the_fields_of_a_record_as_gameslib_writes_it() -> None:
    (record,) = records_of(FOLDER / "oust-hex7.json")
    assert record.rules.oust.pie == pb.OUST_PIE_OFF  # Abstract Play's Oust has no pie rule
    assert not record.rules.oust.HasField("board_side")  # hex-7 is the default
    assert [(seat.name, seat.player_id) for seat in record.seats] == [
        ("Aaron", "2kL8mZq0"),
        ("Mark", "9xTf3Hc1"),
    ]
    assert record.metadata.site == "Abstract Play"
    assert record.metadata.start_time.ToJsonString() == "2024-06-01T09:12:44.512Z"
    tags = record.metadata.extra_tags
    assert tags["AbstractPlayGameId"] == "5c4f2a7e-1d9b-4c0e-9a39-6f0f3d2b8e11"
    assert tags["AbstractPlayDateEnd"] == "2024-06-09T21:03:10.078Z"
    assert tags["AbstractPlayDateGenerated"] == "2024-06-09T21:03:11.254Z"
    players = json.loads((FOLDER / "oust-hex7.json").read_text())["header"]["players"]
    scores = ",".join(str(player["score"]) for player in players)
    assert tags["AbstractPlayScores"] == scores  # the stones left, gameslib's score
    assert "AbstractPlayJSON" not in tags  # nothing else to keep
    assert list(record.result.scores.values) == [1, 0]
    assert list(record.result.winners) == [1]
    first = json.loads((FOLDER / "oust-hex7.json").read_text())["moves"][0]
    assert [format_action(move) for move in record.moves[:2]] == [
        ap_to_grn(label, 7) for label in first
    ]
    assert [move.seat for move in record.moves[:4]] == [1, 2, 1, 2]


def ap_to_grn(move: str, side: int) -> str:
    return oust.ap_move_to_grn(move, {"Board": str(side)})


def test_variants_events_and_the_unrated_flag() -> None:
    (record,) = records_of(FOLDER / "oust-hex6-event.json")
    assert record.rules.oust.board_side == 6
    assert (record.metadata.event, record.metadata.round) == ("Oust Open 2024", "3")
    assert record.metadata.extra_tags["AbstractPlayUnrated"] == "true"
    (record,) = records_of(FOLDER / "oust-hex8-resign.json")
    assert record.rules.oust.board_side == 8  # read from the uid hex-8
    assert record.moves[-1].WhichOneof("action") == "resign"
    assert record.result.termination == pb.TERMINATION_RESIGNATION
    assert record.metadata.extra_tags["AbstractPlayGameId"] == "40213"  # a number, kept


def test_the_pie_flag_a_null_result_and_a_move_object() -> None:
    # gameslib writes pie-invoked; IRecordDetails calls it pied: both mean the second player
    # took over the first move, and the players are listed as of the end (Bea first).
    (record,) = records_of(FOLDER / "oust-quirks.json")
    assert record.rules.oust.pie == pb.OUST_PIE_ON
    assert record.moves[1].WhichOneof("action") == "swap"
    assert [seat.name for seat in record.seats] == ["Abe", "Bea"]
    # A null result (a serialised -Infinity) ranks last and claims no score.
    assert list(record.result.winners) == [2]
    assert not record.result.HasField("scores")
    patch = json.loads(record.metadata.extra_tags["AbstractPlayJSON"])
    kept = {tuple(entry["at"]) for entry in patch}
    assert ("header", "pied") in kept and ("header", "players", 1, "is_ai") in kept
    assert ("moves", 0, 0) in kept  # the move object with its results


def test_move_text_is_read_in_any_case_and_spacing_and_written_back_as_it_was() -> None:
    value = json.loads((FOLDER / "oust-hex7.json").read_text())
    value["moves"][0][0] = " " + value["moves"][0][0].upper() + " "
    record = ap.record_of_value(copy.deepcopy(value), "x")
    plain = ap.record_of_value(json.loads((FOLDER / "oust-hex7.json").read_text()), "x")
    assert list(record.moves) == list(plain.moves)
    assert ap.abstract_play_value(record) == value


@pytest.mark.parametrize(
    ("ending", "termination"),
    [
        ("timeout", pb.TERMINATION_TIMEOUT),
        ("draw", pb.TERMINATION_AGREEMENT),
        ("abandoned", pb.TERMINATION_ABANDONED),
    ],
)
def test_a_game_that_ends_otherwise_than_by_the_rules(ending: str, termination: int) -> None:
    value = json.loads((FOLDER / "oust-hex8-resign.json").read_text())
    value["moves"][-1][-1] = ending
    record = ap.record_of_value(copy.deepcopy(value), "x")
    assert record.result.termination == termination
    assert len(record.moves) == 20  # the ending is no ply
    assert ap.abstract_play_value(record) == value
    value["moves"].append(["a1"])
    with pytest.raises(RecordMalformedError, match=f"'{ending}' ends a game, but moves follow"):
        ap.record_of_value(value, "x")


# -- gamerec's records --------------------------------------------------------------------------


@st.composite
def generated_oust(draw: st.DrawFn) -> pb.GameRecord:
    """An Oust record gamerec generates, on a board Abstract Play offers."""
    tags = {"Board": draw(st.sampled_from(["6", "7", "8"]))}
    if draw(st.booleans()):
        tags["Pie"] = draw(st.sampled_from(["on", "off"]))
    seed = draw(st.integers(0, 10**6))
    return next(generate("Oust", tags, 1, seed))  # greedy play is seconds a game: random


@PROPERTY
@given(generated_oust())
def test_import_of_export_is_the_record_for_every_generated_oust_record(
    record: pb.GameRecord,
) -> None:
    value = exported([record])
    assert_follows_the_schema(value)
    assert list(read_records(io.BytesIO(orjson.dumps(value)), Encoding.ABSTRACT_PLAY)) == [record]
    # The file's own fields, without the embedded copy, hold the game: the moves and seats
    # as the record's, the winner.
    del value["header"][ap.EMBEDDED]
    plain = ap.record_of_value(value, "x")
    assert [format_action(m) for m in plain.moves] == [format_action(m) for m in record.moves]
    assert [seat.name for seat in plain.seats] == [seat.name for seat in record.seats]
    assert list(plain.result.winners) == list(record.result.winners)


def test_a_record_abstract_play_holds_whole_is_written_without_a_copy() -> None:
    for record in generate("Oust", {"Pie": "off", "Board": "6"}, 3, seed=5):
        record.metadata.ClearField("client")
        notes: list[str] = []
        value = ap.abstract_play_value(record, notes.append)
        assert ap.EMBEDDED not in value["header"] and notes == []
        assert ap.record_of_value(value, "x") == record


def test_what_abstract_play_has_no_place_for_is_named_and_kept() -> None:
    record = next(generate("Oust", {}, 1, seed=8))  # Pie on: Abstract Play's Oust has none
    record.moves[0].comment = "a quiet start"
    record.moves[0].clock.FromSeconds(600)
    notes: list[str] = []
    value = ap.abstract_play_value(record, notes.append)
    assert notes == [
        "Abstract Play's record has no place for rules.oust, metadata.client, "
        "moves[*].comment, moves[*].clock; kept in header.gamerec, which only gamerec reads"
    ]
    assert ap.record_of_value(value, "x") == record


def test_exported_games_are_legal_under_abstract_plays_rules_with_the_same_winner() -> None:
    """The cross-check: Abstract Play's Oust, on its own labels, replays what gamerec wrote."""
    for side in ("6", "7", "8"):
        for record in generate("Oust", {"Board": side, "Pie": "off"}, 10, seed=int(side)):
            value = ap.abstract_play_value(record)
            game = AbstractPlayOust(int(side))
            moves = [move for round_ in value["moves"] for move in round_]
            assert len(moves) == len(record.moves)
            for move, ply in zip(moves, record.moves, strict=True):
                assert move.count(",") == format_action(ply).count(",")  # same turn lengths
                game.play(move)
            assert [game.winner] == list(record.result.winners)
            results = [player["result"] for player in value["header"]["players"]]
            assert results == [int(game.winner == 1), int(game.winner == 2)]


@pytest.mark.parametrize(
    ("side", "games"),
    [
        (6, 6),
        (7, 6),
        (8, 4),
        *(pytest.param(side, 100, marks=pytest.mark.slow) for side in (6, 7, 8)),
    ],
)
def test_games_played_on_abstract_plays_labels_are_valid_gamerec_games(
    side: int, games: int
) -> None:
    """The cross-check the other way: games played by Abstract Play's rules, on its labels."""
    for seed in range(games):
        moves, winner = random_game(side, seed)
        value = {
            "header": {
                "game": {"name": "Oust", **({"variants": [f"hex-{side}"]} if side != 7 else {})},
                "site": {"name": "Abstract Play"},
                "date-start": "2024-01-01T00:00:00.000Z",
                "date-end": "2024-01-02T00:00:00.000Z",
                "date-generated": "2024-01-02T00:00:00.000Z",
                "players": [
                    {"name": "a", "result": int(winner == 1)},
                    {"name": "b", "result": int(winner == 2)},
                ],
            },
            "moves": [moves[start : start + 2] for start in range(0, len(moves), 2)],
        }
        record = ap.record_of_value(copy.deepcopy(value), "x")
        verdict = validate(record)
        assert verdict.valid, [error.message for error in verdict.errors]
        assert list(verdict.result.winners) == [winner]
        assert ap.abstract_play_value(record) == value


def test_boards_and_games_abstract_play_lacks_are_refused_with_the_reason() -> None:
    record = next(generate("Oust", {"Board": "5"}, 1, seed=1))
    with pytest.raises(EncodingError, match="boards of side 6, 7 and 8, not 5"):
        ap.abstract_play_value(record)
    one = next(generate("ONE", {"Players": "2"}, 1, seed=1))
    with pytest.raises(EncodingError, match=r"hold Oust, not this record's game \(ONE\)"):
        ap.abstract_play_value(one)
    record = next(generate("Oust", {}, 1, seed=1))
    record.result.Clear()
    record.result.unfinished.SetInParent()
    with pytest.raises(EncodingError, match="an unfinished game has no Abstract Play record"):
        ap.abstract_play_value(record)
    record = next(generate("Oust", {}, 1, seed=1))
    record.moves[2].swap.SetInParent()
    with pytest.raises(EncodingError, match="ply 3: swap has an Abstract Play form only as ply 2"):
        ap.abstract_play_value(record)


def test_two_players_written_alike_are_refused() -> None:
    record = next(generate("Oust", {}, 1, seed=1))
    for seat in record.seats:
        seat.name = "same"
    record.result.ClearField("winners")
    record.result.scores.values[:] = [0, 0]
    with pytest.raises(EncodingError, match="uniqueItems"):
        ap.abstract_play_value(record)


def test_an_embedded_copy_that_is_no_record_is_refused_naming_it() -> None:
    value = json.loads((FOLDER / "oust-hex7.json").read_text())
    for copy_value in (None, {"moves": 3}):
        value["header"][ap.EMBEDDED] = copy_value
        with pytest.raises(RecordMalformedError, match="the embedded gamerec record") as caught:
            list(read_records(io.BytesIO(orjson.dumps(value)), Encoding.JSON, name="e.json"))
        assert caught.value.source == "e.json"
        assert caught.value.where == "header.gamerec"


def test_an_embedded_copy_that_no_longer_matches_the_file_is_refused() -> None:
    record = next(generate("Oust", {}, 1, seed=3))
    value = ap.abstract_play_value(record)
    value["moves"][0][0] = "a1" if value["moves"][0][0] != "a1" else "a2"
    with pytest.raises(RecordMalformedError, match=r"remove header\.gamerec to read") as caught:
        ap.record_of_value(copy.deepcopy(value), "x")
    assert caught.value.where == ""
    del value["header"][ap.EMBEDDED]
    assert format_action(ap.record_of_value(value, "x").moves[0]) in ("g1", "h1")


# -- collections ------------------------------------------------------------------------------


def test_several_records_are_written_as_a_json_array_and_read_back() -> None:
    records = list(generate("Oust", {"Pie": "off"}, 4, seed=9))
    value = exported(records)
    assert isinstance(value, list) and len(value) == 4
    assert_follows_the_schema(value)
    data = orjson.dumps(value)
    assert list(read_records(io.BytesIO(data))) == records  # sniffed: a JSON array


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_an_array_is_cut_the_same_whatever_the_chunks(
    chunk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(json_array, "CHUNK_BYTES", chunk)
    path = FOLDER / "oust-collection.json"
    data = path.read_bytes().replace(b'"a', b'"\\u0061')  # escapes inside strings too
    records = list(read_records(io.BytesIO(data), Encoding.ABSTRACT_PLAY))
    assert records == records_of(path)


@pytest.mark.parametrize(
    ("text", "error", "reason", "byte"),
    [
        ("[]", EmptyInputError, "the JSON array holds no record", None),
        ("[{}, 3]", RecordMalformedError, "record 2: expected an object (a record)", 5),
        ('[{"header": 1} {}]', RecordMalformedError, "record 2: expected ',' or ']'", 15),
        ("[{}] x", RecordMalformedError, "text after the array's closing ]", 5),
        ('[{"a": "b', RecordMalformedError, "record 1: the file ends inside it", 7),
        ("[{}, ", RecordMalformedError, "the file ends inside the array", 5),
        ("[" + "[" * 80, RecordMalformedError, "record 1: expected an object", 1),
        ('[{"a": ' + "[" * 80, RecordMalformedError, "JSON nested deeper than 64 levels", 69),
    ],
)
def test_a_broken_array_is_refused_at_its_byte(
    text: str, error: type[Exception], reason: str, byte: int | None
) -> None:
    with pytest.raises(error, match=re.escape(reason)) as caught:  # cut, not yet parsed
        list(read_frames(io.BytesIO(text.encode()), Encoding.ABSTRACT_PLAY, name="a.json"))
    assert isinstance(caught.value, RecordMalformedError)
    if byte is not None:
        assert caught.value.where == f"byte {byte}"


class Endless(io.RawIOBase):
    """A stream of ``size`` bytes of one byte repeated, counting how much was read."""

    def __init__(self, first: bytes, byte: bytes, size: int) -> None:
        self.left = size
        self.first = first
        self.byte = byte
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        count = min(len(buffer), self.left)
        data = (self.first + self.byte * count)[:count]
        self.first = self.first[count:]
        buffer[:count] = data
        self.left -= count
        self.read_bytes += count
        return count


@pytest.mark.parametrize("first", [b"", b'[{"header": '])
def test_a_hundred_megabytes_of_nested_arrays_fail_at_once(first: bytes) -> None:
    stream = Endless(first, b"[", 100 << 20)
    with pytest.raises(RecordMalformedError, match=r"JSON|expected an object") as caught:
        list(read_records(io.BufferedReader(stream), Encoding.JSON, name="deep.json"))
    assert caught.value.source == "deep.json" and caught.value.where.startswith("byte ")
    assert stream.read_bytes <= 2 * json_array.CHUNK_BYTES  # not the whole input


def test_an_item_over_the_record_limit_is_refused_naming_it() -> None:
    value = json.loads((FOLDER / "oust-hex7.json").read_text())
    data = orjson.dumps([value, value])
    limits = Limits(max_record_bytes=len(orjson.dumps(value)) - 1)
    with pytest.raises(LimitExceededError, match="record 1: at least") as caught:
        list(read_frames(io.BytesIO(data), Encoding.ABSTRACT_PLAY, limits=limits))
    assert caught.value.limit == "record-bytes"


# -- what is no Abstract Play record ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "where", "reason"),
    [
        ("abstractplay-unknown-game.json", "header.game.name", "the game 'Chess' is not one"),
        (
            "abstractplay-square-11.json",
            "header.game.variants",
            "variant 'square-11' is square Oust",
        ),
        ("abstractplay-off-board.json", "moves[3][1]", "'a9' is not a cell of Abstract Play's"),
        ("abstractplay-truncated.json", "line 57, column 2", "not JSON: unexpected end of data"),
    ],
)
def test_bad_records_are_refused_naming_the_place(name: str, where: str, reason: str) -> None:
    with pytest.raises(RecordMalformedError) as caught:
        records_of(BROKEN / name)
    assert caught.value.where == where
    assert reason in caught.value.reason
    assert caught.value.source == str(BROKEN / name)


def test_json_that_is_neither_format_says_so() -> None:
    with pytest.raises(RecordMalformedError, match="neither a GameRecord") as caught:
        list(read_records(io.BytesIO(b'{"name": "client"}'), Encoding.JSON, name="p.json"))
    assert "nor an Abstract Play record (it has no header)" in str(caught.value)
    with pytest.raises(RecordMalformedError, match="expected an Abstract Play game record"):
        list(read_records(io.BytesIO(b'{"moves": []}'), Encoding.ABSTRACT_PLAY, name="m.json"))


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [
        (lambda v: v.update(moves={}), "moves", "expected an array of rounds"),
        (lambda v: v["moves"].append(7), "moves[28]", "expected a round"),
        (lambda v: v["moves"][0].__setitem__(0, 5), "moves[0][0]", "expected a move string"),
        (lambda v: v["header"].update(players=[]), "header.players", "expected players"),
        (lambda v: v["header"]["game"].update(variants="hex-6"), "header.game.variants", ""),
        (lambda v: v["header"].update(site=3), "header.site", "expected an object"),
        (lambda v: v["header"].update(event=4), "header.event", "expected a string"),
        (lambda v: v["moves"][0].__setitem__(0, "g7,,"), "moves[0][0]", "not an Abstract Play"),
    ],
)
def test_a_record_of_the_wrong_shape_names_the_field(change: Any, where: str, reason: str) -> None:
    value = json.loads((FOLDER / "oust-hex7.json").read_text())
    change(value)
    with pytest.raises(RecordMalformedError) as caught:
        ap.record_of_value(value, "x")
    assert caught.value.where == where
    assert reason in caught.value.reason


@pytest.mark.parametrize("results", [[0, 0], [1, 1]])
def test_a_draw_reads_back_as_shared_first_place(results: list[int]) -> None:
    # issue 34 item 10: gameslib's "draw" (an agreement) with equal results: every player with
    # the best result is a winner, as docs/formats.md's table and a live match's draw say.
    value = json.loads((FOLDER / "oust-hex8-resign.json").read_text())
    value["moves"][-1][-1] = "draw"
    for player, result in zip(value["header"]["players"], results, strict=True):
        player["result"] = result
    record = ap.record_of_value(copy.deepcopy(value), "x")
    assert record.result.termination == pb.TERMINATION_AGREEMENT
    assert list(record.result.winners) == [1, 2]
    assert list(record.result.scores.values) == results
    assert ap.abstract_play_value(record) == value
