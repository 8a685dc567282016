"""No line crashes the engine protocol's parsers: any bytes a host reads from an engine (or an
engine from a host) are a message or a ``ProtocolError`` naming the problem, and a message
writes a line that reads back as itself (``protocol_lines.line_checked``).

Inputs: any bytes, any text, text made of the protocol's own words, and the seed lines of a
whole exchange damaged byte by byte. ``make fuzz`` runs the coverage-guided target too
(``atheris_target.py engine-lines``). GAMEREC_FUZZ_EXAMPLES sets the examples per fuzzer.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.validator.players.lines import ProtocolError, parse_engine_line, parse_host_line
from tests.robustness.fuzzing import mutate_bytes
from tests.robustness.protocol_lines import SEED_LINES, line_checked

FUZZ = settings(
    max_examples=int(os.environ.get("GAMEREC_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
WORDS = [
    "gep", "gepok", "id", "name", "game", "newgame", "ready", "position", "go", "clock",
    "increment", "delay", "bronstein", "movetime", "info", "depth", "score", "win", "loss",
    "nodes", "time", "pv", "string", "move", "ping", "pong", "error", "gameover", "quit",
    "Game=ONE", "Players=2", "Seat=1", "Seat=3", "Result=*", "Termination=normal", "=", "1",
    "0", "-5", "99999999999999999999", "c7xc9", "4ccw", ",", "1,2,", " ", "\t", "\r", "\x00",
    "\u2028", "é",
]  # fmt: skip


@FUZZ
@given(st.binary(max_size=300))
def test_any_bytes_are_a_message_or_a_protocol_error(data: bytes) -> None:
    line_checked(data)


@FUZZ
@given(st.text(max_size=200))
def test_any_text_is_a_message_or_a_protocol_error(text: str) -> None:
    line_checked(text.encode("utf-8", "surrogatepass"))


@FUZZ
@given(st.lists(st.sampled_from(WORDS), max_size=12), st.sampled_from([" ", "", "\t"]))
def test_protocol_words_in_any_order_are_a_message_or_a_protocol_error(
    words: list[str], gap: str
) -> None:
    line_checked(gap.join(words).encode())


@FUZZ
@given(st.sampled_from(SEED_LINES), st.randoms(use_true_random=False), st.integers(1, 4))
def test_damaged_seed_lines_are_a_message_or_a_protocol_error(
    line: bytes, rng: object, count: int
) -> None:
    choose = rng.randrange  # type: ignore[attr-defined]
    line_checked(mutate_bytes(line, choose, SEED_LINES, count))


def test_every_seed_line_is_a_message() -> None:
    for data in SEED_LINES:
        line = data.decode().removesuffix("\r")
        readers = (parse_engine_line, parse_host_line)
        assert any(_reads(reader, line) for reader in readers), line
        line_checked(data)


def _reads(reader: Callable[[str], object], line: str) -> bool:
    try:
        reader(line)
    except ProtocolError:
        return False
    return True
