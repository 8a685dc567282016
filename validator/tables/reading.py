"""What ``gamerec tables probe`` reads and says: a position typed as text, a record's position.

A position is typed as its 12 pit counts, pits 1 to 12, separated by commas or spaces, then
optionally ``:1`` or ``:2`` for the seat to move (seat 1 when left out):
``0,0,0,0,0,1,1,3,2,0,0,0:1``.
A record is replayed by the rules (``gamerec.validator.replay``) to the position after its last
legal ply (or after ``ply`` plies).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.ohwahree import PIT_COUNT, OhWahReeState, OhWahReeVariant
from gamerec.validator.identity import identify
from gamerec.validator.replay import replay_to
from gamerec.validator.tables.positions import MAX_STONES
from gamerec.validator.tables.probing import Probe

_POSITION: Final = re.compile(r"\s*(?P<pits>[0-9][0-9,\s]*?)\s*(?::\s*(?P<seat>[0-9]+))?\s*")
_SHOWN: Final = 40


class PositionTextError(GamerecError):
    """A position typed as text is not 12 pit counts and a seat (the message says what is wrong)."""


def parse_position(text: str) -> OhWahReeState:
    """The two-seat position ``text`` names (see the module text), its stores empty-handed.

    The stones off the board are split between the stores, so that the total is that of a
    variant (the stores do not change a margin from here on).

    Raises:
        PositionTextError: not 12 counts, a count out of range, or a seat other than 1 or 2.
    """
    shown = text if len(text) <= _SHOWN else text[:_SHOWN] + "..."
    found = _POSITION.fullmatch(text)
    if found is None:
        raise PositionTextError(
            f"position {shown!r}: write 12 pit counts then :1 or :2, e.g. 0,0,0,0,0,1,1,3,2,0,0,0:1"
        )
    counts = [int(word) for word in re.split(r"[,\s]+", found["pits"]) if word]
    if len(counts) != PIT_COUNT:
        raise PositionTextError(f"position {shown!r}: {len(counts)} pit counts, not 12")
    seat = int(found["seat"] or 1)
    if seat not in (1, 2):
        raise PositionTextError(f"position {shown!r}: seat {seat} cannot be to move with 2 seats")
    # Any variant with room for the stones: the stones per pit only fix the start position.
    per_pit = max(MAX_STONES, sum(counts) + PIT_COUNT - 1) // PIT_COUNT
    variant = OhWahReeVariant(players=2, stones_per_pit=per_pit)
    rest = variant.total_stones - sum(counts)
    return OhWahReeState.from_position(variant, counts, (rest - rest // 2, rest // 2), seat)


@dataclass(frozen=True, slots=True)
class RecordPosition:
    """A record's position after ``plies`` legal plies (``stopped``: an illegal ply came next)."""

    state: Any
    plies: int
    stopped: bool


def record_position(record: pb.GameRecord, ply: int | None = None) -> RecordPosition:
    """The position of ``record`` after ``ply`` plies (default: after its last legal ply).

    Raises:
        RulesError: the record's game or variant cannot be played.
    """
    identity = identify(record)
    plies = len(record.moves) if ply is None else ply
    judgement = replay_to(record, identity, plies)
    return RecordPosition(judgement.state, judgement.plies, judgement.stopped)


def probe_sentence(probe: Probe, state: Any, *, with_stores: bool) -> str:
    """What a probe says of ``state``, in one sentence.

    ``with_stores``: and, when exact, the final score margin that the state's stores make.
    """
    if not probe.covered:
        if not isinstance(state, OhWahReeState) or state.seats != 2:
            return "not covered: the tables hold two-seat Oh-Wah-Ree positions only"
        if state.is_over:
            return "not covered: the game is over"
        return (
            f"not covered: {probe.stones} stones on the board, the table holds up to"
            f" {probe.table_stones}"
        )
    seat, other = state.to_move, 3 - state.to_move
    if probe.margin is not None:
        said = (
            f"exact: with perfect play seat {seat} (to move) ends {_signed(probe.margin)} on"
            f" seat {other} in the stones still on the board"
        )
        if not with_stores:
            return said
        stores = state.stores
        final = stores[seat - 1] - stores[other - 1] + probe.margin
        return (
            f"{said}; final score margin {_signed(final)} with the stores {stores[0]}-{stores[1]}"
        )
    mover = (
        f"the most seat {seat} can make sure of with an end is {_signed(probe.lower)}"
        if probe.lower is not None
        else f"seat {seat} cannot force an end"
    )
    opponent = (
        f"seat {other} can end it holding seat {seat} to {_signed(probe.upper)}"
        if probe.upper is not None
        else f"seat {other} cannot force an end"
    )
    return f"perfect play never ends (the rules have no repetition rule, §8.2): {mover}; {opponent}"


def _signed(number: int | None) -> str:
    """``+3``, ``-2``, ``0``."""
    return f"{number:+d}" if number else "0"
