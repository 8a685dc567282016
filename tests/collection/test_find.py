"""``find`` over a planted collection: each criterion alone, then combined, against counts here."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.notation import game_label
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.find import (
    Criteria,
    CriteriaError,
    criteria,
    find,
    normalized_drawing,
)
from gamerec.validator.identity import identify
from gamerec.validator.judge import validate
from gamerec.validator.render import board_model, draw_text
from gamerec.validator.replay import walk
from tests.collection.planted import (
    ABANDONED,
    ENDS_EARLY,
    INVALID,
    MISMATCH,
    OCCUPIED,
    planted,
)

RECORDS = planted()


def found(wanted: Criteria) -> set[int]:
    """The 0-based indices of the records found."""
    hits = list(find(RECORDS, wanted))
    assert not [hit for hit in hits if isinstance(hit, InputFailure)]
    return {hit.entry.number - 1 for hit in hits}  # type: ignore[union-attr]


def where(test: Callable[[pb.GameRecord], bool]) -> set[int]:
    return {index for index, record in enumerate(RECORDS) if test(record)}


def names(record: pb.GameRecord) -> set[str]:
    return {seat.name for seat in record.seats} | {seat.player_id for seat in record.seats}


def test_nothing_asked_finds_everything() -> None:
    assert found(criteria()) == set(range(len(RECORDS)))


def test_by_game_in_any_spelling_and_by_variant() -> None:
    ones = where(lambda r: game_label(r.rules.game) == "ONE")
    assert found(criteria(games=["one"])) == ones == set(range(20))
    assert found(criteria(games=["OH-wah-ree", "aronda"])) == set(range(28, 36)) ^ set(
        range(20, 44)
    )
    assert found(criteria(games=["ONE"], variants=["players=3"])) == set(range(12, 20))
    assert found(criteria(variants=["Board=4"])) == set(range(28, 36))


def test_by_player_name_id_and_wildcard() -> None:
    assert found(criteria(players=["Ana"])) == where(lambda r: "Ana" in names(r))
    assert found(criteria(players=["id-ben"])) == where(lambda r: "id-ben" in names(r))
    assert found(criteria(players=["ID-BEN"])) == found(criteria(players=["id-ben"]))
    either = where(lambda r: bool({"Ana", "Gus"} & names(r)))
    assert found(criteria(players=["ana", "gus"])) == either
    assert found(criteria(players=["?e*"])) == where(
        lambda r: any(name[1:2] == "e" for name in names(r))
    )


def test_by_event_site_round_and_dates() -> None:
    assert found(criteria(events=["club night"])) == set(range(0, 44, 3))
    assert found(criteria(events=["Open*", "League"])) == set(range(44)) - set(range(0, 44, 3))
    assert found(criteria(sites=["Bergen"])) == set(range(1, 44, 2))
    assert found(criteria(rounds=["2"])) == {3, 4, 5}
    march = where(lambda r: r.metadata.date.startswith("2026-03"))
    assert found(criteria(date_from="2026-03", date_to="2026.03.31")) == march
    after = where(lambda r: r.metadata.date >= "2026-11-01")
    assert found(criteria(date_from="2026-11-01")) == after
    assert found(criteria(date_to="2026-01-01")) == where(lambda r: r.metadata.date == "2026-01-01")


def test_by_claimed_termination_and_winner() -> None:
    assert found(criteria(terminations=["abandoned"])) == set(ABANDONED)
    unstated = where(lambda r: r.result.termination == pb.TERMINATION_UNSPECIFIED)
    assert found(criteria(terminations=["unstated"])) == unstated == set(OCCUPIED)
    assert found(criteria(winners=["2"])) == where(lambda r: 2 in r.result.winners)
    ana_won = where(lambda r: any(r.seats[seat - 1].name == "Ana" for seat in r.result.winners))
    assert ana_won and found(criteria(winners=["ana"])) == ana_won


def test_by_plies() -> None:
    lengths = [len(record.moves) for record in RECORDS]
    assert found(criteria(plies=["30..50"])) == where(lambda r: 30 <= len(r.moves) <= 50)
    shortest = min(lengths)
    assert found(criteria(plies=[str(shortest)])) == where(lambda r: len(r.moves) == shortest)
    assert found(criteria(plies=["..20", "100.."])) == where(
        lambda r: len(r.moves) <= 20 or len(r.moves) >= 100
    )


def test_by_verdict() -> None:
    assert found(criteria(valid=True)) == set(range(44)) - INVALID
    assert found(criteria(valid=False)) == set(INVALID)
    assert found(criteria(findings=["occupied"])) == set(OCCUPIED)
    assert found(criteria(findings=["RECORD_ENDS_EARLY", "OCCUPIED"])) == ENDS_EARLY | OCCUPIED
    assert found(criteria(result_mismatch=True)) == set(MISMATCH)


def test_by_final_digest() -> None:
    digests = [validate(record).final_digest for record in RECORDS]
    assert found(criteria(digests=[digests[10].upper()])) == where(
        lambda r: validate(r).final_digest == digests[10]
    )


def _drawing_after(record: pb.GameRecord, ply: int) -> tuple[str, str]:
    """The drawing after ``ply`` (as replay draws it, the last ply bracketed) and its digest."""
    identity = identify(record)
    for step in walk(record, identity, steps=True, include_start=True):
        if step.ply == ply:
            model = board_model(identity.name, identity.variant)
            places = tuple(step.token.split("x")) if step.token else ()
            return draw_text(model, step.state.position(), places), step.state.digest()
    raise AssertionError(ply)


def _reaching(digest: str) -> set[int]:
    """Records that reach a digest after some ply: by digests, not by drawings."""
    reached = set()
    for index, record in enumerate(RECORDS):
        identity = identify(record)
        judgement = walk(record, identity, steps=True, include_start=True)
        if any(step.state.digest() == digest for step in judgement):
            reached.add(index)
    return reached


@pytest.mark.parametrize(("index", "ply"), [(2, 30), (13, 9), (29, 0), (40, 11)])
def test_by_a_position_drawn_as_replay_draws_it(index: int, ply: int) -> None:
    drawing, digest = _drawing_after(RECORDS[index], ply)
    titled = f"after {ply}. (seat 1) whatever\n{drawing}"
    hits = list(find(RECORDS, criteria(positions=[titled])))
    assert {hit.entry.number - 1 for hit in hits} == _reaching(digest)  # type: ignore[union-attr]
    mine = next(hit for hit in hits if hit.entry.number - 1 == index)  # type: ignore[union-attr]
    assert mine.match.position_ply is not None and mine.match.position_ply <= ply  # type: ignore[union-attr]


def test_a_drawing_ignores_brackets_and_spacing_but_not_stones() -> None:
    drawing, _ = _drawing_after(RECORDS[2], 30)
    assert normalized_drawing(drawing.replace("  ", "   ")) == normalized_drawing(drawing)
    changed = drawing.replace(" 1 ", " 2 ", 1)
    assert changed != drawing
    assert 2 not in found(criteria(positions=[changed]))


def test_criteria_combine_with_and() -> None:
    wanted = criteria(games=["ONE"], events=["Club night"], valid=True, players=["Ana", "Ben"])
    expected = (
        where(
            lambda r: (
                r.rules.game == pb.GAME_ONE
                and r.metadata.event == "Club night"
                and bool({"Ana", "Ben"} & names(r))
            )
        )
        - INVALID
    )
    assert expected and found(wanted) == expected
    assert found(criteria(games=["Oust"], findings=["OCCUPIED"])) == set()
    both = criteria(sites=["Oslo"], terminations=["normal"], plies=["..60"], result_mismatch=True)
    expected = {
        index
        for index in MISMATCH
        if RECORDS[index].metadata.site == "Oslo" and len(RECORDS[index].moves) <= 60
    }
    assert expected == {22, 30}
    assert found(both) == expected


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"games": ["chess"]}, "no game is called 'chess'"),
        ({"variants": ["Players"]}, "is not Tag=value"),
        ({"plies": ["a..b"]}, "is not N, N..M"),
        ({"terminations": ["draw"]}, "'draw' is none of"),
        ({"date_from": "last week"}, "is not a date"),
        ({"positions": [" \n "]}, "the drawing is empty"),
    ],
)
def test_criteria_that_cannot_be_read_say_why(given: dict[str, object], message: str) -> None:
    with pytest.raises(CriteriaError, match=message):
        criteria(**given)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (
            {"findings": ["LANDING_OCUPIED"]},
            "--finding: 'LANDING_OCUPIED' is no finding code (docs/reference/findings.md lists "
            "them); did you mean LANDING_OCCUPIED?",
        ),
        (
            {"findings": ["NOPE"]},
            "--finding: 'NOPE' is no finding code (docs/reference/findings.md lists them)",
        ),
        ({"date_from": "2026-13"}, "--date-from: '2026-13' has no month 13 (01 to 12)"),
        ({"date_to": "2026-02-29"}, "--date-to: '2026-02-29' has no day 29 (01 to 28)"),
        (
            {"date_from": "2026-3"},
            "--date-from: '2026-3' is not a date such as 2026-11-29 or 2026-11",
        ),
        (
            {"date_from": "2026-11-29-1"},
            "--date-from: '2026-11-29-1' is not a date such as 2026-11-29 or 2026-11",
        ),
        (
            {"date_from": "2026-12", "date_to": "2026.11.30"},
            "--date-from 2026-12 is after --date-to 2026.11.30: no day is both",
        ),
        (
            {"plies": ["80..60"]},
            "--plies: '80..60' holds no number (80 is more than 60); did you mean 60..80?",
        ),
        ({"plies": ["-5"]}, "--plies: '-5' is not N, N..M, ..M or N.."),
        (
            {"variants": ["Playrs=2"]},
            "--variant: 'Playrs' is no variant tag of any game (Players, Board, Mirror, Tiebreak, "
            "Supply, SecondPiece, Pie, StonesPerPit, Direction); did you mean Players?",
        ),
        (
            {"games": ["oust"], "variants": ["Supply=3"]},
            "--variant: 'Supply' is no variant tag of Oust (Players, Board, Pie)",
        ),
        (
            {"terminations": ["resign"]},
            "--termination: 'resign' is none of unstated, normal, resignation, timeout, "
            "agreement, abandoned, adjudicated; did you mean resignation?",
        ),
    ],
)
def test_meaningless_criteria_are_refused_with_the_nearest_meaning(
    given: dict[str, object], message: str
) -> None:
    with pytest.raises(CriteriaError) as raised:
        criteria(**given)  # type: ignore[arg-type]
    assert str(raised.value) == message


def test_criteria_that_mean_something_are_kept() -> None:
    wanted = criteria(
        findings=["landing_occupied", "SEAL_BROKEN"],
        date_from="2024-02-29",
        date_to="2026-11",
        plies=["60..60", "..30", "100.."],
        variants=["players=3", "StonesPerPit=4"],
        games=[],
    )
    assert wanted.findings == ("LANDING_OCCUPIED", "SEAL_BROKEN")
    assert (wanted.date_from, wanted.date_to) == ("2024-02-29", "2026-11")
    assert wanted.variants == (("players", "3"), ("stonesperpit", "4"))
