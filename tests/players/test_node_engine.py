"""The Node.js example engine (examples/node-engine) plays whole games of Oh-Wah-Ree against
``gamerec engine --policy random`` through the protocol, and every record validates."""

from __future__ import annotations

import asyncio
import shutil

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.players.engine_game import EngineGame, play_engine_game
from gamerec.validator.players.host import EngineProcess
from tests.players.engines import NODE_ENGINE, policy, run_clean

# Seats by engine: n = a Node engine process, r = gamerec random.
GAMES = (
    ({"Players": "2"}, "n0 r"),
    ({"Players": "2"}, "r n0"),
    ({"Players": "3"}, "n0 r n1"),
    ({"Players": "4"}, "r n0 n1 n2"),
    ({"Players": "4", "Direction": "ccw", "StonesPerPit": "3"}, "n0 n1 r n2"),
)


def test_the_node_engine_plays_whole_games_against_the_random_policy() -> None:
    node = shutil.which("node")
    assert node, "node is needed for the example engine"

    async def scenario() -> list[EngineGame]:
        commands = [[node, str(NODE_ENGINE)] for _ in range(3)] + [policy("random", 5)]
        engines = await asyncio.gather(*(EngineProcess.start(command) for command in commands))
        pool = {"n0": engines[0], "n1": engines[1], "n2": engines[2], "r": engines[3]}
        try:
            return [
                await play_engine_game([pool[seat] for seat in seats.split()], "ohwahree", variant)
                for variant, seats in GAMES
            ]
        finally:
            await asyncio.gather(*(engine.stop() for engine in engines))

    for (variant, seats), played in zip(GAMES, run_clean(scenario), strict=True):
        record = played.record
        assert played.forfeit is None, played.forfeit.sentence()
        verdict = validate(record)
        assert verdict.valid, (variant, list(verdict.errors))
        names = [
            "node-ohwahree" if seat[0] == "n" else "gamerec random (seed 5)"
            for seat in seats.split()
        ]
        assert [seat.name for seat in record.seats] == names
        node_seats = {index + 1 for index, seat in enumerate(seats.split()) if seat[0] == "n"}
        node_moves = [move for move in record.moves if move.seat in node_seats]
        assert node_moves and all(",1] [%nodes " in move.comment for move in node_moves)
        if not played.stopped:
            assert record.result.termination == pb.TERMINATION_NORMAL
