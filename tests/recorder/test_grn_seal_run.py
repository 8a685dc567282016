"""A run of plain plies reads the plies' seal entries as the token-by-token reader reads them.

A sealed record's plies carry ``[%seal <head> 1:<signature>]`` after their other commands.
The reader's run of plain plies (``grn_reader.RecordReader._plain_plies``) takes them, so
that a sealed record is read as fast as a timed one; the tokens' reading stays the reference.
Here every text is read twice in one process, with the run and with the run turned off (every
ply then goes token by token): the records and the first error (message, line and column)
must be the same. The texts are sealed fixture games written by ``format_grn``, then changed
where the rules of entries bite: an entry dropped, given twice, out of turn, in a variation,
without the ``Seal`` tag, not canonical base64, spaced otherwise, before the other commands.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder import grn_plies
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.grn import read_grn
from gamerec.recorder.grn_reader import RecordReader
from gamerec.recorder.grn_seal import parse_ply_seal, ply_seal_bytes
from gamerec.recorder.grn_writer import format_grn
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from tests.sealing import GAME_FIXTURES, TIMEOUT_FIXTURE, signed

#: Each sealed fixture game's GRN text, as the writer writes it (every ply sealed and signed).
TEXTS = {name: format_grn(signed(name)) for name in (*GAME_FIXTURES, TIMEOUT_FIXTURE)}
ENTRY = re.compile(r"\[%seal [^\]]*\]")


@contextmanager
def tokens_only() -> Iterator[None]:
    """Read with the run of plain plies turned off: every ply token by token."""
    with mock.patch.object(RecordReader, "_plain_plies", lambda self, token: token):
        yield


def reading(text: str, limits: Limits | None = None) -> tuple[list[pb.GameRecord], str | None]:
    """The records read from ``text`` and the first error's message (None: none)."""
    found: list[pb.GameRecord] = []
    try:
        found.extend(read_grn(io.BytesIO(text.encode()), "sealed.grn", limits=limits))
    except RecordMalformedError as error:
        return found, str(error)
    return found, None


def assert_read_alike(
    text: str, limits: Limits | None = None
) -> tuple[list[pb.GameRecord], str | None]:
    """Read ``text`` with the run and without it; the two readings must be the same."""
    with tokens_only():
        expected = reading(text, limits)
    assert reading(text, limits) == expected, text[:400]
    return expected


# -- the changes a text may undergo ----------------------------------------------------------------


def _entries(text: str) -> list[re.Match[str]]:
    return list(ENTRY.finditer(text))


def drop_entry(text: str, index: int) -> str:
    """The ply's entry removed (with the space before it, or its whole comment)."""
    found = _entries(text)[index]
    start, end = found.span()
    if text[start - 1] == " ":
        return text[: start - 1] + text[end:]
    return text[: start - 1].rstrip() + text[end + 1 :]


def double_entry(text: str, index: int) -> str:
    """The ply's entry given twice: in the same comment, or in a comment of its own."""
    found = _entries(text)[index]
    return text[: found.end()] + " " + found.group() + text[found.end() :]


def entry_alone_after(text: str, index: int) -> str:
    """The ply's entry copied into a second comment after the first."""
    found = _entries(text)[index]
    close = text.index("}", found.end())
    return text[: close + 1] + " {" + found.group() + "}" + text[close + 1 :]


def entry_first(text: str, index: int) -> str:
    """The ply's entry moved before its other commands."""
    found = _entries(text)[index]
    opening = text.rindex("{", 0, found.start())
    rest = text[opening + 1 : found.start()].rstrip()
    moved = "{" + found.group() + (" " + rest if rest else "")
    return text[:opening] + moved + text[found.end() :]


def spaced(text: str, index: int) -> str:
    """Two spaces inside the ply's entry, or a line break: the token reading's business."""
    found = _entries(text)[index]
    return text[: found.start()] + found.group().replace(" ", "  ", 1) + text[found.end() :]


ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def uncanonical_head(text: str, index: int) -> str:
    """A pad bit of the head set (its last character's lowest bit), or a head not base64."""
    found = _entries(text)[index]
    head = found.group().split()[1]
    data = head.rstrip("=")
    if data != head and data[-1] in ALPHABET:
        changed = data[:-1] + ALPHABET[ALPHABET.index(data[-1]) ^ 1] + head[len(data) :]
    else:
        changed = head[:-1] + "!"
    return text[: found.start()] + found.group().replace(head, changed, 1) + text[found.end() :]


def short_head(text: str, index: int) -> str:
    """A head of 3 bytes: canonical base64, read as any head is (the seal check judges it)."""
    found = _entries(text)[index]
    head = found.group().split()[1]
    return text[: found.start()] + found.group().replace(head, "Zm9v", 1) + text[found.end() :]


def no_head(text: str, index: int) -> str:
    """The head written ``-`` (an entry without a head)."""
    found = _entries(text)[index]
    head = found.group().split()[1]
    return text[: found.start()] + found.group().replace(head, "-", 1) + text[found.end() :]


def bad_signer(text: str, index: int) -> str:
    """A signature's signer ``0`` (seats count from 1)."""
    found = _entries(text)[index]
    changed = re.sub(r" (host|[0-9]+):", " 0:", found.group(), count=1)
    if changed == found.group():
        changed = found.group()[:-1] + " 0:" + base64.b64encode(b"x" * 64).decode() + "]"
    return text[: found.start()] + changed + text[found.end() :]


def in_variation(text: str, index: int) -> str:
    """A variation after the ply, one move with the ply's entry."""
    found = _entries(text)[index]
    close = text.index("}", found.end())
    ply = text.rindex(". ", 0, found.start())
    number_start = ply
    while number_start > 0 and text[number_start - 1].isdigit():
        number_start -= 1
    token = text[ply + 2 : text.index(" ", ply + 2)]
    token = re.sub(r"[!?]+$", "", token.split("\n")[0].split("{")[0])
    variation = f" ({text[number_start:ply]}. {token} {{{found.group()}}})"
    return text[: close + 1] + variation + text[close + 1 :]


def unsealed_tag(text: str, index: int) -> str:
    """The record's seal tags gone: its entries then have no seal to belong to."""
    del index
    return re.sub(r'\[Seal[A-Za-z0-9]* "[^"]*"\]\n', "", text)


def glyph_and_words(text: str, index: int) -> str:
    """A glyph after the ply's move and a comment of words before its commands."""
    found = _entries(text)[index]
    opening = text.rindex("{", 0, found.start())
    return text[:opening].rstrip() + "!? {a fine move} " + text[opening:]


def entry_alone(text: str, index: int) -> str:
    """The ply's other commands gone: its comment holds the entry alone."""
    found = _entries(text)[index]
    opening = text.rindex("{", 0, found.start())
    return text[: opening + 1] + text[found.start() :]


def unreadable_move(text: str, index: int) -> str:
    """The ply's move made a token no game has."""
    found = _entries(text)[index]
    ply = text.rindex(". ", 0, found.start())
    end = min(
        text.index(" ", ply + 2), text.index("\n", ply + 2) if "\n" in text[ply:] else len(text)
    )
    return text[: ply + 2] + "zz99" + text[end:]


CHANGES = [
    drop_entry,
    entry_alone,
    unreadable_move,
    double_entry,
    entry_alone_after,
    entry_first,
    spaced,
    uncanonical_head,
    short_head,
    no_head,
    bad_signer,
    in_variation,
    unsealed_tag,
    glyph_and_words,
]


# -- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_a_sealed_record_is_read_by_the_run_as_by_the_tokens(name: str) -> None:
    records, error = assert_read_alike(TEXTS[name])
    assert error is None
    assert records == [signed(name)]


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_the_run_reads_every_sealed_ply(name: str) -> None:
    # The path is taken: no entry is left to the tokens' comment reader.
    with mock.patch.object(RecordReader, "_ply_seal", side_effect=AssertionError("a token")):
        records, error = reading(TEXTS[name])
    assert error is None and records == [signed(name)]
    assert len(records[0].seal.plies) == len(records[0].moves) > 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(sorted(TEXTS)),
            st.lists(st.tuples(st.sampled_from(CHANGES), st.integers(0, 10_000)), max_size=3),
        ),
        min_size=1,
        max_size=3,
    ),
    st.sampled_from([None, Limits(max_plies=7), Limits(max_moves=12), Limits(max_comment_chars=4)]),
)
def test_changed_sealed_records_read_alike(
    drawn: list[tuple[str, list[tuple[object, int]]]], limits: Limits | None
) -> None:
    texts = []
    for name, changes in drawn:
        text = TEXTS[name]
        for change, index in changes:
            entries = len(_entries(text))
            if entries:
                text = change(text, index % entries)  # type: ignore[operator]
        texts.append(text)
    assert_read_alike("\n".join(texts), limits)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (drop_entry, r"\[%seal\] of ply 4, but ply 3 has none"),
        (double_entry, r"this move already has a \[%seal\] command"),
        (entry_alone_after, r"this move already has a \[%seal\] command"),
        (uncanonical_head, r"not (canonical )?base64"),
        (bad_signer, r"expected a signer 'host' or a seat number from 1"),
        (in_variation, r"\[%seal\] belongs to main-line plies, not variations"),
        (unsealed_tag, r"\[%seal\] needs the record's \[Seal \"1\"\] tag"),
    ],
)
def test_an_entry_the_rules_refuse_is_refused_where_the_tokens_refuse_it(
    change: object, message: str
) -> None:
    text = change(TEXTS["aronda.grn"], 2)  # type: ignore[operator]
    records, error = assert_read_alike(text)
    assert records == [] and error is not None
    assert re.search(message, error), error
    assert re.search(r"line \d+, column \d+", error), error


def test_entries_that_read_are_kept_as_written() -> None:
    for change in (spaced, entry_first, short_head, no_head, glyph_and_words, entry_alone):
        text = change(TEXTS["ohwahree-2p.grn"], 3)
        (record,), error = assert_read_alike(text)
        assert error is None
        assert len(record.seal.plies) == len(signed("ohwahree-2p.grn").seal.plies)
    (record,), _ = reading(no_head(TEXTS["ohwahree-2p.grn"], 3))
    assert record.seal.plies[3].head == b""
    (record,), _ = reading(short_head(TEXTS["ohwahree-2p.grn"], 3))
    assert record.seal.plies[3].head == b"foo"


@pytest.mark.parametrize("change", [glyph_and_words, unreadable_move, entry_alone])
def test_a_change_at_the_last_sealed_ply_reads_alike(change: object) -> None:
    # The last ply of a run with a comment of words is left to the tokens, and so is a ply
    # whose move does not read: the run keeps the entries of the plies it read, no more.
    for text in TEXTS.values():
        last = len(_entries(text)) - 1
        for index in (last, last - 1, 0):
            assert_read_alike(change(text, index))  # type: ignore[operator]


def test_the_plies_kept_hold_no_entry() -> None:
    # The run looks a ply's move up by its text without its entry: the table of plies read
    # keeps no head (each is its own) and the entries' plies meet the unsealed ones' bytes.
    grn_plies.PLY_BYTES.clear()
    reading(TEXTS["one-3p.grn"])
    kept = [text for table in grn_plies.PLY_BYTES.values() for text in table]
    assert kept and not any("seal" in text for text in kept)


ARGUMENTS = st.one_of(
    st.binary(min_size=0, max_size=140).map(lambda data: base64.b64encode(data).decode()),
    st.text(alphabet="AB+/=-:09 hostéQRZ", min_size=1, max_size=12),
    st.builds(
        lambda head, signer, signature: f"{head} {signer}:{signature}",
        st.binary(min_size=32, max_size=32).map(lambda data: base64.b64encode(data).decode()),
        st.sampled_from(["1", "2", "host", "HOST", "0", "01"]),
        st.binary(min_size=0, max_size=64).map(lambda data: base64.b64encode(data).decode()),
    ),
).filter(lambda argument: argument and argument == argument.strip())  # as the reader gives them


@settings(max_examples=500, deadline=None)
@given(ARGUMENTS)
def test_an_entry_reads_to_its_message_bytes_or_the_same_error(argument: str) -> None:
    try:
        expected: bytes | str = parse_ply_seal(argument).SerializeToString()
    except RecordMalformedError as error:
        expected = str(error)
    try:
        found: bytes | str = ply_seal_bytes(argument)
    except RecordMalformedError as error:
        found = str(error)
    assert found == expected


def test_the_move_commands_refuse_a_seal_entry() -> None:
    # A rest that still held its entry would lose it: the move's commands refuse it instead.
    with pytest.raises(RecordMalformedError, match="not a command of the move"):
        grn_plies.command_fields("[%seat 1] [%seal AAAA]")
