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
"""

from __future__ import annotations

from collections.abc import Collection

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
    check = check_seal(record)
    judgement = judge(record, deadline=deadline, limits=limits)
    verdict = verdict_of(record, judgement, seal=check.status)
    answer = wpb.Verification(seal=verdict.seal, verdict=verdict)
    if not record.HasField("seal"):
        answer.findings.append(
            vpb.Finding(
                code="NOT_SEALED",
                message="the record carries no seal, so nothing in it proves its moves or "
                "result (gamerec seal, then gamerec sign)",
            )
        )
    else:
        answer.findings.extend(check.findings)
        if check.intact >= 0 or check.coverage:
            answer.signers.extend(signers_of(record, check, trusted))
            answer.findings.extend(coverage_findings(record, list(answer.signers)))
            if trusted is not None:
                answer.findings.extend(trust_findings(list(answer.signers)))
    answer.findings.extend(verdict.errors)
    answer.verified = not answer.findings
    return answer


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
            first = signer.signed_through + 1
            span = f"ply {first}" if first == plies else f"plies {first}-{plies}"
            findings.append(
                vpb.Finding(
                    ply=first,
                    seat=signer.signer,
                    code="UNSIGNED_PLIES",
                    message=f"{who} ({signer.fingerprint}) signed {_through(signer)}; {span} "
                    f"and the result carry no signature of its: {_cover_note(signers, first)}",
                )
            )
        elif not signer.signed_result:
            findings.append(
                vpb.Finding(
                    seat=signer.signer,
                    code="UNSIGNED_RESULT",
                    message=f"{who} ({signer.fingerprint}) signed every ply but not the final "
                    "head, so it did not sign the claimed result",
                )
            )
    return findings


def _through(signer: wpb.Signer) -> str:
    if signer.signed_through == 0:
        return "no ply"
    return f"every ply up to {signer.signed_through}"


def _cover_note(signers: list[wpb.Signer], first: int) -> str:
    """Who did sign past ``first``: ``ply 44 carries only seat 1's signature``."""
    others = [signer_name(signer.signer) for signer in signers if signer.signed_through >= first]
    if not others:
        return "no signer signed past it"
    return "signed past it by " + ", ".join(others)


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
    who = signer_name(signer.signer)
    who = who[0].upper() + who[1:]
    if not signer.fingerprint:
        return f"{who} has no key, so nothing proves it agreed."
    if signer.signed_result:
        return f"{who} ({signer.fingerprint}) signed every ply and the result."
    if signer.signed_through >= plies:
        return f"{who} ({signer.fingerprint}) signed every ply but not the result."
    first = signer.signed_through + 1
    span = f"ply {first}" if first == plies else f"plies {first}-{plies}"
    others = [
        f"{signer_name(other.signer)}'s"
        for other in signers
        if other is not signer and other.signed_through >= plies
    ]
    carry = f"carries only {' and '.join(others)} signature" if others else "carries no signature"
    if len(others) > 1:
        carry += "s"
    verb = carry.replace("carries", "carry") if first != plies else carry
    return f"{who} ({signer.fingerprint}) signed {_through(signer)}; {span} {verb}."
