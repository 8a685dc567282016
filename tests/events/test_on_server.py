"""``gamerec event start|results --server``: a round on a real match server, and bad input."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import Result

from gamerec.recorder.codecs import read_records
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.events import store
from gamerec.validator.events.on_server import moment
from tests.events.server_rounds import event_file, matches_of, play, run, state_of, tickets
from tests.live.conftest import LiveServer

pytestmark = pytest.mark.xdist_group("events-on-server")

PLAYERS = ["Ana", "Ben", "Chi", "Dev", "Eli"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the module, on a test clock that stands still (no flag ever falls)."""
    made = LiveServer(tmp_path_factory.mktemp("events-server"))
    yield made
    made.stop()


def start(server: LiveServer, path: Path, *options: str) -> Result:
    """``gamerec event start EVENT 1 --server ADDRESS OPTIONS``."""
    return run("event", "start", str(path), "1", "--server", server.address, *options)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def paired(tmp_path: Path, players: list[str] = PLAYERS) -> Path:
    """Club night, a Swiss of ONE, round 1 paired: Ana - Chi, Dev - Ben, Eli's bye."""
    path = event_file(
        tmp_path, "club", "Club night", "--rounds", "3", "--time-control", "300+3", players=players
    )
    done = run("event", "pair", str(path))
    assert done.exit_code == 0, done.output
    return path


def open_matches(address: str) -> set[str]:
    return {m.match_id for m in matches_of(address) if m.status == mpb.MATCH_STATUS_OPEN}


def test_start_creates_every_match_and_records_it(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    before = {m.match_id for m in matches_of(server.address)}
    # The server's test clock reads 2026-01-01T00:00:00Z: the clocks start 5 s later.
    done = start(
        server,
        path,
        "--variant",
        "Board=5,5",
        "--start-at",
        "2026-01-01T00:00:05Z",
    )
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == (
        f"Club night: round 1 started on {server.address}: 2 matches, clocks start at "
        "2026-01-01T00:00:05.000Z"
    )
    seats = tickets(done.output)
    assert [seat.name for seat in seats] == ["Ana", "Chi", "Dev", "Ben"]
    created = {m.match_id: m for m in matches_of(server.address)}
    assert set(created) - before == {seat.match_id for seat in seats}
    event = store.load(str(path))
    tables = event.round(1).tables
    for table in tables:
        assert table.match is not None
        summary = created[table.match.match_id]
        assert tuple(summary.seats) == table.seats
        assert table.match.server == server.address
        assert table.match.host_key == server.host_public.hex()
        assert table.match.start_at == "2026-01-01T00:00:05.000Z"
        state = state_of(server.address, table.match.match_id)
        assert state.clocks_start.ToJsonString() == "2026-01-01T00:00:05Z"
        assert not state.clock_running
    # Each seat's token plays its own seat: the bots finish both games.
    ended = play(server.address, seats, "start")
    assert all(end.status == mpb.MATCH_STATUS_FINISHED for end in ended.values())
    for end in ended.values():
        assert end.record.metadata.event == "Club night"
        assert end.record.metadata.round == "1"
        assert end.record.metadata.time_control == "300+3"
        assert len(end.record.rules.one.ring_sizes) == 2


def test_results_come_from_the_sealed_records(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    done = start(server, path, "--variant", "Board=5,5")
    ended = play(server.address, tickets(done.output), "results")
    collected = run("event", "results", str(path), "1", "--server", server.address)
    assert collected.exit_code == 0, collected.output
    event = store.load(str(path))
    folder = tmp_path / "club-records" / "round-1"
    for table in event.round(1).tables:
        assert table.match is not None and table.result is not None
        end = ended[table.match.match_id]
        assert table.result.ranks == tuple(end.result.ranks)
        assert table.result.adjudicated == ""
        written = folder / f"table-{table.number}.pb"
        assert table.result.sources == [f"{written}#1"]
        (record,) = list(read_records(str(written)))
        assert (
            record.moves == end.record.moves
            and record.seal.final_head == end.record.seal.final_head
        )
        line = f"round 1 table {table.number} ({' - '.join(table.seats)}):"
        assert any(text.startswith(line) for text in collected.output.splitlines())
    verified = run("verify", "--require", "host", str(folder / "table-1.pb"))
    assert verified.exit_code == 0, verified.output
    again = run("event", "results", str(path), "1", "--server", server.address)
    assert again.exit_code == 0 and again.output == ""


def test_open_games_are_adjudicated_at_the_deadline(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    done = start(server, path)
    assert done.exit_code == 0, done.output
    waiting = run("event", "results", str(path), "1", "--server", server.address)
    assert waiting.exit_code == 1
    assert waiting.output == "still being played: table 1 (Ana - Chi); table 2 (Dev - Ben)\n"
    assert store.load(str(path)).round(1).missing() != []
    late = run("event", "results", str(path), "1", "--server", server.address, "--deadline", "+0s")
    assert late.exit_code == 0, late.output
    assert (
        "round 1 table 1 (Ana - Chi): adjudicated (not finished by the deadline): the standing "
        "after ply 0, 0-0" in late.output
    )
    event = store.load(str(path))
    for table in event.round(1).tables:
        assert table.result is not None and table.result.ranks == (1, 1)
        assert table.result.adjudicated == "not finished by the deadline"
    assert not open_matches(server.address) & {
        t.match.match_id for t in event.round(1).tables if t.match
    }
    shown = run("event", "standings", str(path))
    assert "3w½a" in shown.output  # Ana: against Chi (3), white, a draw adjudicated
    assert shown.output.rstrip().endswith("a: adjudicated from the position reached (not finished)")
    as_json = run("event", "standings", str(path), "--json")
    assert '"adjudicated": "not finished by the deadline"' in as_json.output


def test_a_round_started_twice_is_refused(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    first = start(server, path)
    assert first.exit_code == 0
    match_id = tickets(first.output)[0].match_id
    kept, before = digest(path), open_matches(server.address)
    again = start(server, path)
    assert again.exit_code == 2
    assert again.output == (
        "gamerec: error: event 'Club night', round 1: the round is started already: table 1 "
        f"(Ana - Chi) is match {match_id} on {server.address}\n"
    )
    assert digest(path) == kept and open_matches(server.address) == before


def test_results_of_a_round_not_started_are_refused(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    kept = digest(path)
    done = run("event", "results", str(path), "1", "--server", server.address)
    assert done.exit_code == 2
    assert done.output == (
        "gamerec: error: event 'Club night', round 1: the round was not started on a server "
        "(gamerec event start); its results come from record files (gamerec event results "
        "EVENT PATH...)\n"
    )
    unpaired = run("event", "start", str(path), "2", "--server", server.address)
    assert unpaired.exit_code == 2
    assert "event 'Club night': round 2 is not paired (rounds paired: 1)" in unpaired.output
    assert digest(path) == kept


def test_a_record_whose_seats_differ_from_its_pairing(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    done = start(server, path)
    play(server.address, tickets(done.output), "seats")
    # The director swaps two players after the start: the records no longer match.
    swapped = run("event", "pair", str(path), "--swap", "Ana,Chi")
    assert swapped.exit_code == 0, swapped.output
    kept = digest(path)
    collected = run("event", "results", str(path), "1", "--server", server.address)
    assert collected.exit_code == 2
    assert collected.output.startswith("gamerec: error: event 'Club night', round 1: ")
    assert (
        "table-1.pb#1: the record's seats (Ana - Chi) do not match table 1 (Chi - Ana)"
        in collected.output
    )
    assert digest(path) == kept
    assert not (tmp_path / "club-records" / "round-1" / "table-1.pb").exists()


def test_a_record_sealed_by_another_host_key(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    done = start(server, path)
    play(server.address, tickets(done.output), "host")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE matches SET host_key = ? WHERE number = 1", ("ab" * 32,))
    kept = digest(path)
    collected = run("event", "results", str(path), "1", "--server", server.address)
    assert collected.exit_code == 2
    assert "the record is sealed by host key" in collected.output
    assert "not the one that sealed the match (abababababababab...)" in collected.output
    assert digest(path) == kept


def test_a_server_refusing_one_table_creates_none(server: LiveServer, tmp_path: Path) -> None:
    long_name = "Zed" + "z" * 200
    path = paired(tmp_path, players=[*PLAYERS, long_name])
    kept, before = digest(path), {m.match_id for m in matches_of(server.address)}
    done = start(server, path)
    assert done.exit_code == 2
    assert done.output.startswith(
        f"gamerec: error: event 'Club night', round 1: {server.address} refused table 3 ("
    )
    assert f"player {long_name!r}: INVALID_ARGUMENT: matches[2].seats[1].name" in done.output
    assert done.output.rstrip().endswith("no match of the round was created")
    assert digest(path) == kept
    # One call, one transaction: not even a match called off is left of the round.
    assert {m.match_id for m in matches_of(server.address)} == before


def test_tickets_are_files_only_their_owner_reads(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    folder = tmp_path / "tickets"
    done = start(
        server,
        path,
        "--tokens-dir",
        str(folder),
        "--web-url",
        "https://games.example/",
    )
    assert done.exit_code == 0, done.output
    names = sorted(os.listdir(folder))
    assert names == [
        "round-1-01-Ana.txt",
        "round-1-02-Ben.txt",
        "round-1-03-Chi.txt",
        "round-1-04-Dev.txt",
    ]
    for name in names:
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600
    event = store.load(str(path))
    match = event.round(1).tables[0].match
    assert match is not None
    text = (folder / "round-1-03-Chi.txt").read_text()
    first, link = text.splitlines()
    assert first == "Club night, round 1, table 1, seat 2: Chi against Ana"
    assert link.startswith(f"https://games.example/#play={match.match_id}&seat=2&token=seat_")
    assert f"Chi (3): {folder / 'round-1-03-Chi.txt'}" in done.output.splitlines()
    assert "seat_" not in done.output


def test_a_ticket_file_there_already_creates_nothing(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    folder = tmp_path / "tickets"
    folder.mkdir()
    (folder / "round-1-04-Dev.txt").write_text("mine\n")
    kept, before = digest(path), open_matches(server.address)
    done = start(server, path, "--tokens-dir", str(folder))
    assert done.exit_code == 2
    assert "round-1-04-Dev.txt is there already; not written over" in done.output
    assert digest(path) == kept and open_matches(server.address) == before
    assert os.listdir(folder) == ["round-1-04-Dev.txt"]


def test_times_as_the_director_writes_them() -> None:
    now = moment("2026-12-06T19:00:00Z")
    assert moment("+90s", now) == moment("2026-12-06T19:01:30+00:00")
    assert moment("+5m", now) == moment("2026-12-06T19:05:00Z")
    assert moment("+1h", now) == moment("2026-12-06T20:00:00Z")
    for wrong in ("tomorrow", "2026-12-06T19:00:00", "+5d", "5m"):
        with pytest.raises(Exception, match="is not a time"):
            moment(wrong, now)


def test_results_wait_for_the_games_until_the_deadline(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    done = start(server, path)
    seats = tickets(done.output)
    # The bots start a moment after the director asks; the games end long before the deadline,
    # and the event file is free meanwhile (the wait reads it; only the collection writes).
    players = threading.Timer(1.0, play, (server.address, seats, "wait"))
    players.start()
    try:
        waited = run(
            "event", "results", str(path), "1", "--server", server.address, "--deadline", "+10m"
        )
    finally:
        players.join()
    assert waited.exit_code == 0, waited.output
    assert "adjudicated" not in waited.output
    event = store.load(str(path))
    assert all(t.result is not None and not t.result.adjudicated for t in event.round(1).tables)


def test_what_results_take_with_a_server(server: LiveServer, tmp_path: Path) -> None:
    path = paired(tmp_path)
    kept = digest(path)
    for given in (["one"], ["1", "2"], ["1", "--round", "1"]):
        done = run("event", "results", str(path), *given, "--server", server.address)
        assert done.exit_code == 2
        assert done.output == (
            "gamerec: error: with --server, give the round (a number) after the event file, "
            "and no --round\n"
        )
    alone = run("event", "results", str(path), "records.grn", "--deadline", "+1m")
    assert alone.exit_code == 2
    assert "--deadline: only with --server" in alone.output
    wrong = run(
        "event", "results", str(path), "1", "--server", server.address, "--deadline", "soon"
    )
    assert wrong.exit_code == 2 and "'soon' is not a time" in wrong.output
    assert digest(path) == kept


def test_a_start_time_the_server_refuses_creates_nothing(
    server: LiveServer, tmp_path: Path
) -> None:
    path = paired(tmp_path)
    kept, before = digest(path), {m.match_id for m in matches_of(server.address)}
    done = start(
        server,
        path,
        "--start-at",
        "2025-12-31T00:00:00Z",
    )
    assert done.exit_code == 2
    assert done.output.startswith(
        f"gamerec: error: event 'Club night', round 1: {server.address} refused table 1 "
        "(Ana - Chi), players Ana - Chi: INVALID_ARGUMENT: matches[0].start_at"
    )
    assert digest(path) == kept
    assert {m.match_id for m in matches_of(server.address)} == before


def test_a_server_that_is_not_there(tmp_path: Path) -> None:
    path = paired(tmp_path)
    kept = digest(path)
    done = run("event", "start", str(path), "1", "--server", "127.0.0.1:1")
    assert done.exit_code == 2
    assert done.output.startswith("gamerec: error: event 'Club night', round 1: 127.0.0.1:1: ")
    assert done.output.rstrip().endswith("; no match was created")
    assert digest(path) == kept
