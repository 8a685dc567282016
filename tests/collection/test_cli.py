"""``gamerec find``, ``dedupe``, ``stats`` and ``standings`` on real files of every encoding."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records, write_records
from tests.collection.events import round_robin
from tests.collection.planted import INVALID, OCCUPIED, planted
from tests.collection.test_dedupe import plant_copies

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def spread(folder: Path) -> Path:
    """The planted collection over a .pbs, a .grn and a .jsonl file in one folder."""
    records = planted()
    folder.mkdir()
    write_records(records[:15], folder / "one.pbs")
    write_records(records[15:30], folder / "two.grn")
    write_records(records[30:], folder / "three.jsonl")
    return folder


def test_find_reads_every_encoding_and_writes_any(tmp_path: Path) -> None:
    folder = spread(tmp_path / "club")
    counted = run("find", str(folder), "--invalid", "--count", "-j", "1")
    assert counted.exit_code == 0, counted.output
    assert counted.stdout.strip() == str(len(INVALID))
    for name in ("found.pbs", "found.grn", "found.jsonl"):
        out = tmp_path / name
        done = run("find", str(folder), "--finding", "OCCUPIED", "-o", str(out))
        assert done.exit_code == 0, done.output
        assert "2 records written to" in done.stderr
        ids = [r.metadata.extra_tags["GameId"] for r in read_records(out)]
        assert sorted(ids) == sorted(f"g{i}" for i in OCCUPIED)


def test_find_lists_records_and_json(tmp_path: Path) -> None:
    folder = spread(tmp_path / "club")
    listed = run("find", str(folder), "--game", "aronda", "--event", "League", "--valid")
    assert listed.exit_code == 0, listed.output
    lines = listed.stdout.splitlines()
    records = planted()
    expected = [i for i in range(20, 28) if i % 3 == 2 and i not in INVALID]
    assert len(lines) == len(expected)
    assert lines[0].startswith(f"{folder / 'two.grn'} #{expected[0] - 14}: Aronda  event League")
    assert lines[0].endswith("valid")
    as_json = run("find", str(folder), "--plies", "..14", "--json")
    found = [json.loads(line) for line in as_json.stdout.splitlines()]
    short = [r for r in records if len(r.moves) <= 14]
    assert len(found) == len(short) and all("verdict" not in f for f in found)
    assert {f["place"]["source"] for f in found} <= {str(p) for p in folder.iterdir()}


def test_find_standard_input_and_exit_codes(tmp_path: Path) -> None:
    data = tmp_path / "all.pbs"
    write_records(planted(), data)
    none = run("find", "-", "--player", "Nobody", stdin=data.read_bytes())
    assert (none.exit_code, none.stdout) == (1, "")
    broken = ROOT / "fixtures" / "broken" / "truncated.pbs"
    mixed = run("find", str(data), str(broken), "--count")
    assert mixed.exit_code == 2
    assert mixed.stdout.strip() == str(44 + 11)  # the 11 records before the cut
    assert "truncated.pbs: record 12 at byte 3525: truncated" in mixed.stderr
    wrong = run("find", str(data), "--valid", "--invalid")
    assert wrong.exit_code == 2 and "exclude each other" in wrong.stderr
    bad = run("find", str(data), "--plies", "many")
    assert bad.exit_code == 2 and "--plies: 'many' is not N" in bad.stderr


def test_find_a_position_that_replay_drew(tmp_path: Path) -> None:
    records = planted()
    write_records(records, tmp_path / "all.pbs")
    write_records([records[16]], tmp_path / "one.grn")
    drawn = run("replay", str(tmp_path / "one.grn"), "--ply", "20")
    assert drawn.exit_code == 0, drawn.output
    (tmp_path / "position.txt").write_text(drawn.stdout)
    found = run("find", str(tmp_path / "all.pbs"), "--position", str(tmp_path / "position.txt"))
    assert found.exit_code == 0, found.output
    assert found.stdout.splitlines()[0].startswith(f"{tmp_path / 'all.pbs'} #17: ONE")
    assert "position after ply 20" in found.stdout
    missing = run("find", str(tmp_path / "all.pbs"), "--position", str(tmp_path / "no.txt"))
    assert missing.exit_code == 2 and "--position" in missing.stderr


def test_dedupe_reports_pairs_and_writes_one_copy(tmp_path: Path) -> None:
    paths = plant_copies(tmp_path)
    out = tmp_path / "clean.jsonl"
    done = run("dedupe", *paths, "-o", str(out), "--keep", "most-complete")
    assert done.exit_code == 1, done.output
    assert len(list(read_records(out))) == 48
    text = done.stdout
    assert text.count("same game: ") == 4 and text.count("same match, other moves: ") == 2
    assert f"same game: {paths[0]} #7 and {paths[2]} #1 (kept: {paths[2]} #1)" in text
    assert text.splitlines()[-1] == (
        "52 records: 4 extra copies of a game, 2 diverging versions of a match; "
        "48 records written (keep most-complete)"
    )
    report = json.loads(run("dedupe", *paths, "--json").stdout)
    assert (report["records"], len(report["pairs"])) == (52, 6)


def test_dedupe_reads_standard_input_twice(tmp_path: Path) -> None:
    paths = plant_copies(tmp_path)
    piped = run("dedupe", paths[0], "-", "--json", stdin=Path(paths[1]).read_bytes())
    pairs = json.loads(piped.stdout)["pairs"]
    assert sorted(p["second"]["source"] for p in pairs) == ["<stdin>"] * 3


def test_dedupe_writes_nothing_when_an_input_is_unreadable(tmp_path: Path) -> None:
    paths = plant_copies(tmp_path)
    out = tmp_path / "clean.pbs"
    broken = str(ROOT / "fixtures" / "broken" / "bad-json.json")
    done = run("dedupe", *paths, broken, "-o", str(out))
    assert done.exit_code == 2
    assert "bad-json.json: line 3, column 23" in done.stderr
    assert not out.exists()


def test_stats_text_and_json(tmp_path: Path) -> None:
    folder = spread(tmp_path / "club")
    text = run("stats", str(folder))
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].startswith('ONE [Players "2"]: 12 records, ')
    assert "  endings   normal 8, void 2, abandoned 1, unfinished 1" in lines
    assert lines[-1] == "44 records in 5 games and variants; 0 unreadable"
    figures = json.loads(run("stats", str(folder), "--json").stdout)
    assert [g["records"] for g in figures["groups"]] == [12, 8, 8, 8, 8]


def test_standings_text_csv_and_json(tmp_path: Path) -> None:
    write_records(round_robin(), tmp_path / "club.grn")
    text = run("standings", str(tmp_path / "club.grn"))
    assert text.exit_code == 1, text.output  # two games are marked
    lines = text.stdout.splitlines()
    assert lines[0] == (
        "Club night: 4 players, 6 of 7 games counted "
        "(2 seats; points by place 1, 0; results computed)"
    )
    assert lines[1].split() == [
        "#",
        "player",
        "games",
        "points",
        "Buchholz",
        "S-B",
        "1",
        "2",
        "3",
        "4",
    ]
    assert lines[2].split() == ["1", "Ana", "3", "2½", "3½", "2½", "x", "½", "1", "1"]
    assert lines[3].split() == ["2", "Chi", "3", "2", "4", "2½", "½", "x", "1*", "½"]
    assert any("WINNER_MISMATCH" in line for line in lines)
    assert any("OCCUPIED" in line and "not counted" in line for line in lines)
    rows = list(
        csv.reader(io.StringIO(run("standings", str(tmp_path / "club.grn"), "--csv").stdout))
    )
    assert rows[0][:8] == [
        "event",
        "place",
        "player",
        "name",
        "games",
        "points",
        "buchholz",
        "sonneborn_berger",
    ]
    assert rows[1][:8] == ["Club night", "1", "Ana", "Ana", "3", "2.5", "3.5", "2.5"]
    claimed = json.loads(
        run("standings", str(tmp_path / "club.grn"), "--json", "--use", "claimed").stdout
    )
    assert [p["name"] for p in claimed["events"][0]["players"]] == ["Ana", "Ben", "Dev", "Chi"]
    points = run("standings", str(tmp_path / "club.grn"), "--points", "3,x")
    assert points.exit_code == 2 and "--points" in points.stderr
    nothing = run("standings", str(tmp_path / "club.grn"), "--event", "Other")
    assert nothing.exit_code == 2 and "no record of event 'Other'" in nothing.stderr


def test_find_refuses_meaningless_criteria_with_exit_2_and_one_line() -> None:
    events = str(ROOT / "fixtures" / "events")
    for option, value, hint in (
        ("--finding", "LANDING_OCUPIED", "did you mean LANDING_OCCUPIED?"),
        ("--date-from", "2026-13", "has no month 13 (01 to 12)"),
        ("--plies", "80..60", "did you mean 60..80?"),
        ("--variant", "Playrs=2", "did you mean Players?"),
        ("--termination", "resign", "did you mean resignation?"),
    ):
        refused = run("find", events, option, value)
        assert refused.exit_code == 2, (option, refused.output)
        assert refused.stdout == ""
        (line,) = refused.stderr.splitlines()
        assert line.startswith(f"gamerec: error: {option}") and line.endswith(hint), line
