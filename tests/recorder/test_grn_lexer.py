"""The GRN tokenizer: tokens, their places, and chunk boundaries that change nothing."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.recorder.errors import LimitExceededError, RecordMalformedError
from gamerec.recorder.grn_lexer import Kind, Lexer, Token, utf8_chunks

SAMPLE = """[Game "ONE"]
[Event "Club \\"night\\""]

{game} 1. c7! 2. c8 $2 3. d14 {a {quiet\\} start} (3. d13 ?!) 4. c7xc9!? 4-2-4 *
"""


def tokens(text: str | bytes, chunk_bytes: int = 1 << 16, max_token: int = 1 << 20) -> list[Token]:
    data = text.encode() if isinstance(text, str) else text
    lexer = Lexer(utf8_chunks(io.BytesIO(data), chunk_bytes), "test.grn", max_token)
    found = []
    while (token := lexer.next()).kind is not Kind.END:
        found.append(token)
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


def test_a_blank_line_before_a_token_is_noted() -> None:
    found = tokens('[Game "ONE"]\n[Event "x"]\n\n[Game "Oust"]\n \n1. g7')
    assert [t.blank_before for t in found] == [False, False, True, True, False]


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


def test_a_token_longer_than_the_limit_is_refused() -> None:
    with pytest.raises(LimitExceededError):
        tokens("{" + "x" * 5000 + "}", chunk_bytes=64, max_token=1000)


def test_the_lexer_reads_no_further_than_the_token_it_returns() -> None:
    chunks_read = 0

    def chunks() -> Iterator[str]:
        nonlocal chunks_read
        for _ in range(10_000):
            chunks_read += 1
            yield "1 7 2 9 12. 4ccw "

    lexer = Lexer(chunks(), "long.grn")
    assert lexer.next().text == "1"
    assert chunks_read <= 2
