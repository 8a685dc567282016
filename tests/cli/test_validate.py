"""``gamerec validate``, ``replay``, ``score`` and ``adjudicate``: output and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records, write_records
from gamerec.validator.generation import generate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid"
VALID = ROOT / "fixtures" / "valid"
BROKEN = ROOT / "fixtures" / "broken"


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner(env={"COLUMNS": "120"}).invoke(app, list(args), input=stdin)


def test_all_valid_exits_0_with_a_line_per_record_and_a_summary() -> None:
    result = run("validate", str(GAMES / "one-3p.grn"), str(VALID / "oust-e1-pie.grn"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith(f"{GAMES / 'one-3p.grn'} #1: valid  ONE")
    assert "finished" in lines[0] and "result " in lines[0]
    assert "result 1-0  winner 1" in lines[1]
    assert result.stderr.startswith("2 records: 2 valid, 0 invalid, 0 unreadable;")


def test_an_invalid_record_exits_1_and_names_ply_seat_move_and_code() -> None:
    result = run("validate", str(INVALID / "one-landing-occupied.grn"))
    assert result.exit_code == 1
    assert "INVALID" in result.stdout
    place = f"  {INVALID / 'one-landing-occupied.grn'}:10:63: ply 23, seat 2, c15xa8: "
    assert place + "LANDING_OCCUPIED: landing point a8 is occupied" in result.stdout


def test_an_unreadable_file_is_reported_and_the_others_still_validated() -> None:
    result = run("validate", str(BROKEN / "truncated.pbs"), str(GAMES / "aronda.grn"))
    assert result.exit_code == 2
    assert "gamerec: error: " in result.stderr and "record 12 at byte 3525" in result.stderr
    assert f"{GAMES / 'aronda.grn'} #1: valid" in result.stdout
    assert "12 valid, 0 invalid, 1 unreadable" in result.stderr
    assert "Traceback" not in result.output


def test_a_missing_file_is_a_one_line_error() -> None:
    result = run("validate", "no/such/file.pb")
    assert result.exit_code == 2
    assert (
        result.stderr.splitlines()[0]
        == "gamerec: error: no/such/file.pb: No such file or directory"
    )


def test_folders_are_searched_and_quiet_prints_only_the_invalid() -> None:
    result = run("validate", "--quiet", str(INVALID))
    assert result.exit_code == 1
    headlines = [line for line in result.stdout.splitlines() if not line.startswith("  ")]
    assert len(headlines) == len(list(INVALID.iterdir()))
    assert all("INVALID" in line for line in headlines)


def test_json_prints_the_verdict_message_with_every_field() -> None:
    result = run("validate", "--json", str(VALID / "one-e2-two-jumps.grn"))
    assert result.exit_code == 0
    verdict = json.loads(result.stdout)
    assert verdict["valid"] is True
    assert verdict["errors"] == []
    assert verdict["result"]["scores"] == [5, 1, 1]
    assert verdict["result"]["winners"] == []
    assert verdict["result"]["provisional"] is True
    assert verdict["status"] == "GAME_STATUS_UNFINISHED"
    assert verdict["pliesReplayed"] == 7
    assert verdict["source"].endswith("one-e2-two-jumps.grn")
    assert verdict["recordNumber"] == 1


def test_json_lines_for_a_collection_and_stdin_is_sniffed() -> None:
    data = (VALID / "collection.pbs").read_bytes()
    result = run("validate", "--json", "-", stdin=data)
    assert result.exit_code == 0, result.output
    verdicts = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(verdicts) == len(list(read_records(VALID / "collection.pbs")))
    assert [v["recordNumber"] for v in verdicts] == list(range(1, len(verdicts) + 1))
    assert {v["source"] for v in verdicts} == {"<stdin>"}


def test_the_installed_command_validates_a_collection_on_two_workers(tmp_path: Path) -> None:
    collection = tmp_path / "games.pbs"
    write_records(generate("Oh-Wah-Ree", {"Players": "2"}, 300, seed=3), collection)
    command = Path(sys.executable).parent / "gamerec"
    done = subprocess.run(
        [str(command), "validate", "-q", "--workers", "2", str(collection)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith("300 records: 300 valid, 0 invalid, 0 unreadable;")


def test_replay_lists_every_ply_with_its_events_and_draws_the_end() -> None:
    result = run("replay", str(VALID / "one-e3-round-completion.grn"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[3] == "  4. (seat 1) a1xa3  [capture a2]"
    assert lines[11] == " 12. (seat 3) b6  [end]"
    assert "  a   .   2   1   1   .   3" in lines
    assert lines[-2] == "game over"
    assert lines[-1] == (  # why, in words (render.ending)
        "At ply 12, the supplies of seats 2 (Ben) and 3 (Chi) ran out and the round was played "
        "out: seats 1 (Ana) and 3 (Chi) share first place (points, the largest group plus "
        "twice the stones captured: 4-2-4)."
    )


def test_replay_says_what_the_pie_swap_did_and_why_the_game_ended() -> None:
    result = run("replay", str(ROOT / "fixtures" / "games" / "oust-side7.grn"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1] == (
        "  2. (seat 2) swap  [the pie rule: seat 2 takes the stone of ply 1 as its own, and "
        "seat 1 places next; swap e10]"
    )
    assert (
        lines[-1]
        == "At ply 62, seat 2 (Ben) captured the last stone of seat 1 (Ana): seat 2 (Ben) wins."
    )


def test_replay_at_a_ply_draws_that_position() -> None:
    result = run("replay", str(VALID / "oust-e3-forced-pass.grn"), "--ply", "12")
    assert result.exit_code == 0, result.output
    # docs/rules/oust.md E3: the position before ply 13 (after ply 12).
    assert result.stdout.splitlines()[1:7] == [
        "           a   b   c",
        "  5      O   .  [O]  d",
        "  4    .   X   .   X   e",
        "  3  O   .   O   .   O",
        "  2    O   O   .   X",
        "  1      .   X   O",
    ]
    assert "to move  seat 1" in result.stdout


def test_replay_at_ply_zero_is_the_start_and_past_the_end_is_an_error() -> None:
    start = run("replay", str(VALID / "ohwahree-e1-two-seats.grn"), "--ply", "0")
    assert start.exit_code == 0
    assert start.stdout.startswith("start position")
    assert "  stones   4    4    4" in start.stdout
    beyond = run("replay", str(VALID / "ohwahree-e1-two-seats.grn"), "--ply", "99")
    assert beyond.exit_code == 2
    assert "there is no ply 99" in beyond.stderr


def test_replay_of_an_illegal_record_shows_the_legal_plies_then_exits_1() -> None:
    result = run("replay", str(INVALID / "one-mirror.grn"))
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["  1. (seat 1) d15"]
    assert "ply 2, seat 2, d5: MIRROR" in result.stderr


def test_replay_json_gives_one_frame_per_ply() -> None:
    result = run("replay", "--json", str(GAMES / "aronda.grn"))
    frames = [json.loads(line) for line in result.stdout.splitlines()]
    record = next(read_records(GAMES / "aronda.grn"))
    assert len(frames) == len(record.moves)
    assert frames[-1]["position"]["toMove"] == 0


def test_score_prints_scores_ranks_and_winners_per_seat() -> None:
    result = run("score", str(VALID / "one-e4-resignation.grn"))
    assert result.exit_code == 0
    assert "result 4-1-4  winners 1,3" in result.stdout
    assert "    seat 2 Ben             1  rank 3" in result.stdout


def test_score_json_is_the_computed_result_with_its_source() -> None:
    path = str(VALID / "ohwahree-e2-three-seats.grn")
    body = json.loads(run("score", "--json", path).stdout)
    assert body["result"]["scores"] == [10, 16, 22]
    assert body["result"]["provisional"] is True
    assert (body["source"], body["recordNumber"], body["game"]) == (path, 1, "GAME_OH_WAH_REE")
    assert body["valid"] is True


def test_adjudicate_explains_the_ruling() -> None:
    result = run("adjudicate", str(GAMES / "aronda-timeout.grn"))
    assert result.exit_code == 0, result.output
    assert "CONFIRMED" in result.stdout
    assert "time ran out" in result.stdout
    corrected = run("adjudicate", "--json", str(INVALID / "result-mismatch.grn"))
    assert corrected.exit_code == 1
    ruling = json.loads(corrected.stdout)
    assert ruling["decision"] == "DECISION_CORRECTED"
    assert ruling["verdict"]["errors"][0]["code"] == "RESULT_MISMATCH"


def test_a_folder_with_no_record_exits_2_naming_it(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no records here\n", encoding="utf-8")
    result = run("validate", str(tmp_path))
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[0] == (
        f"gamerec: error: {tmp_path}: no record file in this folder "
        "(.pb, .pbs, .json, .jsonl, .grn or .trl); --allow-empty accepts it"
    )


def test_an_empty_folder_beside_records_still_fails_the_run(tmp_path: Path) -> None:
    result = run("validate", str(tmp_path), str(GAMES / "aronda.grn"))
    assert result.exit_code == 2, result.output
    assert "aronda.grn #1: valid" in result.stdout
    assert f"gamerec: error: {tmp_path}: no record file in this folder" in result.stderr


def test_allow_empty_accepts_a_folder_with_no_record(tmp_path: Path) -> None:
    result = run("validate", "--allow-empty", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "error" not in result.stderr
    result = run("validate", "--allow-empty", str(tmp_path), str(INVALID / "result-mismatch.grn"))
    assert result.exit_code == 1, result.output


def test_an_empty_file_is_unreadable_with_or_without_allow_empty(tmp_path: Path) -> None:
    empty = tmp_path / "none.jsonl"
    empty.write_bytes(b"")
    for options in ([], ["--allow-empty"]):
        result = run("validate", *options, str(empty))
        assert result.exit_code == 2, result.output
        assert f"{empty}: the input holds no record" in result.stderr
