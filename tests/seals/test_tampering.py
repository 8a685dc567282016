"""Every tamper case of issue 17, each caught by verify with its code, ply and seat."""

from __future__ import annotations

import pytest

from gamerec.recorder.seal import ply_message, seal_record
from gamerec.recorder.signing import sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verification_pb2 as wpb
from gamerec.validator.verification import verify
from tests.sealing import GAME_FIXTURES, HOST, TIMEOUT_FIXTURE, key, public, signed


def codes(answer: wpb.Verification) -> list[tuple[str, int, int]]:
    return [(finding.code, finding.ply, finding.seat) for finding in answer.findings]


def first(answer: wpb.Verification) -> tuple[str, int, int]:
    return codes(answer)[0]


def copy(record: pb.GameRecord) -> pb.GameRecord:
    return pb.GameRecord.FromString(record.SerializeToString())


@pytest.mark.parametrize("name", [*GAME_FIXTURES, TIMEOUT_FIXTURE])
def test_a_record_signed_as_it_was_played_is_verified(name: str) -> None:
    record = signed(name)
    answer = verify(record, {public(n) for n in range(len(record.seats) + 1)})
    assert answer.verified, codes(answer)
    assert answer.seal == spb.SEAL_STATUS_HOLDS
    assert answer.verdict.valid and answer.verdict.seal == spb.SEAL_STATUS_HOLDS
    assert [signer.signer for signer in answer.signers] == [*range(1, len(record.seats) + 1), 0]
    for signer in answer.signers:
        assert signer.trusted and signer.signed_result
        assert signer.signed_through == len(record.moves)
    host = answer.signers[-1]
    assert host.valid_signatures == len(record.moves) + 1  # the host countersigns every ply


def test_a_changed_ply_breaks_the_seal_at_that_ply() -> None:
    record = signed("one-3p.grn")
    record.moves[16].one.path[0].index += 1
    answer = verify(record)
    assert first(answer) == ("SEAL_BROKEN", 17, 0)
    assert not answer.verified and answer.seal == spb.SEAL_STATUS_BROKEN
    for signer in answer.signers:  # each seat signed its own plies; the host every ply
        own = [p for p in range(1, 17) if signer.signer in (HOST, record.moves[p - 1].seat)]
        assert signer.signed_through == max(own)


def test_a_changed_ply_with_the_heads_made_again_leaves_the_old_signatures_invalid() -> None:
    original = signed("one-3p.grn")
    forged = copy(original)
    forged.moves[16].one.path[0].index += 1
    forged = seal_record(forged)  # a forger recomputes every head, keeps the signatures
    for index, sealed in enumerate(forged.seal.plies):
        del sealed.signatures[:]
        sealed.signatures.extend(original.seal.plies[index].signatures)
    forged.seal.final_signatures.extend(original.seal.final_signatures)
    answer = verify(forged)
    mover = original.moves[16].seat
    found = {(code, seat): ply for code, ply, seat in codes(answer) if code == "SIGNATURE_INVALID"}
    assert found[("SIGNATURE_INVALID", mover)] == 17
    assert found[("SIGNATURE_INVALID", HOST)] == 17
    assert "SEAL_BROKEN" not in {code for code, _, _ in codes(answer)}


def test_two_plies_swapped_break_the_seal_at_the_first() -> None:
    record = signed("oust-side7.grn")
    record.moves[9].oust.CopyFrom(signed("oust-side7.grn").moves[10].oust)
    record.moves[10].oust.CopyFrom(signed("oust-side7.grn").moves[9].oust)
    assert first(verify(record)) == ("SEAL_BROKEN", 10, 0)


def test_a_ply_dropped_breaks_the_seal_where_it_was() -> None:
    record = signed("ohwahree-2p.grn")
    del record.moves[4]
    assert first(verify(record)) == ("SEAL_BROKEN", 5, 0)


def test_plies_appended_are_not_sealed() -> None:
    record = signed("aronda.grn")
    plies = len(record.moves)
    record.moves.append(pb.Move(seat=1, resign=pb.Resign()))
    answer = verify(record)
    assert first(answer) == ("SEAL_BROKEN", plies + 1, 0)
    assert "not sealed" in answer.findings[0].message


def test_a_changed_result_breaks_the_seal_at_the_result() -> None:
    record = signed("aronda.grn")
    record.result.scores.values[0] += 1
    answer = verify(record)
    assert first(answer) == ("SEAL_BROKEN", 0, 0)
    assert "claimed result" in answer.findings[0].message
    assert not any(signer.signed_result for signer in answer.signers)
    assert answer.signers[-1].signed_through == len(record.moves)


@pytest.mark.parametrize("change", ["name", "key", "variant", "event"])
def test_a_changed_identity_breaks_the_seal_before_the_first_ply(change: str) -> None:
    record = signed("one-3p.grn")
    if change == "name":
        record.seats[0].name, record.seats[1].name = record.seats[1].name, record.seats[0].name
    elif change == "key":
        keys = record.seal.seat_keys
        keys[0], keys[1] = keys[1], keys[0]
    elif change == "variant":
        record.rules.one.mirror = pb.ONE_MIRROR_NONE
    else:
        record.metadata.event = "Another night"
    answer = verify(record)
    assert first(answer) == ("SEAL_BROKEN", 0, 0)
    assert "identity" in answer.findings[0].message


def test_a_signature_by_the_wrong_key_is_invalid_for_its_seat() -> None:
    record = signed("one-3p.grn")
    sealed = record.seal.plies[4]
    (mine,) = [entry for entry in sealed.signatures if entry.signer == record.moves[4].seat]
    mine.signature = key(100).sign(ply_message(5, sealed.head))
    answer = verify(record)
    assert codes(answer) == [("SIGNATURE_INVALID", 5, record.moves[4].seat)]
    assert answer.seal == spb.SEAL_STATUS_BROKEN


def test_a_signature_copied_from_another_record_is_invalid() -> None:
    record, other = signed("one-3p.grn"), signed("one-3p.grn")
    other.metadata.event = "Another night"  # the same game, same keys, another event
    other = sign_record(seal_record(other), key(1), 1)
    record.seal.final_signatures[0].signature = other.seal.final_signatures[-1].signature
    record.seal.plies[0].signatures[0].signature = other.seal.plies[0].signatures[0].signature
    answer = verify(record)
    assert first(answer) == ("SIGNATURE_INVALID", 1, 1)
    assert "(and 1 more)" in answer.findings[0].message
    assert [code for code, _, _ in codes(answer)] == ["SIGNATURE_INVALID", "UNSIGNED_PLIES"]


def test_keys_swapped_and_the_record_resealed_hold_only_for_untrusted_keys() -> None:
    record = signed("aronda.grn")
    keys = list(record.seal.seat_keys)
    keys[1] = public(101)  # Mallory claims seat 2 and signs as it
    forged = sign_record(seal_record(record, keys), key(101), 2)
    forged = sign_record(forged, key(1), 1)
    trusted = {public(1), public(2), public(HOST)}
    answer = verify(forged, trusted)
    assert answer.seal == spb.SEAL_STATUS_HOLDS
    assert ("UNTRUSTED_KEY", 0, 2) in codes(answer)
    assert ("UNSIGNED_PLIES", 1, HOST) in codes(answer)  # resealed: the host's are gone


def test_a_record_cut_after_every_ply_keeping_its_seal_breaks_where_it_was_cut() -> None:
    full = signed("aronda.grn")
    plies = len(full.moves)
    for kept in range(plies):
        cut = copy(full)
        del cut.moves[kept:]
        assert first(verify(cut)) == ("SEAL_BROKEN", kept + 1, 0), kept


def test_a_record_cut_after_every_ply_with_its_seal_shows_what_each_seat_signed() -> None:
    """The seal as it stood after ply k: each seat covers up to its own last ply."""
    full = signed("ohwahree-2p.grn")
    for kept in range(1, len(full.moves) + 1):
        cut = copy(full)
        del cut.moves[kept:]
        del cut.seal.plies[kept:]
        cut.ClearField("result")
        cut = seal_record(cut)  # the final head of an unfinished record, not yet signed
        answer = verify(cut)
        assert answer.seal == spb.SEAL_STATUS_HOLDS
        for seat in (1, 2):
            own = [ply for ply in range(1, kept + 1) if cut.moves[ply - 1].seat == seat]
            through = max(own, default=0)
            expected = (
                ("UNSIGNED_RESULT", 0, seat)
                if through == kept
                else ("UNSIGNED_PLIES", through + 1, seat)
            )
            assert expected in codes(answer), (kept, seat, codes(answer))
        assert ("UNSIGNED_RESULT", 0, HOST) in codes(answer)


def test_unsigned_plies_name_the_range_and_who_signed_it() -> None:
    full = signed("one-3p.grn")
    for sealed in full.seal.plies[40:]:
        kept = [entry for entry in sealed.signatures if entry.signer != 2]
        del sealed.signatures[:]
        sealed.signatures.extend(kept)
    full.seal.final_signatures.pop(1)  # seat 2's
    answer = verify(full)
    (gap,) = [f for f in answer.findings if f.seat == 2]
    last = max(p for p in range(1, 41) if full.moves[p - 1].seat == 2)
    assert (gap.code, gap.ply) == ("UNSIGNED_PLIES", last + 1)
    assert f"signed every ply up to {last}; plies {last + 1}-{len(full.moves)} carry only" in (
        gap.message
    )


def test_an_unsealed_record_is_not_sealed() -> None:
    record = signed("aronda.grn")
    record.ClearField("seal")
    answer = verify(record)
    assert codes(answer) == [("NOT_SEALED", 0, 0)]
    assert answer.seal == spb.SEAL_STATUS_NONE and answer.verdict.seal == spb.SEAL_STATUS_NONE


def test_a_sealed_record_without_keys_names_every_seat_without_one() -> None:
    record = signed("aronda.grn")
    record.ClearField("seal")
    answer = verify(seal_record(record))
    assert codes(answer) == [("NO_KEY", 0, 1), ("NO_KEY", 0, 2)]
    assert answer.seal == spb.SEAL_STATUS_HOLDS


@pytest.mark.parametrize(
    ("spoil", "words"),
    [
        (lambda seal: setattr(seal, "version", 2), "version 2"),
        (lambda seal: setattr(seal.plies[3], "head", b"short"), "ply 4 has 5 bytes"),
        (lambda seal: seal.seat_keys.append(b"\x01" * 32), "seat keys for"),
        (lambda seal: setattr(seal, "host_key", b"\x01" * 31), "has 31 bytes"),
        (lambda seal: seal.plies[0].signatures.add(signer=9, signature=b"x" * 64), "seat 9"),
        (lambda seal: seal.final_signatures.add(signer=1, signature=b"x" * 64), "two signatures"),
        (lambda seal: setattr(seal.final_signatures[0], "signature", b"x"), "has 1 bytes"),
    ],
)
def test_a_malformed_seal_is_named_and_nothing_else_is_checked(spoil: object, words: str) -> None:
    record = signed("aronda.grn")
    assert callable(spoil)
    spoil(record.seal)
    answer = verify(record)
    assert codes(answer) == [("SEAL_MALFORMED", 0, 0)]
    assert words in answer.findings[0].message


def test_a_sealed_record_that_is_not_a_legal_game_carries_the_replay_findings_too() -> None:
    record = signed("aronda.grn")
    record.moves[3].aronda.placements[0].index = 9
    record = seal_record(record)
    for signer in range(3):
        record = sign_record(record, key(signer), signer)
    answer = verify(record)
    assert answer.seal == spb.SEAL_STATUS_HOLDS
    assert [f.code for f in answer.findings] == ["NO_SUCH_FIELD"]
    assert not answer.verified and not answer.verdict.valid
