"""``gamerec tournament --server``: every game a match on a real match server.

The server (``gamerec serve --matches`` in its own process, with an admin token, on a test
clock that stands still) referees, seals and signs every game; the tournament creates the
matches with the admin token and plays each seat as ``gamerec bot`` does, openings included.
An engine that crashes resigns its match; a resumed run plays only what the file misses.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from gamerec.recorder.codecs import read_records
from gamerec.recorder.notation import format_action
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.validator.judge import validate
from gamerec.validator.service.match_client import NO_MATCHES
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer
from tests.players.engines import GAMEREC, policy
from tests.service.conftest import ServeProcess

MISBEHAVING = Path(__file__).with_name("misbehaving_engine.py")


def _tournament(
    server: LiveServer | ServeProcess, token_file: Path, out: Path, rounds: int, crash: str
) -> subprocess.CompletedProcess[str]:
    crasher = shlex.join([sys.executable, str(MISBEHAVING), "crash", crash])
    return subprocess.run(
        [
            str(GAMEREC), "tournament", "--game", "Aronda",
            "--engine", f"Greedy={shlex.join(policy('greedy', 1))}",
            "--engine", f"Crasher={crasher}",
            "--rounds", str(rounds), "--clock", "60+1", "--concurrency", "2",
            "--openings", "random", "--opening-plies", "2", "--seed", "3",
            "--server", server.address, "--admin-token-file", str(token_file),
            "-o", str(out),
        ],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip


def _opening(record: pb.GameRecord) -> list[str]:
    return [format_action(move, record.rules.game) for move in record.moves[:2]]


def test_a_tournament_through_the_server_gets_its_sealed_records(tmp_path: Path) -> None:
    token_file = tmp_path / "admin-token"
    token_file.write_text("tournament-admin\n")
    server = LiveServer(tmp_path, "--admin-token-file", str(token_file))
    try:
        first = tmp_path / "first.pbs"
        done = _tournament(server, token_file, first, 2, "none")
        assert done.returncode == 0, done.stderr
        records = list(read_records(first))
        assert sorted(r.metadata.round for r in records) == ["1.1", "1.2", "2.1", "2.2"]
        for record in records:
            assert validate(record).valid
            report = verify(record, {server.host_public})
            assert report.seal == spb.SEAL_STATUS_HOLDS  # sealed and signed by the host
            assert {finding.code for finding in report.findings} == {"NO_KEY"}  # seats: none
            assert record.seal.final_head and record.metadata.event == "gamerec tournament"
            assert record.metadata.time_control == "60+1"
        crash_at = " ".join(_opening(records[0]))
        out = tmp_path / "event.pbs"
        crashed = _tournament(server, token_file, out, 2, crash_at)
        assert crashed.returncode == 0, crashed.stderr
        resigned = [r for r in read_records(out) if _opening(r) == crash_at.split()]
        assert len(resigned) == 2  # the encounter's two games share the opening
        for record in resigned:
            names = [seat.name for seat in record.seats]
            assert record.result.termination == pb.TERMINATION_RESIGNATION
            assert [names[s - 1] for s in record.result.winners] == ["Greedy"]
        again = _tournament(server, token_file, out, 3, crash_at)
        assert again.returncode == 0, again.stderr
        assert "4 already in" in again.stderr and again.stderr.count("Finished game") == 2
        assert len(list(read_records(out))) == 6
    finally:
        server.stop()


def test_a_server_that_refuses_the_organiser_stops_the_tournament_with_one_line(
    tmp_path: Path,
) -> None:
    token_file = tmp_path / "admin-token"
    token_file.write_text("tournament-admin\n")
    server = LiveServer(tmp_path, "--admin-token-file", str(token_file))
    try:
        wrong = tmp_path / "wrong-token"
        wrong.write_text("not-the-admin\n")
        out = tmp_path / "event.pbs"
        refused = _tournament(server, wrong, out, 1, "none")
        assert refused.returncode == 2, refused.stderr
        errors = [line for line in refused.stderr.splitlines() if "error" in line]
        assert len(errors) == 1 and "Traceback" not in refused.stderr, refused.stderr
        assert errors[0].startswith("gamerec: error: the match server: UNAUTHENTICATED: "), errors
        assert not out.exists() or out.stat().st_size == 0  # no game written
    finally:
        server.stop()


def test_a_server_without_matches_stops_the_tournament_saying_so(tmp_path: Path) -> None:
    """Issue 34: gRPC's ``UNIMPLEMENTED: Method not found!`` said as what it means."""
    plain = ServeProcess("--workers", "1", "--processes", "1")
    try:
        token_file = tmp_path / "admin-token"
        token_file.write_text("tournament-admin\n")
        out = tmp_path / "event.pbs"
        refused = _tournament(plain, token_file, out, 1, "none")
        assert refused.returncode == 2, refused.stderr
        errors = [line for line in refused.stderr.splitlines() if "error" in line]
        assert errors == [f"gamerec: error: the match server: {NO_MATCHES}"], refused.stderr
    finally:
        plain.kill()
