"""MatchService through a real server in its own process: whole matches, clocks, bad input."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import UTC, timedelta

import grpc
import grpc.aio
import pytest

from gamerec.recorder.seal import ply_message
from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.judge import validate
from gamerec.validator.live.clocks import TEST_EPOCH
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer, create, details, events_of, kinds, play_match
from tests.live.matches import GAMES_AND_SEATS, request
from tests.sealing import key

#: A clock of every kind, given to the whole matches in turn.
CLOCKS = ("-", "600", "600+2", "600d2", "600b2", "60/move")
PLAY = "/gamerec.v1.MatchService/Play"


def test_whole_matches_of_every_game_and_seat_count_through_the_server(live: LiveServer) -> None:
    async def run() -> list[tuple[mpb.CreateMatchResponse, list[mpb.MatchEnded], mpb.MatchState]]:
        return await asyncio.gather(
            *(
                play_match(
                    live.address,
                    request(game, seats, clock=CLOCKS[number % len(CLOCKS)]),
                    policy="greedy" if number % 3 == 0 else "random",
                    seed=number,
                )
                for number, (game, seats) in enumerate(GAMES_AND_SEATS)
            )
        )

    played = asyncio.run(run())
    for (game, seats), (created, ended, state) in zip(GAMES_AND_SEATS, played, strict=True):
        record = state.record
        verdict = validate(record)
        assert verdict.valid and verdict.status == vpb.GAME_STATUS_FINISHED, (game, seats)
        assert all(end == ended[0] for end in ended)
        assert state.status == mpb.MATCH_STATUS_FINISHED and state.ended.reason
        assert list(state.ended.result.scores) == list(verdict.result.scores)
        trusted = {live.host_public, *(public_bytes(key(seat)) for seat in range(1, seats + 1))}
        checked = verify(record, trusted)
        assert checked.verified, (game, seats, list(checked.findings))
        assert len(events_of(live.address, created.match_id)) == state.last_event


def test_the_server_clock_charges_each_ply_and_the_record_holds_it(live: LiveServer) -> None:
    # Each seat's first ply is untimed (its clock starts with its next turn, docs/live.md),
    # so the clocks are charged from ply 3 on.
    created = create(live.address, request("ONE", 2, clock="300+3", keyed=False))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    token = created.seat_tokens
    for ply, text in enumerate(("a1", "a2"), start=1):
        live.advance(30)
        untimed = stub.Play(
            mpb.PlayRequest(match_id=created.match_id, token=token[ply - 1], ply=ply, text=text)
        )
        assert [c.ToMilliseconds() for c in untimed.events[0].move.clocks] == [300_000, 300_000]
    live.advance(10)
    first = stub.Play(mpb.PlayRequest(match_id=created.match_id, token=token[0], ply=3, text="c7"))
    live.advance(20.5)
    second_at = TEST_EPOCH + timedelta(microseconds=live.ns // 1000)
    second = stub.Play(mpb.PlayRequest(match_id=created.match_id, token=token[1], ply=4, text="d9"))
    clocks = [
        [c.ToMilliseconds() for c in answer.events[0].move.clocks] for answer in (first, second)
    ]
    assert clocks == [[293_000, 300_000], [293_000, 282_500]]
    live.advance(1)
    state = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    assert [clock.ToMilliseconds() for clock in state.clocks] == [292_000, 282_500]
    record = state.record
    assert [move.clock.ToTimedelta() for move in record.moves] == [
        timedelta(seconds=300),
        timedelta(seconds=300),
        timedelta(seconds=293),
        timedelta(seconds=282.5),
    ]
    assert record.moves[3].timestamp.ToDatetime(UTC) == second_at
    assert record.metadata.time_control == "300+3"


def test_a_flag_falls_on_the_server_s_timer_and_watchers_see_it(live: LiveServer) -> None:
    # The clocks start at a scheduled start a second after the creation: seat 1's runs from
    # then whether it moves or not (without one, its first ply would be untimed).
    made = request("Aronda", 2, clock="10", keyed=False, start_at=live.ns / 1e9 + 1)
    created = create(live.address, made)
    seen: list[mpb.MatchEvent] = []
    arrived = threading.Event()

    def watch() -> None:
        for event in events_of(live.address, created.match_id):
            seen.append(event)
        arrived.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    time.sleep(0.5)
    live.advance(10.999)
    time.sleep(0.3)
    assert not arrived.is_set()
    live.advance(0.001)
    assert arrived.wait(timeout=20), "no flag"
    assert kinds(seen) == ["created", "ended"]
    ended = seen[-1].ended
    assert ended.result.termination == pb.TERMINATION_TIMEOUT and list(ended.result.winners) == [2]
    assert validate(ended.record).valid
    assert adjudicate(ended.record).decision == vpb.DECISION_CONFIRMED


def test_a_reconnecting_watcher_gets_exactly_the_events_it_missed(live: LiveServer) -> None:
    created = create(live.address, request("ONE", 2, keyed=False))
    channel = grpc.insecure_channel(live.address)
    stub = mgrpc.MatchServiceStub(channel)
    stream = stub.Watch(mpb.WatchRequest(match_id=created.match_id))
    first = next(stream)
    assert first.number == 1 and first.HasField("created")
    tokens = created.seat_tokens
    for ply, text in enumerate(("a1", "a2", "a3"), start=1):
        stub.Play(
            mpb.PlayRequest(
                match_id=created.match_id, token=tokens[1 - ply % 2], ply=ply, text=text
            )
        )
    second = next(stream)
    stream.cancel()
    assert second.number == 2
    for ply, text in enumerate(("a4", "a5"), start=4):
        stub.Play(
            mpb.PlayRequest(
                match_id=created.match_id, token=tokens[1 - ply % 2], ply=ply, text=text
            )
        )
    again = stub.Watch(mpb.WatchRequest(match_id=created.match_id, from_event=3))
    missed = [next(again) for _ in range(4)]
    assert [event.number for event in missed] == [3, 4, 5, 6]
    assert [event.move.token for event in missed] == ["a2", "a3", "a4", "a5"]
    stub.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=())
    rest = list(again)
    assert [event.number for event in rest] == [7] and rest[0].HasField("ended")


def test_a_repeated_move_gets_the_same_acceptance_and_a_stale_one_names_the_ply(
    live: LiveServer,
) -> None:
    created = create(live.address, request("ONE", 2, keyed=False))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    play = mpb.PlayRequest(
        match_id=created.match_id, token=created.seat_tokens[0], ply=1, text="c7"
    )
    first = stub.Play(play)
    assert stub.Play(play) == first
    move = pb.Move()
    move.one.path.add(ring=3, index=7)
    assert (
        stub.Play(
            mpb.PlayRequest(
                match_id=created.match_id, token=created.seat_tokens[0], ply=1, move=move
            )
        )
        == first
    )
    for ply, reason in ((1, "STALE_PLY"), (3, "FUTURE_PLY")):
        with pytest.raises(grpc.RpcError) as error:
            stub.Play(
                mpb.PlayRequest(
                    match_id=created.match_id, token=created.seat_tokens[1], ply=ply, text="d9"
                )
            )
        assert error.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        found = details(error.value)
        (violation,) = found["PreconditionFailure"].violations
        assert (violation.type, violation.subject) == (reason, "ply")
        assert found["ErrorInfo"].reason == reason
        assert found["ErrorInfo"].metadata["current_ply"] == "2"
        assert "the current ply is 2" in str(error.value.details())
    with pytest.raises(grpc.RpcError) as error:
        stub.Play(
            mpb.PlayRequest(
                match_id=created.match_id, token=created.seat_tokens[0], ply=2, text="d9"
            )
        )
    assert details(error.value)["ErrorInfo"].reason == "NOT_YOUR_TURN"


def test_an_illegal_move_gets_the_finding_as_a_verdict_error(live: LiveServer) -> None:
    created = create(live.address, request("Oust", 2, keyed=False))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    answer = stub.Play(
        mpb.PlayRequest(match_id=created.match_id, token=created.seat_tokens[0], ply=1, text="z99")
    )
    assert not answer.events and answer.illegal.code and answer.illegal.ply == 1
    assert answer.illegal.seat == 1 and "rules/oust.md" in answer.illegal.message
    state = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    assert state.plies == 0 and state.last_event == 1


@pytest.mark.parametrize(
    ("method", "message", "code", "field"),
    [
        # A token that is no seat's: whether the match exists is not said.
        (
            "Play",
            mpb.PlayRequest(match_id="x", token="t", ply=1, text="c7"),
            "UNAUTHENTICATED",
            "token",
        ),
        ("Play", mpb.PlayRequest(token="t", ply=1, text="c7"), "UNAUTHENTICATED", "token"),
        ("GetMatch", mpb.GetMatchRequest(match_id="y" * 5000), "RESOURCE_EXHAUSTED", "(request)"),
        ("GetMatch", mpb.GetMatchRequest(match_id="y" * 100), "NOT_FOUND", "match_id"),
        ("Watch", mpb.WatchRequest(match_id="nope"), "NOT_FOUND", "match_id"),
    ],
)
def test_bad_requests_get_a_status_whose_details_name_the_field(
    live: LiveServer, method: str, message: object, code: str, field: str
) -> None:
    channel = grpc.insecure_channel(live.address)
    call = getattr(mgrpc.MatchServiceStub(channel), method)
    with pytest.raises(grpc.RpcError) as error:
        answer = call(message, timeout=30)
        list(answer) if method == "Watch" else None
    assert error.value.code().name == code
    assert details(error.value)["ErrorInfo"].metadata["field"] == field
    assert len(str(error.value.details())) < 1100


def test_a_wrong_token_a_missing_ply_and_bytes_that_are_no_request(live: LiveServer) -> None:
    created = create(live.address, request("ONE", 2))
    channel = grpc.insecure_channel(live.address)
    stub = mgrpc.MatchServiceStub(channel)
    with pytest.raises(grpc.RpcError) as error:
        stub.Play(mpb.PlayRequest(match_id=created.match_id, token="guess", ply=1, text="c7"))
    assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert details(error.value)["ErrorInfo"].metadata["field"] == "token"
    with pytest.raises(grpc.RpcError) as error:
        stub.Play(
            mpb.PlayRequest(match_id=created.match_id, token=created.seat_tokens[0], text="c7")
        )
    assert details(error.value)["BadRequest"].field_violations[0].field == "ply"
    raw: grpc.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(PLAY)
    with pytest.raises(grpc.RpcError) as error:
        raw(b"\xff\xff\xff", timeout=30)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.RpcError) as error:
        stub.CreateMatch(request("ONE", 2, clock="300 minutes"))
    (violation,) = details(error.value)["BadRequest"].field_violations
    assert violation.field == "time_control"
    with pytest.raises(grpc.RpcError) as error:
        stub.Sign(
            mpb.SignRequest(
                match_id=created.match_id, token=created.seat_tokens[0], ply=1, signature=b"x"
            )
        )
    assert details(error.value)["BadRequest"].field_violations[0].field == "signature"


def test_a_signature_over_the_wrong_head_is_rejected_with_the_seal_finding(
    live: LiveServer,
) -> None:
    created = create(live.address, request("ONE", 2))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    token = created.seat_tokens[0]
    (event,) = stub.Play(
        mpb.PlayRequest(match_id=created.match_id, token=token, ply=1, text="c7")
    ).events
    head = event.move.head
    wrong = stub.Sign(
        mpb.SignRequest(
            match_id=created.match_id,
            token=token,
            ply=1,
            signature=key(1).sign(ply_message(1, bytes(32))),
        )
    )
    assert wrong.rejected.code == "SIGNATURE_INVALID" and not wrong.HasField("signed")
    right = stub.Sign(
        mpb.SignRequest(
            match_id=created.match_id,
            token=token,
            ply=1,
            signature=key(1).sign(ply_message(1, head)),
        )
    )
    assert right.signed.signature.seat == 1 and not right.HasField("rejected")
    state = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    assert [s.signer for s in state.record.seal.plies[0].signatures] == [0, 1]


def test_a_move_after_the_end_is_a_failed_precondition(live: LiveServer) -> None:
    created = create(live.address, request("ONE", 2, keyed=False))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    resigned = stub.Resign(
        mpb.ResignRequest(match_id=created.match_id, token=created.seat_tokens[0])
    )
    assert kinds(resigned.events) == ["move", "ended"]
    with pytest.raises(grpc.RpcError) as error:
        stub.Play(
            mpb.PlayRequest(
                match_id=created.match_id, token=created.seat_tokens[1], ply=2, text="c7"
            )
        )
    assert details(error.value)["ErrorInfo"].reason == "MATCH_OVER"


def test_draws_and_aborts_through_the_server(live: LiveServer) -> None:
    created = create(live.address, request("Oh-Wah-Ree", 3, keyed=False))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    match_id, tokens = created.match_id, created.seat_tokens
    assert kinds(
        stub.OfferDraw(mpb.OfferDrawRequest(match_id=match_id, token=tokens[0])).events
    ) == ["draw_offered"]
    assert kinds(
        stub.AnswerDraw(
            mpb.AnswerDrawRequest(match_id=match_id, token=tokens[1], accept=True)
        ).events
    ) == ["draw_answered"]
    final = stub.AnswerDraw(mpb.AnswerDrawRequest(match_id=match_id, token=tokens[2], accept=True))
    assert kinds(final.events) == ["draw_answered", "ended"]
    assert final.events[-1].ended.result.termination == pb.TERMINATION_AGREEMENT
    other = create(live.address, request("ONE", 2, keyed=False))
    aborted = stub.Abort(mpb.AbortRequest(match_id=other.match_id, token=other.seat_tokens[1]))
    assert aborted.events[0].ended.status == mpb.MATCH_STATUS_ABORTED


def test_watchers_past_the_limit_are_refused_and_a_silent_one_holds_nothing_up(
    live: LiveServer,
) -> None:
    made = request("Aronda", 2, keyed=False)
    created = create(live.address, made)

    async def run() -> tuple[int, list[str]]:
        async with grpc.aio.insecure_channel(live.address) as channel:
            stub = mgrpc.MatchServiceStub(channel)
            streams = [stub.Watch(mpb.WatchRequest(match_id=created.match_id)) for _ in range(200)]
            outcomes = await asyncio.gather(*(_first_of(stream) for stream in streams))
            accepted = sum(1 for outcome in outcomes if outcome == "event")
            refused = [outcome for outcome in outcomes if outcome != "event"]
            # The eight accepted streams are never read again: the match goes on regardless.
            tokens = created.seat_tokens
            for ply, text in enumerate(("o1", "o3,o5", "o2,o4"), start=1):
                await stub.Play(
                    mpb.PlayRequest(
                        match_id=created.match_id, token=tokens[1 - ply % 2], ply=ply, text=text
                    )
                )
            state = await stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
            assert state.plies == 3
            for stream in streams:
                stream.cancel()
            return accepted, refused

    accepted, refused = asyncio.run(run())
    assert accepted == 8 and set(refused) == {"RESOURCE_EXHAUSTED"} and len(refused) == 192


async def _first_of(stream: grpc.aio.UnaryStreamCall) -> str:  # type: ignore[type-arg]
    try:
        await stream.read()
    except grpc.aio.AioRpcError as error:
        return error.code().name
    return "event"


def test_a_client_that_goes_away_mid_call_leaves_the_match_whole(live: LiveServer) -> None:
    created = create(live.address, request("ONE", 2, keyed=False))
    play = mpb.PlayRequest(
        match_id=created.match_id, token=created.seat_tokens[0], ply=1, text="c7"
    )

    async def run() -> None:
        async with grpc.aio.insecure_channel(live.address) as channel:
            call = mgrpc.MatchServiceStub(channel).Play(play)
            await asyncio.sleep(0)
            call.cancel()

    asyncio.run(run())
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    again = stub.Play(play)
    assert again.events[0].move.ply == 1
    state = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    assert state.plies == 1 and state.last_event == 2 and state.to_move == 2


def test_list_and_get_show_the_matches(live: LiveServer) -> None:
    created = create(live.address, request("Oust", 2, keyed=False))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(live.address))
    listed = stub.ListMatches(mpb.ListMatchesRequest(status=mpb.MATCH_STATUS_OPEN, limit=5))
    assert listed.matches[0].match_id == created.match_id
    assert listed.matches[0].game == pb.GAME_OUST and list(listed.matches[0].seats) == [
        "Ana",
        "Ben",
    ]
    state = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id, decided=["g7"]))
    assert state.turn_complete and state.to_move == 1
