"""Verify a sealed record: what its seal and signatures prove, then the strict replay.

:func:`verify` checks, in order (docs/seals.md "Verifying"):

1. the seal's form, its chain and every signature (``gamerec.validator.seal_check``:
   ``SEAL_MALFORMED``, ``SEAL_BROKEN``, ``SIGNATURE_INVALID``);
2. what each signer's valid signatures cover: a seat with no key is ``NO_KEY``; a keyed seat
   (or the host) whose signatures stop before the end is ``UNSIGNED_PLIES`` (the ply is the
   first it did not sign, the sentence names the range), and one that signed every ply but not
   the final head is ``UNSIGNED_RESULT``;
3. the keys against the trusted ones, when given (``UNTRUSTED_KEY``);
4. the strict replay (``gamerec.validator.judge.judge``), whose findings follow.

A record with no seal is ``NOT_SEALED``. ``verified`` is true only when nothing was found.
``proven`` names the levels of proof the record reaches (:func:`proven_levels`): the seal
intact, the host's attestation, every seat's signature; a director asks for the one the event
needs (``gamerec verify --require``), since a record of a match whose seats had no keys proves
the host's word and no more.
"""

from __future__ import annotations

from collections.abc import Collection

from gamerec.recorder.arguments import require_record
from gamerec.recorder.limits import Limits
from gamerec.recorder.seal import HOST
from gamerec.recorder.signing import fingerprint, signer_name
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.v1 import verification_pb2 as wpb
from gamerec.validator.judge import judge, verdict_of
from gamerec.validator.seal_check import Coverage, SealCheck, check_seal


def verify(
    record: pb.GameRecord,
    trusted: Collection[bytes] | None = None,
    *,
    deadline: float | None = None,
    limits: Limits | None = None,
) -> wpb.Verification:
    """Verify ``record`` (see the module docstring).

    Args:
        record: the record.
        trusted: the trusted 32-byte public keys; None: trust is not checked.
        deadline: a ``time.monotonic()`` time to give up at (the replay's).
        limits: the replay's limits (see ``judge``).

    Raises:
        DeadlineExceededError: the deadline passed first.
        LimitExceededError: more plies than ``limits.max_plies``.
    """
    require_record(record, "verify")
    answer = seal_proof(record, trusted, deadline=deadline)
    judgement = judge(record, deadline=deadline, limits=limits)
    answer.verdict.CopyFrom(verdict_of(record, judgement, seal=answer.seal))
    answer.findings.extend(answer.verdict.errors)
    answer.verified = not answer.findings
    answer.proven.extend(proven_levels(answer))
    return answer


#: Findings after which nothing in the record is proven.
_SEAL_FAULT_CODES = frozenset({"NOT_SEALED", "SEAL_MALFORMED", "SEAL_BROKEN", "SIGNATURE_INVALID"})
#: Findings about one signer (its ``seat``, 0 for the host): what it did not sign, or its key
#: is not trusted.
_SIGNER_CODES = frozenset({"NO_KEY", "UNSIGNED_PLIES", "UNSIGNED_RESULT", "UNTRUSTED_KEY"})


def proven_levels(answer: wpb.Verification) -> list[wpb.ProofLevel.ValueType]:
    """The levels of proof a verified-or-not ``answer`` reaches, in ``ProofLevel`` order.

    None unless the seal holds and the replay is valid; then ``SEAL``, ``HOST`` when the host
    has a key and no finding about it (it signed the final head, and its key is trusted when
    trusted keys were given), ``SEATS`` when every seat has a key and none has a finding.
    """
    faults = any(finding.code in _SEAL_FAULT_CODES for finding in answer.findings)
    if faults or answer.seal != spb.SEAL_STATUS_HOLDS or not answer.verdict.valid:
        return []
    levels = [wpb.PROOF_LEVEL_SEAL]
    blamed = {finding.seat for finding in answer.findings if finding.code in _SIGNER_CODES}
    keyed = {signer.signer for signer in answer.signers if signer.fingerprint}
    if HOST in keyed and HOST not in blamed:
        levels.append(wpb.PROOF_LEVEL_HOST)
    seats = {signer.signer for signer in answer.signers if signer.signer != HOST}
    if seats and seats <= keyed and not seats & blamed:
        levels.append(wpb.PROOF_LEVEL_SEATS)
    return levels


def seal_proof(
    record: pb.GameRecord,
    trusted: Collection[bytes] | None = None,
    *,
    deadline: float | None = None,
) -> wpb.Verification:
    """What the seal proves, without the replay: steps 1-3 (``verdict`` and ``verified`` unset).

    Coverage findings are left out when the chain itself breaks (SEAL_MALFORMED, SEAL_BROKEN):
    the break explains every signature past it, and the signers still show what they cover.
    """
    check = check_seal(record, deadline)
    answer = wpb.Verification(seal=check.status)
    if not record.HasField("seal"):
        answer.findings.append(
            vpb.Finding(
                code="NOT_SEALED",
                message="the record carries no seal, so nothing in it proves its moves or "
                "result (gamerec seal, then gamerec sign)",
            )
        )
        return answer
    answer.findings.extend(check.findings)
    if not any(finding.code == "SEAL_MALFORMED" for finding in check.findings):
        answer.signers.extend(signers_of(record, check, trusted))
    signers = list(answer.signers)
    if not any(finding.code in _CHAIN_FAULTS for finding in check.findings):
        answer.findings.extend(coverage_findings(record, signers))
    if trusted is not None:
        answer.findings.extend(trust_findings(signers))
    return answer


_CHAIN_FAULTS = ("SEAL_MALFORMED", "SEAL_BROKEN")


def signers_of(
    record: pb.GameRecord, check: SealCheck, trusted: Collection[bytes] | None
) -> list[wpb.Signer]:
    """Every seat in seat order, then the host if it has a key, with what it signed."""
    seal = record.seal
    keys = [(seat, key) for seat, key in enumerate(_seat_keys(record), start=1)]
    if seal.host_key:
        keys.append((HOST, seal.host_key))
    signers = []
    for signer, key in keys:
        covered = check.coverage.get(signer, Coverage())
        signers.append(
            wpb.Signer(
                signer=signer,
                fingerprint=fingerprint(key) if key else "",
                trusted=bool(key) and trusted is not None and key in trusted,
                signed_through=covered.through,
                signed_result=covered.result,
                valid_signatures=covered.valid,
            )
        )
    return signers


def _seat_keys(record: pb.GameRecord) -> list[bytes]:
    keys = list(record.seal.seat_keys)
    return keys + [b""] * (len(record.seats) - len(keys))


def coverage_findings(record: pb.GameRecord, signers: list[wpb.Signer]) -> list[vpb.Finding]:
    """NO_KEY, UNSIGNED_PLIES and UNSIGNED_RESULT: what the signers did not sign."""
    plies = len(record.moves)
    findings = []
    for signer in signers:
        who = signer_name(signer.signer)
        if not signer.fingerprint:
            findings.append(
                vpb.Finding(
                    seat=signer.signer,
                    code="NO_KEY",
                    message=f"{who} has no key in the seal, so nothing proves it agreed to "
                    "the record",
                )
            )
        elif signer.signed_through < plies:
            findings.append(
                vpb.Finding(
                    ply=signer.signed_through + 1,
                    seat=signer.signer,
                    code="UNSIGNED_PLIES",
                    message=gap_sentence(signer, signers, plies) + "; nor did it sign the result",
                )
            )
        elif not signer.signed_result:
            findings.append(
                vpb.Finding(
                    seat=signer.signer,
                    code="UNSIGNED_RESULT",
                    message=f"{_named(signer)} signed every ply but not the final head, so it "
                    "did not sign the claimed result",
                )
            )
    return findings


def gap_sentence(signer: wpb.Signer, signers: list[wpb.Signer], plies: int) -> str:
    """What a signer whose signatures stop before the last ply did not sign.

    ``seat 2 (SHA256:...) signed every ply up to 40; plies 41-44 carry only seat 1's signature``.
    """
    first = signer.signed_through + 1
    span = f"ply {first}" if first == plies else f"plies {first}-{plies}"
    signed = f"every ply up to {signer.signed_through}" if signer.signed_through else "no ply"
    others = [
        f"{signer_name(other.signer)}'s"
        for other in signers
        if other is not signer and other.signed_through >= plies
    ]
    if others:
        noun = "signatures" if len(others) > 1 else "signature"
        carry = f"only {' and '.join(others)} {noun}"
    else:
        carry = "no signature"
    verb = "carries" if first == plies else "carry"
    return f"{_named(signer)} signed {signed}; {span} {verb} {carry}"


def _named(signer: wpb.Signer) -> str:
    """``seat 2 (SHA256:...)``."""
    return f"{signer_name(signer.signer)} ({signer.fingerprint})"


def trust_findings(signers: list[wpb.Signer]) -> list[vpb.Finding]:
    """UNTRUSTED_KEY for every key that is not among the trusted ones."""
    return [
        vpb.Finding(
            seat=signer.signer,
            code="UNTRUSTED_KEY",
            message=f"{signer_name(signer.signer)}'s key {signer.fingerprint} is not among the "
            "trusted keys",
        )
        for signer in signers
        if signer.fingerprint and not signer.trusted
    ]


def proof_sentence(verification: wpb.Verification, plies: int) -> str:
    """What the signatures prove, in one paragraph (adjudication's words).

    ``Seat 1 signed every ply and the result; seat 2 signed every ply up to 40, not plies
    41-44 (they carry only seat 1's and the host's signatures).``
    """
    if verification.seal == spb.SEAL_STATUS_NONE:
        return "The record is not sealed, so nothing in it proves its moves or result."
    broken = [f for f in verification.findings if f.code in _SEAL_FAULTS]
    parts = [_fault_sentence(finding) for finding in broken]
    signers = list(verification.signers)
    parts += [_signer_sentence(signer, signers, plies) for signer in signers]
    return " ".join(parts)


_SEAL_FAULTS = ("SEAL_MALFORMED", "SEAL_BROKEN", "SIGNATURE_INVALID")


def _fault_sentence(finding: vpb.Finding) -> str:
    place = f" at ply {finding.ply}" if finding.ply else ""
    return f"{finding.code}{place}: {finding.message}."


def _signer_sentence(signer: wpb.Signer, signers: list[wpb.Signer], plies: int) -> str:
    if not signer.fingerprint:
        sentence = f"{signer_name(signer.signer)} has no key, so nothing proves it agreed."
    elif signer.signed_result:
        sentence = f"{_named(signer)} signed every ply and the result."
    elif signer.signed_through >= plies:
        sentence = f"{_named(signer)} signed every ply but not the result."
    else:
        sentence = gap_sentence(signer, signers, plies) + "."
    return sentence[0].upper() + sentence[1:]
