"""``gamerec event``: an event file from its creation to its TRF, and what bad input gets."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "fixtures" / "events"
CLUB = str(EVENTS / "club-night.grn")
SECOND = str(EVENTS / "club-night-second-scorer.jsonl")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """The club night of fixtures/events as a round robin: Ana 1, Chi 2, Dev 3, Ben 4."""
    path = tmp_path / "club.event"
    made = run(
        "event",
        "new",
        str(path),
        "--name",
        "Club night",
        "--game",
        "one",
        "--format",
        "roundrobin",
    )
    assert made.exit_code == 0, made.output
    added = run(
        "event",
        "players",
        str(path),
        "--add",
        "Ana=1800",
        "--add",
        "Chi",
        "--add",
        "Dev",
        "--add",
        "Ben",
    )
    assert added.exit_code == 0, added.output
    return path


def test_a_round_robin_pairs_by_fides_berger_table(club: Path) -> None:
    paired = run("event", "pair", str(club))
    assert paired.exit_code == 0, paired.output
    assert paired.stdout.splitlines() == [
        "Club night: round 1",
        "   1  Ana (1) - Ben (4)",
        "   2  Chi (2) - Dev (3)",
    ]


def test_the_same_game_twice_counts_once_with_a_line_naming_both_files(club: Path) -> None:
    run("event", "pair", str(club))
    taken = run("event", "results", str(club), CLUB, SECOND, "--round", "1")
    assert taken.exit_code == 0, taken.output
    assert taken.stdout.splitlines() == [
        f"round 1 table 1 (Ana - Ben): Ana 1st, Ben 2nd ({CLUB}#1)",
        f"round 1 table 2 (Chi - Dev): Chi 1st=, Dev 1st= ({CLUB}#2)",
        f"round 1 table 1 (Ana - Ben): the same game in {CLUB}#1 and {SECOND}#1: counted once",
        f"round 1 table 2 (Chi - Dev): the same game in {CLUB}#2 and {SECOND}#2: counted once",
        "6 record(s) of other rounds skipped",
    ]
    table = json.loads(run("event", "standings", str(club), "--json").stdout)
    points = {line["name"]: line["points"] for line in table["players"]}
    assert points == {"Ana": 1, "Chi": 0.5, "Dev": 0.5, "Ben": 0}


def test_a_record_whose_seats_differ_from_its_pairing_is_refused_and_nothing_changes(
    club: Path,
) -> None:
    run("event", "pair", str(club))
    run("event", "results", str(club), CLUB, "--round", "1")
    run("event", "pair", str(club))  # round 2: Ben - Dev, Ana - Chi (the table's 4-3, 1-2)
    before = digest(club)
    refused = run("event", "results", str(club), CLUB, "--round", "2")
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"gamerec: error: event 'Club night', round 2: {CLUB}#4: the record's seats "
        "(Dev - Ben) do not match table 1 (Ben - Dev)\n"
    )
    assert digest(club) == before


def test_pairing_a_round_whose_results_are_missing_is_refused(club: Path) -> None:
    run("event", "pair", str(club))
    before = digest(club)
    refused = run("event", "pair", str(club))
    assert refused.exit_code == 2
    assert refused.stderr == (
        "gamerec: error: event 'Club night', round 2: round 1 has no result yet for "
        "table 1: Ana - Ben; table 2: Chi - Dev\n"
    )
    assert digest(club) == before


def test_a_player_entered_twice_is_refused_and_nothing_is_added(club: Path) -> None:
    before = digest(club)
    refused = run("event", "players", str(club), "--add", "Eli", "--add", "Ana")
    assert refused.exit_code == 2
    assert refused.stderr == "gamerec: error: event 'Club night': player 'Ana' is entered twice\n"
    assert digest(club) == before


def test_a_result_for_a_pairing_that_does_not_exist_is_refused(club: Path) -> None:
    run("event", "pair", str(club))
    run("event", "results", str(club), CLUB, "--round", "1")
    run("event", "pair", str(club))
    before = digest(club)
    refused = run("event", "results", str(club), CLUB, "--round", "4")
    assert refused.exit_code == 2
    assert "event 'Club night': round 4 is not paired (rounds paired: 2)" in refused.stderr
    assert digest(club) == before


def test_two_different_games_for_one_pairing_are_a_conflict(club: Path, tmp_path: Path) -> None:
    run("event", "pair", str(club))
    other = tmp_path / "other.grn"
    # another whole game of Ana against Ben, said to be of round 1
    made = run("generate", "--game", "one", "--players", "2", "--seed", "5", "-o", str(other))
    assert made.exit_code == 0, made.output
    assert '[Seat1 "Ana"]' in other.read_text() and '[Round "1"]' in other.read_text()
    taken = run("event", "results", str(club), CLUB, str(other), "--round", "1")
    assert taken.exit_code == 1, taken.output
    assert taken.stdout.splitlines()[-1] == (
        f"conflict: round 1 table 1 (Ana - Ben): different games in {CLUB}#1, {other}#1 "
        f"(gamerec diff {CLUB} {other}); no result recorded for this pairing"
    )


def test_a_newer_event_file_is_refused(club: Path) -> None:
    with sqlite3.connect(club) as db:
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema'")
    refused = run("event", "standings", str(club))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"gamerec: error: {club}: an event file of schema version 2, newer than this gamerec "
        "reads (version 1): open it with a newer gamerec\n"
    )


def test_a_file_that_is_not_an_event_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.event"
    path.write_text("not a database\n")
    for args in (("standings",), ("pair",)):
        refused = run("event", *args, str(path))
        assert refused.exit_code == 2
        assert refused.stderr.startswith(f"gamerec: error: {path}: not an event file")
    assert path.read_text() == "not a database\n"


def test_new_refuses_an_existing_file(club: Path) -> None:
    refused = run("event", "new", str(club), "--name", "Again", "--game", "one", "--rounds", "3")
    assert refused.exit_code == 2
    assert "a file is already there" in refused.stderr


def test_a_pairing_changed_by_hand_is_recorded_so(club: Path) -> None:
    run("event", "pair", str(club))
    swapped = run("event", "pair", str(club), "--swap", "Ben,Dev")
    assert swapped.exit_code == 0, swapped.output
    assert swapped.stdout.splitlines()[1:] == [
        "   1  Ana (1) - Dev (3)  [changed by hand]",
        "   2  Chi (2) - Ben (4)  [changed by hand]",
    ]
    table = json.loads(run("event", "standings", str(club), "--json").stdout)
    assert all(line["rounds"][0]["by_hand"] for line in table["players"])


def test_trf_export_puts_fields_in_fides_columns(club: Path) -> None:
    run("event", "pair", str(club))
    run("event", "results", str(club), CLUB, SECOND, "--round", "1")
    exported = run("event", "export", str(club))
    assert exported.exit_code == 0, exported.output
    lines = exported.stdout.splitlines()
    assert lines[:3] == ["012 Club night", "062 4", "092 Round robin"]
    ana = lines[3]
    assert ana[0:3] == "001"
    assert ana[4:8] == "   1"
    assert ana[14:47].rstrip() == "Ana"
    assert ana[48:52] == "1800"
    assert ana[80:84] == " 1.0"
    assert ana[85:89] == "   1"
    assert ana[91:99] == "   4 w 1"
    chi = lines[4]
    assert chi[80:84] == " 0.5" and chi[91:99] == "   3 w ="


def test_a_swiss_with_byes_late_entry_and_withdrawal(tmp_path: Path) -> None:
    path = str(tmp_path / "swiss.event")
    assert (
        run("event", "new", path, "--name", "Open", "--game", "one", "--rounds", "3").exit_code == 0
    )
    run("event", "players", path, *[f"--add={name}" for name in ("A", "B", "C", "D", "E")])
    first = run("event", "pair", path)
    assert first.stdout.splitlines() == [
        "Open: round 1",
        "   1  A (1) - C (3)",
        "   2  D (4) - B (2)",
        " bye  E (5): 1",
    ]
    late = run("event", "players", path, "--add", "F", "--withdraw", "D")
    assert late.stdout.splitlines()[4:] == [
        "   4  D (withdrew after round 1)",
        "   5  E",
        "   6  F (late entry from round 2)",
    ]


def test_results_given_again_are_already_counted(club: Path) -> None:
    run("event", "pair", str(club))
    run("event", "results", str(club), CLUB, "--round", "1")
    again = run("event", "results", str(club), CLUB, SECOND, "--round", "1")
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[:4] == [
        f"round 1 table 1 (Ana - Ben): {CLUB}#1 is already counted",
        f"round 1 table 1 (Ana - Ben): the same game in {CLUB}#1 and {SECOND}#1: counted once",
        f"round 1 table 2 (Chi - Dev): {CLUB}#2 is already counted",
        f"round 1 table 2 (Chi - Dev): the same game in {CLUB}#2 and {SECOND}#2: counted once",
    ]


def test_a_damaged_event_file_is_refused_without_a_traceback(club: Path) -> None:
    with sqlite3.connect(club) as db:
        db.execute("UPDATE meta SET value = '{\"name\": 1}' WHERE key = 'settings'")
    for args in (("standings",), ("pair",)):
        refused = run("event", *args, str(club))
        assert refused.exit_code == 2, refused.output
        assert refused.stderr.startswith(f"gamerec: error: {club}: a damaged event file (")


def test_a_record_of_players_paired_nowhere_is_refused(club: Path, tmp_path: Path) -> None:
    run("event", "pair", str(club))
    stranger = tmp_path / "stranger.grn"
    text = Path(CLUB).read_text().split("[Game ")[1]
    stranger.write_text("[Game " + text.replace('"Ana"', '"Eve"').replace('"Ben"', '"Fox"'))
    before = digest(club)
    refused = run("event", "results", str(club), str(stranger))
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"gamerec: error: event 'Club night', round 1: {stranger}#1: no pairing of Eve - Fox "
        "in this round\n"
    )
    assert digest(club) == before


def test_standings_show_the_rating_list_where_it_names_a_player(club: Path, tmp_path: Path) -> None:
    """The list's pool (ONE, 2 seats) rates Ana, Ben, Chi and Dev; Ana's entered 1800 gives way
    to it; without --ratings the entered rating shows (``rating_from``: ``entry``)."""
    run("event", "pair", str(club))
    run("event", "results", str(club), CLUB, "--round", "1")
    listing = tmp_path / "ratings.json"
    assert run("ratings", str(EVENTS), "--json", "-o", str(listing)).exit_code == 0
    pool = json.loads(listing.read_text())["pools"][0]
    listed = {p["player"]: p["rating"] for p in pool["players"]}
    plain = json.loads(run("event", "standings", str(club), "--json").stdout)
    assert {p["name"]: (p["rating"], p["rating_from"]) for p in plain["players"]} == {
        "Ana": (1800, "entry"),
        "Chi": (None, None),
        "Dev": (None, None),
        "Ben": (None, None),
    }
    rated = run("event", "standings", str(club), "--ratings", str(listing))
    assert rated.exit_code == 0, rated.output
    head, *rows = rated.stdout.splitlines()[1:]
    assert head.split()[:5] == ["#", "No", "Name", "Rtg", "Pts"]
    shown = {row.split()[2]: row.split()[3] for row in rows}
    assert shown == {name: str(round(value)) for name, value in listed.items()}
    data = json.loads(
        run("event", "standings", str(club), "--json", "--ratings", str(listing)).stdout
    )
    assert {p["name"]: p["rating_from"] for p in data["players"]} == dict.fromkeys(listed, "list")


def test_a_rating_list_that_does_not_read_is_refused(club: Path, tmp_path: Path) -> None:
    twice = tmp_path / "twice.json"
    twice.write_text('{"pools": [], "pools": []}')
    refused = run("event", "standings", str(club), "--ratings", str(twice))
    assert refused.exit_code == 2
    assert "the key 'pools' is given twice" in refused.stderr
    shaped = tmp_path / "shaped.json"
    shaped.write_text('{"pools": [{"game": "ONE"}]}')
    refused = run("event", "standings", str(club), "--ratings", str(shaped))
    assert refused.exit_code == 2
    assert "not a rating list of gamerec ratings --json" in refused.stderr


def test_the_html_page_links_each_game_to_its_viewer_page(club: Path, tmp_path: Path) -> None:
    """Round 1's two games get a viewer page each; both players' cells of a game link to it;
    a record gone since is named on stderr, its cells keep no link, and the exit code is 1."""
    run("event", "pair", str(club))
    copy = tmp_path / "club.grn"
    copy.write_bytes(Path(CLUB).read_bytes())
    assert run("event", "results", str(club), str(copy), "--round", "1").exit_code == 0
    page = tmp_path / "out" / "club.html"
    made = run("event", "standings", str(club), "--html", str(page))
    assert made.exit_code == 0, made.output
    assert made.stdout == ""
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<script" not in text
    for table, (white, black) in ((1, ("Ana", "Ben")), (2, ("Chi", "Dev"))):
        link = f'<a href="club-games/round-1-table-{table}.html">'
        assert text.count(link) == 2
        viewer = (tmp_path / "out" / "club-games" / f"round-1-table-{table}.html").read_text()
        assert white in viewer and black in viewer and 'href="../club.html"' in viewer
    copy.unlink()
    again = run("event", "standings", str(club), "--html", str(page))
    assert again.exit_code == 1
    assert f"round 1 table 1: {copy}#1 cannot be read again" in again.stderr
    assert "club-games/round-1-table-1.html" not in page.read_text()


def test_a_dutch_round_without_py4swiss_exits_2_and_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "swiss.event"
    run("event", "new", str(path), "--name", "Open", "--game", "one", "--rounds", "3")
    run("event", "players", str(path), "--add", "Ana", "--add", "Ben")
    before = digest(path)
    monkeypatch.setitem(sys.modules, "py4swiss.engines", None)
    refused = run("event", "pair", str(path))
    assert refused.exit_code == 2
    assert refused.stderr.startswith(
        "gamerec: error: event 'Open', round 1: the FIDE Dutch system needs the py4swiss "
        "package, which cannot be imported here"
    )
    assert "CPython 3.11 to 3.14 on Linux x86-64 and macOS arm64" in refused.stderr
    assert digest(path) == before
