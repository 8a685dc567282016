"""Whole local games through gamerec play's screen, typed key by key, against a bot.

The screen runs under Textual's pilot (no terminal); the match is refereed in process by the
server's own referee, its clock the system's.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from gamerec.cli.play import _local_request, _write_final
from gamerec.recorder.codecs import read_records
from gamerec.recorder.notation import format_action
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.play.app import MoveInput, PlayApp
from gamerec.validator.play.table import LocalTable
from gamerec.validator.players.host import running_engine
from gamerec.validator.players.movers import EngineMover, Mover, PolicyMover
from gamerec.validator.render.ending import ending_words
from tests.play.driving import (
    notes_text,
    play_my_turns_to_the_end,
    state_of,
    status_text,
    type_line,
    until,
)
from tests.service.conftest import GAMEREC

SIZE = (130, 45)


@asynccontextmanager
async def local_table(
    game: str,
    *variant: str,
    seat: int = 1,
    clock: str = "-",
    against: str = "random",
    referee_clock: ManualClock | None = None,
    movers: dict[int, Mover] | None = None,
    forfeit: bool = False,
) -> AsyncIterator[LocalTable]:
    request = _local_request(
        game, variant=list(variant), seats=None, clock=clock, name="Ana", seat=seat
    )
    if forfeit:
        request.illegal_move_policy = mpb.ILLEGAL_MOVE_POLICY_FORFEIT
    others = [number for number in range(1, len(request.seats) + 1) if number != seat]
    movers = movers or {other: PolicyMover(against, f"7:{other}") for other in others}
    for other, mover in movers.items():
        request.seats[other - 1].name = mover.name
    table = await LocalTable.start(request, seat, movers, referee_clock)
    try:
        yield table
    finally:
        await table.close()


def test_a_whole_game_against_the_bot_typed_to_its_end(tmp_path: Path) -> None:
    asyncio.run(_test_a_whole_game_against_the_bot_typed_to_its_end(tmp_path))


async def _test_a_whole_game_against_the_bot_typed_to_its_end(tmp_path: Path) -> None:
    async with local_table("ONE", "Board=5,5", clock="300+3") as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await play_my_turns_to_the_end(app, pilot)
            await until(pilot, lambda: "game over" in status_text(app), "the result shown")
            state = state_of(app)
            # Why it ended and who won, in words, said once (the status, not the notes too).
            assert status_text(app) == f"game over: {ending_words(state.ended.record)}"
            assert re.fullmatch(
                r"game over: At ply \d+, the (supply|supplies) of seats? .* ran out and the round "
                r"was played out: .*\(points, the largest group plus twice the stones captured: "
                r"\d+-\d+\)\.",
                status_text(app),
            )
            assert "game over" not in notes_text(app)
            await type_line(pilot, "quit")
        assert app.return_value is state
    out = tmp_path / "game.grn"
    _write_final(state, str(out))
    (record,) = read_records(str(out))
    assert record.result.termination == pb.TERMINATION_NORMAL
    assert len(record.moves) == state.plies >= 8
    assert [seat.name for seat in record.seats] == ["Ana", "gamerec random (seed 7:2)"]
    assert all(move.HasField("clock") for move in record.moves)
    assert validate(record).valid
    assert record.seal.final_head  # sealed and signed by the local referee's host key


def test_an_illegal_move_shows_the_reason_and_the_seat_tries_again() -> None:
    asyncio.run(_test_an_illegal_move_shows_the_reason_and_the_seat_tries_again())


async def _test_an_illegal_move_shows_the_reason_and_the_seat_tries_again() -> None:
    async with local_table("ONE", "Board=5,5", seat=2) as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "seat 2's first turn")
            taken = state_of(app).record.moves[0]
            occupied = format_action(taken)
            await type_line(pilot, occupied)
            await until(pilot, lambda: "illegal:" in notes_text(app), "the refusal")
            assert f"illegal: OCCUPIED: point {occupied} is occupied" in notes_text(app)
            assert "docs/rules/one.md" in notes_text(app)
            await type_line(pilot, "zz99")
            await until(pilot, lambda: "MALFORMED_MOVE" in notes_text(app), "the second refusal")
            assert state_of(app).plies == 1 and app.my_turn
            assert "OCCUPIED" not in notes_text(app)  # the newer refusal replaces the older
            await type_line(pilot, "help")
            await until(pilot, lambda: "a move: " in notes_text(app), "the help")
            await play_my_turns_to_the_end(app, pilot, stop_at_ply=3)
            # The next ply was played: the refusal and the help listing are gone.
            await until(pilot, lambda: "illegal" not in notes_text(app), "the refusal gone")
            assert "a move: " not in notes_text(app) and "resign " not in notes_text(app)
            await play_my_turns_to_the_end(app, pilot)
            assert state_of(app).ended.result.termination == pb.TERMINATION_NORMAL
            assert notes_text(app) == ""


def test_the_help_shows_moves_of_the_game_being_played() -> None:
    asyncio.run(_test_the_help_shows_moves_of_the_game_being_played())


async def _test_the_help_shows_moves_of_the_game_being_played() -> None:
    async with local_table("Oust", "Board=5") as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "the first turn")
            await type_line(pilot, "help")
            await until(pilot, lambda: "a move: " in notes_text(app), "the help")
            shown = notes_text(app)
            assert "a move: a cell (g7); a turn that captures goes on" in shown
            assert "b2xb4" not in shown and "xc9" not in shown  # ONE's captures
            await type_line(pilot, "resign")
            await until(pilot, lambda: state_of(app).HasField("ended"), "the end")
            await until(pilot, lambda: "a move: " not in notes_text(app), "the help gone")
            assert status_text(app) == (
                "game over: Seat 1 (Ana) resigned at ply 1: seat 2 (gamerec random (seed 7:2)) "
                "wins."
            )
            assert notes_text(app) == "you resigned"


def test_hint_completion_flip_and_resign() -> None:
    asyncio.run(_test_hint_completion_flip_and_resign())


async def _test_hint_completion_flip_and_resign() -> None:
    async with local_table("Oust", "Board=5") as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "the first turn")
            await type_line(pilot, "?")
            await until(pilot, lambda: bool(app.hint), "the listing")
            legal = list(state_of(app).legal_moves)
            assert app.hint[0] == f"legal ({len(legal)}):"
            assert " ".join(app.hint[1:]).split() == legal
            assert str(app.query_one("#notes").render()).endswith(app.hint[-1])
            # Tab completes as far as the legal moves agree; Enter plays it.
            target = legal[0]
            fitting = [move for move in legal if move.startswith(target[0])]
            await pilot.press(target[0], "tab")
            typed = app.query_one(MoveInput).value
            assert typed == _common_start(fitting) and typed.startswith(target[0])
            await pilot.press(*target[len(typed) :])
            await pilot.press("enter")
            await until(pilot, lambda: state_of(app).plies >= 1, "the placement played")
            assert app.hint == []  # the listing was of the position before the move
            assert state_of(app).record.moves[0].seat == 1
            board = str(app.query_one("#board").render())
            await type_line(pilot, "flip")
            await until(pilot, lambda: app.flipped, "the flip")
            assert str(app.query_one("#board").render()) != board
            await until(pilot, lambda: app.my_turn, "the second turn")
            await type_line(pilot, "resign")
            await until(pilot, lambda: state_of(app).HasField("ended"), "the end")
            ended = state_of(app).ended
            assert ended.result.termination == pb.TERMINATION_RESIGNATION
            assert list(ended.result.winners) == [2]


def test_abort_before_every_seat_moved_and_quit_calls_a_local_game_off() -> None:
    asyncio.run(_test_abort_before_every_seat_moved_and_quit_calls_a_local_game_off())


async def _test_abort_before_every_seat_moved_and_quit_calls_a_local_game_off() -> None:
    async with local_table("Aronda", seat=2) as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "seat 2's first turn")
            await type_line(pilot, "abort")
            await until(pilot, lambda: state_of(app).HasField("ended"), "the abort")
            assert "seat 2 aborted the match after ply 1" in state_of(app).ended.reason
    async with local_table("Aronda") as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "the first turn")
            await type_line(pilot, "quit")
        await table.leave()
        left = await table.state()
        assert left.ended.reason.startswith("the admin aborted the match after ply 0")


@pytest.mark.parametrize("game", ["Oust"])
def test_a_turn_of_placements_typed_one_at_a_time(game: str) -> None:
    asyncio.run(_test_a_turn_of_placements_typed_one_at_a_time(game))


async def _test_a_turn_of_placements_typed_one_at_a_time(game: str) -> None:
    async with local_table(game, "Board=5", against="greedy") as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await play_my_turns_to_the_end(app, pilot)
            record = state_of(app).ended.record
            assert validate(record).valid


def _common_start(words: list[str]) -> str:
    """The longest start every word shares."""
    first, last = min(words), max(words)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


def test_the_running_clock_counts_down_and_the_flag_falls() -> None:
    asyncio.run(_test_the_running_clock_counts_down_and_the_flag_falls())


async def _test_the_running_clock_counts_down_and_the_flag_falls() -> None:
    referee_clock, screen_now = ManualClock(), [0.0]
    async with local_table("Aronda", clock="2", referee_clock=referee_clock) as table:
        app = PlayApp(table, clock=lambda: screen_now[0])
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "the first turn")
            assert state_of(app).clocks[0].ToMilliseconds() == 2_000
            screen_now[0] = app.read_at + 0.3  # the screen's clock moves on 300 ms
            app.draw_seats()
            seats = str(app.query_one("#seats").render())
            assert "> seat 1  Ana (you)  0:01.7" in seats
            assert "  seat 2  gamerec random (seed 7:2)  0:02.0" in seats
            # Nobody types: the referee's flag falls on its own timer.
            referee_clock.advance(2.0)
            await until(pilot, lambda: state_of(app).HasField("ended"), "the flag")
            ended = state_of(app).ended
            assert ended.result.termination == pb.TERMINATION_TIMEOUT
            assert list(ended.result.winners) == [2]
            assert status_text(app) == (
                "game over: The time of seat 1 (Ana) ran out on ply 1: seat 2 (gamerec random "
                "(seed 7:2)) wins (fields owned: 0-0)."
            )
            assert "game over" not in notes_text(app)


ENGINE = [GAMEREC, "engine", "--policy", "greedy"]
MISBEHAVING = str(Path(__file__).parents[1] / "players" / "misbehaving_engine.py")


def test_an_engine_process_as_the_bot_its_search_in_the_record() -> None:
    asyncio.run(_test_an_engine_process_as_the_bot_its_search_in_the_record())


async def _test_an_engine_process_as_the_bot_its_search_in_the_record() -> None:
    async with running_engine(ENGINE) as engine:
        mover = EngineMover(engine)
        async with local_table("ONE", "Board=5,5", movers={2: mover}) as table:
            app = PlayApp(table)
            async with app.run_test(size=SIZE) as pilot:
                await play_my_turns_to_the_end(app, pilot)
                record = state_of(app).ended.record
    assert record.seats[1].name == "gamerec greedy (seed 1)"
    assert validate(record).valid
    engine_plies = [move for move in record.moves if move.seat == 2]
    assert engine_plies and all("[%eval " in move.comment for move in engine_plies)
    assert table.log == []


def test_an_engine_that_crashes_resigns_and_the_log_says_why() -> None:
    asyncio.run(_test_an_engine_that_crashes_resigns_and_the_log_says_why())


async def _test_an_engine_that_crashes_resigns_and_the_log_says_why() -> None:
    crashing = running_engine([sys.executable, MISBEHAVING, "crash", "a1"])
    async with (
        crashing as engine,
        local_table("ONE", "Board=5,5", movers={2: EngineMover(engine)}) as table,
    ):
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "the first turn")
            await type_line(pilot, "a1")
            await until(pilot, lambda: state_of(app).HasField("ended"), "the end")
            ended = state_of(app).ended
    assert ended.result.termination == pb.TERMINATION_RESIGNATION
    assert list(ended.result.winners) == [1]
    (line,) = table.log
    assert line.startswith("seat 2, ply 2: the engine failed its turn and resigns: ENGINE_EXITED")
    assert "crashing on purpose" in line


def test_under_forfeit_an_illegal_move_is_not_sent() -> None:
    asyncio.run(_test_under_forfeit_an_illegal_move_is_not_sent())


async def _test_under_forfeit_an_illegal_move_is_not_sent() -> None:
    async with local_table("ONE", "Board=5,5", seat=2, forfeit=True) as table:
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.my_turn, "seat 2's first turn")
            occupied = format_action(state_of(app).record.moves[0])
            await type_line(pilot, occupied)
            await until(pilot, lambda: "not sent" in notes_text(app), "the warning")
            assert "an illegal move forfeits this match" in notes_text(app)
            assert f"point {occupied} is occupied" in notes_text(app)
            assert state_of(app).status == mpb.MATCH_STATUS_OPEN and app.my_turn
            await play_my_turns_to_the_end(app, pilot)
            assert state_of(app).ended.result.termination == pb.TERMINATION_NORMAL
