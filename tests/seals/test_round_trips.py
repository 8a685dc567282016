"""A seal survives every encoding: the chain is computed from the canonical form, not bytes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder import seal
from gamerec.recorder.codecs import (
    Encoding,
    decode_record,
    encode_record,
    read_records,
    write_records,
)
from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.main_line import main_line_moves
from gamerec.recorder.notation import format_action
from gamerec.recorder.seal import chain_of, seal_record
from gamerec.recorder.signing import sign_record
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.validator.seal_check import check_seal, sealed_plies
from gamerec.validator.verification import verify
from tests.sealing import GAME_FIXTURES, TIMEOUT_FIXTURE, key, public, signed
from tests.strategies import records

ENCODINGS = (Encoding.PB, Encoding.PBS, Encoding.JSON, Encoding.JSONL, Encoding.GRN)


@pytest.mark.parametrize("name", [*GAME_FIXTURES, TIMEOUT_FIXTURE])
@pytest.mark.parametrize("encoding", ENCODINGS, ids=lambda encoding: encoding.value)
def test_a_signed_record_goes_through_every_encoding_and_still_verifies(
    name: str, encoding: Encoding
) -> None:
    record = signed(name)
    back = decode_record(encode_record(record, encoding), encoding)
    assert back == record
    assert verify(back).verified


@pytest.mark.parametrize("name", GAME_FIXTURES)
def test_pb_to_grn_to_jsonl_to_pb_keeps_the_seal_valid(name: str, tmp_path: Path) -> None:
    record = signed(name)
    path = tmp_path / "game.pb"
    write_records([record], str(path))
    for suffix in ("grn", "jsonl", "pb"):
        (read,) = read_records(str(path))
        path = tmp_path / f"next.{suffix}"
        write_records([read], str(path))
    (last,) = read_records(str(path))
    assert last == record
    assert verify(last).verified


def test_comments_glyphs_and_variations_stay_outside_the_seal() -> None:
    record = signed("one-3p.grn")
    record.comment = "a fine game"
    record.moves[3].comment = "sharp"
    record.moves[3].glyph = pb.GLYPH_BRILLIANT
    record.moves[3].variations.add().moves.add().one.path.add(ring=1, index=1)
    record.seats[0].rating = 2100
    record.metadata.client = "another tool"
    record.metadata.extra_tags["Annotator"] = "Ana"
    assert verify(record).verified


def _sealable(record: pb.GameRecord) -> pb.GameRecord:
    """The record with keys for its first seats, sealed and signed by them."""
    seats = min(len(record.seats), 3)
    keys = [public(seat) for seat in range(1, seats + 1)]
    sealed = seal_record(record, keys, public(0))
    for signer in range(seats + 1):
        sealed = sign_record(sealed, key(signer), signer)
    return sealed


@settings(max_examples=60, deadline=None)
@given(records(), st.sampled_from(ENCODINGS))
def test_any_sealed_record_keeps_its_seal_in_every_encoding(
    record: pb.GameRecord, encoding: Encoding
) -> None:
    sealed = _sealable(record)
    back = decode_record(encode_record(sealed, encoding), encoding)
    assert back == sealed
    check = check_seal(back)
    assert check.status == spb.SEAL_STATUS_HOLDS, check.findings
    assert chain_of(back, list(back.seal.seat_keys), back.seal.host_key).final == (
        sealed.seal.final_head
    )


@settings(max_examples=60, deadline=None)
@given(records(depth=0), st.integers(0, 5), st.integers(1, 2**31))
def test_any_change_to_a_main_line_ply_breaks_the_seal_at_it(
    record: pb.GameRecord, index: int, seat: int
) -> None:
    sealed = _sealable(record)
    if index >= len(sealed.moves) or sealed.moves[index].seat == seat:
        return
    sealed.moves[index].seat = seat
    (broken, *_) = check_seal(sealed).findings
    assert (broken.code, broken.ply) == ("SEAL_BROKEN", index + 1)


def _spoiled(text: str, at: int, junk: str) -> str:
    return text[:at] + junk + text[at:]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(GAME_FIXTURES),
    st.integers(0, 10**6),
    st.sampled_from(["", "=", "x", " ", "]", "[%seal ", "host:", "9:", '"', "\n", "A" * 60]),
    st.integers(0, 40),
)
def test_the_grn_reader_refuses_a_spoiled_seal_with_a_clear_error(
    name: str, where: int, junk: str, cut: int
) -> None:
    """Fuzz the seal's GRN forms: a spoiled tag or command reads or is refused, never a crash."""
    text = encode_record(signed(name), Encoding.GRN).decode()
    places = [i for i in range(len(text)) if text.startswith(("[Seal", "[%seal"), i)]
    at = places[where % len(places)] + cut
    spoiled = _spoiled(text, at, junk) if junk else text[:at] + text[at + 3 :]
    try:
        back = decode_record(spoiled.encode(), Encoding.GRN)
    except RecordMalformedError as error:
        assert len(str(error)) < 1000
        return
    verify(back)  # whatever it reads, verify answers with findings, not an exception


def test_a_number_the_variant_holds_is_sealed_even_when_it_is_0() -> None:
    """[Players "0"] is an impossible variant, not the default: the seal keeps them apart."""
    plain = pb.GameRecord(rules=pb.Rules(game=pb.GAME_OUST), seats=[pb.Seat(name="Kim")])
    empty = pb.GameRecord()
    empty.CopyFrom(plain)
    empty.rules.oust.SetInParent()
    zero = pb.GameRecord()
    zero.CopyFrom(empty)
    zero.rules.oust.players = 0
    heads = [seal_record(record).seal.identity_head for record in (plain, empty, zero)]
    assert heads[0] == heads[1] != heads[2]
    changed = seal_record(zero)
    changed.rules.oust.ClearField("players")
    assert check_seal(changed).findings[0].code == "SEAL_BROKEN"


def test_the_tokens_remembered_for_the_chain_stay_within_their_bound() -> None:
    # A flood of distinct actions keeps no more tokens than the bound, and a token read from
    # the table is the one format_action gives.
    seal._TOKENS.clear()
    moves = [
        pb.Move(seat=1, oust=pb.OustTurn(placements=[pb.OustCell(column=col, row=row)]))
        for col in range(1, 27)
        for row in range(1, 200)
    ]
    assert len(moves) > seal.TOKENS_REMEMBERED
    steps = [seal.ply_items(1, move, pb.GAME_OUST) for move in moves]
    assert 0 < len(seal._TOKENS) <= seal.TOKENS_REMEMBERED
    again = [seal.ply_items(1, move, pb.GAME_OUST) for move in moves[-5:]]
    assert again == steps[-5:]
    assert [items[3] for items in steps] == [
        format_action(move, pb.GAME_OUST).encode() for move in moves
    ]


def test_a_move_with_times_finds_the_token_of_its_action() -> None:
    # The token is remembered by the action, not the move's bytes: moves with their own
    # clocks, timestamps, seats and comments share one entry, and their steps hold their times.
    seal._TOKENS.clear()
    seal._TAILS.clear()
    moves = []
    for second in range(1, 500):
        move = pb.Move(seat=1 + second % 2, one=pb.OneMove(path=[pb.OnePoint(ring=1, index=1)]))
        move.clock.seconds, move.timestamp.seconds = second, 1_796_000_000 + second
        move.comment = f"note {second}"
        moves.append(move)
    steps = [seal.ply_items(7, move, pb.GAME_ONE) for move in moves]
    assert len(seal._TOKENS) == 1
    assert steps[0][4:] == [b"1s", b"2026-11-30T00:53:21Z"]
    heads, error = seal.ply_heads(bytes(32), moves, pb.GAME_ONE, first=7)
    assert error is None and not seal._TAILS  # a move with times is never remembered whole
    previous = bytes(32)
    for ply, (move, head) in enumerate(zip(moves, heads, strict=True), start=7):
        previous = seal.next_head(previous, seal.ply_items(ply, move, pb.GAME_ONE))
        assert head == previous


def test_the_ply_steps_remembered_stay_within_their_bound() -> None:
    # A flood of distinct plain moves keeps no more than the bound, a long move none, and a
    # head made from a remembered step is the head of the ply's items.
    seal._TAILS.clear()
    moves = [
        pb.Move(seat=seat, oust=pb.OustTurn(placements=[pb.OustCell(column=1, row=1)]))
        for seat in range(1, seal.TAILS_REMEMBERED + 100)
    ]
    long_move = pb.Move(
        seat=1,
        oust=pb.OustTurn(placements=[pb.OustCell(column=n % 26 + 1, row=n) for n in range(1, 100)]),
    )
    assert len(long_move.SerializeToString()) > seal.TAIL_MOVE_BYTES
    for _ in range(2):
        heads, error = seal.ply_heads(bytes(32), [*moves, long_move], pb.GAME_OUST)
        assert error is None
        assert 0 < len(seal._TAILS) <= seal.TAILS_REMEMBERED
        assert all(len(data) <= seal.TAIL_MOVE_BYTES for _, data in seal._TAILS)
        previous = bytes(32)
        for ply, (move, head) in enumerate(zip([*moves, long_move], heads, strict=True), 1):
            previous = seal.next_head(previous, seal.ply_items(ply, move, pb.GAME_OUST))
            assert head == previous


@given(
    record=records(),
    tampered=st.integers(0, 200),
    first=st.sampled_from([1, 2, 4095, 4096, 10**6]),
)
@settings(max_examples=150, deadline=None)
def test_the_heads_with_a_seal_stop_at_the_first_that_differs(
    record: pb.GameRecord, tampered: int, first: int
) -> None:
    # ply_heads with the sealed heads gives the chain's heads up to the first that differs
    # (included) or the first ply with no canonical form (its error), as a ply-by-ply loop.
    game = record.rules.game
    expected, previous, error = [], bytes(32), None
    for ply, move in enumerate(record.moves, start=first):
        try:
            previous = seal.next_head(previous, seal.ply_items(ply, move, game))
        except EncodingError as problem:
            error = str(problem)
            break
        expected.append(previous)
    sealed = [
        bytes([index == tampered]) * 32 if index == tampered else head
        for index, head in enumerate(expected)
    ]
    heads, found = seal.ply_heads(bytes(32), record.moves, game, sealed, first=first)
    cut = tampered + 1 if tampered < len(expected) else len(expected)
    assert heads == expected[:cut]
    assert (str(found) if found is not None else None) == (error if cut == len(expected) else None)
    assert seal.ply_heads(bytes(32), record.moves, game, first=first)[0] == expected


#: What a writer other than protobuf may add to a move's bytes: nothing, a field this schema
#: does not know (number 99), the seat given again (the last one counts), a comment field.
MOVE_EXTRAS = [b"", b"\x98\x06\x01", b"\x08\x02", b"\x08\x00", b"\x4a\x01x"]


@given(record=records(), extra=st.sampled_from(MOVE_EXTRAS), tampered=st.integers(0, 200))
@settings(max_examples=150, deadline=None)
def test_the_heads_from_a_records_move_bytes_are_the_moves_heads(
    record: pb.GameRecord, extra: bytes, tampered: int
) -> None:
    # The seal's check reads the moves' bytes from the record's (main_line_moves) instead of
    # serializing each move: bytes as another writer puts them, the tails remembered by them
    # or by protobuf's, in either order, give the heads of the plies' items.
    game = record.rules.game
    moves_bytes = [move.SerializeToString() + extra for move in record.moves]
    raw = b"".join(b"\x2a" + encode_varint(len(data)) + data for data in moves_bytes)
    line = pb.GameRecord.FromString(raw).moves
    assert main_line_moves(raw) == moves_bytes
    expected, previous = [], bytes(32)
    for ply, move in enumerate(line, start=1):
        try:
            previous = seal.next_head(previous, seal.ply_items(ply, move, game))
        except EncodingError:
            break
        expected.append(previous)
    sealed = [bytes(32) if index == tampered else head for index, head in enumerate(expected)]
    seal._TAILS.clear()
    for given_bytes in (moves_bytes, None, moves_bytes):
        heads, _ = seal.ply_heads(bytes(32), line, game, sealed, moves_bytes=given_bytes)
        assert heads == expected[: tampered + 1]
        assert seal.ply_heads(bytes(32), line, game, moves_bytes=given_bytes)[0] == expected


def test_a_sealed_records_check_reads_its_moves_bytes() -> None:
    # validate hands the seal's check the record's bytes: the same status and findings, for a
    # seal that holds and for one broken at a ply; a list of another length is not used.
    for name in GAME_FIXTURES:
        record = signed(name)
        raw = record.SerializeToString()
        broken = pb.GameRecord.FromString(raw)
        broken.moves[1].seat = 3 - broken.moves[1].seat
        for case in (record, broken):
            data = main_line_moves(case.SerializeToString())
            alone = check_seal(case)
            for given_bytes in (data, data[:-1]):
                read = check_seal(case, moves_bytes=given_bytes)
                assert (read.status, read.findings, read.intact) == (
                    alone.status,
                    alone.findings,
                    alone.intact,
                )
        assert check_seal(record).status == spb.SEAL_STATUS_HOLDS
        assert check_seal(broken).status == spb.SEAL_STATUS_BROKEN


@given(
    seconds=st.one_of(st.integers(0, 10**6), st.integers(-(10**12), 10**12)),
    nanos=st.one_of(st.sampled_from([0, 1, 1000, 10**6, 5 * 10**8]), st.integers(-(10**9), 10**9)),
)
def test_a_clock_is_written_as_protojson_writes_it(seconds: int, nanos: int) -> None:
    clock = pb.Move().clock
    clock.seconds, clock.nanos = seconds, nanos
    try:
        expected = clock.ToJsonString()
    except ValueError as error:
        with pytest.raises(EncodingError, match=re.escape(str(error))):
            seal._duration_text(clock)
        return
    assert seal._duration_text(clock) == expected


@settings(max_examples=200, deadline=None)
@given(record=records(), ply=st.one_of(st.integers(1, 5000), st.integers(1, 2**40)))
def test_a_ply_head_written_in_one_piece_is_the_head_of_the_plys_items(
    record: pb.GameRecord, ply: int
) -> None:
    previous = bytes(range(32))
    for move in record.moves:
        try:
            expected = seal.next_head(previous, seal.ply_items(ply, move, record.rules.game))
        except EncodingError as error:
            with pytest.raises(EncodingError, match=re.escape(str(error))):
                seal.ply_head(previous, ply, move, record.rules.game)
            continue
        assert seal.ply_head(previous, ply, move, record.rules.game) == expected


#: A sealed ply's bytes as writers may put them: a head alone (32 bytes, or another length),
#: a head with a signature, a head given twice (the last counts), signatures first, a field
#: this schema does not know after the head, nothing at all.
@st.composite
def sealed_ply_bytes(draw: st.DrawFn) -> bytes:
    """One ``SealedPly``'s bytes, mostly a head alone."""
    head = draw(st.binary(min_size=32, max_size=32))
    signature = spb.Signature(signer=draw(st.integers(0, 4)), signature=bytes(64))
    signed = spb.SealedPly(head=head, signatures=[signature]).SerializeToString()
    return draw(
        st.sampled_from(
            [
                b"\n " + head,
                b"\n " + head,
                b"\n " + head,
                b"\n\x1f" + head[:31],
                b"\n!" + head + b"x",
                signed,
                b"\n " + head + b"\n " + head[::-1],
                signature_field(signature) + b"\n " + head,
                b"\n " + head + b"\x98\x06\x01",
                b"\n\x1d" + head[:29] + b"\x98\x06\x01",  # 34 bytes, not a head alone
                b"",
            ]
        )
    )


def signature_field(signature: spb.Signature) -> bytes:
    """A ``SealedPly.signatures`` field (2) holding ``signature``."""
    data = signature.SerializeToString()
    return b"\x12" + encode_varint(len(data)) + data


@given(st.lists(sealed_ply_bytes(), max_size=40), st.booleans())
@settings(max_examples=300, deadline=None)
def test_a_seals_plies_read_from_its_bytes_are_its_plies(plies: list[bytes], keys: bool) -> None:
    # sealed_plies reads a seal whose plies are heads alone from its bytes; any seal gives the
    # heads and signed plies of its messages, read one by one.
    others = spb.Seal(version=1, seat_keys=[bytes(32)] * 2 if keys else []).SerializeToString()
    raw = others + b"".join(b"\x2a" + encode_varint(len(ply)) + ply for ply in plies)
    seal_message = spb.Seal.FromString(raw)
    read = sealed_plies(seal_message)
    assert read.heads == [ply.head for ply in seal_message.plies]
    signed = [number for number, ply in enumerate(seal_message.plies, 1) if ply.signatures]
    assert read.signed == signed
