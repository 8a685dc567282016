"""Properties of the referee core under any sequence of commands, legal or not (hypothesis).

Whatever seats send (legal moves, illegal and garbage moves, stale plies, resignations out of
turn, draws, aborts, signatures of anything) and however the clock moves: every refusal is a
``CommandRefusedError``; the events are numbered without gaps; the record the match holds is
always one ``validate`` finds valid (finished when the match is over); and the log rebuilds the
very same match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.seal import ply_message
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.judge import validate
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import ADMIN, CommandRefusedError, Match, Outcome
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.live.timecontrol import TimeControlError, parse_time_control
from tests.live.matches import HOST, request
from tests.sealing import key

CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("ONE", 2, {"Board": "5,5"}),
    ("ONE", 3, {"Board": "6,6"}),
    ("Oh-Wah-Ree", 3, {}),
    ("Aronda", 2, {}),
    ("Oust", 2, {"Board": "3"}),
)
COMMANDS = (
    "good",
    "good",
    "good",
    "text",
    "stale",
    "resign",
    "offer",
    "answer",
    "abort",
    "sign",
    "wait",
)
GARBAGE = st.text(alphabet=st.sampled_from("abcdefghijklmnoxz0123456789,+-/ \u00e9"), max_size=12)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_command_sequence_keeps_the_match_valid_and_its_log_faithful(
    data: st.DataObject,
) -> None:
    game, seats, options = data.draw(st.sampled_from(CASES))
    clock = ManualClock()
    control = data.draw(st.sampled_from(["-", "20", "10+1", "10d2", "10b2", "5/move"]))
    policy = data.draw(
        st.sampled_from([mpb.ILLEGAL_MOVE_POLICY_REJECT, mpb.ILLEGAL_MOVE_POLICY_FORFEIT])
    )
    made = request(game, seats, clock=control, policy=policy, **options)
    match = Match.create("m", made, clock.now(), host_key=HOST)
    player = PolicyPlayer(match.record, "random", data.draw(st.integers(0, 9)))
    for _ in range(data.draw(st.integers(1, 60))):
        outcome = _one_command(data, match, player, clock)
        if outcome is not None and not outcome.repeated:  # a repeat is the first call's events
            for entry in outcome.events:
                if entry.event.HasField("move"):
                    player.played(entry.event.move.token)
    numbers = [entry.event.number for entry in match.events]
    assert numbers == list(range(1, len(numbers) + 1))
    verdict = validate(match.record)
    assert verdict.valid, list(verdict.errors)
    if match.ended is not None and match.status == mpb.MATCH_STATUS_FINISHED:
        rules_end = verdict.status == vpb.GAME_STATUS_FINISHED
        assert rules_end == (match.ended.result.termination in (1, 2))
    assert Match.from_log(match.events, host_key=HOST).record == match.record


def _one_command(
    data: st.DataObject, match: Match, player: PolicyPlayer, clock: ManualClock
) -> Outcome | None:
    command = data.draw(st.sampled_from(COMMANDS))
    seat = data.draw(st.integers(1, match.seats))
    if command == "wait":
        clock.advance(data.draw(st.sampled_from([0.5, 3, 30])))
    if command == "good" and not match.is_open:
        command = "stale"
    now = clock.now()
    commands: dict[str, Callable[[], Outcome]] = {
        "wait": lambda: match.flag(now),
        "good": lambda: match.play(match.to_move, match.plies + 1, player.next_ply(), now),
        "text": lambda: match.play(seat, match.plies + 1, data.draw(GARBAGE), now),
        "stale": lambda: match.play(seat, data.draw(st.integers(0, match.plies + 2)), "a1", now),
        "resign": lambda: match.resign(seat, now),
        "offer": lambda: match.offer_draw(seat, now),
        "answer": lambda: match.answer_draw(seat, data.draw(st.booleans()), now),
        "abort": lambda: match.abort(data.draw(st.sampled_from([seat, ADMIN])), now),
        "sign": lambda: _sign_something(data, match, seat, clock),
    }
    try:
        return commands[command]()
    except CommandRefusedError as refused:
        assert refused.field and refused.reason and str(refused)
    return None


def _sign_something(data: st.DataObject, match: Match, seat: int, clock: ManualClock) -> Outcome:
    ply = data.draw(st.integers(0, match.plies))
    head = bytes(32) if ply == 0 else match.record.seal.plies[ply - 1].head
    return match.sign(seat, ply, key(seat).sign(ply_message(ply, head)), clock.now())


@given(st.text(max_size=40))
def test_any_text_is_a_time_control_or_refused_in_a_short_sentence(text: str) -> None:
    try:
        control = parse_time_control(text)
    except TimeControlError as error:
        assert len(str(error)) < 400
    else:
        assert parse_time_control(control.notation) == control
