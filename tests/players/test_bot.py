"""``gamerec bot``: engines play seats of a real match server, through a server restart.

The server is a real ``gamerec serve --matches`` in its own process on a test clock that
stands still (no flag can fall while the machine is busy); each bot is a real ``gamerec bot``
process running a real engine process: the Node example engine, or a Python engine that
thinks a fifth of a second a move so the server can be killed in the middle of the game.
"""

from __future__ import annotations

import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.judge import validate
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer, create, events_of, kinds
from tests.live.matches import request
from tests.live.test_node_bot import pem_of
from tests.players.engines import GAMEREC, NODE_ENGINE
from tests.sealing import key

SLOW_ENGINE = shlex.join(
    [sys.executable, str(Path(__file__).with_name("misbehaving_engine.py")), "slow"]
)


def _bot(server: LiveServer, created: mpb.CreateMatchResponse, seat: int, *how: str) -> list[str]:
    return [
        str(GAMEREC),
        "bot",
        *("--server", server.address, "--match", created.match_id),
        *("--token", created.seat_tokens[seat - 1], "--seat", str(seat)),
        *how,
    ]


def _state(server: LiveServer, match_id: str) -> mpb.MatchState:
    with grpc.insecure_channel(server.address) as channel:
        return mgrpc.MatchServiceStub(channel).GetMatch(
            mpb.GetMatchRequest(match_id=match_id), timeout=30
        )


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def _exit_code_of(seat: int, ended: mpb.MatchEnded) -> int:
    return 0 if seat in ended.result.winners else 1


def _outcome(seat: int, ended: mpb.MatchEnded) -> str:
    winners = list(ended.result.winners)
    if seat not in winners:
        return "loses"
    return "wins" if winners == [seat] else "shares first"


def test_an_external_engine_plays_a_whole_signed_match_through_gamerec_bot(
    tmp_path: Path,
) -> None:
    node = shutil.which("node")
    assert node, "node is needed for the example engine"
    server = LiveServer(tmp_path)
    try:
        created = create(server.address, request("Oh-Wah-Ree", 2, clock="600+5"))
        engine = shlex.join([node, str(NODE_ENGINE)])
        first = subprocess.Popen(
            _bot(server, created, 1, "--engine", engine, "--key", str(pem_of(1, tmp_path))),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        second = subprocess.Popen(
            _bot(server, created, 2, "--policy", "greedy", "--key", str(pem_of(2, tmp_path))),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        (code1, out1, err1), (code2, out2, err2) = _finish(first), _finish(second)
        state = _state(server, created.match_id)
        (ended,) = [
            e.ended for e in events_of(server.address, created.match_id) if e.HasField("ended")
        ]
        assert ended.status == mpb.MATCH_STATUS_FINISHED
        assert (code1, code2) == (_exit_code_of(1, ended), _exit_code_of(2, ended)), err1 + err2
        assert out1 == f"{ended.reason}; seat 1 (Ana) {_outcome(1, ended)}\n"
        assert out2 == f"{ended.reason}; seat 2 (Ben) {_outcome(2, ended)}\n"
        record = state.record
        assert validate(record).valid
        trusted = {server.host_public, public_bytes(key(1)), public_bytes(key(2))}
        assert verify(record, trusted).verified
        for seat in (1, 2):
            played = {p for p, move in enumerate(record.moves, 1) if move.seat == seat}
            signed = {
                p
                for p, sealed in enumerate(record.seal.plies, 1)
                for signature in sealed.signatures
                if signature.signer == seat
            }
            assert played <= signed, seat
    finally:
        server.stop()


def test_a_bot_survives_a_server_killed_and_restarted_mid_game(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        created = create(server.address, request("Oh-Wah-Ree", 2, keyed=False))
        bots = [
            subprocess.Popen(
                _bot(server, created, seat, "--engine", SLOW_ENGINE),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for seat in (1, 2)
        ]
        deadline = time.monotonic() + 120
        while _state(server, created.match_id).plies < 6:
            assert time.monotonic() < deadline, "the bots did not play six plies"
            time.sleep(0.05)
        address = server.address
        server.process.process.send_signal(signal.SIGKILL)
        server.process.process.wait(30)
        time.sleep(0.5)  # a moment with no server: the bots' calls fail and are retried
        server.restart_on(address)
        results = [_finish(bot) for bot in bots]
        log = events_of(server.address, created.match_id)
        (ended,) = [event.ended for event in log if event.HasField("ended")]
        assert ended.status == mpb.MATCH_STATUS_FINISHED and not ended.result.provisional
        for seat, (code, out, err) in enumerate(results, start=1):
            assert code == _exit_code_of(seat, ended), err
            assert out.startswith(ended.reason)
        assert "outage" in kinds(log)
        assert validate(ended.record).valid
    finally:
        server.stop()


@pytest.mark.parametrize(
    ("how", "message"),
    [
        ((), "give one of --engine COMMAND and --policy random|greedy"),
        (("--engine", "x", "--policy", "random"), "give one of --engine COMMAND and --policy"),
        (("--engine", "/no/such/engine"), "ENGINE_NOT_STARTED"),
    ],
)
def test_a_bot_that_cannot_play_says_why_and_exits_2(how: tuple[str, ...], message: str) -> None:
    done = subprocess.run(
        [
            *(str(GAMEREC), "bot", "--server", "127.0.0.1:1"),
            *("--match", "m", "--token", "t", "--seat", "1", *how),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr
