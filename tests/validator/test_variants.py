"""A record's rules map straight to the engine's variant, with no tag text between.

The registry reads the variant message's fields (``GameEntry.variant_values``) and the engine
builds the variant from those values (``variant_from_values``). Whatever the fields hold, the
answer (the variant, or the refusal and its words) is the one the tag text of the same rules
gives (``variant_from_tags`` of ``variant_tags``), the path this replaced, except where that
path lost a value: a list option of one zero (``[Board "0"]``) read as no option at all.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.recorder.codecs import decode_record, encode_record
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_tags import variant_tags
from gamerec.recorder.notation import GameValue
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import VariantError
from gamerec.validator.games.registry import entry_of
from gamerec.validator.identity import RulesError, identify
from tests.strategies import GAMES, rules


def outcome(build: Any) -> Any:
    """A variant, or the kind and words of the refusal."""
    try:
        return build()
    except (VariantError, EncodingError) as error:
        return type(error).__name__, str(error)


def by_tag_text(game: GameValue, rules_message: pb.Rules) -> Any:
    """The variant the rules' GRN tag texts give (the old path)."""
    entry = entry_of(game)
    assert entry is not None

    def build() -> Any:
        tags = {tag: value for tag, value in variant_tags(rules_message) if value}
        return entry.engine.variant_from_tags(tags)

    return outcome(build)


@given(st.sampled_from(GAMES).flatmap(lambda game: st.tuples(st.just(game), rules(game))))
def test_the_fields_give_what_the_tag_text_gave(case: tuple[GameValue, pb.Rules]) -> None:
    game, rules_message = case
    entry = entry_of(game)
    assert entry is not None
    straight = outcome(lambda: entry.variant_of(rules_message))
    ring_sizes = list(rules_message.one.ring_sizes) if rules_message.HasField("one") else []
    if ring_sizes == [0]:
        assert straight[0] == "VariantError"
    else:
        assert straight == by_tag_text(game, rules_message)


@pytest.mark.parametrize(
    ("rules_message", "expected"),
    [
        (pb.Rules(game=pb.GAME_ONE, one=pb.OneVariant(players=3)), {"Players": 3}),
        (
            pb.Rules(
                game=pb.GAME_ONE,
                one=pb.OneVariant(players=2, ring_sizes=[6, 6], mirror=pb.ONE_MIRROR_EVERY),
            ),
            {"Players": 2, "Board": (6, 6), "Mirror": "every"},
        ),
        (pb.Rules(game=pb.GAME_OUST, oust=pb.OustVariant(board_side=5)), {"Board": 5}),
        (pb.Rules(game=pb.GAME_ARONDA), {}),
    ],
)
def test_the_values_are_the_fields_by_tag_name(
    rules_message: pb.Rules, expected: dict[str, object]
) -> None:
    entry = entry_of(rules_message.game)
    assert entry is not None
    assert entry.variant_values(rules_message) == expected


def test_a_board_of_one_ring_of_zero_points_is_an_impossible_variant() -> None:
    # [Board "0"] used to be read as no Board tag, and the game judged on the default board.
    record = pb.GameRecord(
        rules=pb.Rules(game=pb.GAME_ONE, one=pb.OneVariant(players=2, ring_sizes=[0]))
    )
    with pytest.raises(RulesError) as raised:
        identify(record)
    assert raised.value.code == "IMPOSSIBLE_VARIANT"


ZERO_TAGS = [
    ('[Game "Oust"]\n[Board "0"]', "board side"),
    ('[Game "Oust"]\n[Players "0"]', "2 seats"),
    ('[Game "Aronda"]\n[Players "0"]', "2 players"),
    ('[Game "Oh-Wah-Ree"]\n[Players "2"]\n[StonesPerPit "0"]', "StonesPerPit"),
    ('[Game "ONE"]\n[Players "0"]', "2 to 6 players"),
]


@pytest.mark.parametrize(("tags", "words"), ZERO_TAGS)
def test_a_zero_variant_number_is_an_impossible_variant_in_every_encoding(
    tags: str, words: str
) -> None:
    # [Board "0"] used to be dropped (proto3 could not tell 0 from unset): judged on the
    # default board and called valid. The numbers now have presence, so the 0 is kept.
    record = decode_record(f"{tags}\n\n*\n".encode(), Encoding.GRN)
    for encoding in (Encoding.PB, Encoding.JSON, Encoding.GRN):
        again = decode_record(encode_record(record, encoding), encoding)
        assert again == record
        with pytest.raises(RulesError) as raised:
            identify(again)
        assert raised.value.code == "IMPOSSIBLE_VARIANT"
        assert words in str(raised.value)


def test_an_empty_variant_tag_is_the_default_and_marks_the_variant_present() -> None:
    record = decode_record(b'[Game "Oust"]\n[Board ""]\n\n*\n', Encoding.GRN)
    assert record.rules.HasField("oust")
    assert not record.rules.oust.HasField("board_side")
    assert identify(record).variant == identify(pb.GameRecord(rules=record.rules)).variant
    assert b'[Players ""]' in encode_record(record, Encoding.GRN)


def test_a_number_no_tag_could_hold_is_refused_in_the_tag_s_words() -> None:
    entry = entry_of(pb.GAME_ONE)
    assert entry is not None
    rules_message = pb.Rules(game=pb.GAME_ONE, one=pb.OneVariant(players=4_000_000_000))
    with pytest.raises(VariantError, match="the Players tag must be a whole number"):
        entry.variant_of(rules_message)


def test_another_game_s_variant_is_refused() -> None:
    entry = entry_of(pb.GAME_ONE)
    assert entry is not None
    rules_message = pb.Rules(game=pb.GAME_ONE, oust=pb.OustVariant(board_side=7))
    with pytest.raises(EncodingError, match="has a oust variant"):
        entry.variant_of(rules_message)
