"""A collection's records are judged from the main line their decoding handed over.

``gamerec find``, ``stats`` and ``standings`` judge every record of their inputs as
``validate`` does: the moves are read from the bytes the decoding handed over (a binary frame
as written, the main line the GRN reader built, the serialization the JSON reader made), not
serialized again, and the verdicts are those of the record judged alone.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import write_records
from gamerec.recorder.inputs import InputFailure
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator import adjudication
from gamerec.validator import judge as judge_module
from gamerec.validator.collection import source
from gamerec.validator.collection.find import Criteria, Found, find
from gamerec.validator.collection.standings import standings
from gamerec.validator.collection.stats import collection_stats
from gamerec.validator.judge import Judgement, judge, validate, verdict_of
from tests.collection.planted import planted


def _watching_judge(handed: list[bytes | None]) -> Callable[..., Judgement]:
    """``judge`` noting the bytes it is handed, each judgement checked against one alone.

    The check is of the whole verdict each judgement gives (``verdict_of``).
    """

    def judged(record: pb.GameRecord, **options: Any) -> Judgement:
        handed.append(options.get("serialized"))
        judgement = judge(record, **options)
        alone = judge(record, limits=options.get("limits"))
        assert verdict_of(record, judgement) == verdict_of(record, alone)
        return judgement

    return judged


def _watched(monkeypatch: pytest.MonkeyPatch) -> list[bytes | None]:
    """The bytes each judge of an entry is handed (see :func:`_watching_judge`)."""
    handed: list[bytes | None] = []
    monkeypatch.setattr(judge_module, "judge", _watching_judge(handed))
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
    monkeypatch.setattr(adjudication, "judge", _watching_judge(handed))
    assert standings([str(path)]) == before
    assert len(handed) == len(records) and None not in handed


@pytest.mark.parametrize("suffix", ["grn", "pbs", "jsonl"])
def test_an_entry_s_verdict_is_validate_s_and_without_the_digest_only_lacks_it(
    tmp_path: Path, suffix: str
) -> None:
    records, path = _written(tmp_path, suffix)
    entries = [item for item in source.entries([str(path)]) if isinstance(item, source.Entry)]
    assert len(entries) == len(records)
    for entry, record in zip(entries, records, strict=True):
        decoded, parsed = entry.decode()
        expected = validate(record)
        expected.source, expected.record_number = entry.source, entry.number
        assert decoded.verdict(parsed) == expected
        without = decoded.verdict(parsed, digest=False)
        replayed = expected.status != vpb.GAME_STATUS_NOT_REPLAYED
        assert without.final_digest == "" and bool(expected.final_digest) == replayed
        expected.final_digest = ""
        assert without == expected
