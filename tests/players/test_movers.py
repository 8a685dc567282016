"""Movers in the live match referee: a policy in process, clocks on a manual clock, openings.

The referee of :func:`play_engine_game` is the match service's own ``Match``: a seat's clock
is charged what the injected clock says the move took, the record carries ``[%clk]`` on every
ply, a move that comes after the flag fell loses on time, and opening plies are checked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.timecontrol import parse_time_control
from gamerec.validator.players.clocks import ClockState, clock_state
from gamerec.validator.players.engine_game import EngineGame, play_engine_game
from gamerec.validator.players.faults import FaultCode
from gamerec.validator.players.host import EngineProcess
from gamerec.validator.players.movers import Choice, PolicyMover, game_tags, result_words
from tests.players.engines import policy, run_clean

SMALL = {"Players": "2", "Board": "6,6"}


class SlowPolicy(PolicyMover):
    """A policy that takes ``seconds[k]`` of the manual clock over its k-th move (then 0)."""

    def __init__(self, clock: ManualClock, seconds: Sequence[float], seed: int = 1) -> None:
        super().__init__("random", seed)
        self.clock = clock
        self.seconds = list(seconds)
        self.asked: list[ClockState] = []

    async def choose(self, tokens: Sequence[str], clock: ClockState) -> Choice:
        self.asked.append(clock)
        if self.seconds:
            self.clock.advance(self.seconds.pop(0))
        return await super().choose(tokens, clock)


def _play(movers: Sequence[PolicyMover], clock: ManualClock, **options: object) -> EngineGame:
    return asyncio.run(play_engine_game(movers, "ONE", SMALL, clock=clock, **options))  # type: ignore[arg-type]


def test_policies_in_process_play_a_game_that_validates() -> None:
    played = asyncio.run(
        play_engine_game([PolicyMover("greedy", 1), PolicyMover("random", 2)], "Aronda")
    )
    assert played.forfeit is None and validate(played.record).valid
    assert [seat.name for seat in played.record.seats] == [
        "gamerec greedy (seed 1)",
        "gamerec random (seed 2)",
    ]
    assert played.ended is not None


def test_the_match_clock_charges_each_seat_its_time_and_the_record_shows_it() -> None:
    clock = ManualClock()
    first = SlowPolicy(clock, [3.0, 2.5], seed=1)
    second = SlowPolicy(clock, [1.0], seed=2)
    played = _play([first, second], clock, time_control="10+1", max_plies=4)
    moves = played.record.moves
    clocks = [move.clock.ToMilliseconds() for move in moves[:4]]
    # seat 1: 10 - 3 + 1 = 8, then 8 - 2.5 + 1 = 6.5; seat 2: 10 - 1 + 1 = 10, then 11
    assert clocks == [8000, 10_000, 6500, 11_000]
    assert played.record.metadata.time_control == "10+1"
    assert first.asked[0] == ClockState(remaining_ms=(10_000, 10_000), increment_ms=1000)
    assert first.asked[1] == ClockState(remaining_ms=(8000, 10_000), increment_ms=1000)
    assert second.asked[0] == ClockState(remaining_ms=(8000, 10_000), increment_ms=1000)


def test_a_move_after_the_flag_fell_loses_on_time() -> None:
    clock = ManualClock()
    played = _play([SlowPolicy(clock, [1.0]), SlowPolicy(clock, [5.5])], clock, time_control="5")
    forfeit = played.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.ply, forfeit.termination) == (2, 2, "timeout")
    assert forfeit.fault.code is FaultCode.TIMEOUT
    record = played.record
    assert record.result.termination == pb.TERMINATION_TIMEOUT
    assert list(record.result.winners) == [1] and len(record.moves) == 1
    assert validate(record).valid


def test_an_opening_is_played_first_and_marked() -> None:
    clock = ManualClock()
    played = _play(
        [PolicyMover("random", 1), PolicyMover("random", 2)],
        clock,
        opening=["a1", "a3"],
        max_plies=6,
    )
    moves = played.record.moves
    assert [move.comment for move in moves[:2]] == ["opening", "opening"]
    assert all(move.comment != "opening" for move in moves[2:])
    assert validate(played.record).valid


def test_an_illegal_opening_is_refused_with_its_ply() -> None:
    with pytest.raises(GamerecError, match=r"the opening's ply 2 'a1' is illegal"):
        _play([PolicyMover(), PolicyMover()], ManualClock(), opening=["a1", "a1"])


def test_an_engine_process_and_a_policy_in_process_play_each_other() -> None:
    async def scenario() -> EngineGame:
        engine = await EngineProcess.start(policy("greedy", 3))
        try:
            return await play_engine_game([PolicyMover("random", 4), engine], "Oust")
        finally:
            await engine.stop()

    played = run_clean(scenario)
    assert played.forfeit is None and validate(played.record).valid
    assert any("[%eval " in move.comment for move in played.record.moves if move.seat == 2)


@pytest.mark.parametrize(
    ("notation", "clocks", "seat", "state"),
    [
        ("-", [], 1, ClockState()),
        ("5/move", [4000, 5000], 1, ClockState(move_limit_ms=4000)),
        ("60+1", [500, -20], 2, ClockState(remaining_ms=(500, 0), increment_ms=1000)),
        ("60d2", [1, 2], 1, ClockState(remaining_ms=(1, 2), delay_ms=2000)),
        ("60b2", [1, 2], 1, ClockState(remaining_ms=(1, 2), bronstein_ms=2000)),
        ("60", [1, 2], 2, ClockState(remaining_ms=(1, 2))),
    ],
)
def test_the_clock_state_of_each_kind_of_time_control(
    notation: str, clocks: list[int], seat: int, state: ClockState
) -> None:
    assert clock_state(parse_time_control(notation), clocks, seat) == state


def test_game_tags_and_result_words_are_what_newgame_and_gameover_say() -> None:
    played = asyncio.run(play_engine_game([PolicyMover(), PolicyMover()], "ONE", SMALL))
    assert game_tags(played.record) == {
        "Players": "2",
        "Board": "6,6",
        "Mirror": "first",
        "Tiebreak": "shared",
    }
    scores, winners, termination = result_words(played.record.result)
    assert winners == list(played.record.result.winners) and termination == "normal"
    assert scores == "-".join(map(str, played.record.result.scores.values))
