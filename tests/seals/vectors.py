"""The seal test vectors of docs/seal-vectors/ (docs/seals.md "Test vectors"), built in memory.

:func:`files` makes every file of the folder, byte for byte: the records of each case in the
encodings that hold it, the public keys, and ``manifest.json`` with each case's expected
findings, computed by gamerec itself. Everything is fixed (keys from fixed seeds, Ed25519's
deterministic signatures, games played through the record builder from fixed move lists), so
``python -m scripts.make_seal_vectors`` writes the same bytes on every run and ``--check``
finds stale files.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gamerec.recorder.binary import record_bytes
from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_writer import format_grn
from gamerec.recorder.protojson import encode_json
from gamerec.recorder.seal import (
    chain_of,
    identity_items,
    ply_items,
    ply_message,
    result_items,
    seal_record,
    step,
)
from gamerec.recorder.signing import fingerprint, openssh_line, public_bytes, sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verification_pb2 as wpb
from gamerec.validator.builder import RecordBuilder
from gamerec.validator.verification import seal_proof, verify

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "seal-vectors"
#: The manifest's format (docs/seals.md "Test vectors").
MANIFEST_FORMAT = 1
#: The signers of the vectors: a seat's number, 0 for the host.
KEY_NAMES = {1: "seat1", 2: "seat2", 3: "seat3", 0: "host"}
STRANGER = "stranger"
STATUS = {
    spb.SEAL_STATUS_NONE: "NONE",
    spb.SEAL_STATUS_HOLDS: "HOLDS",
    spb.SEAL_STATUS_BROKEN: "BROKEN",
}


def seed(name: str) -> bytes:
    """The fixed 32-byte Ed25519 seed of a vector key: SHA-256 of its name's label."""
    return hashlib.sha256(f"gamerec seal vector key {name}".encode()).digest()


def key(name: str) -> Ed25519PrivateKey:
    """The fixed private key called ``name`` (``seat1`` ... ``host``, ``stranger``)."""
    return Ed25519PrivateKey.from_private_bytes(seed(name))


def public(name: str) -> bytes:
    """The 32-byte public key of :func:`key`."""
    return public_bytes(key(name))


def _keys(seats: int) -> dict[int, Ed25519PrivateKey]:
    return {signer: key(KEY_NAMES[signer]) for signer in [*range(1, seats + 1), 0]}


# -- the games -------------------------------------------------------------------------------


def aronda() -> pb.GameRecord:
    """Aronda, 15 plies and a timeout, with every identity field, clocks and timestamps.

    The clocks have 0, 3, 6 and 9 fraction digits and the last one is negative (the time ran
    out), so each form of a duration (docs/seals.md 2.4) is hashed; a seat's name and the event
    need GRN's escapes (a quote, a backslash, a tab) and UTF-8.
    """
    start = datetime(2026, 11, 29, 20, 0, 0, tzinfo=UTC)
    builder = RecordBuilder(
        "Aronda",
        seats=[pb.Seat(name="Ana", player_id="ana@club"), pb.Seat(name='Ben "B." \\ Ørn')],
        signing_keys=_keys(2),
        event="Club night\t(rapid)",
        site="Göteborg",
        round="3",
        date="2026-11-29",
        time_control="300+3",
        start_time=start,
    )
    moves = "o3 o7,o7 o3,o5 o1,o1 m3,o5 m1,i8 o8,i3 i8,i8 i3,i3 i7,i6 o8,o8 i7,i7 m5,m8 i6,i6"
    fractions = [
        timedelta(0),
        timedelta(milliseconds=250),
        timedelta(microseconds=1),
        timedelta(microseconds=500),
    ]
    for ply, token in enumerate([*moves.split(), "m8,m8"], start=1):
        clock = timedelta(seconds=300 - 10 * ply) + fractions[ply % 4]
        if ply == 15:
            clock = timedelta(seconds=-1, milliseconds=-500)
        builder.play(
            token, clock=clock, timestamp=start + timedelta(seconds=12 * ply, milliseconds=5 * ply)
        )
    builder.stop("timeout", winners=[1])
    return builder.record


def one() -> pb.GameRecord:
    """ONE for three players on rings of 6 and 6 with mirror none: variant items, a score claim."""
    builder = RecordBuilder(
        "ONE",
        {"Players": 3, "Board": "6,6", "Mirror": "none"},
        seats=["Ana", "Ben", "Chi"],
        signing_keys=_keys(3),
    )
    for _ in range(7):
        builder.play(builder.legal_moves()[0])
    builder.stop("agreement", scores=list(builder.scores()), winners=[1, 3])
    return builder.record


def oust() -> pb.GameRecord:
    """Oust on side 5 with the pie rule: a ``swap``, then the game abandoned (``*``)."""
    builder = RecordBuilder("Oust", {"Board": 5}, seats=["Ana", "Ben"], signing_keys=_keys(2))
    for token in ("e5", "swap", "c3", "g7"):
        builder.play(token)
    builder.stop("abandoned", unfinished=True)
    return builder.record


def ohwahree() -> pb.GameRecord:
    """Oh-Wah-Ree for three, free sowing directions (``2cw``), a resignation, then adjudicated."""
    builder = RecordBuilder(
        "Oh-Wah-Ree",
        {"Players": 3, "Direction": "free"},
        seats=["Ana", "Ben", "Chi"],
        signing_keys=_keys(3),
    )
    for _ in range(4):
        builder.play(builder.legal_moves()[-1])
    builder.resign()
    builder.stop("adjudicated", winners=[1])
    return builder.record


# -- the cases -------------------------------------------------------------------------------


def _copy(record: pb.GameRecord) -> pb.GameRecord:
    return pb.GameRecord.FromString(record.SerializeToString())


def _resealed_forgery(genuine: pb.GameRecord) -> pb.GameRecord:
    """Ply 6 changed and every head made again, the old signatures kept."""
    forged = _copy(genuine)
    forged.moves[5].aronda.placements[1].index = 7
    forged = seal_record(forged)
    for index, sealed in enumerate(forged.seal.plies):
        del sealed.signatures[:]
        sealed.signatures.extend(genuine.seal.plies[index].signatures)
    del forged.seal.final_signatures[:]
    forged.seal.final_signatures.extend(genuine.seal.final_signatures)
    return forged


def _seat_stops_signing(genuine: pb.GameRecord) -> pb.GameRecord:
    """Seat 2's signatures after ply 8 and over the final head removed."""
    record = _copy(genuine)
    for sealed in record.seal.plies[8:]:
        kept = [s for s in sealed.signatures if s.signer != 2]
        del sealed.signatures[:]
        sealed.signatures.extend(kept)
    kept = [s for s in record.seal.final_signatures if s.signer != 2]
    del record.seal.final_signatures[:]
    record.seal.final_signatures.extend(kept)
    return record


def _unsigned_result(genuine: pb.GameRecord) -> pb.GameRecord:
    record = _copy(genuine)
    kept = [s for s in record.seal.final_signatures if s.signer != 1]
    del record.seal.final_signatures[:]
    record.seal.final_signatures.extend(kept)
    return record


def _seat_two_without_key(genuine: pb.GameRecord) -> pb.GameRecord:
    """Sealed with no key for seat 2 (``SealKey2 ""``), signed by seat 1 and the host."""
    record = _copy(genuine)
    record.ClearField("seal")
    record = seal_record(record, [public("seat1"), b""], public("host"))
    record = sign_record(record, key("seat1"), 1)
    return sign_record(record, key("host"), 0)


def _signature_by_a_stranger(genuine: pb.GameRecord) -> pb.GameRecord:
    """Seat 1's signature after ply 3 replaced by one a stranger's key made over that head."""
    record = _copy(genuine)
    for signature in record.seal.plies[2].signatures:
        if signature.signer == 1:
            message = ply_message(3, record.seal.plies[2].head)
            signature.signature = key(STRANGER).sign(message)
    return record


def _edit(change: Callable[[pb.GameRecord], None]) -> Callable[[pb.GameRecord], pb.GameRecord]:
    def edited(genuine: pb.GameRecord) -> pb.GameRecord:
        record = _copy(genuine)
        change(record)
        return record

    return edited


def _cut(record: pb.GameRecord) -> None:
    del record.moves[12:]


def _annotate(record: pb.GameRecord) -> None:
    record.moves[3].comment = "a quiet move, not a clock: [%clk 0:00:01]"
    record.moves[3].glyph = pb.GLYPH_GOOD
    record.seats[0].rating = 1850
    record.metadata.extra_tags["Annotator"] = "Chi"
    record.metadata.client = "another tool"
    variation = record.moves[4].variations.add()
    variation.moves.add(seat=1).aronda.placements.add(ring=pb.ARONDA_RING_OUTER, index=2)


def _clock_out_of_range(record: pb.GameRecord) -> None:
    record.moves[4].clock.seconds = 315_576_000_001


def _empty_turn(record: pb.GameRecord) -> None:
    record.moves[4].aronda.Clear()


def _too_many_keys(record: pb.GameRecord) -> None:
    record.seal.seat_keys.append(public("seat3"))


@dataclass(frozen=True)
class Case:
    """One vector: a record made from a base game, where it is written, who is trusted.

    Attributes:
        name: the files' stem.
        about: what the case is and what a verifier must find.
        base: the base game's name (a key of :data:`GAMES`).
        make: the record from the genuine base record.
        encodings: the file extensions written (``grn``, ``json``, ``pb``).
        trusted: the key names a verifier trusts, or None: no trust is checked.
        refused: readers refuse the files (the manifest expects ``unreadable``), though the
            record the case makes is one a verifier handed it in memory can judge.
    """

    name: str
    about: str
    base: str
    make: Callable[[pb.GameRecord], pb.GameRecord] = _copy
    encodings: tuple[str, ...] = ("grn", "json", "pb")
    trusted: tuple[str, ...] | None = None
    refused: bool = False


GAMES: dict[str, Callable[[], pb.GameRecord]] = {
    "aronda": aronda,
    "one": one,
    "oust": oust,
    "ohwahree": ohwahree,
}
ALL_KEYS_OF_TWO = ("seat1", "seat2", "host")


def _unsealed(record: pb.GameRecord) -> pb.GameRecord:
    copy = _copy(record)
    copy.ClearField("seal")
    return copy


CASES: tuple[Case, ...] = (
    Case(
        "aronda-genuine",
        "every ply signed by its mover and the host, the final head by all: verified",
        "aronda",
        trusted=ALL_KEYS_OF_TWO,
    ),
    Case(
        "one-genuine",
        "three seats, variant items, a claim of scores: verified",
        "one",
        trusted=("seat1", "seat2", "seat3", "host"),
    ),
    Case("oust-genuine", "a swap and an unfinished claim (*): the seal holds", "oust"),
    Case(
        "ohwahree-genuine",
        "sowing directions in the tokens, a resignation, an adjudication: verified",
        "ohwahree",
    ),
    Case(
        "aronda-annotated",
        "comments, a glyph, a rating, a free tag, the client and a "
        "variation added after the game: none is sealed, so the seal holds",
        "aronda",
        _edit(_annotate),
    ),
    Case("aronda-unsealed", "no seal: NOT_SEALED", "aronda", _unsealed),
    Case(
        "aronda-ply-changed",
        "ply 6 changed: SEAL_BROKEN at ply 6; signatures up to ply 5 still count",
        "aronda",
        _edit(lambda r: setattr(r.moves[5].aronda.placements[1], "index", 7)),
    ),
    Case(
        "aronda-seat-renamed",
        "seat 2's name changed: SEAL_BROKEN at ply 0 (the identity); no signature is checked",
        "aronda",
        _edit(lambda r: setattr(r.seats[1], "name", "Bea")),
    ),
    Case(
        "aronda-clock-changed",
        "the clock of ply 14 changed by a millisecond: SEAL_BROKEN at ply 14",
        "aronda",
        _edit(lambda r: setattr(r.moves[13].clock, "nanos", 1_000_000)),
    ),
    Case(
        "aronda-winner-changed",
        "the claimed winner changed: SEAL_BROKEN at ply 0 (the "
        "claimed result); every ply's signatures still count",
        "aronda",
        _edit(lambda r: r.result.winners.__setitem__(0, 2)),
    ),
    Case(
        "aronda-cut",
        "the last 3 plies removed, the seal left whole: SEAL_BROKEN at ply 13 "
        "(GRN cannot hold this seal)",
        "aronda",
        _edit(_cut),
        ("json", "pb"),
    ),
    Case(
        "aronda-resealed-forgery",
        "ply 6 changed and every head made again, the old "
        "signatures kept: the chain holds, SIGNATURE_INVALID for the mover and the host at "
        "ply 6",
        "aronda",
        _resealed_forgery,
    ),
    Case(
        "aronda-stranger-signature",
        "seat 1's signature after ply 3 made by another key: SIGNATURE_INVALID seat 1 ply 3",
        "aronda",
        _signature_by_a_stranger,
    ),
    Case(
        "aronda-seat-stops-signing",
        "seat 2 signed up to ply 8 only: UNSIGNED_PLIES seat 2 at ply 9",
        "aronda",
        _seat_stops_signing,
    ),
    Case(
        "aronda-unsigned-result",
        "seat 1 signed every ply but not the final head: UNSIGNED_RESULT",
        "aronda",
        _unsigned_result,
    ),
    Case("aronda-no-key", "seat 2 has no key: NO_KEY seat 2", "aronda", _seat_two_without_key),
    Case(
        "aronda-untrusted",
        "genuine, but seat 2's key is not trusted: UNTRUSTED_KEY seat 2",
        "aronda",
        trusted=("seat1", "host"),
    ),
    Case(
        "aronda-extra-key",
        "three seat keys for two seats: SEAL_MALFORMED, nothing more "
        "checked (GRN cannot name a key past the seats' and keep the seats' count)",
        "aronda",
        _edit(_too_many_keys),
        ("json", "pb"),
    ),
    Case(
        "aronda-clock-out-of-range",
        "a clock longer than google.protobuf.Duration allows (binary holds it, no other "
        "encoding can): readers refuse the file (docs/robustness.md); a verifier handed the "
        "decoded record finds no canonical form at ply 5, SEAL_BROKEN at ply 5",
        "aronda",
        _edit(_clock_out_of_range),
        ("pb",),
        refused=True,
    ),
    Case(
        "aronda-empty-turn",
        "ply 5 an Aronda turn with no placement: no canonical token, "
        "SEAL_BROKEN at ply 5 (GRN cannot write it)",
        "aronda",
        _edit(_empty_turn),
        ("json", "pb"),
    ),
)


# -- text edits that GRN must refuse ---------------------------------------------------------


def _first_signature_word(text: str, signer: str) -> str:
    start = text.index("[%seal ")
    end = text.index("]", start)
    words = text[start:end].split()
    return next(word for word in words if word.startswith(signer + ":"))


def _host_as_zero(text: str) -> str:
    word = _first_signature_word(text, "host")
    return text.replace(word, "0:" + word[len("host:") :], 1)


def _seat_with_leading_zero(text: str) -> str:
    word = _first_signature_word(text, "1")
    return text.replace(word, "01:" + word[len("1:") :], 1)


def _pad_bits_set(text: str) -> str:
    """The identity head's last base64 digit before ``=`` with a low bit set: same bytes."""
    line = next(line for line in text.splitlines() if line.startswith("[SealStart "))
    value = line.split('"')[1]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    last = value.rstrip("=")[-1]
    changed = alphabet[alphabet.index(last) | 1]
    new = value.rstrip("=")[:-1] + changed + "=" * (len(value) - len(value.rstrip("=")))
    return text.replace(line, line.replace(value, new))


def _key_with_comment(text: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith("[SealKey2 "))
    return text.replace(line, line[:-2] + ' ben@laptop"]')


def _tag_twice(text: str) -> str:
    line = next(line for line in text.splitlines() if line.startswith("[Seat2 "))
    return text.replace(line, f'{line}\n[Seat2 "Bea"]', 1)


def _command_twice(text: str) -> str:
    return text.replace("[%clk ", "[%clk 0:04:50] [%clk ", 1)


def _seal_command_twice(text: str) -> str:
    start = text.index("[%seal ")
    end = text.index("]", start) + 1
    command = text[start:end]
    return text.replace(command, command + " " + command, 1)


#: GRN texts gamerec refuses: (name, what is wrong, the edit of aronda-genuine.grn).
UNREADABLE_GRN: tuple[tuple[str, str, Callable[[str], str]], ...] = (
    ("grn-host-as-0", "a signer written 0 (the host is written host)", _host_as_zero),
    ("grn-signer-01", "a signer written 01 (no leading zero)", _seat_with_leading_zero),
    (
        "grn-pad-bits",
        "SealStart in base64 whose pad bits are not zero (the same bytes in another text)",
        _pad_bits_set,
    ),
    ("grn-key-comment", "a SealKey2 line with a comment (unsealed text)", _key_with_comment),
    ("grn-tag-twice", "the tag Seat2 given twice", _tag_twice),
    ("grn-clk-twice", "ply 1 with two [%clk] commands", _command_twice),
    ("grn-seal-twice", "ply 1 with two [%seal] commands", _seal_command_twice),
)


def _json_unpadded_head(text: str) -> str:
    value = json.loads(text)["seal"]["identityHead"]
    return text.replace(f'"{value}"', f'"{value.rstrip("=")}"', 1)


def _json_url_safe_signature(text: str) -> str:
    """A final signature in the URL-safe alphabet (one that has a ``+`` or a ``/``)."""
    for entry in json.loads(text)["seal"]["finalSignatures"]:
        value = entry["signature"]
        if "+" in value or "/" in value:
            return text.replace(value, value.replace("+", "-").replace("/", "_"), 1)
    raise AssertionError("no final signature with + or /")


def _json_clock_ten_digits(text: str) -> str:
    return text.replace('"clock": "290.250s"', '"clock": "290.2500000001s"', 1)


def _json_key_twice(text: str) -> str:
    """The time control given twice: a first-wins reader would show the forged one."""
    sealed = '"timeControl": "300+3"'
    return text.replace(sealed, f'"timeControl": "5+0",\n    {sealed}', 1)


def _json_field_under_both_names(text: str) -> str:
    """The time control under its JSON name and its .proto name."""
    sealed = '"timeControl": "300+3"'
    return text.replace(sealed, f'"time_control": "5+0",\n    {sealed}', 1)


#: ProtoJSON texts gamerec refuses: (name, what is wrong, the edit of aronda-genuine.json).
UNREADABLE_JSON: tuple[tuple[str, str, Callable[[str], str]], ...] = (
    ("json-unpadded-head", "identityHead without its padding", _json_unpadded_head),
    ("json-url-safe-signature", "a signature in the URL-safe alphabet", _json_url_safe_signature),
    ("json-clock-ten-digits", "a clock with 10 fraction digits", _json_clock_ten_digits),
    ("json-key-twice", "the sealed time control given twice", _json_key_twice),
    (
        "json-field-under-both-names",
        "the time control under its JSON and its .proto name",
        _json_field_under_both_names,
    ),
)


# -- the files -------------------------------------------------------------------------------


def _encode(record: pb.GameRecord, extension: str) -> bytes:
    if extension == "grn":
        return format_grn(record).encode()
    if extension == "json":
        return encode_json(record)
    return record_bytes(record)


def _chain(record: pb.GameRecord) -> dict[str, Any] | None:
    """The heads the record gives (hex), with its seal's keys; None: no canonical form."""
    if not record.HasField("seal"):
        return None
    seal = record.seal
    try:
        chain = chain_of(record, list(seal.seat_keys), seal.host_key)
    except EncodingError:  # no canonical form, or more keys than seats
        return None
    return {
        "identity": chain.identity.hex(),
        "plies": [head.hex() for head in chain.plies],
        "final": chain.final.hex(),
    }


def steps(record: pb.GameRecord) -> dict[str, Any]:
    """The bytes of every step of a sealed record's chain (hex), to find where a hash differs."""
    seal = record.seal
    game = record.rules.game
    return {
        "identity": step(identity_items(record, list(seal.seat_keys), seal.host_key)).hex(),
        "plies": [
            step(ply_items(ply, move, game)).hex() for ply, move in enumerate(record.moves, 1)
        ],
        "result": step(result_items(record)).hex(),
    }


def expected(record: pb.GameRecord, trusted: tuple[str, ...] | None) -> dict[str, Any]:
    """What gamerec finds about ``record``: the manifest's ``expect`` of a readable case."""
    keys = None if trusted is None else {public(name) for name in trusted}
    proof = seal_proof(record, keys)
    answer = verify(record, keys)
    return {
        "status": STATUS[proof.seal],
        "findings": [_finding(finding) for finding in proof.findings],
        "signers": [_signer(signer, trusted is not None) for signer in proof.signers],
        "chain": _chain(record),
        "replay": [_finding(finding) for finding in answer.verdict.errors],
        "verified": answer.verified,
    }


def _finding(finding: Any) -> dict[str, Any]:
    return {"code": finding.code, "ply": finding.ply, "seat": finding.seat}


def _signer(signer: wpb.Signer, trust: bool) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "signer": signer.signer,
        "fingerprint": signer.fingerprint,
        "signed_through": signer.signed_through,
        "signed_result": signer.signed_result,
        "valid_signatures": signer.valid_signatures,
    }
    if trust:
        entry["trusted"] = signer.trusted
    return entry


def _key_entry(name: str) -> dict[str, str]:
    return {
        "seed": seed(name).hex(),
        "public": public(name).hex(),
        "openssh": openssh_line(public(name)),
        "fingerprint": fingerprint(public(name)),
    }


def files() -> dict[str, bytes]:
    """Every file of docs/seal-vectors/ by its path in the folder."""
    out: dict[str, bytes] = {}
    genuine = {name: make() for name, make in GAMES.items()}
    cases: list[dict[str, Any]] = []
    for case in CASES:
        record = case.make(genuine[case.base])
        names = [f"{case.name}.{extension}" for extension in case.encodings]
        for name, extension in zip(names, case.encodings, strict=True):
            out[f"records/{name}"] = _encode(record, extension)
        entry = {
            "name": case.name,
            "about": case.about,
            "files": [f"records/{name}" for name in names],
            "trusted": None if case.trusted is None else list(case.trusted),
            "expect": {"unreadable": True} if case.refused else expected(record, case.trusted),
        }
        if case.name.endswith("-genuine"):
            entry["steps"] = steps(record)
        cases.append(entry)
    for extension, edits in (("grn", UNREADABLE_GRN), ("json", UNREADABLE_JSON)):
        text = out[f"records/aronda-genuine.{extension}"].decode()
        for name, about, edit in edits:
            changed = edit(text)
            assert changed != text, name
            out[f"records/{name}.{extension}"] = changed.encode()
            cases.append(
                {
                    "name": name,
                    "about": f"{about}: unreadable",
                    "files": [f"records/{name}.{extension}"],
                    "trusted": None,
                    "expect": {"unreadable": True},
                }
            )
    names = [*KEY_NAMES.values(), STRANGER]
    for name in names:
        out[f"keys/{name}.pub"] = (openssh_line(public(name), name) + "\n").encode()
    manifest = {
        "format": MANIFEST_FORMAT,
        "about": "gamerec seal test vectors; docs/seals.md 'Test vectors' says how to run "
        "them. The keys are test keys made from public seeds: never trust them.",
        "keys": {name: _key_entry(name) for name in names},
        "cases": cases,
    }
    out["manifest.json"] = (json.dumps(manifest, indent=1, ensure_ascii=False) + "\n").encode()
    return out
