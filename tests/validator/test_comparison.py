"""Comparing records and collections: fields, the first divergence, annotations, identities."""

from __future__ import annotations

from pathlib import Path

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.comparison import compare_collections, compare_records, game_identity

ROOT = Path(__file__).resolve().parents[2]


def game(name: str = "one-3p") -> pb.GameRecord:
    return next(read_records(ROOT / "fixtures" / "games" / f"{name}.grn"))


def copy(record: pb.GameRecord) -> pb.GameRecord:
    other = pb.GameRecord()
    other.CopyFrom(record)
    return other


def fields(diff: object) -> list[tuple[str, str, str]]:
    return [(f.field, f.left, f.right) for f in diff.fields]  # type: ignore[attr-defined]


def test_equal_records_are_the_same_and_nothing_else_is_reported() -> None:
    record = game()
    diff = compare_records(record, copy(record))
    assert diff.same
    assert not diff.fields and not diff.annotations and not diff.HasField("divergence")


def test_metadata_and_seat_differences_are_named_by_path_with_1_based_seats() -> None:
    left, right = game(), game()
    right.metadata.event = "Club night"
    right.seats[1].name = "Bob"
    right.metadata.extra_tags["Source"] = "paper"
    diff = compare_records(left, right)
    assert not diff.same
    assert fields(diff) == [
        ("seats[2].name", "Ben", "Bob"),
        ("metadata.event", "gamerec fixtures", "Club night"),
        ("metadata.extra_tags[Source]", "", "paper"),
    ]
    assert not diff.HasField("divergence")


def test_a_variant_difference_is_named_with_enum_values() -> None:
    left, right = game(), game()
    right.rules.one.mirror = pb.ONE_MIRROR_EVERY
    assert fields(compare_records(left, right)) == [
        ("rules.one.mirror", "ONE_MIRROR_UNSPECIFIED", "ONE_MIRROR_EVERY")
    ]


def test_a_claimed_result_difference_is_named() -> None:
    left, right = game(), game()
    right.result.scores.values[0] += 1
    right.result.termination = pb.TERMINATION_TIMEOUT
    named = [f[0] for f in fields(compare_records(left, right))]
    assert named == ["result.scores.values", "result.termination"]


def test_one_move_changed_in_the_middle_gives_the_divergence_and_both_verdicts() -> None:
    left, right = game(), game()
    # Ply 21 of the right record replays a point already taken, so it is illegal there.
    right.moves[20].CopyFrom(left.moves[5])
    right.moves[20].seat = left.moves[20].seat
    diff = compare_records(left, right)
    divergence = diff.divergence
    assert divergence.ply == 21
    assert divergence.left_move != divergence.right_move
    assert divergence.seat == left.moves[20].seat
    assert divergence.left_plies == divergence.right_plies == len(left.moves)
    assert divergence.left_verdict.valid
    assert not divergence.right_verdict.valid
    assert divergence.right_verdict.errors[0].ply == 21
    stones = sum(1 for site in divergence.position.sites if site.owner)
    assert 0 < stones <= 20


def test_a_record_that_stops_earlier_diverges_after_its_last_ply() -> None:
    left, right = game(), game()
    del right.moves[30:]
    divergence = compare_records(left, right).divergence
    assert divergence.ply == 31
    assert divergence.right_move == ""
    assert divergence.left_move
    assert divergence.right_plies == 30


def test_annotations_of_shared_plies_are_listed_apart_from_the_moves() -> None:
    left, right = game(), game()
    right.moves[4].comment = "a fine move"
    right.moves[4].glyph = pb.GLYPH_GOOD
    right.moves[7].clock.seconds = 61
    diff = compare_records(left, right)
    assert not diff.HasField("divergence")
    assert [(f.field, f.right) for f in diff.annotations] == [
        ("moves[5].comment", "a fine move"),
        ("moves[5].glyph", "GLYPH_GOOD"),
        ("moves[8].clock", "61s"),
    ]


def test_game_identity_uses_gameid_or_the_game_event_and_seats() -> None:
    record = game()
    assert game_identity(record).startswith("ONE | gamerec fixtures |")
    assert "Ana, Ben, Chi" in game_identity(record)
    record.metadata.extra_tags["GameId"] = "bga-42"
    assert game_identity(record) == "GameId bga-42"


def test_collections_are_matched_by_identity() -> None:
    games = [game("one-3p"), game("aronda"), game("oust-side7")]
    changed = copy(games[1])
    changed.moves[3].comment = "note"
    extra = game("ohwahree-2p")
    diff = compare_collections(games, [games[2], changed, extra])
    assert not diff.same
    assert [pair.identity.split(" |")[0] for pair in diff.pairs] == ["Aronda", "Oust"]
    assert [pair.diff.same for pair in diff.pairs] == [False, True]
    assert [(pair.left_number, pair.right_number) for pair in diff.pairs] == [(2, 2), (3, 1)]
    assert [i.split(" |")[0] for i in diff.only_left] == ["ONE"]
    assert [i.split(" |")[0] for i in diff.only_right] == ["Oh-Wah-Ree"]


def test_identical_collections_are_the_same_even_with_repeated_identities() -> None:
    record = game()
    diff = compare_collections([record, record], [copy(record), copy(record)])
    assert diff.same
    assert [pair.identity.endswith("#2") for pair in diff.pairs] == [False, True]
