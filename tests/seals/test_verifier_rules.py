"""The points docs/seals.md settles for a verifier written in another language (issue 38).

Each test holds one sentence of the docs: how GRN spells a seal (strictly: one text per seal),
which ``\\uXXXX`` escapes GRN decodes, what is refused when given twice, times outside
protobuf's range, extra and missing seat keys, what ``sign --as host`` signs, and where a
``SEAL_BROKEN`` finding points.
"""

from __future__ import annotations

import io
import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.grn import read_grn
from gamerec.recorder.grn_values import unescape
from gamerec.recorder.grn_writer import format_grn
from gamerec.recorder.protojson import encode_json, parse_json_record
from gamerec.recorder.seal import chain_of, seal_record
from gamerec.recorder.signing import openssh_line, sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.verification import seal_proof, verify
from tests.seals.vectors import aronda, key, public


def grn(text: str) -> pb.GameRecord:
    (record,) = read_grn(io.BytesIO(text.encode()), "t.grn")
    return record


def refused(text: str) -> str:
    with pytest.raises(RecordMalformedError) as error:
        grn(text)
    return str(error.value)


@pytest.fixture(scope="module")
def genuine_text() -> str:
    return format_grn(aronda())


def first_command(text: str) -> str:
    start = text.index("[%seal ")
    return text[start : text.index("]", start)]


def codes(record: pb.GameRecord) -> list[tuple[str, int, int]]:
    return [(f.code, f.ply, f.seat) for f in seal_proof(record).findings]


# -- GRN: one text per seal ------------------------------------------------------------------


@pytest.mark.parametrize("signer", ["0", "01", "00", "+1", "-1", "seat1", "h0st", ""])
def test_a_signer_is_host_or_a_seat_from_1_without_a_leading_zero(
    genuine_text: str, signer: str
) -> None:
    command = first_command(genuine_text)
    word = next(w for w in command.split() if w.startswith("host:"))
    changed = genuine_text.replace(word, f"{signer}:{word[5:]}", 1)
    assert "signer 'host' or a seat number" in refused(changed) or not signer


@pytest.mark.parametrize("signer", ["host", "HOST", "Host"])
def test_host_is_read_in_any_case_as_every_grn_word(genuine_text: str, signer: str) -> None:
    changed = genuine_text.replace(" host:", f" {signer}:")
    assert grn(changed) == grn(genuine_text)


def test_seal_tags_and_commands_take_only_canonical_base64(genuine_text: str) -> None:
    head = re.search(r'\[SealStart "([^"]+)"\]', genuine_text)
    assert head is not None
    value = head.group(1)
    unpadded = genuine_text.replace(value, value.rstrip("="))
    assert "is not base64" in refused(unpadded)
    last = value.rstrip("=")[-1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    other = alphabet[alphabet.index(last) ^ 1]  # the same bytes, a pad bit set or cleared
    bits = genuine_text.replace(value, value.rstrip("=")[:-1] + other + "=")
    assert "is not canonical base64" in refused(bits)
    command = first_command(genuine_text)
    ply_head = command.split()[1]
    assert "is not base64" in refused(genuine_text.replace(ply_head, ply_head + "=", 1))
    signature = command.split()[2]
    # white space (Python's str.isspace, docs/encodings.md) splits words: the rest is no signer
    spaced = genuine_text.replace(signature, signature[:10] + "\u00a0" + signature[10:], 1)
    assert "expected signer:signature" in refused(spaced)


def test_a_seal_key_is_exactly_the_line_gamerec_writes(genuine_text: str) -> None:
    line = openssh_line(public("seat2"))
    assert f'[SealKey2 "{line}"]' in genuine_text
    for written in (f"{line} ben@laptop", line.replace(" ", "  "), f" {line}"):
        changed = genuine_text.replace(f'[SealKey2 "{line}"]', f'[SealKey2 "{written}"]')
        assert "expected exactly 'ssh-ed25519 <base64>'" in refused(changed)


# -- GRN: \uXXXX, and things given twice -----------------------------------------------------

#: The characters docs/encodings.md "Escaping" lists for \uXXXX.
U_ESCAPED = {
    *range(0x00, 0x20),
    *range(0x7F, 0xA0),
    0x20,
    0xA0,
    0x1680,
    *range(0x2000, 0x200B),
    0x2028,
    0x2029,
    0x202F,
    0x205F,
    0x3000,
}


def test_u_escapes_decode_exactly_the_control_and_white_space_characters() -> None:
    for point in range(0x10000):
        escape = f"\\u{point:04x}"
        decoded = unescape(escape)
        assert (decoded == chr(point)) == (point in U_ESCAPED), hex(point)
        if point not in U_ESCAPED:
            assert decoded == escape
    white_space = {p for p in U_ESCAPED if unicodedata.category(chr(p)) != "Cc"}
    assert white_space == {
        p for p in range(0x10000) if chr(p).isspace() and unicodedata.category(chr(p)) != "Cc"
    }


@pytest.mark.parametrize("name", ["clk", "ts", "seat", "seal"])
def test_a_command_given_twice_on_one_move_is_refused(genuine_text: str, name: str) -> None:
    start = genuine_text.index(f"[%{name} ")
    command = genuine_text[start : genuine_text.index("]", start) + 1]
    # in the same comment, and in a second comment on the same move
    twice = genuine_text.replace(command, f"{command} {command}", 1)
    assert f"this move already has a [%{name}] command" in refused(twice)
    apart = genuine_text.replace(command + "]}", command + "]} {" + command + "}", 1)
    if apart != genuine_text:
        assert f"this move already has a [%{name}] command" in refused(apart)


@pytest.mark.parametrize("tag", ["Seat2", "SealKey1", "SealSigned", "Event"])
def test_a_tag_given_twice_is_refused_in_any_case(genuine_text: str, tag: str) -> None:
    line = next(line for line in genuine_text.splitlines() if line.startswith(f"[{tag} "))
    again = line.replace(f"[{tag} ", f"[{tag.upper()} ")
    assert "is given twice (first on line" in refused(
        genuine_text.replace(line, f"{line}\n{again}")
    )


# -- times outside protobuf's range ----------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "seconds", "nanos"),
    [
        ("clock", 315_576_000_001, 0),
        ("clock", -315_576_000_001, 0),
        ("clock", 5, -1),  # signs differ
        ("clock", 0, 1_000_000_000),
        ("timestamp", -62_135_596_801, 0),  # before 0001-01-01
        ("timestamp", 253_402_300_800, 0),  # after 9999-12-31T23:59:59Z
        ("timestamp", 0, -1),
    ],
)
def test_a_time_outside_protobufs_range_cannot_be_sealed_and_breaks_a_seal(
    field: str, seconds: int, nanos: int
) -> None:
    record = aronda()
    getattr(record.moves[4], field).seconds = seconds
    getattr(record.moves[4], field).nanos = nanos
    with pytest.raises(EncodingError, match="ply 5"):
        seal_record(record)
    assert codes(record)[0] == ("SEAL_BROKEN", 5, 0)
    assert "ply 5 has no canonical form" in seal_proof(record).findings[0].message
    with pytest.raises(EncodingError, match="ply 5"):
        format_grn(record)


def test_a_start_time_outside_the_range_breaks_the_identity() -> None:
    record = aronda()
    record.metadata.start_time.seconds = 253_402_300_800
    assert codes(record) == [("SEAL_BROKEN", 0, 0)]
    assert "identity has no canonical form" in seal_proof(record).findings[0].message


@pytest.mark.parametrize(
    "clock", ["87660000:00:01", "0:60:00", "0:00:60", "0:00:01.1234567890", "1:2", "0:00:01."]
)
def test_grn_refuses_a_clock_outside_the_range_or_its_form(clock: str) -> None:
    text = '[Game "Oust"]\n\n1. g7 {[%clk ' + clock + "]}\n"
    refused(text)


# -- keys and signers ------------------------------------------------------------------------


def test_more_seat_keys_than_seats_is_malformed_and_fewer_leave_seats_without_keys() -> None:
    record = aronda()
    record.seal.seat_keys.append(b"")
    assert codes(record) == [("SEAL_MALFORMED", 0, 0)]  # even an empty extra key
    one_key = seal_record(record, [public("seat1")], public("host"))
    explicit = seal_record(record, [public("seat1"), b""], public("host"))
    assert one_key.seal.identity_head == explicit.seal.identity_head
    assert ("NO_KEY", 0, 2) in codes(one_key)


def test_the_host_signs_every_plys_head_and_the_final_head() -> None:
    record = aronda()
    record.ClearField("seal")
    sealed = seal_record(record, [public("seat1"), public("seat2")], public("host"))
    signed = sign_record(sealed, key("host"), 0)
    assert all([s.signer for s in ply.signatures] == [0] for ply in signed.seal.plies)
    assert [s.signer for s in signed.seal.final_signatures] == [0]
    host = next(s for s in seal_proof(signed).signers if s.signer == 0)
    assert host.signed_result and host.valid_signatures == len(record.moves) + 1
    help_text = " ".join(CliRunner().invoke(app, ["sign", "--help"]).output.split())
    assert "the host signs the head after every ply" in help_text


def test_a_broken_ply_names_the_seat_in_its_message_and_no_seat_in_the_finding() -> None:
    record = aronda()
    record.moves[5].aronda.placements[1].index = 7
    (finding,) = seal_proof(record).findings
    assert (finding.code, finding.ply, finding.seat) == ("SEAL_BROKEN", 6, 0)
    assert "ply 6 (seat 2) is not the ply that was sealed there" in finding.message


def test_after_a_break_only_earlier_signatures_are_checked_and_no_coverage_is_reported() -> None:
    record = aronda()
    record.moves[5].aronda.placements[1].index = 7
    for sealed in record.seal.plies[7:]:  # garbage signatures past the break are not looked at
        for signature in sealed.signatures:
            signature.signature = bytes(64)
    answer = verify(record)
    assert [(f.code, f.ply) for f in answer.findings if f.code.startswith(("SEAL", "SIG"))] == [
        ("SEAL_BROKEN", 6)
    ]
    assert not {f.code for f in answer.findings} & {"UNSIGNED_PLIES", "UNSIGNED_RESULT"}
    assert {s.signer: s.signed_through for s in answer.signers} == {1: 5, 2: 4, 0: 5}


def test_an_unsealed_record_is_not_sealed_and_nothing_else_of_the_seal() -> None:
    record = aronda()
    record.ClearField("seal")
    answer = seal_proof(record)
    assert codes(record) == [("NOT_SEALED", 0, 0)] and not answer.signers


def test_chain_of_refuses_more_keys_than_seats() -> None:
    with pytest.raises(EncodingError, match="3 seat keys"):
        chain_of(aronda(), [b"", b"", b""], b"")


# -- ProtoJSON: the seal's bytes in one text ---------------------------------------------------


def _json_with(path: list[str | int], change: Callable[[str], str]) -> bytes:
    mapping = json.loads(encode_json(aronda()))
    holder: Any = mapping["seal"]
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = change(holder[path[-1]])
    return json.dumps(mapping).encode()


@pytest.mark.parametrize(
    "path",
    [
        ["identityHead"],
        ["hostKey"],
        ["seatKeys", 1],
        ["finalHead"],
        ["plies", 3, "head"],
        ["plies", 3, "signatures", 1, "signature"],
        ["finalSignatures", 0, "signature"],
    ],
)
@pytest.mark.parametrize(
    "change",
    [
        lambda text: text.rstrip("="),  # unpadded
        lambda text: "-_" + text[2:],  # URL-safe letters
        lambda text: text[:4] + "!" + text[4:],  # a character outside the alphabet
        lambda text: text[:4] + " " + text[4:],
    ],
)
def test_protojson_takes_the_seals_bytes_only_as_gamerec_writes_them(
    path: list[str | int], change: Callable[[str], str]
) -> None:
    with pytest.raises(RecordMalformedError, match=r"seal\..* is not base64 as gamerec writes"):
        parse_json_record(_json_with(path, change), "t.json", 1)


def test_protojson_reads_the_seal_as_gamerec_writes_it_under_either_field_name() -> None:
    mapping = json.loads(encode_json(aronda()))
    seal = mapping["seal"]
    seal["identity_head"] = seal.pop("identityHead")
    record = parse_json_record(json.dumps(mapping).encode(), "t.json", 1)
    assert record == aronda()
    seal["identity_head"] = seal["identity_head"].rstrip("=")
    with pytest.raises(RecordMalformedError, match=r"seal\.identity_head"):
        parse_json_record(json.dumps(mapping).encode(), "t.json", 1)


def _json_record_with_clock(clock: str, *, in_variation: bool) -> bytes:
    move = {"seat": 1, "aronda": {"placements": [{"ring": "ARONDA_RING_OUTER", "index": 3}]}}
    timed = {**move, "clock": clock}
    moves = [{**move, "variations": [{"moves": [timed]}]}] if in_variation else [timed]
    mapping = {"rules": {"game": "GAME_ARONDA"}, "seats": [{}, {}], "moves": moves}
    return json.dumps(mapping).encode()


@pytest.mark.parametrize("in_variation", [False, True])
@pytest.mark.parametrize("clock", ["1.1234567891s", "+1s", "1.s", ".5s", "1", "1 s"])
def test_protojson_refuses_a_clock_it_would_read_as_another_value(
    clock: str, in_variation: bool
) -> None:
    data = _json_record_with_clock(clock, in_variation=in_variation)
    with pytest.raises(RecordMalformedError, match=r"moves\[0\].*clock: .* is not a duration"):
        parse_json_record(data, "t.json", 1)


@pytest.mark.parametrize(
    ("clock", "seconds", "nanos"),
    [("598s", 598, 0), ("598.25s", 598, 250_000_000), ("-0.000000001s", 0, -1)],
)
def test_protojson_reads_clocks_of_one_to_nine_fraction_digits(
    clock: str, seconds: int, nanos: int
) -> None:
    record = parse_json_record(_json_record_with_clock(clock, in_variation=False), "t.json", 1)
    assert (record.moves[0].clock.seconds, record.moves[0].clock.nanos) == (seconds, nanos)


@pytest.mark.parametrize("version", ["01", "+1", " 1", "1.0"])
def test_the_seal_version_has_one_text(genuine_text: str, version: str) -> None:
    changed = genuine_text.replace('[Seal "1"]', f'[Seal "{version}"]')
    assert "Seal: expected the seal's version" in refused(changed)
