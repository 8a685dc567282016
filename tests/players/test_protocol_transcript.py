"""docs/engine-protocol.md §14 shows real exchanges: this test makes them again and compares.

The games are played as the section says (the greedy engine against the random one on ONE's
small board; a scripted engine that answers ``a1`` every time), refereed on a manual clock
that stands still, so every line and every ``[%clk]``/``[%ts]`` is the same on every run.
"""

from __future__ import annotations

import asyncio
import re

from gamerec.recorder.codecs import encode_record
from gamerec.recorder.encoding import Encoding
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.players.engine_game import EngineGame, play_engine_game
from gamerec.validator.players.host import EngineProcess
from tests.players.engines import ROOT, policy, scripted

SECTION = re.compile(r"^## 14\. .*?(?=^## 15\. )", re.MULTILINE | re.DOTALL)
BLOCK = re.compile(r"^```\n(.*?)^```$", re.MULTILINE | re.DOTALL)
SMALL = {"Players": "2", "Board": "6,6"}


def _blocks() -> list[str]:
    text = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    section = SECTION.search(text)
    assert section is not None, "engine-protocol.md has no section 14"
    return BLOCK.findall(section.group(0))


async def _transcribed(first: list[str], second: list[str]) -> tuple[str, EngineGame]:
    lines: list[str] = []

    def hear(side: str, line: str) -> None:
        lines.append(f"{'>' if side == 'host' else '<'} {line}")

    engines = [
        await EngineProcess.start(first, transcript=hear),
        await EngineProcess.start(second),
    ]
    try:
        played = await play_engine_game(
            engines,
            "ONE",
            SMALL,
            time_control="5/move",
            clock=ManualClock(),
            event="Transcript",
        )
    finally:
        for engine in engines:
            await engine.stop()
    return "\n".join(lines) + "\n", played


def test_the_transcript_and_the_record_of_section_14_are_what_the_host_exchanges() -> None:
    transcript, played = asyncio.run(_transcribed(policy("greedy", 1), policy("random", 2)))
    blocks = _blocks()
    assert blocks[0] == transcript
    assert blocks[1] == encode_record(played.record, Encoding.GRN).decode()


def test_the_forfeit_of_section_14_is_what_the_host_exchanges() -> None:
    transcript, played = asyncio.run(
        _transcribed(scripted('printf "move a1\\n"'), policy("random", 2))
    )
    blocks = _blocks()
    handshake_end = transcript.index("> newgame")
    assert blocks[2] == transcript[handshake_end:]
    assert played.forfeit is not None
    text = (ROOT / "docs" / "engine-protocol.md").read_text(encoding="utf-8")
    assert " ".join(f"the game comment `{played.record.comment}`".split()) in " ".join(text.split())
