"""Driving gamerec play's screen as a person would: typed lines, waiting on what it shows."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.play.app import PlayApp

#: Seconds a test waits for something the screen will show (a busy 2-core machine).
PATIENCE = 90.0


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition()`` holds; fail after PATIENCE seconds."""
    give_up = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"gave up waiting for {what}")
        await pilot.pause(0.02)


async def type_line(pilot: Pilot[Any], line: str) -> None:
    """Type ``line`` key by key, then Enter."""
    await pilot.press(*line, "enter")


def state_of(app: PlayApp) -> mpb.MatchState:
    """The app's state (it has one)."""
    assert app.state is not None
    return app.state


def notes_text(app: PlayApp) -> str:
    """The notes under the status as the screen shows them (the answers to typed lines too)."""
    return str(app.query_one("#notes").render())


def status_text(app: PlayApp) -> str:
    """The status line as the screen shows it."""
    return str(app.query_one("#status").render())


async def play_my_turns_to_the_end(
    app: PlayApp, pilot: Pilot[Any], *, stop_at_ply: int = 0
) -> None:
    """Type the first legal move (placement by placement) whenever the seat is to move.

    Stops when the match is over, or (``stop_at_ply``) once that many plies are played.
    """
    while True:
        await until(
            pilot,
            lambda: (
                app.state is not None
                and (app.my_turn or not app.state.to_move or app.state.plies >= stop_at_ply > 0)
            ),
            "the seat's turn or the end",
        )
        state = state_of(app)
        if not state.to_move or (stop_at_ply and state.plies >= stop_at_ply):
            return
        await type_line(pilot, state.legal_moves[0])
        await until(pilot, _moved_on(app, state.plies, len(app.decided)), "the move taken")


def _moved_on(app: PlayApp, plies: int, decided: int) -> Callable[[], bool]:
    """Whether a ply was played since ``plies``, or a placement added to ``decided``."""
    return lambda: state_of(app).plies > plies or len(app.decided) > decided
