"""AssistService over a real ``gamerec serve --matches`` (gRPC): the shell over the library."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest

from gamerec.v1 import assist_pb2 as apb
from gamerec.v1 import assist_pb2_grpc as agrpc
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.render.ending import ending_words
from tests.live.conftest import LiveServer, create, details
from tests.live.matches import request


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("assist"))
    yield live
    live.stop()


def test_click_on_a_live_matchs_record_offers_the_moves_getmatch_lists(
    server: LiveServer,
) -> None:
    created = create(server.address, request("Oust", 2))
    with grpc.insecure_channel(server.address) as channel:
        matches = mgrpc.MatchServiceStub(channel)
        assist = agrpc.AssistServiceStub(channel)
        state = matches.GetMatch(mpb.GetMatchRequest(match_id=created.match_id), timeout=30)
        answer = assist.Click(apb.ClickRequest(record=state.record), timeout=30)
        placements = sorted(move for move in state.legal_moves if move[0].isalpha())
        assert sorted(answer.next_sites) == placements
        assert (answer.to_move, answer.plies, answer.ending) == (1, 0, "")
        assert 'id="site-' in answer.board_svg and answer.board_svg.startswith("<?xml")
        first = placements[0]
        clicked = assist.Click(apb.ClickRequest(record=state.record, clicks=[first]), timeout=30)
        assert list(clicked.complete) == [first] and not clicked.HasField("refused")


def test_a_resigned_match_says_why_and_opens_in_the_viewer(server: LiveServer) -> None:
    created = create(server.address, request("ONE", 2))
    with grpc.insecure_channel(server.address) as channel:
        matches = mgrpc.MatchServiceStub(channel)
        assist = agrpc.AssistServiceStub(channel)
        token = created.seat_tokens[0]
        matches.Resign(mpb.ResignRequest(match_id=created.match_id, token=token), timeout=30)
        state = matches.GetMatch(mpb.GetMatchRequest(match_id=created.match_id), timeout=30)
        answer = assist.Click(apb.ClickRequest(record=state.record), timeout=30)
        assert answer.ending == ending_words(state.record)
        assert "resigned" in answer.ending
        assert (answer.to_move, list(answer.next_sites)) == (0, [])
        page = assist.ViewerPage(apb.ViewerPageRequest(record=state.record), timeout=30)
        assert page.html.startswith("<!DOCTYPE html>") and 'id="game-data"' in page.html


def test_a_record_that_cannot_be_replayed_is_invalid_argument_naming_record(
    server: LiveServer,
) -> None:
    with grpc.insecure_channel(server.address) as channel:
        assist = agrpc.AssistServiceStub(channel)
        with pytest.raises(grpc.RpcError) as error:
            assist.Click(apb.ClickRequest(), timeout=30)
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    violation = details(error.value)["BadRequest"].field_violations[0]
    assert violation.field == "record"
