"""``gamerec diff A B``: records that differ in metadata, a move, the result, or nothing."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import Encoding, read_records, write_records
from gamerec.recorder.notation import parse_action
from gamerec.v1 import record_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
GAMES = ROOT / "fixtures" / "games"
MATCH = VALID / "one-e3-round-completion.grn"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def match() -> pb.GameRecord:
    return next(read_records(MATCH))


def saved(record: pb.GameRecord, path: Path) -> str:
    write_records([record], path)
    return str(path)


def test_the_same_record_in_two_encodings_is_the_same(tmp_path: Path) -> None:
    result = run("diff", str(MATCH), str(VALID / "one-e3-round-completion.pb"))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "the same record"
    as_json = run("diff", "--json", str(MATCH), saved(match(), tmp_path / "copy.jsonl"))
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout)["same"] is True


def test_records_that_differ_only_in_metadata(tmp_path: Path) -> None:
    theirs = match()
    theirs.metadata.event = "Club night"
    theirs.seats[1].name = "Benedikt"
    result = run("diff", str(MATCH), saved(theirs, tmp_path / "theirs.pb"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert '  seats[2].name: A "Ben", B "Benedikt"' in lines
    assert '  metadata.event: A "gamerec rules examples", B "Club night"' in lines
    assert not any("moves differ" in line for line in lines)


def test_records_that_differ_in_one_move_in_the_middle(tmp_path: Path) -> None:
    # Ply 4 of docs/rules/one.md E3 is the capture a1xa3; the other version writes b2.
    theirs = match()
    theirs.moves[3].CopyFrom(parse_action(pb.GAME_ONE, "b2"))
    result = run("diff", str(MATCH), saved(theirs, tmp_path / "theirs.json"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert "  moves differ from ply 4 (seat 1 to move): A a1xa3, B b2" in lines
    assert any(line.startswith("    A: 12 plies, valid, finished, result 4-2-4") for line in lines)
    b_line = next(line for line in lines if line.startswith("    B: "))
    assert "INVALID" in b_line and "OCCUPIED" in b_line  # B's line replays to an illegal ply
    at = lines.index("  the position both share before ply 4:")
    assert lines[at + 2 : at + 4] == [
        "      a   1   2   .   .   .   .",
        "      b   3   .   .   .   .   .",
    ]
    body = json.loads(run("diff", "--json", str(MATCH), str(tmp_path / "theirs.json")).stdout)
    divergence = body["divergence"]
    assert (divergence["ply"], divergence["leftMove"], divergence["rightMove"]) == (
        4,
        "a1xa3",
        "b2",
    )
    assert divergence["leftVerdict"]["valid"] is True
    assert divergence["rightVerdict"]["valid"] is False


def test_records_that_differ_in_the_result(tmp_path: Path) -> None:
    theirs = match()
    theirs.result.scores.values[2] = 3
    theirs.result.winners[:] = [1]
    result = run("diff", str(MATCH), saved(theirs, tmp_path / "theirs.grn"))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert '  result.scores.values: A "4,2,4", B "4,2,3"' in lines
    assert '  result.winners: A "1,3", B "1"' in lines
    assert not any("moves differ" in line for line in lines)


def test_a_longer_record_diverges_where_the_shorter_one_ends(tmp_path: Path) -> None:
    shorter = match()
    del shorter.moves[10:]
    result = run("diff", str(MATCH), saved(shorter, tmp_path / "short.pb"))
    assert result.exit_code == 1
    assert "  moves differ from ply 11 (seat 2 to move): A b4, B (ends)" in result.stdout


def test_collections_are_matched_by_game_identity(tmp_path: Path) -> None:
    same = run("diff", str(VALID / "collection.pbs"), str(VALID / "collection.jsonl"))
    assert same.exit_code == 0, same.output
    assert "12 matched records: 12 the same, 0 different" in same.stdout
    records = list(read_records(VALID / "collection.pbs"))
    records[4].metadata.date = "2026-11-29"  # another identity: unmatched on both sides
    records[7].comment = "checked"  # a game comment differs
    changed = tmp_path / "changed.jsonl"
    write_records(reversed(records[1:]), changed, Encoding.JSONL)
    result = run("diff", str(VALID / "collection.pbs"), str(changed))
    assert result.exit_code == 1
    assert "10 matched records: 9 the same, 1 different; 2 only in A, 1 only in B" in result.stdout
    assert "A #8 / B #5: ONE | gamerec rules examples | rules/one.md, section 9 | E4" in (
        result.stdout
    )
    assert '    comment: A "Resignation with three seats;' in result.stdout
    assert result.stdout.rstrip().endswith("| 2026-11-29 |  | Mia, Ned, Ola, Pia")


def test_an_unreadable_input_exits_2_with_one_line(tmp_path: Path) -> None:
    result = run("diff", str(MATCH), str(ROOT / "fixtures" / "broken" / "truncated.pb"))
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith("gamerec: error: ")
