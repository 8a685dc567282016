"""The lobby of two ``gamerec serve`` on one PostgreSQL store: one lobby."""

from __future__ import annotations

from pathlib import Path

from bench.postgres import LocalPostgres
from gamerec.recorder.signing import write_key_pair
from gamerec.v1 import lobby_pb2 as lpb
from tests.live.conftest import LiveServer
from tests.live.matches import HOST
from tests.live.postgres import GROUP, postgres
from tests.lobby.conftest import lobby_events, lobby_stub, opening, player

pytestmark = GROUP
__all__ = ["postgres"]


def test_a_challenge_opened_on_one_server_is_taken_on_the_other_and_both_logs_agree(
    tmp_path: Path, postgres: LocalPostgres
) -> None:
    url = postgres.new_database("lobby_pair")
    host_key = tmp_path / "host.key"
    write_key_pair(HOST, host_key, "gamerec host")
    a = LiveServer(tmp_path, "--host-key", str(host_key), store=url)
    b = LiveServer(tmp_path, "--host-key", str(host_key), store=url)
    try:
        opened = lobby_stub(a.address).OpenChallenge(opening("Oust"), timeout=30)
        challenge_id = opened.challenge.challenge_id
        listed = lobby_stub(b.address).ListChallenges(lpb.ListChallengesRequest(), timeout=30)
        assert [c.challenge_id for c in listed.challenges] == [challenge_id]
        taken = lobby_stub(b.address).TakeSeat(
            lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(2)), timeout=30
        )
        assert taken.challenge.status == lpb.CHALLENGE_STATUS_STARTED
        mine = lobby_stub(a.address).ListChallenges(
            lpb.ListChallengesRequest(token=opened.token), timeout=30
        )
        assert mine.challenges[0].match_id == taken.challenge.match_id
        on_a, on_b = lobby_events(a.address), lobby_events(b.address)
        assert on_a == on_b
        assert [event.WhichOneof("kind") for event in on_a] == ["opened", "seat_taken", "started"]
    finally:
        a.stop()
        b.stop()
