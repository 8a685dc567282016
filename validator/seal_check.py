"""Check a record's seal: its form, its chain, and every signature (docs/seals.md "Verifying").

This is the part of verification that needs no rules and no trusted keys, so ``validate``
runs it too (``Verdict.seal``); ``gamerec.validator.verification`` adds what each signer's
signatures cover, the trusted keys and the strict replay.

Findings, in the order they are looked for:

- ``SEAL_MALFORMED`` (ply 0): a version this one does not know, a head, key or signature of
  the wrong length, more keys than seats, a signature by a signer with no key or twice by one
  signer over one head. Nothing more is checked.
- ``SEAL_BROKEN``: the first place where the record's canonical form no longer gives the
  stored head: ply 0 and "identity" for the game, rules, variant, seats, keys, event or times;
  the ply for a changed, moved, dropped or added ply; ply 0 and "result" for the claimed result.
  Signatures over heads after the break are not checked: they sign something the record no
  longer holds.
- ``SIGNATURE_INVALID`` (the signer's seat; 0 for the host): a signature over an intact head
  that its signer's key did not make, one finding per signer at its first bad signature.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from gamerec.recorder.ed25519_checks import key_weakness
from gamerec.recorder.errors import EncodingError
from gamerec.recorder.main_line import sealed_plies_bytes
from gamerec.recorder.seal import (
    HEAD_BYTES,
    HOST,
    KEY_BYTES,
    SEAL_VERSION,
    SIGNATURE_BYTES,
    final_message,
    first_head,
    identity_items,
    next_head,
    ply_heads,
    ply_message,
    result_items,
)
from gamerec.recorder.signing import fingerprint, signer_name, verifier
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.deadline import check_deadline


@dataclass
class Coverage:
    """What one signer's valid signatures cover.

    Attributes:
        through: the last ply covered by a valid signature (0: none).
        result: a valid signature over the final head.
        valid: how many of its signatures are valid.
        first_invalid: the ply of its first invalid signature (-1: none; 0: the final head).
        invalid: how many of its signatures are invalid.
    """

    through: int = 0
    result: bool = False
    valid: int = 0
    first_invalid: int = -1
    invalid: int = 0


@dataclass
class SealCheck:
    """What checking a seal found.

    Attributes:
        status: ``SEAL_STATUS_NONE``, ``_HOLDS`` or ``_BROKEN``.
        findings: SEAL_MALFORMED, SEAL_BROKEN and SIGNATURE_INVALID findings.
        intact: the plies whose heads the record still gives (-1: not even the identity's).
        coverage: per signer (seat, 0 for the host), what its valid signatures cover.
    """

    status: spb.SealStatus.ValueType
    findings: list[vpb.Finding] = field(default_factory=list)
    intact: int = -1
    coverage: dict[int, Coverage] = field(default_factory=dict)


def seal_status(
    record: pb.GameRecord, moves_bytes: Sequence[bytes] | None = None
) -> spb.SealStatus.ValueType:
    """The record's ``SealStatus``: none, holds, or broken (``moves_bytes``: see check_seal)."""
    if not record.HasField("seal"):
        return spb.SEAL_STATUS_NONE
    return check_seal(record, moves_bytes=moves_bytes).status


def check_seal(
    record: pb.GameRecord,
    deadline: float | None = None,
    *,
    moves_bytes: Sequence[bytes] | None = None,
) -> SealCheck:
    """Check the seal's form, its chain and its signatures (see the module docstring).

    ``moves_bytes``: the bytes of each of the record's main-line moves, in order, when at
    hand (``recorder.seal.ply_heads``); ignored unless there is one for each move.

    Raises:
        DeadlineExceededError: the ``deadline`` (monotonic time) passed first (it is looked
            at before each ply's signatures).
    """
    if not record.HasField("seal"):
        return SealCheck(spb.SEAL_STATUS_NONE)
    seal = record.seal
    plies = sealed_plies(seal)
    problem = malformation(record, seal, plies)
    if problem:
        finding = vpb.Finding(code="SEAL_MALFORMED", message=f"the seal is malformed: {problem}")
        return SealCheck(spb.SEAL_STATUS_BROKEN, [finding])
    check = SealCheck(spb.SEAL_STATUS_HOLDS)
    if moves_bytes is not None and len(moves_bytes) != len(record.moves):
        moves_bytes = None
    heads, final, broken = recompute(record, seal, plies.heads, moves_bytes)
    check.intact = len(heads) - 1
    if broken is not None:
        check.findings.append(broken)
    _check_signatures(seal, plies.signed, heads, final, check, deadline=deadline)
    if check.findings:
        check.status = spb.SEAL_STATUS_BROKEN
    return check


class SealedPlies(NamedTuple):
    """The seal's plies read once: their heads, and the plies that carry signatures.

    Attributes:
        heads: each sealed ply's head, ply 1 first.
        signed: the numbers of the plies with a signature (from 1), in order.
    """

    heads: list[bytes]
    signed: list[int]


def sealed_plies(seal: spb.Seal) -> SealedPlies:
    """The seal's plies' heads and signed plies, in one pass over them.

    A seal whose plies are all a head alone, as a writer seals a record it does not sign ply
    by ply, is read from its bytes: each ply is then the head's key, its length (32) and the
    head. Any other seal is read ply by ply.
    """
    plies = sealed_plies_bytes(seal.SerializeToString())
    count = len(plies)
    if set(map(len, plies)) == {_HEAD_ALONE_BYTES}:
        joined = b"".join(plies)
        if joined[0::_HEAD_ALONE_BYTES] == b"\n" * count and joined[1::_HEAD_ALONE_BYTES] == (
            b" " * count
        ):
            return SealedPlies([ply[2:] for ply in plies], [])
    return _sealed_plies_read_one_by_one(seal)


#: The bytes of a ``SealedPly`` holding its head alone: its key (field 1, length-delimited:
#: ``\n``), the head's length (32: `` ``) and the head.
_HEAD_ALONE_BYTES = 2 + HEAD_BYTES


def _sealed_plies_read_one_by_one(seal: spb.Seal) -> SealedPlies:
    """:func:`sealed_plies` of any seal, read from its messages."""
    heads: list[bytes] = []
    signed: list[int] = []
    for number, ply in enumerate(seal.plies, start=1):
        heads.append(ply.head)
        if ply.signatures:
            signed.append(number)
    return SealedPlies(heads, signed)


def malformation(record: pb.GameRecord, seal: spb.Seal, plies: SealedPlies) -> str:
    """What is wrong with the seal's form, or ``""`` (``plies``: :func:`sealed_plies`)."""
    if seal.version != SEAL_VERSION:
        return f"version {seal.version} is not one this version knows ({SEAL_VERSION})"
    if len(seal.seat_keys) > len(record.seats):
        return f"{len(seal.seat_keys)} seat keys for {len(record.seats)} seats"
    keys = {number: key for number, key in enumerate(seal.seat_keys, start=1) if key}
    if seal.host_key:
        keys[HOST] = seal.host_key
    problem = _keys_malformation(keys)
    if problem:
        return problem
    problem = _heads_malformation(seal, plies.heads)
    if problem:
        return problem
    problem = _signatures_malformation("the final head", seal.final_signatures, keys)
    for number in plies.signed:
        if problem:
            return problem
        problem = _signatures_malformation(f"ply {number}", seal.plies[number - 1].signatures, keys)
    return problem


def _heads_malformation(seal: spb.Seal, heads: list[bytes]) -> str:
    """What is wrong with a head's length (``heads``: the plies'), or ``""``."""
    for name, head in (
        ("the identity head", seal.identity_head),
        ("the final head", seal.final_head),
    ):
        if len(head) != HEAD_BYTES:
            return f"{name} has {len(head)} bytes, not {HEAD_BYTES}"
    # A ply's name is written only for the ply at fault (a sealed record has many plies).
    if not set(map(len, heads)) <= {HEAD_BYTES}:
        number, head = next((n, h) for n, h in enumerate(heads, 1) if len(h) != HEAD_BYTES)
        return f"the head of ply {number} has {len(head)} bytes, not {HEAD_BYTES}"
    return ""


def _keys_malformation(keys: dict[int, bytes]) -> str:
    """What is wrong with a key of the seal (its length; a weak key), or ``""``."""
    for signer, key in keys.items():
        if len(key) != KEY_BYTES:
            return f"{signer_name(signer)}'s key has {len(key)} bytes, not {KEY_BYTES}"
        weakness = key_weakness(key)
        if weakness is not None:
            return f"{signer_name(signer)}'s key is refused: {weakness}"
    return ""


def _signatures_malformation(
    place: str, signatures: Iterable[spb.Signature], keys: dict[int, bytes]
) -> str:
    seen: set[int] = set()
    for signature in signatures:
        who = signer_name(signature.signer)
        if signature.signer not in keys:
            return f"{place} carries a signature by {who}, which has no key in the seal"
        if signature.signer in seen:
            return f"{place} carries two signatures by {who}"
        seen.add(signature.signer)
        if len(signature.signature) != SIGNATURE_BYTES:
            return f"{who}'s signature at {place} has {len(signature.signature)} bytes"
    return ""


def recompute(
    record: pb.GameRecord,
    seal: spb.Seal,
    sealed: list[bytes],
    moves_bytes: Sequence[bytes] | None = None,
) -> tuple[list[bytes], bytes | None, vpb.Finding | None]:
    """The heads the record gives, up to the first that differs from the seal's (``sealed``).

    ``moves_bytes``: the bytes of the record's main-line moves, when at hand (``ply_heads``).

    Returns:
        The intact heads (H0 first; empty when the identity breaks), the final head when the
        whole chain is intact (else None), and the SEAL_BROKEN finding, if any.
    """
    try:
        head = first_head(identity_items(record, list(seal.seat_keys), seal.host_key))
    except EncodingError as error:
        return [], None, _broken(0, f"the record's identity has no canonical form: {error}")
    if head != seal.identity_head:
        return [], None, _broken(0, _IDENTITY_CHANGED)
    after, unwritable = ply_heads(
        head, record.moves, record.rules.game, sealed, moves_bytes=moves_bytes
    )
    heads = [head, *after]
    broken = _ply_break(record, seal, heads, unwritable)
    if broken is not None:
        return heads, None, broken
    final = next_head(heads[-1], result_items(record))
    if final != seal.final_head:
        return heads, None, _broken(0, _RESULT_CHANGED)
    return heads, final, None


def _ply_break(
    record: pb.GameRecord, seal: spb.Seal, heads: list[bytes], error: EncodingError | None
) -> vpb.Finding | None:
    """Where the record's plies break the seal, or None; a head that differs leaves ``heads``.

    ``heads`` are H0 and the heads :func:`ply_heads` gave (the last one differs from its
    sealed head when a ply is not the sealed one); ``error``: the next ply's.
    """
    ply = len(heads)  # the ply after the last head
    if error is not None:
        return _broken(ply, f"ply {ply} has no canonical form: {error}")
    sealed, plies = len(seal.plies), len(record.moves)
    last = ply - 1
    if last and heads[-1] != seal.plies[last - 1].head:
        heads.pop()
        seat = record.moves[last - 1].seat
        why = f"ply {last} (seat {seat or '?'}) is not the ply that was sealed there"
        return _broken(last, why)
    if sealed > plies:
        return _broken(
            ply, f"the seal covers {sealed} plies, but the record ends after ply {plies}"
        )
    if plies > sealed:
        return _broken(
            ply, f"ply {ply} is not sealed: the seal covers the first {sealed} plies only"
        )
    return None


_IDENTITY_CHANGED = (
    "the record's identity is not the sealed one: its game, rules version, variant, seats "
    "(names, ids, keys), host key, event, site, round, date, start time or time control changed"
)
_RESULT_CHANGED = (
    "the record's claimed result (scores, winners or termination) is not the sealed one"
)


def _broken(ply: int, why: str) -> vpb.Finding:
    return vpb.Finding(ply=ply, code="SEAL_BROKEN", message=f"the seal is broken: {why}")


def _check_signatures(
    seal: spb.Seal,
    signed: list[int],
    heads: list[bytes],
    final: bytes | None,
    check: SealCheck,
    *,
    deadline: float | None,
) -> None:
    """Check every signature over an intact head; fill the coverage and SIGNATURE_INVALID."""
    keys = {number: key for number, key in enumerate(seal.seat_keys, start=1) if key}
    if seal.host_key:
        keys[HOST] = seal.host_key
    check.coverage = {signer: Coverage() for signer in keys}
    checks = {signer: verifier(key) for signer, key in keys.items()}
    for ply in signed:  # the signed plies (from 1), in order: those with an intact head
        if ply >= len(heads):
            break
        if deadline is not None:
            check_deadline(deadline, f"the seal's signatures up to ply {ply - 1} were checked")
        for signature in seal.plies[ply - 1].signatures:
            valid = checks[signature.signer](ply_message(ply, heads[ply]), signature.signature)
            _count(check.coverage[signature.signer], ply, valid)
    if final is not None:
        for signature in seal.final_signatures:
            valid = checks[signature.signer](final_message(final), signature.signature)
            _count(check.coverage[signature.signer], 0, valid)
    for signer, covered in check.coverage.items():
        if covered.result:
            covered.through = len(heads) - 1
        if covered.invalid:
            check.findings.append(_invalid(signer, keys[signer], covered))


def _count(covered: Coverage, ply: int, valid: bool) -> None:
    """Count one signature (ply 0: the final head) as valid or invalid."""
    if valid:
        covered.valid += 1
        if ply == 0:
            covered.result = True
        covered.through = max(covered.through, ply)
        return
    covered.invalid += 1
    if covered.first_invalid == -1:
        covered.first_invalid = ply


def _invalid(signer: int, key: bytes, covered: Coverage) -> vpb.Finding:
    where = (
        "the final head"
        if covered.first_invalid == 0
        else f"the head after ply {covered.first_invalid}"
    )
    more = f" (and {covered.invalid - 1} more)" if covered.invalid > 1 else ""
    message = (
        f"{signer_name(signer)}'s signature over {where}{more} was not made by its key "
        f"{fingerprint(key)}: a wrong key, or a signature taken from another record"
    )
    return vpb.Finding(
        ply=max(covered.first_invalid, 0), seat=signer, code="SIGNATURE_INVALID", message=message
    )
