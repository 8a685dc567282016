"""The Node.js bot (examples/node-client/bot.mjs) plays a whole match against the Python bot."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import grpc
import grpc.aio
import pytest
from cryptography.hazmat.primitives import serialization

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer, create
from tests.live.matches import request
from tests.sealing import key
from tests.service.conftest import ROOT

CLIENT = ROOT / "examples" / "node-client"


def pem_of(seat: int, folder: Path) -> Path:
    """Seat ``seat``'s key as PKCS#8 PEM, as ``openssl genpkey -algorithm ed25519`` writes it."""
    path = folder / f"seat{seat}.pem"
    path.write_bytes(
        key(seat).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return path


async def play_against_python(
    server: LiveServer, created: mpb.CreateMatchResponse, pem: Path
) -> tuple[int, str, str, mpb.MatchEnded]:
    node = shutil.which("node")
    assert node, "node is needed for the example bot"
    if not (CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("the Node client's packages are missing: run `make node-client`")
    process = await asyncio.create_subprocess_exec(
        node,
        "bot.mjs",
        *("--address", server.address, "--match", created.match_id),
        *("--token", created.seat_tokens[0], "--seat", "1", "--key", str(pem), "--seed", "7"),
        cwd=CLIENT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with grpc.aio.insecure_channel(server.address) as channel:
        python = SeatBot(
            mgrpc.MatchServiceStub(channel), created.match_id, created.seat_tokens[1], 2, key=key(2)
        )
        ended, (out, err) = await asyncio.wait_for(
            asyncio.gather(python.run(), process.communicate()), 180
        )
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode(), ended


def test_the_node_bot_plays_a_whole_signed_match_against_the_python_bot(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        made = request("Oust", 2, clock="600+5", Board="5")
        created = create(server.address, made)
        code, out, err, ended = asyncio.run(
            play_against_python(server, created, pem_of(1, tmp_path))
        )
        assert code == 0, err
        assert out == (
            f"match {created.match_id}: {ended.reason} (scores "
            f"{'-'.join(map(str, ended.result.scores))}, winners "
            f"{','.join(map(str, ended.result.winners)) or 'none'}, "
            f"{pb.Termination.Name(ended.result.termination)})\n"
        )
        with grpc.insecure_channel(server.address) as channel:
            state = mgrpc.MatchServiceStub(channel).GetMatch(
                mpb.GetMatchRequest(match_id=created.match_id)
            )
        record = state.record
        assert validate(record).valid
        trusted = {server.host_public, public_bytes(key(1)), public_bytes(key(2))}
        assert verify(record, trusted).verified
        by_node = [p for p, m in enumerate(record.moves, 1) if m.seat == 1]
        signed = {
            p
            for p, sealed in enumerate(record.seal.plies, 1)
            for s in sealed.signatures
            if s.signer == 1
        }
        assert set(by_node) <= signed
    finally:
        server.stop()
