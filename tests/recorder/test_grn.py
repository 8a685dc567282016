"""GRN records (notation.md): one test per clause of the tag section, move text and writer."""

from __future__ import annotations

import io
import textwrap

import pytest

from gamerec.recorder.errors import EncodingError, LimitExceededError, RecordMalformedError
from gamerec.recorder.grn import MAX_VARIATION_DEPTH, read_grn
from gamerec.recorder.grn_writer import format_grn, write_grn
from gamerec.v1 import record_pb2 as pb


def read(text: str) -> list[pb.GameRecord]:
    return list(read_grn(io.BytesIO(textwrap.dedent(text).encode()), "test.grn"))


def one(text: str) -> pb.GameRecord:
    (record,) = read(text)
    return record


def error(text: str) -> RecordMalformedError:
    with pytest.raises(RecordMalformedError) as caught:
        read(text)
    assert caught.value.source == "test.grn"
    return caught.value


def ply_tokens(record: pb.GameRecord) -> list[str]:
    return format_grn(record).split("\n\n", 1)[1].split()


# -- the tag section ---------------------------------------------------------------------------


def test_the_spec_example_reads_as_its_tags_say() -> None:
    record = one(
        """\
        [Game "ONE"]
        [Players "3"]
        [Board "10,10,20,20"]
        [Seat1 "Ana"]
        [Seat2 "Ben"]
        [Seat3 "Chi"]
        [Event "Club night"]
        [Date "2026-11-29"]
        [Result "21-18-9"]
        [Termination "normal"]

        1. c7 2. c8 3. d14 {a quiet start} 4. c7xc9! 5. b2
        """
    )
    assert record.rules.game == pb.GAME_ONE
    assert record.rules.one.players == 3
    assert list(record.rules.one.ring_sizes) == [10, 10, 20, 20]
    assert [seat.name for seat in record.seats] == ["Ana", "Ben", "Chi"]
    assert (record.metadata.event, record.metadata.date) == ("Club night", "2026-11-29")
    assert list(record.result.scores.values) == [21, 18, 9]
    assert record.result.termination == pb.TERMINATION_NORMAL
    assert len(record.moves) == 5
    assert record.moves[2].comment == "a quiet start"
    assert record.moves[3].glyph == pb.GLYPH_GOOD


def test_the_game_tag_is_required() -> None:
    assert "no Game tag" in error('[Event "x"]\n\n1. c7').reason


def test_an_unknown_game_is_an_error_at_its_value() -> None:
    found = error('[Game "Chess"]\n\n1. e4')
    assert found.where == "line 1, column 8"
    assert "unknown game 'Chess'" in found.reason


def test_tag_names_and_option_values_are_read_in_any_case() -> None:
    record = one('[game "oh-wah-ree"]\n[PLAYERS "4"]\n[direction "CCW"]\n')
    assert record.rules.game == pb.GAME_OH_WAH_REE
    assert record.rules.oh_wah_ree.players == 4
    assert record.rules.oh_wah_ree.direction == pb.OH_WAH_REE_DIRECTION_CCW


def test_an_absent_variant_tag_leaves_the_documented_default() -> None:
    record = one('[Game "Oust"]\n')
    assert not record.rules.HasField("oust")
    assert not record.HasField("metadata")
    assert not record.HasField("result")


def test_a_present_tag_is_written_back_even_at_its_default() -> None:
    record = one('[Game "ONE"]\n[Players "2"]\n[Mirror "first"]\n[Tiebreak "shared"]\n')
    assert '[Mirror "first"]' in format_grn(record)
    assert '[Tiebreak "shared"]' in format_grn(record)


@pytest.mark.parametrize(
    ("game", "tag"),
    [("ONE", "Pie"), ("Oust", "Mirror"), ("Aronda", "Board"), ("Oh-Wah-Ree", "Supply")],
)
def test_a_variant_tag_the_game_does_not_have_is_an_error(game: str, tag: str) -> None:
    found = error(f'[Game "{game}"]\n[{tag} "on"]\n')
    assert found.where == f"line 2, column {len(tag) + 4}"
    assert f"has no {tag} option" in found.reason


@pytest.mark.parametrize(
    ("tags", "reason"),
    [
        ('[Game "ONE"]\n[Mirror "sometimes"]', "Mirror must be one of none, first, every"),
        ('[Game "ONE"]\n[Players "x"]', "expected a player count"),
        ('[Game "ONE"]\n[Board "10,,20"]', "ring size"),
        ('[Game "Oust"]\n[Board "7,7"]', "board side"),
        ('[Game "Oust"]\n[Players "-2"]', "player count"),
        ('[Game "ONE"]\n[Players "4294967296"]', "player count"),
    ],
)
def test_a_variant_value_the_schema_cannot_hold_is_an_error(tags: str, reason: str) -> None:
    assert reason in error(tags + "\n").reason


def test_impossible_but_representable_variant_values_are_kept_for_the_validator() -> None:
    assert one('[Game "ONE"]\n[Players "9"]\n').rules.one.players == 9
    assert list(one('[Game "ONE"]\n[Board "7, 10"]\n').rules.one.ring_sizes) == [7, 10]
    assert one('[Game "Oust"]\n[Board "99"]\n').rules.oust.board_side == 99


def test_board_is_ring_sizes_for_one_and_a_side_for_oust() -> None:
    assert list(one('[Game "ONE"]\n[Board "6,6"]\n').rules.one.ring_sizes) == [6, 6]
    assert one('[Game "Oust"]\n[Board "3"]\n').rules.oust.board_side == 3


def test_variant_options_of_each_game_have_their_tags() -> None:
    aronda = one('[Game "Aronda"]\n[Supply "pass"]\n[SecondPiece "lose"]\n').rules.aronda
    assert (aronda.supply, aronda.second_piece) == (
        pb.ARONDA_SUPPLY_PASS,
        pb.ARONDA_SECOND_PIECE_LOSE,
    )
    assert one('[Game "Oust"]\n[Pie "off"]\n').rules.oust.pie == pb.OUST_PIE_OFF
    owr = one('[Game "Oh-Wah-Ree"]\n[StonesPerPit "5"]\n[Direction "free"]\n').rules.oh_wah_ree
    assert (owr.stones_per_pit, owr.direction) == (5, pb.OH_WAH_REE_DIRECTION_FREE)
    assert one('[Game "ONE"]\n[Tiebreak "largest-group"]\n').rules.one.tiebreak == 2


def test_seat_tags_fill_the_seats_in_seat_order() -> None:
    record = one(
        '[Game "ONE"]\n[Seat2 "Ben"]\n[Seat2Id "b-7"]\n[Seat2Rating "-15"]\n'
        '[Seat2Colour "white"]\n[seat1 "Ana"]\n'
    )
    assert [seat.name for seat in record.seats] == ["Ana", "Ben"]
    ben = record.seats[1]
    assert (ben.player_id, ben.rating, ben.colour) == ("b-7", -15, "white")
    assert not record.seats[0].HasField("rating")


def test_a_seat_rating_must_be_a_whole_number() -> None:
    assert "rating" in error('[Game "ONE"]\n[Seat1Rating "1500.5"]\n').reason


def test_a_seat_number_beyond_the_limit_is_refused() -> None:
    with pytest.raises(LimitExceededError):
        read('[Game "ONE"]\n[Seat65 "x"]\n')


def test_metadata_tags_and_the_rfc_3339_start_time() -> None:
    metadata = one(
        '[Game "Oust"]\n[Event "E"]\n[Site "S"]\n[Round "3"]\n[Date "2026-11-29"]\n'
        '[StartTime "2026-11-29T21:00:00+01:00"]\n[TimeControl "15+10"]\n[Client "app"]\n'
    ).metadata
    assert (metadata.event, metadata.site, metadata.round) == ("E", "S", "3")
    assert (metadata.date, metadata.time_control, metadata.client) == ("2026-11-29", "15+10", "app")
    assert metadata.start_time.ToJsonString() == "2026-11-29T20:00:00Z"


def test_record_level_tags() -> None:
    record = one('[Game "Aronda"]\n[RulesVersion "2026-11"]\n[FormatVersion "1"]\n')
    assert (record.rules.rules_version, record.format_version) == ("2026-11", 1)


def test_unknown_tags_are_kept_as_extra_tags() -> None:
    record = one('[Game "Oust"]\n[Annotator "Kim"]\n[Seat0 "x"]\n')
    assert dict(record.metadata.extra_tags) == {"Annotator": "Kim", "Seat0": "x"}


def test_result_winner_and_termination_tags() -> None:
    result = one('[Game "ONE"]\n[Result "4-2-4"]\n[Winner "1,3"]\n[Termination "NORMAL"]\n').result
    assert list(result.scores.values) == [4, 2, 4]
    assert list(result.winners) == [1, 3]
    assert result.termination == pb.TERMINATION_NORMAL
    assert one('[Game "ONE"]\n[Result "*"]\n').result.HasField("unfinished")


@pytest.mark.parametrize(
    "tag", ['[Result "1/2-1/2"]', '[Winner "first"]', '[Termination "checkmate"]']
)
def test_a_result_the_schema_cannot_hold_is_an_error(tag: str) -> None:
    error(f'[Game "Oust"]\n{tag}\n')


def test_a_tag_given_twice_is_an_error() -> None:
    found = error('[Game "Oust"]\n[Event "a"]\n[EVENT "b"]\n')
    assert found.where == "line 3, column 1"
    assert "given twice (first on line 2)" in found.reason


def test_tag_values_unescape_quotes_backslashes_and_control_characters() -> None:
    record = one('[Game "Oust"]\n[Event "say \\"hi\\"\\u000a\\\\"]\n')
    assert record.metadata.event == 'say "hi"\n\\'


# -- the move text -----------------------------------------------------------------------------


def test_ply_numbers_are_optional_and_checked_when_present() -> None:
    assert len(one('[Game "Oust"]\n\ng7 2. h7 f7').moves) == 3
    found = error('[Game "Oust"]\n\n1. g7 2. h7 4. f7')
    assert (found.where, found.reason) == ("line 3, column 13", "expected ply number 3, found 4")


def test_a_run_of_plain_plies_is_read_whole_and_its_first_unreadable_ply_placed() -> None:
    plies = [f"{n}. {'g7' if n % 2 else 'h7!?'} {{[%seat {2 - n % 2}]}}" for n in range(1, 61)]
    record = one('[Game "Oust"]\n\n' + " ".join(plies) + " *")
    assert [move.seat for move in record.moves] == [2 - n % 2 for n in range(1, 61)]
    assert [move.glyph for move in record.moves[:2]] == [pb.GLYPH_UNSPECIFIED, pb.GLYPH_INTERESTING]
    broken = " ".join(plies[:40]) + " 42. g7 " + " ".join(plies[41:])
    found = error('[Game "Oust"]\n\n' + broken)
    column = len(" ".join(plies[:40])) + 2
    assert (found.where, found.reason) == (
        f"line 3, column {column}",
        "expected ply number 41, found 42",
    )
    bad_move = " ".join(plies[:30]) + " 31. zz9 " + " ".join(plies[31:])
    found = error('[Game "Oust"]\n\n' + bad_move)
    assert found.where == f"line 3, column {len(' '.join(plies[:30])) + 6}"
    assert found.reason.startswith("move 'zz9': expected an Oust cell")
    after_comment = " ".join(plies[:10]) + " {a word} " + " ".join(plies[10:])
    assert len(one('[Game "Oust"]\n\n' + after_comment).moves) == 60


def test_a_ply_number_must_be_followed_by_a_move() -> None:
    assert "expected a move after ply number 2" in error('[Game "Oust"]\n\n1. g7 2. {x}').reason
    assert "expected a move after ply number 2" in error('[Game "Oust"]\n\n1. g7 2.').reason


def test_a_move_that_is_not_a_token_of_the_game_is_an_error_at_its_column() -> None:
    found = error('[Game "ONE"]\n\n1. c7 2. c7x')
    assert found.where == "line 3, column 10"
    assert "move 'c7x'" in found.reason


def test_glyphs_follow_the_move_attached_separate_or_as_numeric_glyphs() -> None:
    record = one('[Game "ONE"]\n\n1. c7!! 2. c8 ?! 3. c9 $4 4. d1 $6')
    glyphs = [move.glyph for move in record.moves]
    assert glyphs == [pb.GLYPH_BRILLIANT, pb.GLYPH_DUBIOUS, pb.GLYPH_BLUNDER, pb.GLYPH_DUBIOUS]


@pytest.mark.parametrize("movetext", ["1. c7! ?", "1. c7 $1 $2", "! 1. c7", "1. c7 $7"])
def test_a_move_has_one_glyph_at_most_and_after_it(movetext: str) -> None:
    error(f'[Game "ONE"]\n\n{movetext}')


def test_a_comment_before_the_first_move_is_the_games_comment() -> None:
    record = one('[Game "ONE"]\n\n{ a friendly game } {second part} 1. c7 {after c7}')
    assert record.comment == "a friendly game second part"
    assert record.moves[0].comment == "after c7"


def test_commands_in_comments_set_the_clock_timestamp_and_seat() -> None:
    move = one(
        '[Game "ONE"]\n\n1. c7 {[%clk 1:02:03.5] [%ts 2026-11-29T20:15:03Z] [%seat 2]}'
    ).moves[0]
    assert (move.clock.seconds, move.clock.nanos) == (3723, 500_000_000)
    assert move.timestamp.ToJsonString() == "2026-11-29T20:15:03Z"
    assert move.seat == 2
    assert move.comment == ""


def test_human_comments_may_mix_text_and_commands() -> None:
    move = one('[Game "ONE"]\n\n1. c7 {a quiet [%clk 0:10:00] start}').moves[0]
    assert move.comment == "a quiet start"
    assert move.clock.seconds == 600


def test_an_unknown_command_stays_comment_text() -> None:
    move = one('[Game "ONE"]\n\n1. c7 {[%eval 0.3] fine}').moves[0]
    assert move.comment == "[%eval 0.3] fine"
    # Written back as it was, so other PGN-style tools still see their command.
    assert "{ [%eval 0.3] fine }" in format_grn(one('[Game "ONE"]\n\n1. c7 {[%eval 0.3] fine}'))


def test_text_that_looks_like_a_command_gamerec_reads_is_escaped() -> None:
    record = one('[Game "ONE"]\n\n1. c7 {a \\[%clk 0:10:00] b}')
    assert record.moves[0].comment == "a [%clk 0:10:00] b"
    assert not record.moves[0].HasField("clock")
    written = format_grn(record)
    assert "a \\[%clk 0:10:00] b" in written
    assert one(written).moves[0] == record.moves[0]


@pytest.mark.parametrize(
    ("comment", "where", "reason"),
    [
        ("{[%clk 0:10:00] [%clk 0:09:00]}", "line 3, column 23", "already has a [%clk]"),
        ("{x\n [%clk 10:00]}", "line 4, column 2", "expected a clock"),
        ("{[%ts yesterday]}", "line 3, column 8", "RFC 3339"),
        ("{[%seat]}", "line 3, column 8", "[%seat] needs a value"),
    ],
)
def test_a_bad_command_is_an_error_at_its_place(comment: str, where: str, reason: str) -> None:
    found = error(f'[Game "ONE"]\n\n1. c7 {comment}')
    assert found.where == where
    assert reason in found.reason


def test_a_command_before_the_first_move_is_an_error() -> None:
    assert "needs a move" in error('[Game "ONE"]\n\n{[%clk 0:10:00]} 1. c7').reason


def test_a_variation_replaces_the_move_before_it_and_numbers_from_its_ply() -> None:
    record = one('[Game "Oust"]\n\n1. g7 2. h7 (2. swap 3. h7 4. f7) 3. f7')
    assert [move.WhichOneof("action") for move in record.moves] == ["oust"] * 3
    (variation,) = record.moves[1].variations
    assert [move.WhichOneof("action") for move in variation.moves] == ["swap", "oust", "oust"]
    assert "expected ply number 2" in error('[Game "Oust"]\n\n1. g7 2. h7 (3. swap)').reason


def test_variations_nest_and_several_may_follow_one_move() -> None:
    record = one('[Game "ONE"]\n\n1. c7 (1. c8 (1. c9) 2. d1) (1. a1) {note} 2. b2')
    first = record.moves[0]
    assert len(first.variations) == 2
    assert len(first.variations[0].moves[0].variations) == 1
    assert first.comment == "note"
    assert len(record.moves) == 2


def test_an_empty_variation_is_kept() -> None:
    record = one('[Game "ONE"]\n\n1. c7 ()')
    assert len(record.moves[0].variations) == 1
    assert "1. c7 ()" in format_grn(record)


@pytest.mark.parametrize(
    ("movetext", "reason"),
    [
        ("(1. c7)", "must follow the move it replaces"),
        ("1. c7 (1. c8", "never closed by ')'"),
        ("1. c7 )", "closes no variation"),
        ("1. c7 ({x} 1. c8)", "start of a variation"),
    ],
)
def test_a_misplaced_parenthesis_is_an_error(movetext: str, reason: str) -> None:
    assert reason in error(f'[Game "ONE"]\n\n{movetext}').reason


def test_variations_nest_up_to_the_limit() -> None:
    deep = "1. c7 " + "(1. c8 " * MAX_VARIATION_DEPTH + ")" * MAX_VARIATION_DEPTH
    assert one(f'[Game "ONE"]\n\n{deep}').moves[0].variations
    with pytest.raises(LimitExceededError):
        read(f'[Game "ONE"]\n\n1. c7 {"(1. c8 " * (MAX_VARIATION_DEPTH + 1)}')


def test_a_result_marker_may_end_the_main_line_as_in_pgn() -> None:
    assert one('[Game "Oust"]\n[Result "1-0"]\n\n1. g7 2. h7 3. f7 1-0').result.scores.values == [
        1,
        0,
    ]
    assert one('[Game "Oust"]\n\n1. g7 *').result.HasField("unfinished")
    assert (
        "differs from the Result tag" in error('[Game "Oust"]\n[Result "1-0"]\n\n1. g7 0-1').reason
    )
    assert "only the next record" in error('[Game "Oust"]\n\n1. g7 * 2. h7').reason
    assert "only end the main line" in error('[Game "Oust"]\n\n1. g7 (1. h7 *)').reason


def test_movetext_before_any_tag_is_an_error() -> None:
    assert "expected a tag" in error("1. c7 2. c8").reason


# -- several records ---------------------------------------------------------------------------


def test_several_records_share_a_file() -> None:
    records = read(
        """\
        [Game "ONE"]
        [Players "2"]

        1. c7 2. c8

        [Game "Oust"]

        [Game "Aronda"]
        [Event "next"]
        1. o1
        [Game "Oh-Wah-Ree"]
        """
    )
    assert [r.rules.game for r in records] == [1, 3, 2, 4]
    assert [len(r.moves) for r in records] == [2, 0, 1, 0]


def test_a_blank_line_ends_the_tag_section_so_records_without_moves_stay_apart() -> None:
    assert len(read('[Game "Oust"]\n\n[Game "Oust"]\n\n[Game "ONE"]\n')) == 3


def test_records_are_read_one_at_a_time() -> None:
    records = read_grn(io.BytesIO(b'[Game "Oust"]\n\n1. g7\n\n[Game "Chess"]\n'), "t")
    assert next(records).moves
    with pytest.raises(RecordMalformedError):
        next(records)


# -- writing -----------------------------------------------------------------------------------


def test_the_writer_is_canonical() -> None:
    record = one(
        """\
        [termination "normal"] [result "4-2-4"] [event "E"] [seat1 "Ana"] [game "one"]
        [players "3"] [Annotator "me"] [winner "1,3"]

        {start} 1. C7 { [%seat 1] a note [%clk 0:10:00.5] } 2. c8!
        ( 2. d1 ?? ) 3. b5
        """
    )
    assert format_grn(record) == textwrap.dedent(
        """\
        [Game "ONE"]
        [Players "3"]
        [Event "E"]
        [Seat1 "Ana"]
        [Result "4-2-4"]
        [Winner "1,3"]
        [Termination "normal"]
        [Annotator "me"]

        { start } 1. c7 { a note } {[%seat 1] [%clk 0:10:00.500]} 2. c8! (2. d1??)
        3. b5
        """
    )


def test_the_writer_wraps_move_text_at_79_characters() -> None:
    record = one('[Game "Oh-Wah-Ree"]\n\n' + " ".join(f"{n}. {n % 12 + 1}" for n in range(1, 60)))
    lines = format_grn(record).split("\n\n", 1)[1].splitlines()
    assert len(lines) > 1
    assert all(len(line) <= 79 for line in lines)


def test_present_but_empty_messages_are_written_with_marker_tags() -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE))
    record.rules.one.SetInParent()
    record.metadata.SetInParent()
    record.result.SetInParent()
    text = format_grn(record)
    assert '[Players ""]' in text and '[Event ""]' in text and '[Winner ""]' in text
    assert one(text) == record


def test_every_seat_gets_its_name_tag_so_the_seat_count_survives() -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_OUST), seats=[pb.Seat(name="A"), pb.Seat()])
    assert '[Seat2 ""]' in format_grn(record)
    assert one(format_grn(record)) == record


def test_write_grn_separates_records_with_a_blank_line() -> None:
    stream = io.BytesIO()
    records = [pb.GameRecord(rules=pb.Rules(game=game)) for game in (pb.GAME_ONE, pb.GAME_OUST)]
    assert write_grn(records, stream) == 2
    assert stream.getvalue() == b'[Game "ONE"]\n\n[Game "Oust"]\n'


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        (pb.GameRecord(), "names no game"),
        (pb.GameRecord(rules=pb.Rules(game=pb.Game.ValueType(9))), "names no game"),
        (
            pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE, oust=pb.OustVariant(board_side=3))),
            "has a oust variant",
        ),
        (
            pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE), moves=[pb.Move(oust=pb.OustTurn())]),
            "ply 1: a move of kind 'oust'",
        ),
        (
            pb.GameRecord(
                rules=pb.Rules(game=pb.GAME_ONE),
                moves=[pb.Move(resign=pb.Resign(), glyph=pb.Glyph.ValueType(9))],
            ),
            "glyph 9",
        ),
        (
            pb.GameRecord(
                rules=pb.Rules(
                    game=pb.GAME_ONE, one=pb.OneVariant(mirror=pb.OneMirror.ValueType(7))
                )
            ),
            "Mirror value 7",
        ),
        (
            pb.GameRecord(
                rules=pb.Rules(game=pb.GAME_ONE), metadata=pb.Metadata(extra_tags={"Event": "x"})
            ),
            "extra tag 'Event'",
        ),
        (
            pb.GameRecord(
                rules=pb.Rules(game=pb.GAME_ONE), metadata=pb.Metadata(extra_tags={"a b": "x"})
            ),
            "extra tag 'a b'",
        ),
        (
            pb.GameRecord(
                rules=pb.Rules(game=pb.GAME_ONE),
                metadata=pb.Metadata(extra_tags={"Foo": "", "FOO": ""}),
            ),
            "differ only in case",
        ),
        (
            pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE), seats=[pb.Seat()] * 65),
            "at most 64 seats",
        ),
        (
            pb.GameRecord(
                rules=pb.Rules(game=pb.GAME_ONE),
                moves=[
                    pb.Move(
                        resign=pb.Resign(), clock=pb.Move().clock.__class__(seconds=1, nanos=-1)
                    )
                ],
            ),
            "not a valid duration",
        ),
    ],
)
def test_a_record_grn_cannot_hold_is_an_encoding_error(record: pb.GameRecord, reason: str) -> None:
    with pytest.raises(EncodingError, match=reason):
        format_grn(record)


def test_variations_deeper_than_the_limit_cannot_be_written() -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE))
    move = record.moves.add(resign=pb.Resign())
    for _ in range(MAX_VARIATION_DEPTH + 1):
        move = move.variations.add().moves.add(resign=pb.Resign())
    with pytest.raises(EncodingError, match="nested deeper"):
        format_grn(record)


def test_windows_line_endings_read_like_unix_ones() -> None:
    text = '[Game "Oust"]\r\n[Event "E"]\r\n\r\n1. g7 {x} 2. h7\r\n\r\n[Game "ONE"]\r\n'
    records = list(read_grn(io.BytesIO(text.encode()), "crlf.grn"))
    assert [(r.rules.game, r.metadata.event, len(r.moves)) for r in records] == [
        (pb.GAME_OUST, "E", 2),
        (pb.GAME_ONE, "", 0),
    ]
