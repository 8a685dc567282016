"""``gamerec bot --accept-any``: a real bot process takes the lobby's challenges it can play."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import time
from pathlib import Path

import grpc
import grpc.aio
import pytest

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.service.match_client import SeatBot
from tests.live.conftest import LiveServer
from tests.live.matches import rules
from tests.live.test_node_bot import pem_of
from tests.lobby.conftest import final_record_holds, lobby_stub, opening, player
from tests.players.engines import GAMEREC, NODE_ENGINE
from tests.sealing import key


def _bot(server: LiveServer, *how: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(GAMEREC), "bot", "--server", server.address, "--accept-any", *how],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_taken(server: LiveServer, token: str) -> lpb.Challenge:
    """The challenge of ``token`` once its match started (the bot took the free seat)."""
    stub = lobby_stub(server.address)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        answer = stub.ListChallenges(lpb.ListChallengesRequest(token=token), timeout=30)
        if answer.challenges[0].match_id:
            return answer.challenges[0]
        time.sleep(0.1)
    raise AssertionError("no bot took the challenge")


async def _play_seat(address: str, match_id: str, token: str, seat: int) -> mpb.MatchEnded:
    async with grpc.aio.insecure_channel(address) as channel:
        bot = SeatBot(
            mgrpc.MatchServiceStub(channel), match_id, token, seat, "random", "7", key=key(seat)
        )
        return await asyncio.wait_for(bot.run(), 180)


def test_a_bot_accepting_any_challenge_takes_one_and_finishes_a_match_that_verifies(
    tmp_path: Path,
) -> None:
    server = LiveServer(tmp_path)
    try:
        bot = _bot(
            server,
            *("--policy", "greedy", "--games", "1", "--key", str(pem_of(2, tmp_path))),
            *("--name", player(2).name),
        )
        opened = lobby_stub(server.address).OpenChallenge(opening("Oust"), timeout=30)
        challenge = _wait_taken(server, opened.token)
        assert [seat.name for seat in challenge.seats] == ["Ana", "Ben"]
        ended = asyncio.run(_play_seat(server.address, challenge.match_id, opened.token, 1))
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, err
        assert out.splitlines() == [
            f"match {challenge.match_id}: {ended.reason}; seat 2 (Ben) "
            + ("wins" if ended.result.winners == [2] else "loses")
        ]
        assert f"took seat 2 of challenge {challenge.challenge_id} (Oust, 2 seats)" in err
        final_record_holds(server.address, challenge.match_id, 2)
    finally:
        server.stop()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_bot_takes_only_the_challenges_its_engine_plays(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        stub = lobby_stub(server.address)
        aronda = stub.OpenChallenge(opening("Aronda"), timeout=30)
        ohwahree = stub.OpenChallenge(
            lpb.OpenChallengeRequest(
                rules=rules("Oh-Wah-Ree", 2), player=player(1), time_control="600"
            ),
            timeout=30,
        )
        bot = _bot(
            server,
            *("--engine", f"node {NODE_ENGINE}", "--games", "1", "--most", "3"),
            *("--key", str(pem_of(2, tmp_path))),
        )
        challenge = _wait_taken(server, ohwahree.token)
        ended = asyncio.run(_play_seat(server.address, challenge.match_id, ohwahree.token, 1))
        out, err = bot.communicate(timeout=120)
        assert bot.returncode == 0, err
        assert out.startswith(f"match {challenge.match_id}: {ended.reason}"), out
        record = final_record_holds(server.address, challenge.match_id, 0)
        # seat 2 sits under the engine's own name (its handshake's `id name`)
        assert [seat.name for seat in record.seats] == ["Ana", "node-ohwahree"]
        # the Aronda challenge (a game the engine does not play) is still open, untaken
        mine = stub.ListChallenges(lpb.ListChallengesRequest(token=aronda.token), timeout=30)
        assert mine.challenges[0].status == lpb.CHALLENGE_STATUS_OPEN
        assert [seat.taken for seat in mine.challenges[0].seats] == [True, False]
    finally:
        server.stop()
