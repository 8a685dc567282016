"""Limits per client: token buckets, streams held open, RESOURCE_EXHAUSTED with RetryInfo."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator.service.principal import Role
from gamerec.validator.service.quotas import (
    ClientLimits,
    ClientQuotas,
    OverLimitError,
    TokenBucket,
)
from gamerec.validator.service.token_files import TokenBook, TokenFileError, read_token_file
from gamerec.validator.service.transport import retry_delay
from tests.live.conftest import LiveServer, create, details
from tests.live.matches import request
from tests.network.conftest import RECORD, bearer, hashed, token_file

GRN = b'[Game "Aronda"]\n\n1. o1 *\n'


class Ticks:
    """An injectable clock of seconds."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_token_bucket_lets_a_burst_through_then_the_rate() -> None:
    bucket = TokenBucket(rate=10, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(0.0) == pytest.approx(0.1)
    assert bucket.take(0.05) == pytest.approx(0.05)
    assert bucket.take(0.1) == 0.0
    assert not bucket.full(0.1) and bucket.full(0.4)


def test_quotas_count_tokens_and_addresses_apart_and_say_when_to_come_back() -> None:
    ticks = Ticks()
    quotas = ClientQuotas(
        ClientLimits(token_rate=2, token_burst=2, peer_rate=1, peer_burst=1), ticks
    )
    quotas.take("peer:10.0.0.1", by_token=False)
    with pytest.raises(OverLimitError) as refused:
        quotas.take("peer:10.0.0.1", by_token=False)
    assert refused.value.limit == "peer-rate" and refused.value.retry_after == pytest.approx(1.0)
    assert "1 a second per peer address without a token (limit peer-rate)" in str(refused.value)
    quotas.take("peer:10.0.0.2", by_token=False)  # another address: its own bucket
    quotas.take("token:ab", by_token=True)
    quotas.take("token:ab", by_token=True)
    with pytest.raises(OverLimitError) as refused:
        quotas.take("token:ab", by_token=True)
    assert refused.value.limit == "token-rate" and "try again in 0.50 s" in str(refused.value)
    ticks.now += 0.5
    quotas.take("token:ab", by_token=True)


def test_streams_are_counted_while_open() -> None:
    quotas = ClientQuotas(ClientLimits(token_streams=2, peer_streams=1))
    quotas.open_stream("token:ab", by_token=True)
    quotas.open_stream("token:ab", by_token=True)
    with pytest.raises(OverLimitError, match="2 open at once per token"):
        quotas.open_stream("token:ab", by_token=True)
    quotas.close_stream("token:ab")
    quotas.open_stream("token:ab", by_token=True)
    assert quotas.streams("token:ab") == 2
    quotas.open_stream("peer:a", by_token=False)
    with pytest.raises(OverLimitError, match="limit peer-streams"):
        quotas.open_stream("peer:a", by_token=False)
    quotas.close_stream("peer:a")
    assert quotas.streams("peer:a") == 0


def test_limit_settings_are_checked() -> None:
    assert ClientLimits().with_settings(["token-rate=5", "peer_streams=9"]) == ClientLimits(
        token_rate=5, peer_streams=9
    )
    for wrong in ("token-rate", "rate=5", "token-rate=0", "token-rate=x"):
        with pytest.raises(ValueError, match=r"NAME=N|whole number"):
            ClientLimits().with_settings([wrong])


def test_token_files_say_where_a_line_is_wrong(tmp_path: Path) -> None:
    good = token_file(
        tmp_path / "good",
        f"ops {hashed('x' * 20)}",
        "bare-token-of-twenty-chars",
        "dashboard subject:CN=dash,O=Club",
    )
    entries = read_token_file(str(good), Role.ADMIN)
    assert [(entry.name, entry.role) for entry in entries] == [
        ("ops", Role.ADMIN),
        ("line 3", Role.ADMIN),
        ("dashboard", Role.ADMIN),
    ]
    book = TokenBook({Role.SPECTATOR: str(good)})
    assert book.by_subject("CN=dash,O=Club") is not None and book.by_subject("CN=x") is None
    for line, problem in (
        ("ops sha256:abc", "good-2:2: sha256: must be followed by 64 hexadecimal digits"),
        ("ops short", "good-2:2: a token must be at least 16 characters"),
        ("ops subject:", "good-2:2: subject: must be followed by a certificate subject"),
    ):
        with pytest.raises(TokenFileError) as error:
            read_token_file(str(token_file(tmp_path / "good-2", line)), Role.ADMIN)
        assert str(error.value).endswith(problem)
    with pytest.raises(TokenFileError, match="no admin token in it"):
        read_token_file(str(token_file(tmp_path / "empty")), Role.ADMIN)
    with pytest.raises(TokenFileError, match="cannot read the admin tokens"):
        read_token_file(str(tmp_path / "missing"), Role.ADMIN)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    folder = tmp_path_factory.mktemp("limited")
    server = LiveServer(
        folder,
        *("--record-tokens", str(token_file(folder / "records", f"arbiter {RECORD}"))),
        *("--client-limit", "peer-rate=2", "--client-limit", "peer-burst=4"),
        *("--client-limit", "peer-streams=2", "--client-limit", "token-rate=1000"),
        clock=False,
    )
    yield server
    server.stop()


def test_a_flood_without_a_token_is_refused_with_when_to_retry_and_tokens_still_pass(
    limited: LiveServer,
) -> None:
    with grpc.insecure_channel(limited.address) as channel:
        matches = mgrpc.MatchServiceStub(channel)
        records = sgrpc.RecordServiceStub(channel)
        listing = mpb.ListMatchesRequest()
        answers: list[object] = []
        for _ in range(8):
            try:
                matches.ListMatches(listing, timeout=30)
                answers.append("OK")
            except grpc.RpcError as error:
                answers.append(error)
        refused = [answer for answer in answers if isinstance(answer, grpc.RpcError)]
        assert 2 <= len(refused) <= 4 and answers[0] == "OK"
        first = refused[0]
        assert isinstance(first, grpc.Call) and isinstance(first, grpc.RpcError)
        assert first.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        found = details(first)
        assert found["QuotaFailure"].violations[0].subject == "peer-rate"
        assert found["ErrorInfo"].reason == "RATE_LIMITED"
        delay = retry_delay(first)
        assert delay is not None and 0 < delay <= 0.5
        # A token is counted apart from its address.
        for _ in range(6):
            assert records.Validate(spb.ValidateRequest(data=GRN), metadata=bearer(RECORD)).valid
        time.sleep(delay + 0.05)
        matches.ListMatches(listing, timeout=30)


def test_streams_held_open_without_a_token_are_limited(limited: LiveServer) -> None:
    time.sleep(2.5)  # the address's bucket fills again (burst 4: create, and 3 watchers)
    created = create(limited.address, request("ONE", 2, keyed=False))
    with grpc.insecure_channel(limited.address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        watch = mpb.WatchRequest(match_id=created.match_id)
        held = [stub.Watch(watch), stub.Watch(watch)]
        assert all(next(stream).HasField("created") for stream in held)
        third = stub.Watch(watch)
        with pytest.raises(grpc.RpcError) as error:
            next(third)
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert details(error.value)["ErrorInfo"].reason == "TOO_MANY_STREAMS"
        held[0].cancel()
        end = time.monotonic() + 30
        while True:  # the server learns of the cancel a moment later
            again = stub.Watch(watch)
            try:
                assert next(again).HasField("created")
                break
            except grpc.RpcError:
                assert time.monotonic() < end
                time.sleep(0.6)
        # A seat's token holds its streams apart from the address.
        seat = stub.Watch(watch, metadata=bearer(created.seat_tokens[0]))
        assert next(seat).HasField("created")
        for stream in (held[1], again, seat):
            stream.cancel()
