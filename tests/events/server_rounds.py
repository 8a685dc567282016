"""Rounds of an event on a real match server: the CLI, the players' tickets, bots to play them."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from pathlib import Path

import grpc
import grpc.aio
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.service.match_client import SeatBot

_TICKET = re.compile(
    r"^(?P<name>.+) \((?P<number>\d+)\): gamerec play --server (?P<server>\S+) "
    r"--match (?P<match>[0-9a-f]+) --token (?P<token>\S+) --seat (?P<seat>\d+)$"
)


def run(*args: str) -> Result:
    """``gamerec ARGS`` in process."""
    return CliRunner().invoke(app, list(args))


@dataclass(frozen=True)
class Seat:
    """One player's ticket, as ``event start`` printed it."""

    name: str
    match_id: str
    token: str
    seat: int


def tickets(output: str) -> list[Seat]:
    """The tickets of ``event start``'s output (the ``gamerec play`` commands)."""
    found = []
    for line in output.splitlines():
        matched = _TICKET.match(line)
        if matched:
            found.append(
                Seat(
                    matched["name"],
                    matched["match"],
                    matched["token"],
                    int(matched["seat"]),
                )
            )
    return found


def matches_of(address: str) -> list[mpb.MatchSummary]:
    """Every match on the server (at most 1,000)."""
    with grpc.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        return list(stub.ListMatches(mpb.ListMatchesRequest(limit=1000), timeout=30).matches)


def state_of(address: str, match_id: str) -> mpb.MatchState:
    """The match now (``GetMatch``)."""
    with grpc.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        return stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=30)


def play(address: str, seats: list[Seat], seed: str) -> dict[str, mpb.MatchEnded]:
    """Every seat played by a random bot until its match ends; each match's end by id."""

    async def all_of() -> dict[str, mpb.MatchEnded]:
        channels = [grpc.aio.insecure_channel(address) for _ in range(1 + len(seats) // 100)]
        try:
            bots = [
                SeatBot(
                    mgrpc.MatchServiceStub(channels[index // 100]),
                    seat.match_id,
                    seat.token,
                    seat.seat,
                    seed=f"{seed}-{seat.name}",
                )
                for index, seat in enumerate(seats)
            ]
            ended = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), 600)
        finally:
            for channel in channels:
                await channel.close()
        return {seat.match_id: end for seat, end in zip(seats, ended, strict=True)}

    return asyncio.run(all_of())


def event_file(folder: Path, stem: str, name: str, *options: str, players: list[str]) -> Path:
    """A new event file ``STEM.event`` of ONE, called ``name``, with ``players`` entered."""
    path = folder / f"{stem}.event"
    made = run("event", "new", str(path), "--name", name, "--game", "ONE", *options)
    assert made.exit_code == 0, made.output
    entered = run("event", "players", str(path), *(f"--add={player}" for player in players))
    assert entered.exit_code == 0, entered.output
    return path
