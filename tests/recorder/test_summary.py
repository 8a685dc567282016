"""Record summaries (what ``gamerec info`` shows)."""

from __future__ import annotations

from pathlib import Path

from gamerec.recorder.codecs import read_records
from gamerec.recorder.summary import summarize
from gamerec.v1 import record_pb2 as pb

VALID = Path(__file__).resolve().parents[2] / "fixtures" / "valid"


def test_a_summary_names_game_variant_seats_plies_and_claimed_result() -> None:
    (record,) = read_records(VALID / "one-e3-round-completion.grn")
    summary = summarize(record)
    assert summary.game == "ONE"
    assert summary.variant_text() == '[Players "3"] [Board "6,6"] [Tiebreak "shared"]'
    assert summary.seats == ("Ana", "Ben", "Chi")
    assert summary.plies == 12
    assert (summary.result, summary.winners, summary.termination) == ("4-2-4", (1, 3), "normal")


def test_a_record_without_claims_summarizes_with_empty_fields() -> None:
    summary = summarize(pb.GameRecord(rules=pb.Rules(game=pb.GAME_OUST)))
    assert summary.as_mapping() == {
        "game": "Oust",
        "variant": {},
        "seats": [],
        "plies": 0,
        "result": "",
        "winners": [],
        "termination": "",
    }


def test_a_record_grn_cannot_hold_is_still_summarized() -> None:
    odd = pb.GameRecord(rules=pb.Rules(game=pb.GAME_UNSPECIFIED, oust=pb.OustVariant()))
    odd.result.termination = pb.Termination.ValueType(42)
    summary = summarize(odd)
    assert summary.game == "?0"
    assert summary.variant[0][0] == "Variant"
    assert summary.termination == "?42"


def test_an_unfinished_claim_is_a_star() -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE))
    record.result.unfinished.SetInParent()
    assert summarize(record).result == "*"
