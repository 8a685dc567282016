"""Batch validation: all cores, input order kept, failures reported in place."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import write_records
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator import batch
from gamerec.validator.batch import CHUNK_RECORDS, OnlyInvalid, judge_sources
from gamerec.validator.games.aronda import ArondaState
from gamerec.validator.generation import generate
from gamerec.validator.judge import judge


def describe(verdict: vpb.Verdict) -> str:
    """A picklable render function for the tests."""
    return f"{verdict.source}#{verdict.record_number}:{verdict.valid}:{verdict.final_digest}"


def mixed_collection(path: Path, count: int) -> None:
    games = [("ONE", {"Players": "3"}), ("Oh-Wah-Ree", {"Players": "2"}), ("Aronda", {})]
    records: list[pb.GameRecord] = []
    for index in range(count):
        game, tags = games[index % len(games)]
        records.extend(generate(game, tags, 1, seed=index))
    write_records(records, path)


def test_workers_give_the_same_outcomes_in_the_same_order(tmp_path: Path) -> None:
    collection = tmp_path / "mixed.pbs"
    mixed_collection(collection, CHUNK_RECORDS * 3 + 5)
    alone = list(judge_sources([str(collection)], describe, workers=1))
    shared = list(judge_sources([str(collection)], describe, workers=2))
    assert alone == shared
    assert [outcome.number for outcome in alone] == list(range(1, CHUNK_RECORDS * 3 + 6))
    assert all(outcome.status == "valid" for outcome in alone)
    assert all(outcome.text.startswith(f"{collection}#") for outcome in alone)


def test_an_unreadable_source_is_reported_in_place_and_the_rest_are_judged(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.grn"
    write_records(generate("Oust", {"Board": "3"}, 2, seed=1), good)
    broken = tmp_path / "broken.pbs"
    write_records(generate("Oust", {"Board": "3"}, 2, seed=2), broken)
    data = broken.read_bytes()
    broken.write_bytes(data[:-3])
    missing = tmp_path / "missing.pb"
    outcomes = list(
        judge_sources([str(good), str(broken), str(missing), str(good)], describe, workers=1)
    )
    statuses = [(o.source, o.number, o.status) for o in outcomes]
    assert statuses == [
        (str(good), 1, "valid"),
        (str(good), 2, "valid"),
        (str(broken), 1, "valid"),
        (str(broken), 0, "unreadable"),
        (str(missing), 0, "unreadable"),
        (str(good), 1, "valid"),
        (str(good), 2, "valid"),
    ]
    assert "truncated" in outcomes[3].text and "record 2" in outcomes[3].text
    assert "No such file" in outcomes[4].text


def test_a_record_that_does_not_parse_is_unreadable_but_the_stream_goes_on(
    tmp_path: Path,
) -> None:
    path = tmp_path / "one-bad-frame.pbs"
    write_records(generate("Aronda", {}, 1, seed=4), path)
    good = path.read_bytes()
    path.write_bytes(good + b"\x02\xff\xff" + good)
    outcomes = list(judge_sources([str(path)], describe, workers=1))
    assert [o.status for o in outcomes] == ["valid", "unreadable", "valid"]
    assert "record 2" in outcomes[1].text


def test_only_invalid_renders_skip_the_digest_of_valid_records_and_keep_that_of_invalid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    valid = next(generate("Aronda", {}, 1, seed=3))
    invalid = pb.GameRecord()
    invalid.CopyFrom(valid)
    invalid.result.scores.values[:] = [9, 9]  # a wrong claim: RESULT_MISMATCH
    path = tmp_path / "two.pbs"
    write_records([valid, invalid], path)
    digests: list[str] = []
    real = ArondaState.digest

    def counted(state: ArondaState) -> str:
        digests.append(real(state))
        return digests[-1]

    monkeypatch.setattr(ArondaState, "digest", counted)
    quiet = list(judge_sources([str(path)], OnlyInvalid(describe), workers=1))
    assert [outcome.status for outcome in quiet] == ["valid", "invalid"]
    assert quiet[0].text == ""
    assert len(digests) == 1 and quiet[1].text.endswith(f":False:{digests[0]}")
    loud = list(judge_sources([str(path)], describe, workers=1))
    assert len(digests) == 3 and loud[0].text.endswith(f":True:{digests[1]}")
    assert pickle.loads(pickle.dumps(OnlyInvalid(describe))).render is describe


def test_a_text_record_is_judged_from_its_main_line_as_read_not_serialized_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The GRN reader hands its main line over (Frame.decode); the judge reads the moves from
    # it, and every verdict is the one of the same records read from binary.
    records = [
        *generate("Oust", {"Board": "4"}, 2, seed=5),
        *generate("ONE", {"Players": "2"}, 1, seed=6),
    ]
    records[1].moves[2].seat = 2 if records[1].moves[2].seat == 1 else 1  # out of turn
    text, binary = tmp_path / "some.grn", tmp_path / "some.pbs"
    write_records(records, text)
    write_records(records, binary)
    handed: list[bytes | None] = []

    def judged(record: pb.GameRecord, **options: Any) -> Any:
        handed.append(options["serialized"])
        return judge(record, **options)

    monkeypatch.setattr(batch, "judge", judged)
    from_text = list(judge_sources([str(text)], summary, workers=1))
    assert handed == [pb.GameRecord(moves=record.moves).SerializeToString() for record in records]
    monkeypatch.undo()
    from_binary = list(judge_sources([str(binary)], summary, workers=1))
    assert [o.status for o in from_text] == ["valid", "invalid", "valid"]
    assert [o.text for o in from_text] == [o.text for o in from_binary]


def summary(verdict: vpb.Verdict) -> str:
    """A picklable render of what a verdict found (not its source)."""
    return f"{verdict.valid}:{verdict.plies_replayed}:{verdict.final_digest}:" + ",".join(
        finding.code for finding in verdict.errors
    )
