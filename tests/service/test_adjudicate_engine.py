"""The Adjudicate RPC with the engine: the library's ruling, within the service's bounds."""

from __future__ import annotations

import grpc
import pytest

from gamerec.recorder.codecs import read_records
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.analysis.assessment import EngineRequest
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.search.core import Limits
from tests.service.conftest import GAMES
from tests.service.test_rpcs import violation


def test_adjudicate_with_the_engine_answers_what_the_library_answers(
    stub: sgrpc.RecordServiceStub,
) -> None:
    (record,) = read_records(str(GAMES[0].with_name("ohwahree-3p-abandoned.grn")))
    options = spb.EngineOptions(playouts=150, seed=3, confidence=0.6)
    ruling = stub.Adjudicate(spb.AdjudicateRequest(record=record, engine=options))
    settings = SearchSettings(Limits(playouts=150, time=60), seed=3)
    library = adjudicate(record, engine=EngineRequest(settings, 0.6))
    assert ruling.HasField("engine") and ruling.engine.playouts == 150
    ruling.engine.seconds = library.engine.seconds = 0
    assert ruling == library
    plain = stub.Adjudicate(spb.AdjudicateRequest(record=record))
    assert not plain.HasField("engine") and plain.decision == vpb.DECISION_PROVISIONAL


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (spb.EngineOptions(playouts=100_001), "engine.playouts"),
        (spb.EngineOptions(time_ms=10_001), "engine.time_ms"),
        (spb.EngineOptions(confidence=0.4), "engine.confidence"),
    ],
)
def test_too_much_search_is_an_invalid_argument(
    stub: sgrpc.RecordServiceStub, options: spb.EngineOptions, field: str
) -> None:
    (record,) = read_records(str(GAMES[0].with_name("ohwahree-3p-abandoned.grn")))
    with pytest.raises(grpc.RpcError) as raised:
        stub.Adjudicate(spb.AdjudicateRequest(record=record, engine=options))
    assert violation(raised.value)[0] == field
