"""A collection's records are judged from the main line their decoding handed over.

``gamerec find``, ``stats`` and ``standings`` judge every record of their inputs as
``validate`` does: the moves are read from the bytes the decoding handed over (a binary frame
as written, the main line the GRN reader built, the serialization the JSON reader made), not
serialized again, and the verdicts are those of the record judged alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import write_records
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator import adjudication
from gamerec.validator.collection import source
from gamerec.validator.collection.find import Criteria, Found, find
from gamerec.validator.collection.standings import standings
from gamerec.validator.collection.stats import collection_stats
from gamerec.validator.judge import Judgement, judge, validate
from tests.collection.planted import planted


def _watched(monkeypatch: pytest.MonkeyPatch) -> list[bytes | None]:
    """The bytes each judge of an entry is handed; each verdict checked against one alone."""
    handed: list[bytes | None] = []

    def judged(
        record: pb.GameRecord, *, limits: Limits | None = None, serialized: bytes | None = None
    ) -> vpb.Verdict:
        handed.append(serialized)
        verdict = validate(record, limits=limits, serialized=serialized)
        assert verdict == validate(record, limits=limits)
        return verdict

    monkeypatch.setattr(source, "validate", judged)
    return handed


def _written(tmp_path: Path, suffix: str) -> tuple[list[pb.GameRecord], Path]:
    """The planted records, and a file of them in the encoding ``suffix`` names."""
    records = planted()
    path = tmp_path / f"planted.{suffix}"
    write_records(records, str(path))
    return records, path


def _record(found: Found | InputFailure) -> pb.GameRecord:
    assert isinstance(found, Found)
    return found.record


@pytest.mark.parametrize("suffix", ["grn", "pbs", "jsonl"])
def test_stats_judge_the_main_line_the_reader_handed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    records, path = _written(tmp_path, suffix)
    in_memory = collection_stats(records)
    handed = _watched(monkeypatch)
    assert collection_stats([str(path)]) == in_memory
    assert len(handed) == len(records) and None not in handed


def test_find_judges_the_main_line_the_grn_reader_handed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records, path = _written(tmp_path, "grn")
    invalid = [found for found in find(records, Criteria(valid=False))]
    handed = _watched(monkeypatch)
    found = [item for item in find([str(path)], Criteria(valid=False))]
    assert [_record(item) for item in found] == [_record(item) for item in invalid]
    assert invalid and len(handed) == len(records) and None not in handed


@pytest.mark.parametrize("suffix", ["grn", "pbs", "jsonl"])
def test_standings_adjudicate_the_main_line_the_reader_handed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    records, path = _written(tmp_path, suffix)
    before = standings([str(path)])
    handed: list[bytes | None] = []

    def judged(record: pb.GameRecord, **options: Any) -> Judgement:
        handed.append(options.get("serialized"))
        judgement = judge(record, **options)
        alone = judge(record, limits=options.get("limits"))
        assert (judgement.plies, judgement.findings) == (alone.plies, alone.findings)
        return judgement

    monkeypatch.setattr(adjudication, "judge", judged)
    assert standings([str(path)]) == before
    assert len(handed) == len(records) and None not in handed
