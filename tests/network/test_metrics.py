"""Prometheus metrics of a ``gamerec serve`` of two server processes, summed."""

from __future__ import annotations

import asyncio
import time
import urllib.request
from collections.abc import Iterator

import grpc
import pytest
from prometheus_client.parser import text_string_to_metric_families

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from tests.live.conftest import LiveServer, create, events_of, play_match
from tests.live.matches import request


@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("counted"), "--metrics-port", "0", processes=2)
    yield server
    server.stop()


def samples(server: LiveServer) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    url = str(server.process.lines[0]["metrics"])
    with urllib.request.urlopen(url, timeout=30) as answer:
        text = answer.read().decode()
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = tuple(sorted((k, v) for k, v in sample.labels.items() if k != "pid"))
            found[sample.name, labels] = found.get((sample.name, labels), 0.0) + sample.value
    return found


def test_calls_moves_flags_watchers_and_store_writes_are_counted(counted: LiveServer) -> None:
    assert str(counted.process.lines[0]["metrics"]).startswith("http://127.0.0.1:")
    created, ended, state = asyncio.run(play_match(counted.address, request("ONE", 2), channels=2))
    plies = state.plies
    # The clocks start a second after the creation (scheduled): seat 1's runs out unplayed.
    made = request("Aronda", 2, clock="10", keyed=False, start_at=counted.ns / 1e9 + 1)
    flagged = create(counted.address, made)
    with grpc.insecure_channel(counted.address) as channel:
        stream = mgrpc.MatchServiceStub(channel).Watch(mpb.WatchRequest(match_id=flagged.match_id))
        assert next(stream).HasField("created")
        end = time.monotonic() + 30
        while samples(counted).get(("gamerec_watchers", ()), 0) < 1:
            assert time.monotonic() < end, "no watcher counted"
            time.sleep(0.05)
        counted.advance(12)
        assert next(stream).HasField("ended")
        stream.cancel()
    events_of(counted.address, flagged.match_id)
    with pytest.raises(grpc.RpcError):
        create(counted.address, mpb.CreateMatchRequest())
    end = time.monotonic() + 30
    while True:  # a call is counted when its log line is written, at its end
        found = samples(counted)
        if found.get(("gamerec_flags_fallen_total", ()), 0) >= 1 and found.get(
            ("gamerec_calls_total", (("method", "CreateMatch"), ("status", "INVALID_ARGUMENT")))
        ):
            break
        assert time.monotonic() < end, found
        time.sleep(0.05)
    assert found["gamerec_moves_accepted_total", ()] == plies
    assert found["gamerec_flags_fallen_total", ()] == 1
    assert found["gamerec_calls_total", (("method", "Play"), ("status", "OK"))] >= plies
    assert found["gamerec_calls_total", (("method", "CreateMatch"), ("status", "OK"))] == 2
    assert found["gamerec_call_duration_seconds_count", (("method", "Play"),)] >= plies
    assert found["gamerec_store_write_seconds_count", ()] >= plies + 1
    assert found.get(("gamerec_open_matches", ()), 0) >= 0
    assert len(ended) == 2 and created.match_id
