"""``gamerec annotate``: edits at a ply, engine facts on every ply, and what is never changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.annotation import read_facts, without_facts
from gamerec.validator.frames import replay
from gamerec.validator.judge import validate

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def records(path: Path) -> list[pb.GameRecord]:
    return list(read_records(path))


@pytest.mark.parametrize(
    "name", ["one-4p.grn", "aronda-supply-pass.grn", "oust-side5-pie-off.grn", "ohwahree-3p.grn"]
)
def test_auto_writes_facts_the_validator_agrees_with(tmp_path: Path, name: str) -> None:
    out = tmp_path / "annotated.pb"
    result = run("annotate", str(GAMES / name), "-o", str(out), "--auto")
    assert result.exit_code == 0, result.output
    (record,) = records(out)
    assert validate(record).valid
    for frame, move in zip(replay(record), record.moves, strict=True):
        facts = read_facts(move.comment)
        assert facts is not None and facts.scores == tuple(frame.scores)
        assert list(facts.captures) == [
            p for e in frame.events if e.kind == "capture" for p in e.where
        ]
    assert f"facts on {len(record.moves)} plies" in result.stderr


def test_a_comment_and_a_glyph_at_a_ply(tmp_path: Path) -> None:
    out = tmp_path / "edited.json"
    result = run(
        "annotate", str(VALID / "one-e2-two-jumps.pb"), "-o", str(out),
        "--ply", "3", "--comment", "the start of trouble", "--glyph", "?!",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    (before,) = records(VALID / "one-e2-two-jumps.pb")
    (after,) = records(out)
    assert after.moves[2].comment == " ".join(
        part for part in (before.moves[2].comment, "the start of trouble") if part
    )
    assert after.moves[2].glyph == pb.GLYPH_DUBIOUS
    after.moves[2].comment = before.moves[2].comment
    after.moves[2].glyph = before.moves[2].glyph
    assert after == before  # nothing else changed


def test_another_glyph_is_refused_without_remove_glyph_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    out = tmp_path / "edited.grn"
    refused = run("annotate", str(VALID / "oust-e1-pie.grn"), "-o", str(out), "--ply", "2",
                  "--glyph", "??")  # fmt: skip
    assert refused.exit_code == 2
    assert refused.stderr.startswith("gamerec: error: ")
    assert "already has the glyph ?" in refused.stderr and not out.exists()
    replaced = run("annotate", str(VALID / "oust-e1-pie.grn"), "-o", str(out), "--ply", "2",
                   "--glyph", "??", "--remove-glyph")  # fmt: skip
    assert replaced.exit_code == 0
    assert records(out)[0].moves[1].glyph == pb.GLYPH_BLUNDER


def test_auto_keeps_comments_and_glyphs_of_the_input(tmp_path: Path) -> None:
    out = tmp_path / "pie.grn"
    assert run("annotate", str(VALID / "oust-e1-pie.grn"), "-o", str(out), "--auto").exit_code == 0
    (before,) = records(VALID / "oust-e1-pie.grn")
    (after,) = records(out)
    assert [without_facts(m.comment) for m in after.moves] == [m.comment for m in before.moves]
    assert [m.glyph for m in after.moves] == [m.glyph for m in before.moves]


def test_a_collection_is_annotated_record_by_record(tmp_path: Path) -> None:
    out = tmp_path / "all.jsonl"
    result = run("annotate", str(VALID / "collection.pbs"), "-o", str(out), "--auto")
    assert result.exit_code == 0, result.output
    annotated = records(out)
    assert len(annotated) == len(records(VALID / "collection.pbs")) == 12
    assert all(read_facts(record.moves[0].comment) for record in annotated)


def test_record_chooses_one_record_of_a_collection(tmp_path: Path) -> None:
    out = tmp_path / "some.pbs"
    result = run("annotate", str(VALID / "collection.pbs"), "-o", str(out), "--record", "3",
                 "--ply", "1", "--comment", "first")  # fmt: skip
    assert result.exit_code == 0, result.output
    before, after = records(VALID / "collection.pbs"), records(out)
    assert [a == b for a, b in zip(before, after, strict=True)] == [True] * 2 + [False] + [True] * 9
    assert after[2].moves[0].comment.endswith("first")


def test_an_edit_of_a_collection_must_name_its_record(tmp_path: Path) -> None:
    out = tmp_path / "some.pbs"
    result = run("annotate", str(VALID / "collection.pbs"), "-o", str(out), "--ply", "1",
                 "--comment", "x")  # fmt: skip
    assert result.exit_code == 2 and "--record" in result.stderr and not out.exists()
    missing = run("annotate", str(VALID / "collection.pbs"), "-o", str(out), "--record", "13",
                  "--auto")  # fmt: skip
    assert missing.exit_code == 2 and "there is no record 13" in missing.stderr


def test_an_illegal_record_is_annotated_up_to_the_illegal_ply_and_exits_1(tmp_path: Path) -> None:
    out = tmp_path / "partial.grn"
    result = run("annotate", str(INVALID / "one-not-a-jump.grn"), "-o", str(out), "--auto")
    assert result.exit_code == 1
    assert "NOT_A_JUMP" in result.stderr and "annotated up to ply" in result.stderr
    (record,) = records(out)
    facts = [read_facts(move.comment) is not None for move in record.moves]
    assert facts == [True] * facts.index(False) + [False] * (len(facts) - facts.index(False))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--auto", "--comment", "x"], "need --ply"),
        (["--ply", "2"], "--ply needs something to do"),
        ([], "nothing to do"),
        (["--ply", "2", "--glyph", "?!?"], "is not a glyph"),
    ],
)
def test_arguments_that_make_no_sense_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "x.grn"
    result = run("annotate", str(VALID / "oust-e1-pie.grn"), "-o", str(out), *args)
    assert result.exit_code == 2
    assert message in result.stderr and not out.exists()
