"""The GRN splitter and tokenizer: records, tokens, places; chunk boundaries change nothing."""

from __future__ import annotations

import io
import re
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder import grn_lexer
from gamerec.recorder.errors import LimitExceededError, RecordMalformedError
from gamerec.recorder.grn_lexer import (
    Kind,
    Places,
    RawRecord,
    Token,
    decode_record_text,
    scan,
    split_records,
)

SAMPLE = """[Game "ONE"]
[Event "Club \\"night\\""]

{game} 1. c7! 2. c8 $2 3. d14 {a {quiet\\} start} (3. d13 ?!) 4. c7xc9!? 4-2-4 *
"""


def records(text: str | bytes, chunk_bytes: int = 1 << 16, limit: int = 1 << 20) -> list[RawRecord]:
    data = text.encode() if isinstance(text, str) else text
    return list(split_records(io.BytesIO(data), "test.grn", limit, chunk_bytes))


def tokens(text: str | bytes, chunk_bytes: int = 1 << 16, limit: int = 1 << 20) -> list[Token]:
    """Every token of every record of ``text`` (END tokens left out)."""
    found = []
    for raw in records(text, chunk_bytes, limit):
        place = ("test.grn", raw.line, raw.column, raw.byte_offset, raw.offset)
        places = Places(decode_record_text(raw.data, place), "test.grn", *place[1:3], raw.offset)
        found += [token for token in scan(places) if token.kind is not Kind.END]
    return found


def summary(found: list[Token]) -> list[tuple[str, str, str, int, int]]:
    return [(t.kind.name, t.text, t.value, t.line, t.column) for t in found]


def test_tokens_of_a_record_with_their_lines_and_columns() -> None:
    assert summary(tokens(SAMPLE)) == [
        ("TAG", "Game", "ONE", 1, 1),
        ("TAG", "Event", 'Club \\"night\\"', 2, 1),
        ("COMMENT", "game", "", 4, 1),
        ("PLY", "1", "", 4, 8),
        ("MOVE", "c7", "!", 4, 11),
        ("PLY", "2", "", 4, 15),
        ("MOVE", "c8", "", 4, 18),
        ("NAG", "2", "", 4, 21),
        ("PLY", "3", "", 4, 24),
        ("MOVE", "d14", "", 4, 27),
        ("COMMENT", "a {quiet\\} start", "", 4, 31),
        ("OPEN", "(", "", 4, 50),
        ("PLY", "3", "", 4, 51),
        ("MOVE", "d13", "", 4, 54),
        ("GLYPH", "?!", "", 4, 58),
        ("CLOSE", ")", "", 4, 60),
        ("PLY", "4", "", 4, 62),
        ("MOVE", "c7xc9", "!?", 4, 65),
        ("RESULT", "4-2-4", "", 4, 73),
        ("RESULT", "*", "", 4, 79),
    ]


@given(st.integers(1, 40))
def test_chunk_boundaries_change_no_token(chunk_bytes: int) -> None:
    assert summary(tokens(SAMPLE, chunk_bytes)) == summary(tokens(SAMPLE))


@given(st.text(alphabet='[]{}()"\\ \n.,!?$*-x%0123456789abcé', max_size=80), st.integers(1, 7))
def test_chunk_boundaries_change_no_token_or_error(text: str, chunk_bytes: int) -> None:
    def outcome(size: int) -> object:
        try:
            return summary(tokens(text, size))
        except RecordMalformedError as error:
            return str(error)

    assert outcome(chunk_bytes) == outcome(1 << 16)


def test_a_blank_line_after_tags_and_a_tag_after_moves_end_a_record() -> None:
    text = '[Game "ONE"]\n[Event "x"]\n\n[Game "Oust"]\n \n1. g7 [Game "ONE"] 1. a1'
    found = records(text)
    assert [raw.data.decode().strip() for raw in found] == [
        '[Game "ONE"]\n[Event "x"]',
        '[Game "Oust"]\n \n1. g7',
        '[Game "ONE"] 1. a1',
    ]
    assert [(raw.line, raw.column) for raw in found] == [(1, 1), (4, 1), (6, 7)]
    assert [raw.offset for raw in found] == [0, text.index('[Game "Oust'), text.rindex("[Game")]


def test_a_tag_inside_a_comment_ends_no_record() -> None:
    text = '[Game "ONE"]\n\n1. a1 {see\n[Game "Oust"] there} 2. a2'
    assert len(records(text)) == 1
    assert [t.kind for t in tokens(text)].count(Kind.TAG) == 1


def test_a_tag_value_column_points_after_the_quote() -> None:
    (tag,) = tokens('  [ Event   "Club"  ]')
    assert (tag.column, tag.value_column, tag.value) == (3, 14, "Club")


def test_an_escaped_brace_does_not_close_a_comment() -> None:
    (comment,) = tokens("{a \\} b \\\\}")
    assert comment.text == "a \\} b \\\\"


def test_a_ply_number_and_a_move_may_touch() -> None:
    assert summary(tokens("10.12"))[:2] == [("PLY", "10", "", 1, 1), ("MOVE", "12", "", 1, 4)]


def test_a_leading_byte_order_mark_is_skipped() -> None:
    assert tokens(b'\xef\xbb\xbf[Game "ONE"]')[0].column == 1


@pytest.mark.parametrize(
    ("text", "where", "reason"),
    [
        ("[Event x]", "line 1, column 8", "expected '\"' to open the value of tag Event"),
        ("[ ]", "line 1, column 3", "expected a tag name"),
        ('[Event "x]', "line 1, column 8", "not closed by '\"' on its line"),
        ('[Event "x" y]', "line 1, column 12", "expected ']' to close tag Event"),
        ("\n  {never", "line 2, column 3", "never closed by '}'"),
        ("c7 ;", "line 1, column 4", "unexpected ';'"),
        ("$x", "line 1, column 1", "expected a numeric glyph"),
    ],
)
def test_a_broken_token_is_an_error_at_its_place(text: str, where: str, reason: str) -> None:
    with pytest.raises(RecordMalformedError) as caught:
        tokens(text)
    assert caught.value.where == where
    assert reason in caught.value.reason


def test_a_byte_that_is_not_utf8_is_an_error_at_its_line_and_column() -> None:
    with pytest.raises(RecordMalformedError) as caught:
        tokens(b'[Game "ONE"]\n[Seat1 "An\xe4"]', chunk_bytes=4)
    assert caught.value.where == "line 2, column 11"
    assert "byte 23 (0xe4) is not UTF-8" in caught.value.reason


def test_a_record_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(LimitExceededError) as caught:
        tokens('[Game "ONE"]\n\n{' + "x" * 5000 + "}", chunk_bytes=64, limit=1000)
    assert caught.value.limit == "record-bytes"
    assert "the record starting at line 1 has at least" in caught.value.reason


def test_the_splitter_reads_no_further_than_the_record_it_returns() -> None:
    reads = 0

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
            nonlocal reads
            reads += 1
            data = b'[Game "ONE"]\n\n1. a1 2. a2\n\n' * (len(buffer) // 30)
            memoryview(buffer)[: len(data)] = data
            return len(data)

    stream = io.BufferedReader(Endless(), 4096)
    first = next(split_records(stream, "endless.grn", 1 << 20, chunk_bytes=4096))
    assert first.data.strip() == b'[Game "ONE"]\n\n1. a1 2. a2'
    assert reads <= 2


#: Pieces of move text around comments, for the splitter: seat commands, brackets and braces
#: inside and outside comments, escapes, tags on their own line or after move text, blank
#: lines, a comment left open.
SPLIT_PIECES = [
    *(" 1. a1", " 2. b2!?", "\n3. c3", " {[%seat 1]}", "\n{[%seat 2]}", " {[%clk 0:01:00]}"),
    *(
        " {a [b] c}",
        ' {x\n[Game "ONE"]\ny}',
        " {esc \\} [c}",
        " {x \\}",
        " {y \\\\}",
        " {esc \\\\}",
        " {open",
    ),
    *(" }", " [", " ]", " {{[", "\\", " (4. d4)", "\n", "\n\n", "\r\n", " \t"),
    *('\n[Game "ONE"]\n', '\n\n[Game "Oust"]\n[Event "e"]\n\n', ' [Game "ONE"]', "\n[broken"),
    *('\n[ Game "x" ]\n', "{[%seat 3]}{[%seat 4]}", "é", " 5-4"),
]


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(SPLIT_PIECES), max_size=30),
    st.integers(1, 200),
)
def test_plain_move_text_is_passed_over_as_the_splitter_reads_it(
    pieces: list[str], chunk_bytes: int
) -> None:
    # The splitter passes over move text whose comments are plain at once
    # (grn_lexer._plain_move_text); the records must be those it cuts matching every byte,
    # whatever the text and wherever the chunks end.
    data = ('[Game "ONE"]\n' + "".join(pieces)).encode()
    fast = records(data, chunk_bytes)
    with patch.object(grn_lexer, "_plain_move_text", lambda buffer, start, end: start):
        assert records(data, chunk_bytes) == fast
        assert records(data) == fast


def test_a_record_of_plies_with_seats_is_passed_over_at_once() -> None:
    # The usual move text: the splitter's own matching never starts inside it.
    data = b'[Game "ONE"]\n\n1. a1 {[%seat 1]} 2. b2\n{[%seat 2]}\n\n[Game "ONE"]\n\n1. c3\n'
    tag_end, second = data.index(b"\n\n"), data.index(b"[Game", 1)
    assert grn_lexer._plain_move_text(data, tag_end, len(data)) == second
    starts: list[int] = []
    search = grn_lexer._SPLIT.search

    class Counting:
        def search(self, buffer: bytes, start: int, end: int) -> re.Match[bytes] | None:
            if buffer == data:  # (then the splitter keeps only the record in progress)
                starts.append(start)
            return search(buffer, start, end)

    with patch.object(grn_lexer, "_SPLIT", Counting()):
        assert [raw.data for raw in records(data)] == [data[:second], data[second:]]
    assert starts == [0, second, len(data)]


@given(st.binary(max_size=300))
def test_the_characters_of_bytes_are_the_bytes_that_start_one(data: bytes) -> None:
    # ASCII bytes are counted without a copy; any other bytes by their continuation bytes.
    assert grn_lexer._characters(data) == sum(not 0x80 <= byte < 0xC0 for byte in data)
