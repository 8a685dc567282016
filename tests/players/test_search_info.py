"""How an engine's ``info`` becomes the comment of its move (docs/engine-protocol.md §7)."""

from __future__ import annotations

import pytest

from gamerec.validator.players.search_info import Score, SearchInfo


@pytest.mark.parametrize(
    ("info", "comment"),
    [
        (SearchInfo(), ""),
        (
            SearchInfo(Score("value", 35), 12, 10234, 250, ("c8", "d14")),
            "[%eval 35,12] [%nodes 10234] [%pv c8 d14]",
        ),
        (SearchInfo(Score("value", -120)), "[%eval -120]"),
        (SearchInfo(Score("win", 5), 9), "[%eval #5,9]"),
        (SearchInfo(Score("loss", 2)), "[%eval #-2]"),
        (SearchInfo(depth=4, time_ms=900), "[%depth 4]"),
        (SearchInfo(text="book move", pv=("o1",)), "book move [%pv o1]"),
    ],
)
def test_the_comment_of_search_information(info: SearchInfo, comment: str) -> None:
    assert info.comment() == comment


def test_later_lines_replace_the_fields_they_give() -> None:
    first = SearchInfo(Score("value", 5), 3, 100, 10, ("a1", "a2"), "thinking")
    later = SearchInfo(Score("win", 7), nodes=900)
    assert first.merged(later) == SearchInfo(Score("win", 7), 3, 900, 10, ("a1", "a2"), "thinking")
    assert later.merged(SearchInfo()) == later
