"""``gamerec bot --token T``: the server says which match and seat a token is (WhoAmI)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import grpc

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from tests.live.conftest import LiveServer, create, events_of
from tests.live.matches import request
from tests.players.engines import GAMEREC


def _run(*arguments: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(GAMEREC), "bot", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_bots_given_only_their_tokens_play_their_seats(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        created = create(server.address, request("Aronda", 2, keyed=False))
        bots = [
            _run("--server", server.address, "--token", token, "--policy", "random")
            for token in created.seat_tokens
        ]
        answers = [bot.communicate(timeout=300) for bot in bots]
        (ended,) = [
            e.ended for e in events_of(server.address, created.match_id) if e.HasField("ended")
        ]
        assert ended.status == mpb.MATCH_STATUS_FINISHED
        for seat, ((out, err), bot) in enumerate(zip(answers, bots, strict=True), start=1):
            assert bot.returncode == (0 if seat in ended.result.winners else 1), err
            assert out.startswith(f"{ended.reason}; seat {seat} ({('Ana', 'Ben')[seat - 1]}) ")
    finally:
        server.stop()


def test_a_seat_or_match_that_is_not_the_tokens_is_an_error(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        created = create(server.address, request("Aronda", 2, keyed=False))
        token = created.seat_tokens[1]
        for given, said in (
            (("--seat", "1"), "the token is seat 2's, not seat 1's"),
            (("--match", "0123456789abcdef"), "not of match 0123456789abcdef"),
            (("--seat", "2", "--token", "seat_nobody"), "UNAUTHENTICATED: "),
        ):
            bot = _run("--server", server.address, "--token", token, "--policy", "random", *given)
            out, err = bot.communicate(timeout=120)
            assert bot.returncode == 2 and out == "", err
            lines = err.splitlines()
            assert len(lines) == 1 and said in lines[0], err
        with grpc.insecure_channel(server.address) as channel:
            state = mgrpc.MatchServiceStub(channel).GetMatch(
                mpb.GetMatchRequest(match_id=created.match_id), timeout=30
            )
        assert (state.last_event, state.plies) == (1, 0)  # nothing was played
    finally:
        server.stop()
