"""``gamerec match`` against a real server, ``gamerec match export``, and the serve options."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records, write_records
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.service.match_client import NO_MATCHES
from tests.live.conftest import LiveServer, create, play_match, sync_stub
from tests.live.matches import GAMES_AND_SEATS, request, trust_folder
from tests.service.conftest import ServeProcess

GAMEREC = str(Path(sys.executable).with_name("gamerec"))


def gamerec(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [GAMEREC, *arguments], capture_output=True, text=True, timeout=120, check=False
    )


def test_match_new_prints_the_id_and_one_token_per_seat(live: LiveServer) -> None:
    done = gamerec(
        *("match", "new", "--server", live.address, "--game", "oust"),
        *("--seat", "alice", "--seat", "bob", "--clock", "300+3"),
    )
    assert done.returncode == 0, done.stderr
    head, first, second = done.stdout.splitlines()
    match = re.fullmatch(r"match ([0-9a-f]{16})  Oust  clock 300\+3", head)
    assert match, head
    assert re.fullmatch(r"seat 1  alice  seat_[A-Za-z0-9_-]{32}", first)
    assert re.fullmatch(r"seat 2  bob  seat_[A-Za-z0-9_-]{32}", second)
    shown = gamerec("match", "show", match.group(1), "--server", live.address)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0] == f"match {match.group(1)}  Oust  open  clock 300+3  ply 1, seat 1 to move"
    # Seat 1's first ply is untimed: its clock waits for its first move (docs/live.md).
    assert re.fullmatch(
        r"seat 1  alice  0:05:00  \(first ply, untimed; aborted at 2026-\S+Z without it\)",
        lines[1],
    ), lines[1]
    assert lines[2] == "seat 2  bob  0:05:00"
    assert lines[3].startswith("legal  g1 h1 i1")
    listed = gamerec("match", "list", "--server", live.address, "--status", "open")
    assert listed.stdout.splitlines()[0].startswith(
        f"{match.group(1)}  Oust  300+3  alice, bob  0 plies"
    )
    aborted = gamerec("match", "abort", match.group(1), "--server", live.address)
    assert (
        aborted.stdout
        == f"match {match.group(1)}: the admin aborted the match after ply 0; it has no result\n"
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--clock", "5min"), r"INVALID_ARGUMENT: time_control: time control '5min' is not one of"),
        (("--variant", "Players=9"), r"INVALID_ARGUMENT: rules: impossible Oust variant"),
    ],
)
def test_match_new_reports_a_refused_request_in_one_line(
    live: LiveServer, arguments: tuple[str, ...], message: str
) -> None:
    done = gamerec(
        "match",
        "new",
        "--server",
        live.address,
        "--game",
        "oust",
        "--seat",
        "a",
        "--seat",
        "b",
        *arguments,
    )
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert re.search(message, line), line
    assert line.startswith(f"gamerec: error: {live.address}: ")


def test_an_unknown_match_and_an_unknown_game_exit_2(live: LiveServer) -> None:
    shown = gamerec("match", "show", "0000", "--server", live.address)
    assert shown.returncode == 2 and "NOT_FOUND: no match '0000' on this server" in shown.stderr
    new = gamerec("match", "new", "--server", live.address, "--game", "chess", "--seat", "a")
    assert new.returncode == 2 and "unknown game 'chess'" in new.stderr


def test_exported_records_validate_verify_and_stand_in_a_table(
    live: LiveServer, tmp_path: Path
) -> None:
    async def run() -> None:
        await asyncio.gather(
            *(
                play_match(live.address, request(game, seats), seed=n)
                for n, (game, seats) in enumerate(GAMES_AND_SEATS[:3])
            )
        )

    asyncio.run(run())
    out = tmp_path / "event.pbs"
    exported = gamerec("match", "export", str(live.store), "-o", str(out))
    assert exported.returncode == 0, exported.stderr
    records = list(read_records(str(out)))
    assert len(records) >= 3 and all(validate(record).valid for record in records)
    assert exported.stderr == f"gamerec: {len(records)} records written to {out} (pbs)\n"
    validated = gamerec("validate", str(out))
    assert validated.returncode == 0, validated.stdout
    trust = trust_folder(tmp_path / "trust", range(1, 7))
    (trust / "host.pub").write_bytes(Path(f"{live.store}.host-key.pub").read_bytes())
    verified = gamerec("verify", "--trust", str(trust), str(out))
    assert verified.returncode == 0, verified.stdout
    standings = gamerec("standings", str(out))
    assert standings.returncode in (0, 1) and "Ana" in standings.stdout


def test_export_of_a_file_that_is_no_store_exits_2(tmp_path: Path) -> None:
    done = gamerec("match", "export", str(tmp_path / "none.db"), "-o", str(tmp_path / "out.pbs"))
    assert done.returncode == 2 and "no such match store" in done.stderr
    assert not (tmp_path / "out.pbs").exists()


def test_match_options_need_matches_and_a_wrong_host_key_is_refused(tmp_path: Path) -> None:
    alone = gamerec("serve", "--port", "0", "--host-key", "x")
    assert alone.returncode == 2 and "go with --matches FILE" in alone.stderr
    store = tmp_path / "matches.db"
    key_file = tmp_path / "other"
    gamerec("keys", "new", str(key_file))
    first = gamerec("serve", "--port", "0", "--matches", str(store), "--match-limit", "nonsense=1")
    assert first.returncode == 2 and "--match-limit: expected NAME=N" in first.stderr
    other_key = tmp_path / "first"
    gamerec("keys", "new", str(other_key))
    made = gamerec("match", "export", str(store), "-o", "-")
    assert made.returncode == 2  # no store yet
    server = LiveServer(tmp_path, "--host-key", str(other_key))
    server.stop()
    wrong = gamerec("serve", "--port", "0", "--matches", str(store), "--host-key", str(key_file))
    assert wrong.returncode == 2 and "sealed with the host key" in wrong.stderr


def test_gamerec_limits_lists_the_match_service_s_limits() -> None:
    done = gamerec("limits")
    text = done.stdout
    assert "open-matches" in text and "watchers" in text and "request-bytes" in text
    assert re.search(r"request-bytes\s+65,536", text)


def test_a_server_without_matches_says_so_to_every_match_command() -> None:
    """gRPC answers UNIMPLEMENTED (``Method not found!``); each command says what that means."""
    plain = ServeProcess("--workers", "1", "--processes", "1")
    try:
        _say_no_matches(plain.address)
    finally:
        plain.kill()


def _say_no_matches(address: str) -> None:
    server = ("--server", address)
    seat = ("--match", "0123456789abcdef", "--token", "seat_x", "--seat", "1")
    commands = [
        ("match", "new", *server, "--game", "oust", "--seat", "a", "--seat", "b"),
        ("match", "show", "0123456789abcdef", *server),
        ("match", "list", *server),
        ("match", "abort", "0123456789abcdef", *server),
        ("play", *server, *seat),
        ("bot", *server, *seat, "--policy", "random"),
    ]
    for command in commands:
        done = gamerec(*command)
        assert (done.returncode, done.stdout) == (2, ""), (command, done.stderr)
        assert done.stderr == f"gamerec: error: {address}: {NO_MATCHES}\n", command
    assert "UNIMPLEMENTED" not in NO_MATCHES and "gamerec serve --matches" in NO_MATCHES


def test_match_show_says_what_the_swap_did_and_why_the_match_ended(live: LiveServer) -> None:
    """Issue 34: the pie swap and the end in words (render.ending), as play and replay say them."""
    created = create(live.address, request("Oust", 2, keyed=False))
    match_id, tokens = created.match_id, list(created.seat_tokens)
    stub = sync_stub(live.address)
    for ply, (token, move) in enumerate(((tokens[0], "g7"), (tokens[1], "swap")), start=1):
        stub.Play(mpb.PlayRequest(match_id=match_id, token=token, ply=ply, text=move), timeout=30)
    stub.Resign(mpb.ResignRequest(match_id=match_id, token=tokens[0]), timeout=30)
    shown = gamerec("match", "show", match_id, "--server", live.address)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert "last plies  1. g7  2. swap  3. resign" in lines
    assert (
        "2. swap: the pie rule: seat 2 takes the stone of ply 1 as its own, and seat 1 places next"
    ) in lines
    assert lines[-1] == "ended: Seat 1 (Ana) resigned at ply 3: seat 2 (Ben) wins."


def test_a_match_without_seat_keys_proves_the_host_s_word_and_verifies_at_that_level(
    live: LiveServer, tmp_path: Path
) -> None:
    """The README's quick start: seats with no keys, so only the host signs every ply."""
    game, seats = GAMES_AND_SEATS[0]
    asyncio.run(play_match(live.address, request(game, seats, keyed=False), seed=7, keyed=False))
    out = tmp_path / "unkeyed.pbs"
    exported = gamerec("match", "export", str(live.store), "-o", str(out))
    assert exported.returncode == 0, exported.stderr
    # Other tests of the module's server play unkeyed matches of other games.
    unkeyed = [
        record
        for record in read_records(str(out))
        if not record.seal.seat_keys and record.rules.game == pb.GAME_ONE
    ]
    assert len(unkeyed) == 1 and unkeyed[0].seal.host_key
    path = tmp_path / "unkeyed.grn"
    write_records(unkeyed, path)
    trust = tmp_path / "trust"
    trust.mkdir()
    (trust / "host.pub").write_bytes(Path(f"{live.store}.host-key.pub").read_bytes())
    default = gamerec("verify", "--trust", str(trust), str(path))
    assert default.returncode == 1, default.stdout
    assert "NOT VERIFIED" in default.stdout and "NO_KEY" in default.stdout
    assert "  proves  seal yes  host yes  seats no" in default.stdout.splitlines()
    host = gamerec("verify", "--trust", str(trust), "--require", "host", str(path))
    assert host.returncode == 0, host.stdout
    assert "verified (required: host)" in host.stdout
    seats_level = gamerec("verify", "--trust", str(trust), "--require", "seats", str(path))
    assert seats_level.returncode == 1, seats_level.stdout
