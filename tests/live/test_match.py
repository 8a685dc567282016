"""The referee core in process: every command, every ending, every clock, on a manual clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gamerec.recorder.seal import final_message, ply_message
from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.judge import validate
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import (
    ADMIN,
    CommandRefusedError,
    Logged,
    Match,
    MatchLogError,
    Refusal,
)
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.verification import verify
from tests.live.matches import (
    GAMES_AND_SEATS,
    HOST,
    moves_of,
    new_match,
    play_out,
    request,
    sign_ply,
)
from tests.sealing import key

FORFEIT = mpb.ILLEGAL_MOVE_POLICY_FORFEIT


def trusted(seats: int) -> set[bytes]:
    return {public_bytes(key(seed)) for seed in range(seats + 1)}


def refused(error: pytest.ExceptionInfo[CommandRefusedError]) -> tuple[str, str, str]:
    return error.value.refusal.value, error.value.field, error.value.reason


# -- whole matches -------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "seats"), GAMES_AND_SEATS)
def test_a_whole_match_of_every_game_and_seat_count_validates_verifies_and_rebuilds(
    game: str, seats: int
) -> None:
    match, clock = new_match(game, seats, clock="600+2")
    play_out(match, clock, seed=seats)
    record = match.record
    verdict = validate(record)
    assert verdict.valid and verdict.status == vpb.GAME_STATUS_FINISHED
    assert match.ended is not None and match.status == mpb.MATCH_STATUS_FINISHED
    assert list(match.ended.result.scores) == list(verdict.result.scores)
    assert list(match.ended.result.winners) == list(verdict.result.winners)
    assert match.ended.result.termination == verdict.result.termination
    checked = verify(record, trusted(seats))
    assert checked.verified, list(checked.findings)
    assert all(move.HasField("clock") and move.HasField("timestamp") for move in record.moves)
    assert Match.from_log(match.events, host_key=HOST).record == record


@pytest.mark.parametrize(("game", "seats"), [("Oust", 2), ("Oh-Wah-Ree", 3), ("ONE", 4)])
def test_greedy_players_finish_too(game: str, seats: int) -> None:
    match, clock = new_match(game, seats, keyed=False)
    play_out(match, clock, policy="greedy", sign=False)
    assert validate(match.record).valid and not match.is_open


# -- clocks --------------------------------------------------------------------------------------


def clocks_after(control: str, thinking: list[float]) -> list[timedelta]:
    """The [%clk] of each ply of a two-seat ONE match whose plies take ``thinking`` seconds."""
    match, clock = new_match("ONE", 2, clock=control, keyed=False)
    players = [PolicyPlayer(match.record, "random", n) for n in range(2)]
    for seconds in thinking:
        clock.advance(seconds)
        outcome = match.play(match.to_move, match.plies + 1, players[0].next_ply(), clock.now())
        for accepted in moves_of(outcome):
            for player in players:
                player.played(accepted.token)
    return [move.clock.ToTimedelta() for move in match.record.moves]


def seconds(*values: float) -> list[timedelta]:
    return [timedelta(seconds=value) for value in values]


@pytest.mark.parametrize(
    ("control", "thinking", "clocks"),
    [
        ("300", [10, 20, 30.5, 0.25], seconds(290, 280, 259.5, 279.75)),
        ("300+3", [10, 20, 30.5, 0.25], seconds(293, 283, 265.5, 285.75)),
        ("300d5", [4, 20, 5, 5.001], seconds(300, 285, 300, 284.999)),
        ("300b5", [4, 20, 5, 5.001], seconds(300, 285, 300, 284.999)),
        ("30/move", [4, 29.999, 0.5, 0], seconds(26, 0.001, 29.5, 30)),
        ("60+0.5", [0.001, 0.001], seconds(60.499, 60.499)),
    ],
)
def test_every_kind_of_clock_charges_each_ply_to_the_millisecond(
    control: str, thinking: list[float], clocks: list[timedelta]
) -> None:
    assert clocks_after(control, thinking) == clocks


def test_the_record_carries_the_time_control_and_each_ply_its_clock_and_time() -> None:
    match, clock = new_match("Aronda", clock="300+3", keyed=False)
    clock.advance(1.5)
    match.play(1, 1, "o1", clock.now())
    record = match.record
    assert record.metadata.time_control == "300+3"
    assert record.metadata.start_time.ToJsonString() == "2026-01-01T00:00:00Z"
    assert record.moves[0].timestamp.ToJsonString() == "2026-01-01T00:00:01.500Z"
    assert record.moves[0].clock.ToTimedelta() == timedelta(seconds=301.5)
    assert match.clocks_ms(clock.now()) == [301_500, 300_000]
    clock.advance(7)
    assert match.clocks_ms(clock.now()) == [301_500, 293_000]


def test_the_flag_falls_at_the_millisecond_the_clock_reaches_zero() -> None:
    in_time, clock = new_match("ONE", 2, clock="10", keyed=False)
    clock.advance(9.999)
    assert in_time.play(1, 1, "a1", clock.now()).events
    assert in_time.flag_falls_at() == clock.now().later(10 * 10**9)
    late, clock = new_match("ONE", 2, clock="10", keyed=False)
    clock.advance(9.999)
    assert not late.flag(clock.now()).events
    clock.advance(0.001)
    outcome = late.flag(clock.now())
    (ended,) = [entry.event.ended for entry in outcome.events]
    assert ended.result.termination == pb.TERMINATION_TIMEOUT
    assert list(ended.result.winners) == [2] and list(ended.result.ranks) == [2, 1]
    assert ended.reason == "seat 1's time ran out on ply 1; seat 2 wins"
    assert validate(late.record).valid
    ruling = adjudicate(late.record)
    assert ruling.decision == vpb.DECISION_CONFIRMED and list(ruling.result.winners) == [2]


def test_a_move_received_after_the_flag_fell_ends_the_match_instead() -> None:
    match, clock = new_match("ONE", 2, clock="10", keyed=False)
    clock.advance(10)
    outcome = match.play(1, 1, "a1", clock.now())
    assert outcome.refusal is not None and outcome.refusal.reason == "TIME_RAN_OUT"
    assert match.plies == 0 and match.ended is not None
    assert match.ended.result.termination == pb.TERMINATION_TIMEOUT


def test_a_timeout_with_more_seats_ranks_the_flagged_seat_last_as_adjudicate_does() -> None:
    match, clock = new_match("ONE", 4, clock="60", keyed=False)
    players = [PolicyPlayer(match.record, "random", n) for n in range(4)]
    for _ in range(9):
        clock.advance(1)
        outcome = match.play(match.to_move, match.plies + 1, players[0].next_ply(), clock.now())
        for accepted in moves_of(outcome):
            for player in players:
                player.played(accepted.token)
    flagged = match.to_move
    clock.advance(60)
    (end,) = match.flag(clock.now()).events
    result = end.event.ended.result
    assert result.ranks[flagged - 1] == 4 and result.provisional
    ruling = adjudicate(match.record)
    assert list(ruling.result.ranks) == list(result.ranks)
    assert list(match.record.result.winners) == [s for s, r in enumerate(result.ranks, 1) if r == 1]
    assert validate(match.record).valid


# -- playing: refusals and repeats ----------------------------------------------------------------


def test_a_repeated_move_gets_the_first_acceptance_and_changes_nothing() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    first = match.play(1, 1, "c7", clock.now())
    clock.advance(5)
    again = match.play(1, 1, " C7 ", clock.now())
    assert again.repeated and again.events == first.events
    assert match.last_event == 2 and match.plies == 1


@pytest.mark.parametrize(
    ("seat", "ply", "expected"),
    [
        (1, 1, ("FAILED_PRECONDITION", "ply", "STALE_PLY")),
        (2, 1, ("FAILED_PRECONDITION", "ply", "STALE_PLY")),
        (2, 3, ("FAILED_PRECONDITION", "ply", "FUTURE_PLY")),
        (1, 2, ("FAILED_PRECONDITION", "token", "NOT_YOUR_TURN")),
    ],
)
def test_a_stale_or_future_ply_or_another_seat_s_turn_is_refused_naming_the_current_ply(
    seat: int, ply: int, expected: tuple[str, str, str]
) -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.play(1, 1, "c7", clock.now())
    before = match.record
    with pytest.raises(CommandRefusedError) as error:
        match.play(seat, ply, "d9", clock.now())
    assert refused(error) == expected
    assert error.value.current_ply == 2
    if expected[2] == "NOT_YOUR_TURN":
        assert str(error.value) == "it is seat 2's turn, not seat 1's (ply 2)"
    else:
        assert str(error.value).endswith("; the current ply is 2")
    assert match.record == before and match.last_event == 2


def test_an_illegal_move_is_refused_with_the_finding_validate_gives_and_nothing_changes() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.play(1, 1, "c7", clock.now())
    before = match.record
    outcome = match.play(2, 2, "c7", clock.now())
    assert outcome.finding is not None and not outcome.events
    bad = pb.GameRecord()
    bad.CopyFrom(before)
    bad.ClearField("seal")
    bad.moves.add(seat=2).one.path.add(ring=3, index=7)
    (expected,) = validate(bad).errors
    assert outcome.finding == expected
    assert match.record == before and match.is_open


def test_a_move_that_is_no_token_of_the_game_is_a_malformed_move() -> None:
    match, clock = new_match("Oh-Wah-Ree", 2, keyed=False)
    outcome = match.play(1, 1, "c7xc9", clock.now())
    assert outcome.finding is not None and outcome.finding.code == "MALFORMED_MOVE"
    assert outcome.finding.ply == 1 and outcome.finding.seat == 1


def test_a_move_message_with_no_action_is_an_invalid_argument() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    with pytest.raises(CommandRefusedError) as error:
        match.play(1, 1, pb.Move(), clock.now())
    assert refused(error) == ("INVALID_ARGUMENT", "move", "BAD_MOVE")


def test_a_move_message_is_played_as_its_token() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    move = pb.Move(seat=2, comment="ignored")
    move.one.path.add(ring=3, index=7)
    (accepted,) = moves_of(match.play(1, 1, move, clock.now()))
    assert accepted.token == "c7" and accepted.move.seat == 1 and not accepted.move.comment


def test_under_forfeit_an_illegal_move_loses_the_match() -> None:
    match, clock = new_match("ONE", 3, policy=FORFEIT, keyed=False)
    match.play(1, 1, "c7", clock.now())
    outcome = match.play(2, 2, "c7", clock.now())
    assert outcome.finding is not None and outcome.finding.code
    (end,) = [entry.event.ended for entry in outcome.events]
    assert end.result.termination == pb.TERMINATION_ADJUDICATED and end.seat == 2
    assert end.finding == outcome.finding
    assert end.result.ranks[1] == 3 and end.reason.startswith("seat 2 forfeited at ply 2")
    assert validate(match.record).valid
    assert match.record.comment.startswith("Seat 2 forfeited at ply 2 by the illegal move 'c7'")


def test_a_move_after_the_end_is_refused() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.abort(1, clock.now())
    with pytest.raises(CommandRefusedError) as error:
        match.play(1, 1, "c7", clock.now())
    assert refused(error) == ("FAILED_PRECONDITION", "match_id", "MATCH_OVER")


# -- resigning -----------------------------------------------------------------------------------


def test_a_two_seat_resignation_on_its_turn_ends_by_the_rules() -> None:
    match, clock = new_match("Aronda", keyed=False)
    match.play(1, 1, "o1", clock.now())
    outcome = match.resign(2, clock.now())
    (accepted,) = moves_of(outcome)
    assert accepted.token == "resign" and not accepted.by_referee
    assert match.ended is not None
    assert match.ended.result.termination == pb.TERMINATION_RESIGNATION
    assert list(match.ended.result.winners) == [1]
    assert validate(match.record).valid


def test_a_two_seat_resignation_out_of_turn_ends_it_as_adjudicated() -> None:
    match, clock = new_match("Aronda", keyed=False)
    match.play(1, 1, "o1", clock.now())
    outcome = match.resign(1, clock.now())
    assert not moves_of(outcome)
    assert match.ended is not None and match.ended.seat == 1
    assert match.ended.result.termination == pb.TERMINATION_ADJUDICATED
    assert list(match.ended.result.winners) == [2]
    assert match.ended.reason == (
        "seat 1 resigned during seat 2's turn (after ply 1), so the referee ends the game; "
        "seat 2 wins"
    )
    assert validate(match.record).valid and list(match.record.result.winners) == [2]


def test_with_three_seats_a_resignation_is_a_ply_and_the_game_goes_on() -> None:
    match, clock = new_match("ONE", 3, keyed=False)
    match.resign(1, clock.now())
    assert match.is_open and match.to_move == 2
    match.play(2, 2, "c7", clock.now())
    assert match.to_move == 3


def test_with_three_seats_a_resignation_out_of_turn_waits_for_the_seat_s_turn() -> None:
    match, clock = new_match("ONE", 3, keyed=False)
    match.play(1, 1, "a1", clock.now())
    (pending,) = match.resign(3, clock.now()).events
    assert pending.event.resignation_pending.seat == 3
    with pytest.raises(CommandRefusedError) as error:
        match.offer_draw(3, clock.now())
    assert refused(error)[2] == "RESIGNED"
    clock.advance(2)
    outcome = match.play(2, 2, "a2", clock.now())
    own, by_referee = moves_of(outcome)
    assert (own.seat, by_referee.seat, by_referee.token, by_referee.by_referee) == (
        2,
        3,
        "resign",
        True,
    )
    assert by_referee.time_used.ToMilliseconds() == 0 and match.to_move == 1
    assert match.state(clock.now()).pending_resignations == []
    assert validate(match.record).valid


def test_a_resigned_seat_cannot_resign_again() -> None:
    match, clock = new_match("ONE", 3, keyed=False)
    match.resign(1, clock.now())
    with pytest.raises(CommandRefusedError) as error:
        match.resign(1, clock.now())
    assert refused(error) == ("FAILED_PRECONDITION", "token", "RESIGNED")


# -- draws ---------------------------------------------------------------------------------------


def test_a_draw_accepted_by_the_other_seat_ends_by_agreement() -> None:
    match, clock = new_match("Oust", keyed=False)
    match.play(1, 1, "g7", clock.now())
    (offered,) = match.offer_draw(2, clock.now()).events
    assert offered.event.draw_offered.after_ply == 1
    assert match.offer_draw(2, clock.now()).repeated
    answered, ended = match.answer_draw(1, True, clock.now()).events
    assert answered.event.draw_answered.accept
    assert ended.event.ended.result.termination == pb.TERMINATION_AGREEMENT
    assert list(ended.event.ended.result.winners) == [1, 2]
    assert validate(match.record).valid
    ruling = adjudicate(match.record)
    assert ruling.decision == vpb.DECISION_CONFIRMED


def test_with_three_seats_every_other_seat_must_accept() -> None:
    match, clock = new_match("Oh-Wah-Ree", 3, keyed=False)
    match.offer_draw(1, clock.now())
    assert len(match.answer_draw(2, True, clock.now()).events) == 1 and match.is_open
    assert match.answer_draw(2, True, clock.now()).repeated
    events = match.answer_draw(3, True, clock.now()).events
    assert events[-1].event.ended.result.termination == pb.TERMINATION_AGREEMENT


def test_offering_while_another_seat_s_offer_stands_accepts_it() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.offer_draw(1, clock.now())
    events = match.offer_draw(2, clock.now()).events
    assert events[0].event.draw_answered.seat == 2 and not match.is_open


def test_a_decline_ends_the_offer() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.offer_draw(1, clock.now())
    match.answer_draw(2, False, clock.now())
    assert match.state(clock.now()).draw_offered_by == 0
    with pytest.raises(CommandRefusedError) as error:
        match.answer_draw(2, True, clock.now())
    assert refused(error)[2] == "NO_DRAW_OFFER"


def test_an_offer_lapses_when_its_maker_moves_again() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.offer_draw(1, clock.now())
    events = match.play(1, 1, "c7", clock.now()).events
    assert events[1].event.draw_offer_lapsed.seat == 1
    assert match.state(clock.now()).draw_offered_by == 0


def test_the_maker_cannot_answer_its_own_offer() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.offer_draw(1, clock.now())
    with pytest.raises(CommandRefusedError) as error:
        match.answer_draw(1, True, clock.now())
    assert refused(error)[2] == "OWN_DRAW_OFFER"


# -- aborting ------------------------------------------------------------------------------------


def test_a_seat_may_abort_until_every_seat_has_moved() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.play(1, 1, "c7", clock.now())
    (ended,) = match.abort(1, clock.now()).events
    assert ended.event.ended.status == mpb.MATCH_STATUS_ABORTED
    assert match.record.result.HasField("unfinished")
    assert match.record.result.termination == pb.TERMINATION_ABANDONED
    assert validate(match.record).valid


def test_once_every_seat_has_moved_only_the_admin_may_abort() -> None:
    match, clock = new_match("ONE", 2, keyed=False)
    match.play(1, 1, "c7", clock.now())
    match.play(2, 2, "d9", clock.now())
    with pytest.raises(CommandRefusedError) as error:
        match.abort(2, clock.now())
    assert refused(error)[2] == "ABORT_TOO_LATE"
    match.abort(ADMIN, clock.now())
    assert match.status == mpb.MATCH_STATUS_ABORTED
    assert match.ended is not None and match.ended.reason.startswith("the admin aborted")


def test_the_plies_limit_abandons_the_match() -> None:
    clock = ManualClock()
    match = Match.create("m", request("ONE", 2, keyed=False), clock.now(), max_plies=3)
    for ply, token in enumerate(("a1", "a2", "a3"), 1):
        match.play(2 - ply % 2, ply, token, clock.now())
    assert match.status == mpb.MATCH_STATUS_ABORTED and "3 plies" in match.ended.reason  # type: ignore[union-attr]


# -- outages -------------------------------------------------------------------------------------


def test_time_the_server_was_down_is_charged_to_no_one() -> None:
    match, clock = new_match("ONE", 2, clock="300", keyed=False)
    clock.advance(10)
    match.play(1, 1, "c7", clock.now())
    clock.advance(5)
    down = clock.now()
    clock.advance(100)
    (outage,) = match.outage(clock.now(), down).events
    note = outage.event.outage
    assert (note.seat, note.ply, note.charged.ToMilliseconds()) == (2, 2, 5_000)
    assert match.clocks_ms(clock.now()) == [290_000, 295_000]
    clock.advance(2)
    (accepted,) = moves_of(match.play(2, 2, "d9", clock.now()))
    assert accepted.move.clock.ToMilliseconds() == 293_000
    assert accepted.time_used.ToMilliseconds() == 7_000
    assert accepted.move.comment == (
        "The server was down during this ply from 2026-01-01T00:00:15Z to "
        "2026-01-01T00:01:55Z (100.000 s); that time was charged to no one."
    )
    rebuilt = Match.from_log(match.events, host_key=HOST)
    assert rebuilt.record == match.record and rebuilt.clocks_ms(clock.now()) == match.clocks_ms(
        clock.now()
    )


def test_an_outage_that_began_before_the_last_move_charges_nothing_of_this_turn() -> None:
    match, clock = new_match("ONE", 2, clock="300", keyed=False)
    heartbeat = clock.now()
    clock.advance(3)
    match.play(1, 1, "c7", clock.now())
    clock.advance(50)
    (outage,) = match.outage(clock.now(), heartbeat).events
    assert outage.event.outage.charged.ToMilliseconds() == 0
    assert outage.event.outage.down_since.ToJsonString() == "2026-01-01T00:00:03Z"


def test_an_outage_with_no_ply_after_it_is_noted_in_the_game_comment() -> None:
    match, clock = new_match("ONE", 2, clock="300", keyed=False)
    down = clock.now()
    clock.advance(20)
    match.outage(clock.now(), down)
    match.abort(1, clock.now())
    assert "The server was down during this ply" in match.record.comment


# -- signatures ----------------------------------------------------------------------------------


def test_a_signature_over_the_wrong_head_is_rejected_with_the_seal_finding() -> None:
    match, clock = new_match("ONE", 2)
    (accepted,) = moves_of(match.play(1, 1, "c7", clock.now()))
    wrong = key(1).sign(ply_message(2, accepted.head))
    outcome = match.sign(1, 1, wrong, clock.now())
    assert outcome.finding is not None and outcome.finding.code == "SIGNATURE_INVALID"
    assert not outcome.events and match.last_event == 2
    stranger = key(2).sign(ply_message(1, accepted.head))
    assert match.sign(1, 1, stranger, clock.now()).finding is not None
    sign_ply(match, accepted, clock)
    again = key(1).sign(ply_message(1, accepted.head))
    assert match.sign(1, 1, again, clock.now()).repeated


def test_signing_needs_a_key_a_played_ply_and_for_the_final_head_the_end() -> None:
    unkeyed, clock = new_match("ONE", 2, keyed=False)
    unkeyed.play(1, 1, "c7", clock.now())
    outcome = unkeyed.sign(1, 1, bytes(64), clock.now())
    assert outcome.finding is not None and outcome.finding.code == "NO_KEY"
    keyed, clock = new_match("ONE", 2)
    with pytest.raises(CommandRefusedError) as error:
        keyed.sign(1, 1, bytes(64), clock.now())
    assert refused(error) == ("FAILED_PRECONDITION", "ply", "NO_SUCH_PLY")
    with pytest.raises(CommandRefusedError) as error:
        keyed.sign(1, 0, bytes(64), clock.now())
    assert refused(error)[2] == "MATCH_NOT_OVER"
    keyed.abort(2, clock.now())
    final = key(1).sign(final_message(keyed.record.seal.final_head))
    assert keyed.sign(1, 0, final, clock.now()).events


def test_without_the_seats_final_signatures_verify_says_what_is_missing() -> None:
    match, clock = new_match("Aronda")
    play_out(match, clock, sign=False)
    findings = {finding.code for finding in verify(match.record, trusted(2)).findings}
    assert findings == {"UNSIGNED_PLIES"}


# -- the legal moves of a turn that chains decisions -----------------------------------------------


def test_decided_placements_give_the_next_decisions_of_the_turn() -> None:
    match, clock = new_match("Oust", keyed=False)
    first = match.state(clock.now())
    assert "g7" in first.legal_moves and not first.turn_complete
    done = match.state(clock.now(), ["g7"])
    assert done.turn_complete and not done.legal_moves
    with pytest.raises(CommandRefusedError) as error:
        match.state(clock.now(), ["g7", "g8"])
    assert refused(error) == ("INVALID_ARGUMENT", "decided[1]", "TURN_OVER")
    with pytest.raises(CommandRefusedError) as error:
        match.state(clock.now(), ["z99"])
    assert refused(error)[1] == "decided[0]"


def test_a_capturing_placement_leaves_the_turn_open() -> None:
    for seed in range(40):
        match, clock = new_match("Oust", keyed=False, Board="4")
        players = [PolicyPlayer(match.record, "random", f"{seed}:{n}") for n in range(2)]
        while match.is_open:
            token = players[0].next_ply()
            if "," in token:
                first = token.split(",")[0]
                state = match.state(clock.now(), [first])
                assert not state.turn_complete and state.legal_moves
                assert match.state(clock.now(), token.split(",")).turn_complete
                return
            for accepted in moves_of(
                match.play(match.to_move, match.plies + 1, token, clock.now())
            ):
                for player in players:
                    player.played(accepted.token)
    pytest.fail("no capture in 40 random games")


# -- making a match, and its log -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda r: setattr(r.rules, "game", 99), ("rules", "UNKNOWN_GAME")),
        (lambda r: r.seats.pop(), ("seats", "SEAT_COUNT_MISMATCH")),
        (lambda r: setattr(r.seats[1], "public_key", b"short"), ("seats[1].public_key", "BAD_KEY")),
        (lambda r: setattr(r, "time_control", "5min"), ("time_control", "BAD_TIME_CONTROL")),
        (lambda r: setattr(r, "illegal_move_policy", 7), ("illegal_move_policy", "BAD_POLICY")),
        (lambda r: setattr(r.seats[0], "name", " "), ("seats[0].name", "NO_NAME")),
        (lambda r: setattr(r, "event", "x" * 201), ("event", "TOO_LONG")),
        (lambda r: r.rules.one.ring_sizes.append(0), ("rules", "IMPOSSIBLE_VARIANT")),
    ],
)
def test_a_request_that_makes_no_match_names_its_field(
    change: object, expected: tuple[str, str]
) -> None:
    made = request("ONE", 3)
    change(made)  # type: ignore[operator]
    with pytest.raises(CommandRefusedError) as error:
        Match.create("m", made, ManualClock().now())
    assert (
        error.value.refusal is Refusal.INVALID
        and (error.value.field, error.value.reason) == expected
    )


def test_a_log_that_differs_from_what_the_referee_decided_does_not_rebuild() -> None:
    match, clock = new_match("ONE", 2)
    match.play(1, 1, "c7", clock.now())
    changed = [Logged(entry.event.__deepcopy__(), entry.at) for entry in match.events]
    changed[1].event.move.move.clock.seconds += 1
    with pytest.raises(MatchLogError):
        Match.from_log(changed, host_key=HOST)
    with pytest.raises(MatchLogError):
        Match.from_log(match.events, host_key=key(50))
    with pytest.raises(MatchLogError):
        Match.from_log(match.events[1:], host_key=HOST)
