"""Why a game ended, in words: every game's ends by its rules and every other termination."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.live.match import Match as LiveMatch
from gamerec.validator.render.ending import ending_words, final_state, match_ending, special_words
from tests.live.matches import new_match, request

ROOT = Path(__file__).resolve().parents[2]
ONE_SCORES = "points, the largest group plus twice the stones captured"
OWR_SCORES = "stones in store and own pits"


def _record(path: str) -> pb.GameRecord:
    return next(read_records(ROOT / path))


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (
            "fixtures/valid/oust-e1-pie.grn",
            "At ply 3, seat 1 (Kim) captured the last stone of seat 2 (Lou): seat 1 (Kim) wins.",
        ),
        (
            "fixtures/valid/one-e3-round-completion.grn",
            "At ply 12, the supplies of seats 2 (Ben) and 3 (Chi) ran out and the round was "
            f"played out: seats 1 (Ana) and 3 (Chi) share first place ({ONE_SCORES}: 4-2-4).",
        ),
        (
            "fixtures/games/one-2p.grn",
            "At ply 64, the supply of seat 2 (Ben) ran out and the round was played out: "
            f"seat 1 (Ana) wins ({ONE_SCORES}: 52-12).",
        ),
        (
            "fixtures/games/aronda.grn",
            "At ply 25, seat 1 (Ana) owns 13 fields (13 are enough to win): seat 1 (Ana) wins "
            "(fields owned: 13-12).",
        ),
        (
            "fixtures/games/ohwahree-2p.grn",
            "At ply 55, seat 2 (Ben) had no stone left in its pits at its turn: seat 1 (Ana) "
            f"wins ({OWR_SCORES}: 40-8).",
        ),
        (
            "fixtures/games/ohwahree-3p.grn",
            "At ply 74, two seats in a row had no stone in their pits and could not move: "
            f"seat 1 (Ana) wins ({OWR_SCORES}: 21-15-12).",
        ),
        (
            "fixtures/games/one-2p-resignation.grn",
            "Seat 1 (Ana) resigned at ply 31: seat 2 (Ben) wins, whatever the scores "
            f"({ONE_SCORES}: 10-23).",
        ),
        (
            "fixtures/games/aronda-timeout.grn",
            "The time of seat 2 (Ben) ran out on ply 16: seat 1 (Ana) wins (fields owned: 5-5).",
        ),
        (
            "fixtures/games/oust-agreement.grn",
            "The seats agreed to a draw after ply 20: no one wins.",
        ),
        (
            "fixtures/games/ohwahree-3p-abandoned.grn",
            "The game was called off after ply 40: it has no result.",
        ),
    ],
)
def test_the_ending_of_a_record_in_words(path: str, words: str) -> None:
    assert ending_words(_record(path)) == words


def test_a_game_that_goes_on_has_no_ending() -> None:
    record = _record("fixtures/valid/oust-e2-two-groups.grn")
    assert not record.result.termination
    assert ending_words(record) == ""


@pytest.mark.parametrize(
    ("tags", "ending", "words"),
    [
        (
            {"Supply": "pass"},
            "passes",
            "both seats passed in a row (Supply pass), so the seat owning more fields wins: ",
        ),
        ({"Supply": "pass"}, "blocked", "had no legal field at the start of its turn: "),
        ({"SecondPiece": "lose"}, "second-piece", "had no legal field (SecondPiece lose): "),
    ],
)
def test_each_way_aronda_ends(tags: dict[str, str], ending: str, words: str) -> None:
    """Random games reach every end of docs/rules/aronda.md §6; each is said in its words."""
    for record in generate("Aronda", tags, 400, 1):
        state = final_state(record)
        assert state is not None
        if state.ending == ending:  # type: ignore[attr-defined]
            said = ending_words(record, state)
            fields = "-".join(map(str, state.scores()))
            assert words in said and said.endswith(f"(fields owned: {fields})."), said
            return
    pytest.fail(f"no random game ended by {ending}")


def _ended(match: LiveMatch) -> mpb.MatchEnded:
    ended = match.ended
    assert ended is not None
    return ended


def test_a_resignation_with_equal_stores_says_the_resignation_decides() -> None:
    """Issue 34: ``Result 24-24, seat 2 wins`` is said as what it is."""
    match, clock = new_match("Oh-Wah-Ree", 2)
    match.resign(1, clock.now())
    assert match_ending(_ended(match)) == (
        "Seat 1 (Ana) resigned at ply 1: seat 2 (Ben) wins, whatever the scores "
        f"({OWR_SCORES}: 24-24)."
    )


def test_a_live_matchs_timeout_agreement_abort_and_forfeits() -> None:
    match, clock = new_match("ONE", 2, clock="10", Board="5,5")
    match.play(1, 1, "b2", clock.now())
    clock.advance(11)
    match.play(2, 2, "a1", clock.now())  # too late: the flag falls
    assert match_ending(_ended(match)) == (
        f"The time of seat 2 (Ben) ran out on ply 2: seat 1 (Ana) wins ({ONE_SCORES}: 1-0)."
    )

    match, clock = new_match("ONE", 2, Board="5,5")
    match.play(1, 1, "b2", clock.now())
    match.offer_draw(1, clock.now())
    match.answer_draw(2, True, clock.now())
    assert match_ending(_ended(match)) == (
        f"The seats agreed to a draw after ply 1: seats 1 (Ana) and 2 (Ben) share first place "
        f"({ONE_SCORES}: 1-0)."
    )

    match, clock = new_match("Oust", 2)
    match.abort(1, clock.now())
    assert match_ending(_ended(match)) == (
        "Seat 1 (Ana) called the game off after ply 0: it has no result."
    )

    made = request("ONE", 2, policy=mpb.ILLEGAL_MOVE_POLICY_FORFEIT, Board="5,5")
    match = LiveMatch.create("m2", made, clock.now())
    match.play(1, 1, "b2", clock.now())
    match.play(2, 2, "b2", clock.now())
    said = match_ending(_ended(match))
    assert said.startswith(
        "Seat 2 (Ben) forfeited the game by the illegal move 'b2' at ply 2 (OCCUPIED: "
    )
    assert said.endswith(f": seat 1 (Ana) wins ({ONE_SCORES}: 1-0).")

    match, clock = new_match("Aronda", 2)
    match.play(1, 1, "o1", clock.now())
    match.resign(1, clock.now())  # during seat 2's turn: the referee ends the game
    said = match_ending(_ended(match))
    assert said.startswith(
        "The referee ruled against seat 1 (Ana) after ply 1: seat 2 (Ben) wins (fields owned: "
    )
    assert "The record says: Seat 1 resigned during seat 2's turn (after ply 1)" in said

    match, clock = new_match("Oh-Wah-Ree", 2)
    match.forfeit(2, pb.TERMINATION_ABANDONED, "seat 2's engine crashed", clock.now())
    assert match_ending(_ended(match)) == (
        f"Seat 2 (Ben) abandoned the game after ply 0: seat 1 (Ana) wins ({OWR_SCORES}: 24-24)."
    )


def test_an_adjudicated_record_says_what_its_comment_says() -> None:
    record = _record("fixtures/games/aronda-timeout.grn")
    record.result.termination = pb.TERMINATION_ADJUDICATED
    record.comment = "The director ruled on the clock dispute."
    assert ending_words(record) == (
        "The referee decided the game after ply 15: seat 1 (Ana) wins (fields owned: 5-5). "
        "The record says: The director ruled on the clock dispute."
    )


def test_the_pie_swap_is_said_in_words() -> None:
    assert special_words(pb.GAME_OUST, "swap").startswith("the pie rule: seat 2 takes the stone")
    assert special_words(pb.GAME_OUST, "g7") == special_words(pb.GAME_ONE, "swap") == ""
