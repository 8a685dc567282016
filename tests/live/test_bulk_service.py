"""CreateMatches through a real server and ``gamerec match bulk`` / ``match new --start-at``."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import TEST_EPOCH
from tests.live.conftest import LiveServer, details, sync_stub
from tests.live.matches import request
from tests.live.test_match_cli import gamerec


def stamp(seconds: float) -> Timestamp:
    """The test clock's reading ``seconds`` after its start, as a Timestamp."""
    value = Timestamp()
    value.FromDatetime(TEST_EPOCH + timedelta(seconds=seconds))
    return value


def listed(live: LiveServer) -> set[str]:
    answer = sync_stub(live.address).ListMatches(mpb.ListMatchesRequest(limit=1000), timeout=30)
    return {summary.match_id for summary in answer.matches}


def test_create_matches_creates_a_round_whose_tokens_play(live: LiveServer) -> None:
    stub = sync_stub(live.address)
    before = listed(live)
    asked = [request("ONE", 2, clock="300+3", keyed=False), request("Oust", 2, keyed=False)]
    made = stub.CreateMatches(mpb.CreateMatchesRequest(matches=asked), timeout=30)
    assert listed(live) - before == {created.match_id for created in made.matches}
    first = made.matches[0]
    played = stub.Play(
        mpb.PlayRequest(match_id=first.match_id, token=first.seat_tokens[0], ply=1, text="c7"),
        timeout=30,
    )
    assert played.events[0].move.ply == 1
    with pytest.raises(grpc.RpcError) as other:  # a token of the round acts in its own match only
        stub.Play(
            mpb.PlayRequest(
                match_id=first.match_id, token=made.matches[1].seat_tokens[0], ply=2, text="d9"
            ),
            timeout=30,
        )
    assert other.value.code() is grpc.StatusCode.PERMISSION_DENIED


def test_a_refused_match_names_its_index_and_nothing_is_created(live: LiveServer) -> None:
    stub = sync_stub(live.address)
    before = listed(live)
    asked = [request("ONE", 2, keyed=False), request("Aronda", 2, clock="300 s", keyed=False)]
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatches(mpb.CreateMatchesRequest(matches=asked), timeout=30)
    error = refused.value
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    found = details(error)
    (violation,) = found["BadRequest"].field_violations
    assert violation.field == "matches[1].time_control"
    assert found["ErrorInfo"].reason == "BAD_TIME_CONTROL"
    assert str(error.details()).startswith(
        "matches[1].time_control: time control '300 s' is not one"
    )
    past = request("ONE", 2, clock="60", keyed=False)
    past.start_at.CopyFrom(stamp(live.ns / 1e9 - 1))
    with pytest.raises(grpc.RpcError) as late:
        stub.CreateMatches(mpb.CreateMatchesRequest(matches=[asked[0], past]), timeout=30)
    assert details(late.value)["ErrorInfo"].reason == "START_PASSED"
    assert str(late.value.details()).startswith(
        "matches[1].start_at: start_at 2025-12-31T23:59:59Z is not after the server's time now"
    )
    assert listed(live) == before


def test_too_many_matches_in_one_call_is_refused_with_the_limit(live: LiveServer) -> None:
    stub = sync_stub(live.address)
    before = listed(live)
    one = request("ONE", 2, keyed=False)
    with pytest.raises(grpc.RpcError) as refused:
        stub.CreateMatches(mpb.CreateMatchesRequest(matches=[one] * 1001), timeout=30)
    error = refused.value
    assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details(error)["QuotaFailure"].violations[0].subject == "bulk"
    assert error.details() == (
        "matches[1000]: one CreateMatches call creates at most 1,000 matches (limit bulk), this "
        "one asks for 1,001; nothing was created"
    )
    assert listed(live) == before


def test_a_bulk_is_bounded_by_bulk_bytes_not_request_bytes(live: LiveServer) -> None:
    """The module's server takes requests of 4,096 bytes; a round of 60 matches is larger."""
    stub = sync_stub(live.address)
    asked = mpb.CreateMatchesRequest(matches=[request("ONE", 2)] * 60)
    assert asked.ByteSize() > 4096
    made = stub.CreateMatches(asked, timeout=60)
    assert len(made.matches) == 60
    with pytest.raises(grpc.RpcError) as single:
        stub.CreateMatch(
            mpb.CreateMatchRequest(rules=asked.matches[0].rules, event="x" * 5000), timeout=30
        )
    assert single.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED


def test_match_bulk_reads_json_lines_and_starts_every_clock_at_start_at(
    live: LiveServer, tmp_path: Path
) -> None:
    lines = [
        json_format.MessageToJson(request(game, 2, clock="600", keyed=False), indent=None)
        for game in ("ONE", "Aronda")
    ]
    file = tmp_path / "round.jsonl"
    file.write_text("\n".join(lines) + "\n")
    start = stamp(live.ns / 1e9 + 3600).ToJsonString()
    done = gamerec("match", "bulk", str(file), "--server", live.address, "--start-at", start)
    assert done.returncode == 0, done.stderr
    shown = done.stdout.splitlines()
    assert len(shown) == 6
    ids = []
    for head in (shown[0], shown[3]):
        found = re.fullmatch(
            rf"match ([0-9a-f]{{16}})  (ONE|Aronda)  clock 600  clocks start {re.escape(start)}",
            head,
        )
        assert found, head
        ids.append(found.group(1))
    assert re.fullmatch(r"seat 2  Ben  seat_[A-Za-z0-9_-]{32}", shown[2])
    state = sync_stub(live.address).GetMatch(mpb.GetMatchRequest(match_id=ids[1]), timeout=30)
    assert state.time_control == "600" and not state.clock_running


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"matches": [{"timeControl": "60"}]}\n', "INVALID_ARGUMENT: matches[0].rules"),
        ('{"matches": [], "matches": []}', "round.json: "),
        ('{"matchez": []}', 'round.json: Message type "gamerec.v1.CreateMatchesRequest" has no'),
    ],
)
def test_match_bulk_refuses_a_bad_file_in_one_line(
    live: LiveServer, tmp_path: Path, text: str, message: str
) -> None:
    file = tmp_path / "round.json"
    file.write_text(text)
    before = listed(live)
    done = gamerec("match", "bulk", str(file), "--server", live.address)
    assert done.returncode == 2 and done.stdout == ""
    assert message in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert listed(live) == before


def test_match_bulk_names_the_line_of_a_bad_json_line(live: LiveServer, tmp_path: Path) -> None:
    file = tmp_path / "round.jsonl"
    good = json_format.MessageToJson(request("ONE", 2, keyed=False), indent=None)
    file.write_text(good + "\n" + json.dumps({"seats": [{"name": "a", "nome": "b"}]}) + "\n")
    done = gamerec("match", "bulk", str(file), "--server", live.address)
    assert done.returncode == 2
    assert f"{file} line 2: " in done.stderr and "nome" in done.stderr


def test_match_new_start_at_is_shown_and_a_bad_time_is_refused(live: LiveServer) -> None:
    start = stamp(live.ns / 1e9 + 90).ToJsonString()
    seats = ("--seat", "alice", "--seat", "bob")
    done = gamerec(
        *("match", "new", "--server", live.address, "--game", "aronda", *seats),
        *("--clock", "300", "--start-at", start),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].endswith(f"  clock 300  clocks start {start}")
    for bad, said in (
        ("tomorrow", "--start-at: expected a time with its zone"),
        ("2026-01-01T10:00:00", "--start-at: expected a time with its zone"),
        ("2025-01-01T10:00:00Z", "INVALID_ARGUMENT: start_at: start_at 2025-01-01T10:00:00Z"),
    ):
        refused = gamerec(
            *("match", "new", "--server", live.address, "--game", "aronda", *seats),
            *("--clock", "300", "--start-at", bad),
        )
        assert refused.returncode == 2 and said in refused.stderr, refused.stderr
    untimed = gamerec(
        *("match", "new", "--server", live.address, "--game", "aronda", *seats),
        *("--start-at", start),
    )
    assert untimed.returncode == 2
    assert "start_at: a scheduled start starts the clocks, and this match has none" in (
        untimed.stderr
    )
