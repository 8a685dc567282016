"""``dedupe`` finds the planted copies (any encoding) and divergent versions, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records, write_records
from gamerec.recorder.notation import format_action
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.dedupe import completeness, dedupe
from tests.collection.planted import planted

SAME = cpb.DUPLICATE_KIND_SAME_GAME
DIVERGENT = cpb.DUPLICATE_KIND_DIVERGENT


def copy(record: pb.GameRecord) -> pb.GameRecord:
    other = pb.GameRecord()
    other.CopyFrom(record)
    return other


def plant_copies(folder: Path) -> list[str]:
    """The planted collection in a.pbs, and its copies in b.grn and c.jsonl.

    b.grn: #1 record 4 with another event and GameId; #2 record 12; #3 record 8 cut short
    (same GameId); #4 record 15 with other seats and GameId (a different game).
    c.jsonl: #1 record 6 with comments, a clock and player ids; #2 record 12 again; #3 record
    10 with a move of ply 5 swapped for ply 7's (same GameId); #4 record 20 with the event of
    record 23 and new GameId, other moves (nothing in common).
    """
    records = planted()
    four = copy(records[4])
    four.metadata.event = "Club nite"
    four.metadata.extra_tags["GameId"] = "platform-77"
    eight = copy(records[8])
    del eight.moves[-2:]
    eight.ClearField("result")
    fifteen = copy(records[15])
    fifteen.seats[0].name, fifteen.seats[1].name = "Zed", "Yul"
    fifteen.metadata.extra_tags["GameId"] = "other"
    six = copy(records[6])
    six.moves[3].comment = "a fine move"
    six.moves[4].clock.seconds = 61
    for seat in six.seats:
        seat.player_id = f"p-{seat.name}"
    ten = copy(records[10])
    ten.moves[4].CopyFrom(records[10].moves[6])
    twenty = copy(records[20])
    twenty.metadata.event = records[23].metadata.event
    twenty.metadata.extra_tags["GameId"] = "new"
    twenty.moves[0].CopyFrom(records[21].moves[0])
    write_records(records, folder / "a.pbs")
    write_records([four, records[12], eight, fifteen], folder / "b.grn")
    write_records([six, records[12], ten, twenty], folder / "c.jsonl")
    return [str(folder / name) for name in ("a.pbs", "b.grn", "c.jsonl")]


def pairs(report: cpb.DedupeReport) -> set[tuple[int, str, int, str, int]]:
    return {
        (
            pair.kind,
            Path(pair.first.source).name,
            pair.first.record_number,
            Path(pair.second.source).name,
            pair.second.record_number,
        )
        for pair in report.pairs
    }


EXPECTED = {
    (SAME, "a.pbs", 5, "b.grn", 1),
    (SAME, "a.pbs", 13, "b.grn", 2),
    (SAME, "a.pbs", 13, "c.jsonl", 2),
    (SAME, "a.pbs", 7, "c.jsonl", 1),
    (DIVERGENT, "a.pbs", 9, "b.grn", 3),
    (DIVERGENT, "a.pbs", 11, "c.jsonl", 3),
}


def test_planted_copies_and_divergent_versions_and_nothing_else(tmp_path: Path) -> None:
    paths = plant_copies(tmp_path)
    found = dedupe(paths)
    kept = list(found.records())
    assert pairs(found.report) == EXPECTED
    assert found.report.records == 52
    assert found.report.written == len(kept) == 52 - 4
    assert not found.failures


def test_each_pair_carries_its_diff(tmp_path: Path) -> None:
    report = dedupe(plant_copies(tmp_path)).finish()
    by_second = {(Path(p.second.source).name, p.second.record_number): p for p in report.pairs}
    renamed = by_second[("b.grn", 1)].diff
    assert {field.field for field in renamed.fields} == {
        "metadata.event",
        "metadata.extra_tags[GameId]",
    }
    assert not renamed.HasField("divergence")
    annotated = by_second[("c.jsonl", 1)].diff
    assert {a.field for a in annotated.annotations} == {"moves[4].comment", "moves[5].clock"}
    assert by_second[("b.grn", 2)].diff.same
    cut = by_second[("b.grn", 3)].diff.divergence
    assert (cut.left_plies - cut.right_plies, cut.right_move) == (2, "")
    swapped = by_second[("c.jsonl", 3)].diff.divergence
    records = planted()
    assert swapped.ply == 5
    assert swapped.right_move == format_action(records[10].moves[6])


@pytest.mark.parametrize("keep", ["first", "most-complete"])
def test_the_output_keeps_one_copy_of_each_game(tmp_path: Path, keep: str) -> None:
    paths = plant_copies(tmp_path)
    found = dedupe(paths, keep=keep)  # type: ignore[arg-type]
    write_records(found.records(), tmp_path / "out.pbs")
    written = list(read_records(tmp_path / "out.pbs"))
    six = [r for r in written if r.metadata.extra_tags["GameId"] == "g6"]
    assert len(six) == 1
    richer = keep == "most-complete"
    assert (six[0].moves[3].comment == "a fine move") is richer
    kept_six = next(p for p in found.report.pairs if p.first.record_number == 7)
    assert Path(kept_six.kept.source).name == ("c.jsonl" if richer else "a.pbs")
    twelves = [r for r in written if r.metadata.extra_tags["GameId"] == "g12"]
    assert len(twelves) == 1
    assert sum(r.metadata.extra_tags["GameId"] == "g8" for r in written) == 2  # both versions
    ids = [r.metadata.extra_tags["GameId"] for r in written]
    assert "other" in ids and "new" in ids and "platform-77" not in ids


def test_records_in_memory() -> None:
    records = planted()
    twice = [*records[:5], copy(records[2])]
    assert pairs(dedupe(twice).finish()) == {(SAME, "<records>", 3, "<records>", 6)}
    assert pairs(dedupe(records).finish()) == set()


def test_completeness_counts_every_field_set() -> None:
    record = planted()[0]
    richer = copy(record)
    richer.moves[0].comment = "x"
    richer.seats[0].rating = 1500
    assert completeness(richer) == completeness(record) + 2
