"""The GRN reader's fast paths read every input as the first release's reader does.

A record's tags are matched as one run and what they set is merged in one call (kept per tag
across records, ``grn_tags.tag_fields``); a run of plain plies is split by one ``findall``, its
numbers compared at once and its moves looked up by their text (kept across records); the
splitter matches a record's tags as one run. Each falls back to the token-by-token reading at
anything unusual. Here texts are drawn from the pieces those paths decide on (tag names in any
case, given twice, seat numbers past the limit, free tags, escapes, values too long, blank
lines; ply numbers wrong or with a leading zero, glyphs, seat commands split over lines,
comments, variations, results) and read under drawn limits, many records in one process so
that what is kept from one record meets the next: the records and the first error (message,
line and column) must be those of ``tests/previous_grn``.
"""

from __future__ import annotations

import io

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder import grn_plies, grn_tags
from gamerec.recorder.grn import read_grn
from gamerec.recorder.limits import Limits
from tests.recorder.test_grn_against_previous import assert_read_alike

TAG_NAMES = [
    "Game",
    "game",
    "GAME",
    "Event",
    "EVENT",
    "Site",
    "Round",
    "Date",
    "StartTime",
    "RulesVersion",
    "FormatVersion",
    "Players",
    "Board",
    "Mirror",
    "Supply",
    "Pie",
    "StonesPerPit",
    "Direction",
    "Result",
    "Winner",
    "Termination",
    "Seat1",
    "Seat2",
    "seat2",
    "Seat3",
    "Seat1Id",
    "Seat2Rating",
    "Seat1Colour",
    "Seat65",
    "Seat1234567890",
    "Seal",
    "Opening",
    "opening",
    "Free_2",
    "x" * 30,
]
TAG_VALUES = [
    "ONE",
    "Oust",
    "Aronda",
    "Oh-Wah-Ree",
    "Chess",
    "",
    "2",
    "3",
    "0",
    "-5",
    "1200",
    "99999999999",
    "10,10,20,20",
    "5",
    "x",
    "none",
    "normal",
    "resignation",
    "*",
    "31-24",
    "1-2-3",
    "1,2",
    "2026-11-29T20:15:03Z",
    "1",
    'say \\"hi\\"',
    "tab\\u0009end",
    "C:\\games",
    "e" * 25,
]
#: What stands between two tags: the same line, the next line, a blank line (a new record).
TAG_GAPS = ["\n", " ", "\t", "\r\n", "\n\n", "\n \n", " \n\t"]
MOVES = ["g7", "h7", "a1", "b3", "c7", "d4", "c7xc9", "a10xa8xc15", "4cw", "3", "zz9", "resign"]
GLYPHS = ["", "", "", "!", "?", "!!", "!?", "?!"]
SEATS = ["", "", " {[%seat 1]}", " {[%seat 2]}", "\n{[%seat 1]}", "{[%seat 2]}", " {[%seat 0]}"]
#: Move text that is not a plain ply: it ends a run of them.
BREAKS = [" {a note}", " (2. h7)", " $1", " !", " *", " 31-24", " 2.", ' [Event "x"]', " ;"]


@st.composite
def tag_sections(draw: st.DrawFn) -> str:
    """Tags drawn from the pools, a Game tag first most of the time."""
    tags = draw(st.lists(st.tuples(st.sampled_from(TAG_NAMES), st.sampled_from(TAG_VALUES))))
    if draw(st.booleans()):
        tags.insert(0, ("Game", draw(st.sampled_from(["ONE", "Oust", "Aronda", "Oh-Wah-Ree"]))))
    text = ""
    for name, value in tags:
        text += f'[{name} "{value}"]' + draw(st.sampled_from(TAG_GAPS))
    return text


@st.composite
def move_texts(draw: st.DrawFn) -> str:
    """Plies numbered mostly in order (sometimes not, or with a leading zero), with breaks."""
    words = []
    number = 1
    for _ in range(draw(st.integers(0, 30))):
        shift = draw(st.sampled_from([0, 0, 0, 0, 0, 0, 1, -1]))
        written = str(number + shift)
        if draw(st.integers(0, 19)) == 0:
            written = "0" + written
        move = draw(st.sampled_from(MOVES)) + draw(st.sampled_from(GLYPHS))
        space = draw(st.sampled_from([" ", " ", "\n", ""]))
        words.append(f"{written}.{space}{move}{draw(st.sampled_from(SEATS))}")
        if draw(st.integers(0, 9)) == 0:
            words.append(draw(st.sampled_from(BREAKS)))
        number += 1
    return " ".join(words) + draw(st.sampled_from(["", "\n", "  \n", " *", "\n\n"]))


@st.composite
def collections(draw: st.DrawFn) -> bytes:
    """One to three records, each its tags, a blank line (mostly) and its move text."""
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        blank = draw(st.sampled_from(["\n", "\n\n", "\n\n", "\n\n"]))
        parts.append(draw(tag_sections()) + blank + draw(move_texts()))
    return "\n".join(parts).encode()


@st.composite
def limits(draw: st.DrawFn) -> Limits:
    """The default limits, or small ones that the drawn texts reach."""
    if draw(st.booleans()):
        return Limits()
    return Limits(
        max_tags=draw(st.integers(0, 3)),
        max_tag_chars=draw(st.sampled_from([4, 12, 26, 16_384])),
        max_seats=draw(st.integers(0, 4)),
        max_plies=draw(st.integers(0, 40)),
        max_moves=draw(st.integers(0, 50)),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), limits())
def test_drawn_tags_and_plies_read_alike(data: bytes, drawn: Limits) -> None:
    assert_read_alike(data, drawn)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tag_sections(), st.sampled_from(["ONE", "Oust"]), limits())
def test_the_same_tags_read_alike_in_records_of_each_game(
    tags: str, game: str, drawn: Limits
) -> None:
    # What a tag sets is kept per game: the same tags after another Game tag must read as
    # they read there (a variant option one game has and the other lacks).
    assert_read_alike(f'[Game "{game}"]\n{tags}\n\n1. a1\n'.encode(), drawn)


def test_the_plies_kept_between_records_stay_within_their_bound() -> None:
    # 30,000 distinct Oust plies (two cells each, seat commands), then a few long ones: the
    # table of plies read keeps at most its number of entries, and no long text.
    cells = [f"{letter}{number}" for letter in "abcdefghijk" for number in range(1, 12)]
    tokens = [f"{a},{b}" for a in cells for b in cells][:30_000] + ["a1," * 20 + "b2"] * 3
    plies = " ".join(
        f"{ply}. {token} {{[%seat {2 - ply % 2}]}}" for ply, token in enumerate(tokens, 1)
    )
    [record] = read_grn(io.BytesIO(f'[Game "Oust"]\n\n{plies}\n'.encode()), "many.grn")
    assert len(record.moves) == len(tokens)
    assert [len(move.oust.placements) for move in record.moves[-4:]] == [2, 21, 21, 21]
    assert grn_plies.PLY_BYTES, "the plies were kept"
    for table in grn_plies.PLY_BYTES.values():
        assert len(table) <= grn_plies.PLY_BYTES_ENTRIES
        assert max(map(len, table), default=0) <= grn_plies.PLY_TEXT_KEPT


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([0, 1, 2, 3, 4, 99]),
    st.sampled_from(["Round", "round", "EVENT", "Date", "Site", "TimeControl", "Client"]),
    st.text(max_size=300),
)
def test_a_text_tag_is_built_as_a_record_holding_it_serializes(
    game: int, name: str, raw: str
) -> None:
    # Round, Date and the like are new in nearly every record: their fields are written
    # directly, not by a record made for the tag; the bytes must be the same.
    built = grn_tags._tag_fields(game, name, raw)  # type: ignore[arg-type]
    assert built == grn_tags._tag_fields_by_message(game, name, raw)  # type: ignore[arg-type]


def test_tags_read_before_set_what_they_set_when_read_tag_by_tag() -> None:
    # The same tag section read twice (the second time from what the first kept) gives the
    # record the first reading gave, with seats, a free tag, a variant option and a Result.
    text = (
        '[Game "Oust"]\n[Board "5"]\n[Seat1 "Ana"]\n[Seat2 "Ben"]\n[Mood "calm"]\n'
        '[Result "1-0"]\n\n1. a1 {[%seat 1]}\n'
    )
    first = list(read_grn(io.BytesIO(text.encode()), "a.grn"))
    again = list(read_grn(io.BytesIO((text * 2).encode()), "b.grn"))
    assert again == first * 2
    assert first[0].metadata.extra_tags["Mood"] == "calm"
    assert [seat.name for seat in first[0].seats] == ["Ana", "Ben"]
