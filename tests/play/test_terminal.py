"""The real ``gamerec play`` process on a pseudo-terminal, in a match on a real server.

The test types seat 1's moves into the terminal once the screen says it is seat 1's move,
plays seat 2 itself through MatchService, and reads the record ``-o`` wrote at the end,
signed by seat 1's key as ``play --key`` signs (every ply it played, and the result).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.recorder.seal import final_message, ply_message
from gamerec.recorder.signing import public_bytes, verify_signature, write_key_pair
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.render.ending import ending_words
from tests.live.conftest import LiveServer, create, sync_stub
from tests.live.matches import rules
from tests.play.driving import PATIENCE
from tests.play.terminal import Terminal
from tests.sealing import key
from tests.service.conftest import GAMEREC


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server on a test clock that stands still."""
    live = LiveServer(tmp_path)
    yield live
    live.stop()


def _state_after(stub: mgrpc.MatchServiceStub, match_id: str, plies: int) -> mpb.MatchState:
    """The match once more than ``plies`` plies are played (or it is over)."""
    give_up = time.monotonic() + PATIENCE
    while time.monotonic() < give_up:
        state = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=30)
        if state.plies > plies or state.HasField("ended"):
            return state
        time.sleep(0.02)
    raise AssertionError(f"no ply after ply {plies}")


def test_a_whole_game_typed_into_the_real_process(server: LiveServer, tmp_path: Path) -> None:
    made = mpb.CreateMatchRequest(
        rules=rules("ONE", 2, Board="5,5"),
        seats=[
            mpb.MatchSeat(name="Ana", public_key=public_bytes(key(1))),
            mpb.MatchSeat(name="Ben"),
        ],
        time_control="300+3",
    )
    created = create(server.address, made)
    match_id, tokens = created.match_id, list(created.seat_tokens)
    key_file = tmp_path / "ana"
    write_key_pair(key(1), key_file)
    out = tmp_path / "game.grn"
    stub = sync_stub(server.address)
    terminal = Terminal(
        *("--server", server.address, "--match", match_id, "--token", tokens[0]),
        *("--seat", "1", "--key", str(key_file), "-o", str(out)),
    )
    try:
        seen = 0
        state = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=30)
        while not state.HasField("ended"):
            plies, move = state.plies, state.legal_moves[0]
            if state.to_move == 1:
                seen = terminal.wait_for(rf"your move, ply {plies + 1}\b", seen)
                terminal.type(move)
            else:
                request = mpb.PlayRequest(
                    match_id=match_id, token=tokens[1], ply=plies + 1, text=move
                )
                assert not stub.Play(request, timeout=30).HasField("illegal")
            state = _state_after(stub, match_id, plies)
        said = ending_words(state.ended.record)
        assert said.startswith("At ply ") and "ran out and the round was played out" in said
        terminal.wait_for(re.escape(f"game over: {said[:40]}"), seen)
        terminal.type("quit")
        assert terminal.wait() == 0
        assert f"match {match_id}: {said}" in terminal.text
    finally:
        terminal.close()
    (record,) = read_records(str(out))
    assert validate(record).valid
    assert record.result.termination == pb.TERMINATION_NORMAL
    seal, ana = record.seal, public_bytes(key(1))
    for number, (played, sealed) in enumerate(zip(record.moves, seal.plies, strict=True), 1):
        by_seat = [signature for signature in sealed.signatures if signature.signer == 1]
        if played.seat == 1:
            (signature,) = by_seat
            assert verify_signature(ana, ply_message(number, sealed.head), signature.signature)
        else:
            assert by_seat == []
    (final,) = [signature for signature in seal.final_signatures if signature.signer == 1]
    assert verify_signature(ana, final_message(seal.final_head), final.signature)


def test_errors_before_the_screen_are_one_line_and_exit_2(server: LiveServer) -> None:
    created = create(
        server.address,
        mpb.CreateMatchRequest(
            rules=rules("ONE", 2, Board="5,5"),
            seats=[mpb.MatchSeat(name="Ana"), mpb.MatchSeat(name="Ben")],
        ),
    )
    for arguments, said in (
        (
            ("--match", "nosuchmatch", "--token", created.seat_tokens[0]),
            f"the token is a seat's of match {created.match_id}, not of match nosuchmatch",
        ),
        (
            ("--match", created.match_id, "--token", "seat_nobody"),
            # the server's gate refuses an unknown token before the match is looked up
            "the token is not one this server knows (a seat's token, or a token of the "
            "server's token files)",
        ),
        (
            ("--match", created.match_id, "--token", created.seat_tokens[1], "--seat", "3"),
            "the token is seat 2's, not seat 3's",
        ),
        (
            ("--token", created.seat_tokens[0], "--seat", "2"),
            "the token is seat 1's, not seat 2's",
        ),
    ):
        terminal = Terminal("--server", server.address, *arguments)
        try:
            assert terminal.wait() == 2
            lines = [line for line in terminal.text.splitlines() if line.strip()]
            assert len(lines) == 1 and lines[0].startswith("gamerec: error: "), lines
            assert lines[0].endswith(said), lines
        finally:
            terminal.close()


def test_a_local_game_against_an_engine_command_quit_at_once() -> None:
    terminal = Terminal(
        *("--game", "ONE", "--variant", "Board=5,5", "--seat", "2"),
        *("--against", f"{GAMEREC} engine --policy greedy"),
    )
    try:
        seen = terminal.wait_for(r"your move, ply 2\b")  # the engine played ply 1
        terminal.wait_for(r"gamerec greedy \(seed 1\)", 0)
        terminal.type("quit")
        assert terminal.wait() == 0
        assert re.search(
            r"match \w+: The game was called off after ply 1: it has no result\.",
            terminal.text[seen:],
        )
    finally:
        terminal.close()


def test_an_engine_that_cannot_start_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-engine"
    terminal = Terminal("--game", "Aronda", "--against", str(missing))
    try:
        assert terminal.wait() == 2
        lines = [line for line in terminal.text.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("gamerec: error: --against: "), lines
        assert "ENGINE_NOT_STARTED" in lines[0]
    finally:
        terminal.close()
