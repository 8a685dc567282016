"""The record file a tournament appends to: whole records only, in the encodings that grow."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.recorder.errors import RecordMalformedError
from gamerec.validator.generation import generate
from gamerec.validator.players.record_file import RecordFile, RecordFileError, read_finished


@pytest.mark.parametrize("extension", ["pbs", "jsonl", "grn"])
def test_appended_records_read_back_in_order(tmp_path: Path, extension: str) -> None:
    records = list(generate("Oust", {}, 3, seed=2))
    path = tmp_path / f"event.{extension}"
    assert read_finished(path) == []
    with RecordFile(path) as output:
        output.append(records[0])
    with RecordFile(path) as output:  # a second run appends to what the first wrote
        output.append(records[1])
        output.append(records[2])
    assert read_finished(path) == records
    assert list(read_records(path)) == records


@pytest.mark.parametrize("name", ["event.pb", "event.json", "event.txt"])
def test_an_encoding_of_one_record_cannot_grow(tmp_path: Path, name: str) -> None:
    with pytest.raises(RecordFileError, match=r"name the file \.pbs, \.jsonl, \.grn"):
        RecordFile(tmp_path / name)
    assert not (tmp_path / name).exists()


def test_a_torn_last_record_is_reported_with_its_place(tmp_path: Path) -> None:
    records = list(generate("Aronda", {}, 2, seed=2))
    path = tmp_path / "event.pbs"
    with RecordFile(path) as output:
        for record in records:
            output.append(record)
    path.write_bytes(path.read_bytes()[:-5])  # a crash of the machine in the last write
    with pytest.raises(RecordMalformedError, match="record 2"):
        read_finished(path)
