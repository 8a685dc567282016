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
import subprocess
import sys
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder import grn_plies, grn_reader, grn_tag_section, grn_tags, grn_timed
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.grn import read_grn
from gamerec.recorder.grn_lexer import TAG_PAIR, TAG_RUN
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from tests.recorder.test_grn_against_previous import assert_read_alike

ROOT = Path(__file__).resolve().parents[2]

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


#: Comments of times a writer puts on a ply (seat, clock, timestamp, one space apart), and
#: near misses: out of range, no calendar day, an offset, a command twice, another order,
#: another case, two spaces, a negative clock, the extremes, a second comment after the first;
#: then comments of words, alone, before the commands, empty, escaped, too long, followed by
#: more.
TIMES = [
    " {[%seat 1] [%clk 0:06:07.814] [%ts 2026-12-07T14:19:36.759Z]}",
    "\n{[%seat 2] [%clk 1:00:00] [%ts 2026-12-07T14:19:37Z]}",
    " {[%seat 1] [%clk 0:06:07.814] [%ts 2026-02-30T14:19:36.759Z]}",
    " {[%seat 0] [%clk 10:59:59] [%ts 1969-12-31T23:59:59.5Z]}",
    " {[%seat 01] [%clk 0:00:00] [%ts 0001-01-01T00:00:00Z]}",
    " {[%seat 1234567890] [%clk 0:00:01] [%ts 2026-12-07T14:19:36Z]}",
    " {[%seat 1] [%clk 9999999:59:59.999999999] [%ts 9999-12-31T23:59:59.999999999Z]}",
    " {[%seat 1] [%clk 0:00:01.1234567890] [%ts 2026-12-07T14:19:36Z]}",
    " {[%seat 1] [%clk 0:00:01] [%ts 2026-12-07T23:59:60Z]}",
    " {[%clk 0:00:00]}",
    " {[%ts 1970-01-01T00:00:00Z]}",
    " {[%seat 2] [%ts 2026-12-07T14:19:36.5Z] [%clk 0:09:58.25]}",
    " {[%clk 0:6:7.000000001]}",
    " {[%clk -0:00:01.5]}",
    " {[%clk 87660000:00:00]}",
    " {[%clk 87660001:00:00]}",
    " {[%clk 0:60:00]}",
    " {[%clk 0:00:60]}",
    " {[%clk 0:00:00.1234567890]}",
    " {[%ts 2026-02-30T00:00:00Z]}",
    " {[%ts 2026-12-07T24:00:00Z]}",
    " {[%ts 2026-12-07T14:19:36+01:00]}",
    " {[%ts 0001-01-01T00:00:00Z]}",
    " {[%ts 9999-12-31T23:59:59.999999999Z]}",
    " {[%ts 0001-01-01T00:00:00+00:01]}",
    " {[%ts 2026-12-07t14:19:36z]}",
    " {[%clk 0:01:00] [%clk 0:02:00]}",
    " {[%seat 1] [%seat 1]}",
    " {[%CLK 0:01:00]}",
    " {[%clk 0:01:00]  [%ts 2026-12-07T14:19:36Z]}",
    " {[%clk 0:01:00]} {[%ts 2026-12-07T14:19:36Z]}",
    " {[%clk 0:01:00]} {[%clk 0:02:00]}",
    " {[%seat 1] [%clk x]}",
    " {[%seat x1] [%clk 0:01:00]}",
    " {[%seat 99999999999] [%clk 0:01:00]}",
    " {[%clk 0:01:00] [%ts 2026-12-07T14:19:36Z] [%seat 3]}",
    " {[%clk 0:01:00] a note}",
    "",
    " { good move }",
    " {a note} {[%seat 1]}",
    " {note}\n{[%seat 2] [%clk 0:01:00]}",
    " {} {[%seat 1]}",
    " { }",
    " {note} {more}",
    " {x [y] z}",
    " {a\\}b}",
    " {\u00e9t\u00e9 \u2028}",
    " {a\tb\nc}",
    " {" + "x" * 1001 + "}",
    " {" + "y" * 12 + "} {[%seat 1]} {and more}",
]


@st.composite
def move_texts(draw: st.DrawFn, seats: list[str] = SEATS) -> str:
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
        words.append(f"{written}.{space}{move}{draw(st.sampled_from(seats))}")
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
        max_comment_chars=draw(st.sampled_from([0, 4, 9, 12, 2**21])),
    )


def records_of_games(texts: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    """One to three records, each a Game tag of any game and a move text drawn from ``texts``."""
    records = st.lists(st.tuples(st.sampled_from(GAME_NAMES), texts), min_size=1, max_size=3)
    return records.map(
        lambda drawn: "\n".join(f'[Game "{game}"]\n\n{text}' for game, text in drawn).encode()
    )


GAME_NAMES = ["ONE", "Oust", "Aronda", "Oh-Wah-Ree"]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), limits())
def test_drawn_tags_and_plies_read_alike(data: bytes, drawn: Limits) -> None:
    assert_read_alike(data, drawn)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records_of_games(move_texts(TIMES)), limits())
def test_plies_with_clocks_and_timestamps_read_alike(data: bytes, drawn: Limits) -> None:
    # A run of plies whose comments hold a writer's times is read by the run, the commands'
    # arguments by their own readers (grn_plies.command_fields); anything else by the tokens.
    assert_read_alike(data, drawn)


def test_a_run_of_plies_with_times_is_read_by_the_run() -> None:
    # The path is taken: the run reads every ply (none is left to the tokens' comment reader),
    # and what a following comment adds is checked against the commands the run read.
    text = (
        '[Game "ONE"]\n\n1. c7 {[%seat 1] [%clk 0:09:58.250] [%ts 2026-12-07T14:19:36Z]}\n'
        "2. c9 {[%seat 2] [%clk 0:00:00]} {[%clk 0:01:00]}\n"
    )
    grn_plies.PLY_BYTES.clear()
    with pytest.raises(RecordMalformedError, match=r"already has a \[%clk\] command"):
        list(read_grn(io.BytesIO(text.encode()), "a.grn"))
    [record] = read_grn(io.BytesIO(text.rsplit(" {[%clk 0:01:00]}", 1)[0].encode()), "a.grn")
    first, second = record.moves
    assert (first.seat, first.clock.seconds, first.clock.nanos) == (1, 598, 250_000_000)
    assert first.timestamp.seconds == 1_796_653_176
    assert second.HasField("clock") and not second.HasField("timestamp")
    assert second.SerializeToString() == b"\x08\x02\x12\x06\n\x04\x08\x03\x10\t\x5a\x00"


def test_the_plies_with_words_kept_stay_within_their_bound() -> None:
    # 6,000 plies with distinct comments of words, and a few long ones: the table keeps at most
    # its number of entries and no long text, and a ply found there reads as it did.
    grn_plies.WORDS_PLY_BYTES.clear()
    notes = [f"note {number}" for number in range(6000)] + ["n" * 80] * 3
    plies = " ".join(
        f"{ply}. c7 {{{note}}} {{[%seat {2 - ply % 2}]}}" for ply, note in enumerate(notes, 1)
    )
    text = f'[Game "ONE"]\n\n{plies}\n'.encode()
    limits = Limits(max_plies=10_000, max_moves=10_000)
    for _ in range(2):  # the second time, the plies kept are found
        [record] = read_grn(io.BytesIO(text), "words.grn", limits=limits)
        assert [move.comment for move in record.moves] == notes
        tables = grn_plies.WORDS_PLY_BYTES.values()
        assert 0 < max(map(len, tables)) <= grn_plies.WORDS_PLY_ENTRIES
        assert all(len(kept) <= grn_plies.WORDS_PLY_TEXT_KEPT for table in tables for kept in table)


def writers_record(plies: int, time: str, between: str, glyph_at: int = 0) -> str:
    """A ONE record of ``plies`` plies as live play writes them, ``between`` them.

    ``c7`` and ``c9`` in turn (``!?`` on the ply ``glyph_at``), each with its seat, a clock
    of ``0:<ply>:58.250`` and ``time`` formatted with its ply.
    """
    texts = [
        f"{ply}. {'c7' if ply % 2 else 'c9'}{'!?' if ply == glyph_at else ''}"
        f" {{[%seat {2 - ply % 2}] [%clk 0:{ply:02d}:58.250] [%ts {time.format(ply=ply)}]}}"
        for ply in range(1, plies + 1)
    ]
    return '[Game "ONE"]\n\n' + between.join(texts) + "\n"


def test_a_timed_ply_is_read_from_the_ply_with_its_seat_alone() -> None:
    # Every timed ply's text is its own: the ply up to its seat command is kept and found,
    # its times' fields put after it; a ply with words, an impossible day or a comment too
    # long reads as the first release's reader reads it.
    grn_plies.PLY_BYTES.clear()
    text = writers_record(8, "2026-12-07T14:19:{ply:02d}Z", " ", glyph_at=3)
    [record] = read_grn(io.BytesIO(text.encode()), "a.grn")
    kept = [text for table in grn_plies.PLY_BYTES.values() for text in table]
    assert sorted(kept) == ["c7 {[%seat 1]}", "c7!? {[%seat 1]}", "c9 {[%seat 2]}"]
    assert [move.clock.seconds for move in record.moves] == [60 * ply + 58 for ply in range(1, 9)]
    assert [move.timestamp.seconds % 60 for move in record.moves] == list(range(1, 9))
    assert record.moves[2].glyph == pb.GLYPH_INTERESTING
    for changed in (
        text.replace("c9 {[%seat 2] [%clk 0:04", "c9 {words} {[%seat 2] [%clk 0:04"),
        text.replace("2026-12-07T14:19:05Z", "2026-02-30T14:19:05Z"),
        text.replace("c9 {[%seat 2]", "c9 {" + "w" * 20 + "} {[%seat 2]"),
    ):
        for drawn in (Limits(), Limits(max_comment_chars=12)):
            assert_read_alike(changed.encode(), drawn)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tag_sections(), st.sampled_from(["ONE", "Oust"]), limits())
def test_the_same_tags_read_alike_in_records_of_each_game(
    tags: str, game: str, drawn: Limits
) -> None:
    # What a tag sets is kept per game: the same tags after another Game tag must read as
    # they read there (a variant option one game has and the other lacks).
    assert_read_alike(f'[Game "{game}"]\n{tags}\n\n1. a1\n'.encode(), drawn)


@pytest.mark.parametrize("seats", [True, False])
def test_the_plies_kept_between_records_stay_within_their_bound(seats: bool) -> None:
    # 30,000 distinct Oust plies (two cells each, with seat commands or without), then a few
    # long ones: the table of plies read keeps at most its number of entries, and no long
    # text (with seats, the run is read from its words: grn_plies.seated_run).
    cells = [f"{letter}{number}" for letter in "abcdefghijk" for number in range(1, 12)]
    tokens = [f"{a},{b}" for a in cells for b in cells][:30_000] + ["a1," * 20 + "b2"] * 3
    plies = " ".join(
        f"{ply}. {token}" + (f" {{[%seat {2 - ply % 2}]}}" if seats else "")
        for ply, token in enumerate(tokens, 1)
    )
    grn_plies.PLY_BYTES.clear()
    grn_plies.SEATED_PLY_BYTES.clear()
    [record] = read_grn(io.BytesIO(f'[Game "Oust"]\n\n{plies}\n'.encode()), "many.grn")
    assert len(record.moves) == len(tokens)
    assert [len(move.oust.placements) for move in record.moves[-4:]] == [2, 21, 21, 21]
    assert [move.seat for move in record.moves[:3]] == ([1, 2, 1] if seats else [0, 0, 0])
    tables = grn_plies.SEATED_PLY_BYTES if seats else grn_plies.PLY_BYTES
    assert tables, "the plies were kept"
    assert not (grn_plies.PLY_BYTES if seats else grn_plies.SEATED_PLY_BYTES)
    for table in tables.values():
        assert 0 < len(table) <= grn_plies.PLY_BYTES_ENTRIES
        assert max(map(len, table)) <= grn_plies.PLY_TEXT_KEPT


def test_a_million_distinct_seated_plies_keep_at_most_the_bound() -> None:
    # Fed directly (a million plies read through records would take minutes): a table of
    # plies read from their words never holds more than its entries.
    grn_plies.SEATED_PLY_BYTES.clear()
    cells = [f"{letter}{number}" for letter in "abcdefghijk" for number in range(1, 12)]
    turns = (f"{a},{b},{c}" for a in cells for b in cells for c in cells)
    batch: list[str] = []
    first = 1
    for count, turn in enumerate(islice(turns, 1_000_000), 1):
        batch.append(f"{len(batch) + first}. {turn} {{[%seat 1]}}")
        if len(batch) == 4000 or count == 1_000_000:
            text = " ".join(batch)
            plies = grn_plies.seated_run(text, first, 10**6, b"\x2a", pb.GAME_OUST)
            assert plies is not None and len(plies) == len(batch)
            first, batch = 1, []
    [table] = grn_plies.SEATED_PLY_BYTES.values()
    assert 0 < len(table) <= grn_plies.PLY_BYTES_ENTRIES


#: White space between the words of a ply: mostly a space or a new line, sometimes any other
#: character Python's ``\s`` and ``str.split`` take as white space, or none.
GAPS = [" "] * 12 + ["\n"] * 4 + ["  ", "\t", "\r\n", "\x0b", "\x1c", "\x85", "\u00a0"]
GAPS += ["\u2028", "\u3000", ""]
SEAT_WORDS = ["{[%seat 1]}", "{[%seat 2]}", "{[%seat 3]}", "{[%seat 0]}", "{[%seat 10]}"]
#: Seat words a run read from its words must not take for a plain ply's seat command.
ODD_SEAT_WORDS = [
    *("{[%seat 01]}", "{[%seat  1]}", "{[%seat\t1]}", "{[%seat\n2]}", "{[%seat 99999999999]}"),
    *("{[%seat \u0661]}", "{[%seat 1] }", "{[%seat 1]}x", "{[%seat 1]}{[%seat 2]}", "\x00"),
    *("{[%seat 2]}\x00", "{[%seat ]}", "{[%Seat 1]}", "{[%seat 1]", "x1]}", "{[%seat 2]}!"),
    *("{[%seat 1]} {c}", "{[%seat 1]} (2. a1)", "{[%seat 1]} *", "{[%seat 1]} 2-1"),
]
ODD_NUMBERS = ["0{}.", "{}", "{}..", "{}.5", "x{}.", "\u0661."]
ODD_MOVES = ["c7.", "1-0", "c7!!?", "c7\x00", "é1", "c7{", "", "a1,", "*"]


def _ply_start(draw: st.DrawFn, number: int, odd: int) -> tuple[str, str]:
    """A ply's number and its move with a glyph; an odd number when ``odd`` is 0, move when 1."""
    written = draw(st.sampled_from(ODD_NUMBERS)).format(number) if odd == 0 else f"{number}."
    move = draw(st.sampled_from(MOVES)) + draw(st.sampled_from(GLYPHS))
    return written, draw(st.sampled_from(ODD_MOVES)) if odd == 1 else move


@st.composite
def seated_move_texts(draw: st.DrawFn) -> str:
    """Plies each with its seat command, mostly all plain, now and then one that is not."""
    words = []
    for number in range(1, draw(st.integers(1, 40)) + 1):
        odd = draw(st.integers(0, 59))
        written, move = _ply_start(draw, number, odd)
        seat = draw(st.sampled_from(ODD_SEAT_WORDS if odd == 2 else SEAT_WORDS))
        words += [written, move, seat]
    gaps = draw(st.lists(st.sampled_from(GAPS), min_size=len(words), max_size=len(words)))
    return "".join(word + gap for word, gap in zip(words, gaps, strict=True))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records_of_games(seated_move_texts()), limits())
def test_runs_of_plies_with_seats_read_alike(data: bytes, drawn: Limits) -> None:
    # The usual move text, read from its words when it is nothing else (grn_plies.seated_run),
    # reads as the first release's reader reads it, and so does every near miss.
    assert_read_alike(data, drawn)


def test_a_record_of_plies_with_seats_is_read_from_its_words() -> None:
    # The path is taken: the plies are kept by their words, as the record's own reading.
    grn_plies.SEATED_PLY_BYTES.clear()
    text = '[Game "ONE"]\n\n1. c7 {[%seat 1]}\n2. c9!? {[%seat 2]}\n'
    [record] = read_grn(io.BytesIO(text.encode()), "a.grn")
    assert [(move.seat, move.glyph) for move in record.moves] == [(1, 0), (2, 5)]
    [table] = grn_plies.SEATED_PLY_BYTES.values()
    assert set(table) == {"c7\x001]}", "c9!?\x002]}"}


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
    # tag_fields writes them so without keeping them (Round, as the writer names it).
    built = grn_tags._tag_fields(game, name, raw)  # type: ignore[arg-type]
    assert built == grn_tags._tag_fields_by_message(game, name, raw)  # type: ignore[arg-type]
    assert grn_tags.tag_fields(game, name, raw) == built  # type: ignore[arg-type]


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


#: Values of the volatile tags (Round, Result...) that differ from record to record, some
#: of them wrong or long.
VOLATILE_VALUES = ["1", "2", "17", "", "x" * 20, "31-24", "1-2-3", "*", "x", "-1", "2026-11-29"]
VOLATILE_VALUES += ["2026-11-29T20:15:03Z", 'say \\"hi\\"', "tab\\u0009end", "C:\\\\x", "é"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tag_sections(),
    st.lists(st.lists(st.sampled_from(VOLATILE_VALUES), min_size=8, max_size=8), max_size=4),
    limits(),
)
def test_tag_sections_of_one_shape_read_alike_whatever_their_volatile_values(
    tags: str, values: list[list[str]], drawn: Limits
) -> None:
    # A section is kept by its shape, the volatile tags' values left out (SECTIONS): records
    # of the same shape but for those values must read as the first release reads them.
    section = f'[Game "ONE"]\n[Round "1"]\n{tags}[Event "e"]\n[Result "1-2"]\n'
    records = [section + "\n1. a1\n"]
    volatile = ["Round", "Event", "Result", "Site", "Date", "StartTime", "TimeControl", "Client"]
    for drawn_values in values:
        text = section
        for name, value in zip(volatile, drawn_values, strict=True):
            text = text.replace(f'[{name} "', f'[{name} "{value}', 1)
        records.append(text + "\n1. a1\n")
    assert_read_alike("\n".join(records).encode(), drawn)


def test_a_tag_section_of_a_shape_read_before_is_read_from_its_shape() -> None:
    # A section whose tags but Round and Result are the first's has its shape: it is read
    # from what was kept (its Round and Result read again), and gives what a first reading
    # gives; another Event makes another shape.
    grn_tag_section.SECTIONS.clear()
    first = '[Game "Oust"]\n[Round "1"]\n[Seat1 "Ana"]\n[Result "1-0"]\n[Event "a"]\n\n1. a1\n'
    second = first.replace('"1"', '"2"').replace("1-0", "0-1")
    third = second.replace('"a"', '"b"')
    records = list(read_grn(io.BytesIO(f"{first}\n{second}\n{third}".encode()), "a.grn"))
    shape = (("Game", "Oust"), "Round", ("Seat1", "Ana"), "Result", ("Event", "a"))
    assert list(grn_tag_section.SECTIONS) == [shape, (*shape[:-1], ("Event", "b"))]
    assert grn_tag_section.SECTIONS[shape].slots == (1, 3)
    grn_tag_section.SECTIONS.clear()
    alone = [next(read_grn(io.BytesIO(text.encode()), "b.grn")) for text in (second, third)]
    assert records[1:] == alone
    assert (alone[0].metadata.round, alone[0].metadata.event) == ("2", "a")
    assert list(alone[0].result.scores.values) == [0, 1]
    assert alone[1].metadata.event == "b"


def test_a_million_tag_sections_keep_at_most_the_bound() -> None:
    # Fed directly: a million distinct shapes never make the table hold more than its bound.
    grn_tag_section.SECTIONS.clear()
    section = grn_tag_section.Section(pb.GAME_ONE, (b"",), (), 0, 0, 1, -1)
    sizes = []
    for number in range(1_000_000):
        grn_tag_section.keep_section((("Game", "ONE"), ("Mood", str(number))), section)
        if not number % 997:
            sizes.append(len(grn_tag_section.SECTIONS))
    assert 0 < max(sizes) <= grn_tag_section.SECTIONS_ENTRIES
    assert len(grn_tag_section.SECTIONS) <= grn_tag_section.SECTIONS_ENTRIES


def test_the_tag_sections_kept_between_records_stay_within_their_bound() -> None:
    # 3,000 records of distinct shapes (a free tag's value), every tenth with a section too
    # long to keep: at most the table's entries are kept, and no long section.
    grn_tag_section.SECTIONS.clear()
    long_site = "s" * grn_tag_section.SECTION_CHARS_KEPT
    texts = []
    for number in range(3000):
        site = f'[Site "{long_site}"]\n' if number % 10 == 0 else ""
        texts.append(f'[Game "ONE"]\n[Round "{number}"]\n{site}[Mood "m{number}"]\n\n1. a1\n')
    records = list(read_grn(io.BytesIO("\n".join(texts).encode()), "many.grn"))
    assert [record.metadata.extra_tags["Mood"] for record in records[-2:]] == ["m2998", "m2999"]
    assert 0 < len(grn_tag_section.SECTIONS) <= grn_tag_section.SECTIONS_ENTRIES
    assert all("Site" not in shape for shape in grn_tag_section.SECTIONS)


def test_reading_a_record_without_a_seal_loads_no_signing() -> None:
    # The seal's keys and signatures (signing, hashlib and OpenSSL behind it) are loaded for
    # a sealed record only: GRN's start-up, in every validate of a .grn file, goes without.
    code = (
        "import io, sys\n"
        "from gamerec.recorder.grn import read_grn\n"
        "from gamerec.recorder.grn_writer import format_grn\n"
        "[record] = read_grn(io.BytesIO(b'[Game \"ONE\"]\\n\\n1. a1 {[%seat 1]}\\n'), 'a.grn')\n"
        "format_grn(record)\n"
        "print(sorted(m for m in sys.modules if m.endswith(('.signing', '.seal', 'hashlib'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.split() == ["[]"]


#: Tag sections a tag a line (what tag_lines reads), now and then with a space or a tab
#: around a tag, a line of two tags, or a broken tag.
TAG_LINE_NOISE = ["", "", "", "", "", "", " ", "\t", '[Event "x"]', "[Event x]", "\r"]
#: What ends a tag section: a blank line mostly.
SECTION_ENDS = ["", "\n", "\n\n", "\n\n", "\n \n", " \n\n", "\r\n\r\n", '\n\n[Site "s"]']


@st.composite
def tag_line_sections(draw: st.DrawFn) -> str:
    """Tags drawn from the pools, one a line, with a little noise."""
    tags = draw(st.lists(st.tuples(st.sampled_from(TAG_NAMES), st.sampled_from(TAG_VALUES))))
    noise = st.sampled_from(TAG_LINE_NOISE)
    lines = [f'[{name} "{value}"]' + draw(noise) for name, value in tags]
    return "\n".join(['[Game "ONE"]', *lines])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(tag_sections(), tag_line_sections()), st.sampled_from(SECTION_ENDS), move_texts())
def test_a_section_read_by_its_lines_gives_the_tags_the_run_gives(
    tags: str, blank: str, moves: str
) -> None:
    # tag_lines answers only for a tag a line then a blank line, and then with what
    # TAG_RUN and TAG_PAIR find (read twice: the second time from the lines it kept).
    text = tags.rstrip("\n") + blank + moves
    end = TAG_RUN.match(text).end()  # type: ignore[union-attr]
    for _ in range(2):
        found = grn_tag_section.tag_lines(text)
        if found is not None:
            assert found == (TAG_PAIR.findall(text, 0, end), end)


def test_a_million_tag_lines_keep_at_most_the_bound() -> None:
    # A million distinct Round lines, and lines too long to keep: the table of lines read
    # never holds more than its entries, nor a long line.
    grn_tag_section.TAG_LINES.clear()
    long_site = '[Site "' + "s" * grn_tag_section.TAG_LINE_CHARS_KEPT + '"]'
    sizes = []
    for number in range(1_000_000):
        found = grn_tag_section.tag_lines(f'[Game "ONE"]\n[Round "{number}"]\n{long_site}\n\n1.')
        assert found is not None and found[0][1] == ("Round", str(number))
        if not number % 997:
            sizes.append(len(grn_tag_section.TAG_LINES))
    assert 0 < max(sizes) <= grn_tag_section.TAG_LINES_ENTRIES
    assert max(map(len, grn_tag_section.TAG_LINES)) <= grn_tag_section.TAG_LINE_CHARS_KEPT


#: Moves each game's syntax reads (the recorder knows no rules).
GAME_MOVES = {
    "ONE": ["g7", "a1", "b3", "c7xc9", "a10xa8xc15"],
    "Oust": ["g7", "a1", "b3", "a1,b2"],
    "Oh-Wah-Ree": ["4cw", "3", "2"],
}
#: Comments a ply may carry that every reader takes: words, times, both, more after them.
CLEAN_COMMENTS = [
    "",
    "",
    " {[%seat 1]}",
    " {[%seat 2] [%clk 0:09:58.250] [%ts 2026-12-07T14:19:36.759Z]}",
    " {[%seat 1] [%clk 0:00:00] [%ts 1970-01-01T00:00:00Z]}",
    " { good move }",
    " {a note}",
    " {a note} {[%seat 2]}",
    "\n{only move}\n{[%seat 1] [%clk 0:06:07.814] [%ts 2026-12-07T14:19:36.759Z]}",
    " {} {[%seat 1]}",
    " { }",
    " {note} {more}",
    " {note} {[%seat 1]} {more}",
    " {\u00e9t\u00e9}",
    " {a\tb\nc}",
    " {twelve chars}",
    " {x [y] z}",
    " {" + "x" * 1001 + "}",
]


@st.composite
def clean_move_texts(draw: st.DrawFn, game: str) -> str:
    """Plies numbered in order, moves of the game, each with a drawn comment."""
    plies = []
    for number in range(1, draw(st.integers(1, 25)) + 1):
        move = draw(st.sampled_from(GAME_MOVES[game])) + draw(st.sampled_from(GLYPHS))
        plies.append(f"{number}. {move}{draw(st.sampled_from(CLEAN_COMMENTS))}")
    return " ".join(plies) + draw(st.sampled_from(["", "\n", " *"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), limits())
def test_runs_of_plies_with_comments_of_words_read_alike(
    data: st.DataObject, drawn: Limits
) -> None:
    # A run takes a comment of words, before a comment of commands or alone; a comment after
    # the run's last ply adds to its comment (that ply is left to the tokens' reading).
    records = []
    for _ in range(data.draw(st.integers(1, 3))):
        game = data.draw(st.sampled_from(sorted(GAME_MOVES)))
        records.append(f'[Game "{game}"]\n\n{data.draw(clean_move_texts(game))}')
    assert_read_alike("\n".join(records).encode(), drawn)


#: The parts of a timed ply's comment a writer writes, and near misses of each: a seat out of
#: range or spelled otherwise, clocks and times out of range, without a calendar day, with an
#: offset, in lower case, before 1970 and at the ends of the years.
TIMED_SEATS = ["1", "2", "3"]
ODD_TIMED_SEATS = ["0", "01", "1234567890", "99999999999", "", "x", "\u0661"]
ODD_CLOCKS = ["0:60:00", "0:00:60", "-0:00:01.5", "0:00:01.1234567890", "12345678:00:00"]
ODD_CLOCKS += ["0:6:07", "9999999:59:59.999999999", "0:00:00", "1:00:00."]
ODD_TIMES = ["2026-02-30T14:19:36Z", "2026-12-07T24:00:00Z", "2026-12-07T14:19:36+01:00"]
ODD_TIMES += ["2026-12-07t14:19:36z", "1969-12-31T23:59:59.5Z", "0001-01-01T00:00:00Z"]
ODD_TIMES += ["9999-12-31T23:59:59.999999999Z", "1970-01-01T00:00:00Z", "2026-12-07T14:19:60Z"]
#: What may follow a run of timed plies: white space, a result, a comment, a variation.
TIMED_ENDS = ["", "", "\n", "  \n", " *", " 31-24", " {a note}", " (2. h7)", " 2."]


@st.composite
def timed_move_texts(draw: st.DrawFn) -> str:
    """Plies each with a writer's seat, clock and time, mostly; now and then one that is not."""
    plies = []
    for number in range(1, draw(st.integers(1, 40)) + 1):
        odd = draw(st.integers(0, 79))
        written, move = _ply_start(draw, number, odd)
        written = f"{number + draw(st.sampled_from([1, -1, 2]))}." if odd == 8 else written
        seat = draw(st.sampled_from(ODD_TIMED_SEATS if odd == 2 else TIMED_SEATS))
        hours, minutes, seconds = draw(st.tuples(*(st.integers(0, 59),) * 3))
        fraction = draw(st.sampled_from(["", ".5", ".250", ".000", f".{number:09d}"]))
        clock = f"{hours % 3}:{minutes:02d}:{seconds:02d}{fraction}"
        clock = draw(st.sampled_from(ODD_CLOCKS)) if odd == 3 else clock
        day = draw(st.sampled_from(["2026-12-07", "2026-12-08", "2027-01-01", "2026-02-28"]))
        time = f"{day}T{hours % 24:02d}:{minutes:02d}:{seconds:02d}{fraction}Z"
        time = draw(st.sampled_from(ODD_TIMES)) if odd == 4 else time
        gap = draw(st.sampled_from(["\n", "\t", "", "  "])) if odd == 5 else " "
        between = draw(st.sampled_from(["  ", "\n", ""])) if odd == 6 else " "
        comment = f"{{[%seat {seat}]{between}[%clk {clock}] [%ts {time}]}}"
        if odd == 7:
            comment = draw(st.sampled_from(TIMES + BREAKS))
        plies.append(f"{written}{draw(st.sampled_from(GAPS))}{move}{gap}{comment}")
        plies.append(draw(st.sampled_from(GAPS)))  # before the next ply, or the end
    return "".join(plies[:-1]) + draw(st.sampled_from(TIMED_ENDS))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records_of_games(timed_move_texts()), limits())
def test_runs_of_timed_plies_read_alike(data: bytes, drawn: Limits) -> None:
    # Live play's move text, read in one findall when it is nothing else (grn_timed.timed_run),
    # reads as the first release's reader reads it, and so does every near miss.
    assert_read_alike(data, drawn)


def test_a_record_of_timed_plies_is_read_by_the_timed_run(monkeypatch: pytest.MonkeyPatch) -> None:
    # The path is taken, and only for a text it reads to its end: one ply with a comment of
    # words, or an impossible day, leaves the whole text to the ply-by-ply reading.
    runs: list[int | None] = []

    def counted(*arguments: Any, **keywords: Any) -> list[bytes] | None:
        plies = grn_timed.timed_run(*arguments, **keywords)
        runs.append(None if plies is None else len(plies))
        return plies

    monkeypatch.setattr(grn_reader, "timed_run", counted)
    text = writers_record(6, "2026-12-07T14:{ply:02d}:{ply:02d}.5Z", "\n")
    [record] = read_grn(io.BytesIO(text.encode()), "a.grn")
    assert runs == [6]
    assert [move.clock.seconds for move in record.moves] == [60 * ply + 58 for ply in range(1, 7)]
    assert [move.timestamp.nanos for move in record.moves] == [500_000_000] * 6
    for changed in (
        text.replace("c9 {[%seat 2] [%clk 0:04", "c9 {words} {[%seat 2] [%clk 0:04"),
        text.replace("2026-12-07T14:05:05.5Z", "2026-02-30T14:05:05.5Z"),
    ):
        runs.clear()
        assert_read_alike(changed.encode(), Limits())
        assert runs[0] is None
