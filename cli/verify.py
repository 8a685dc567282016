"""``gamerec verify PATH... [--trust DIR]``: what each sealed record proves, then its replay."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of
from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, error_line, reported_errors
from gamerec.cli.reading import records_of

if TYPE_CHECKING:
    from gamerec.v1 import verification_pb2 as wpb


class Level(enum.Enum):
    """The proof ``--require`` asks of every record (docs/signing.md, "What a record proves")."""

    SEAL = "seal"
    HOST = "host"
    SEATS = "seats"
    ALL = "all"


def verify(
    paths: PathsArgument,
    trust: Annotated[
        str | None,
        typer.Option(
            "--trust",
            metavar="DIR",
            help="A folder of trusted public keys (.pub lines or PEM files); a key not in it "
            "is UNTRUSTED_KEY.",
        ),
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print each Verification as one line of ProtoJSON."),
    ] = False,
    *,
    require: Annotated[
        Level,
        typer.Option(
            "--require",
            help="The proof each record must give: seal (intact, a legal game), host (the host "
            "signed every ply and the result), seats (every seat signed its own plies and the "
            "result), all (every keyed signer, no finding at all).",
        ),
    ] = Level.ALL,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Verify sealed records: chain, signatures, what each signer covers, trust, then replay.

    A record is verified when its seal holds, every seat (and the host, if it has a key)
    signed the final head with its key, every key is trusted (with --trust), and the strict
    replay is valid; the "proves" line says which levels it reaches (seal, host, seats), and
    --require asks for one of them instead. Exit code 0 when every record gives the proof
    required, 1 when any does not, 2 when an input cannot be read.
    """
    from gamerec.cli.verdicts import message_json
    from gamerec.recorder.inputs import InputFailure
    from gamerec.recorder.signing import trusted_keys
    from gamerec.validator.verification import verify as verify_record

    limits = limits_of(limit)
    trusted = None
    if trust is not None:
        with reported_errors():
            trusted = set(trusted_keys(trust))
    failed = unverified = False
    for item in records_of(paths, from_, limits):
        if isinstance(item, InputFailure):
            typer.echo(error_line(item.message), err=True)
            failed = True
            continue
        answer = verify_record(item.record, trusted, limits=limits)
        answer.source, answer.record_number = item.source, item.number
        answer.verdict.source, answer.verdict.record_number = item.source, item.number
        met = meets(answer, require)
        unverified |= not met
        typer.echo(message_json(answer) if as_json else verification_text(answer, require))
    raise typer.Exit(EXIT_FAILED if failed else EXIT_FINDINGS if unverified else EXIT_OK)


def meets(answer: wpb.Verification, require: Level) -> bool:
    """Whether ``answer`` gives the proof ``require`` asks for."""
    from gamerec.v1 import verification_pb2 as wpb

    if require is Level.ALL:
        return answer.verified
    return wpb.ProofLevel.Value(f"PROOF_LEVEL_{require.name}") in answer.proven


def proves_text(answer: wpb.Verification) -> str:
    """``proves  seal yes  host yes  seats no``: the levels of proof the record reaches."""
    from gamerec.v1 import verification_pb2 as wpb

    levels = (
        ("seal", wpb.PROOF_LEVEL_SEAL),
        ("host", wpb.PROOF_LEVEL_HOST),
        ("seats", wpb.PROOF_LEVEL_SEATS),
    )
    return "proves  " + "  ".join(
        f"{name} {'yes' if level in answer.proven else 'no'}" for name, level in levels
    )


def verification_text(answer: wpb.Verification, require: Level = Level.ALL) -> str:
    """A headline, one line per signer, the levels proven, then one line per finding.

    ``game.grn #1: verified  ONE  64 plies  finished  seal holds``; with ``--require host``
    the headline names it: ``verified (required: host)``.
    """
    from gamerec.cli.verdicts import STATUS_WORDS, finding_text
    from gamerec.recorder.notation import game_label
    from gamerec.v1 import seal_pb2 as spb

    seal_words = {
        spb.SEAL_STATUS_NONE: "not sealed",
        spb.SEAL_STATUS_HOLDS: "seal holds",
        spb.SEAL_STATUS_BROKEN: "seal BROKEN",
    }
    verdict = answer.verdict
    word = "verified" if meets(answer, require) else "NOT VERIFIED"
    if require is not Level.ALL:
        word += f" (required: {require.value})"
    head = [
        f"{answer.source} #{answer.record_number}: {word}",
        game_label(verdict.game),
        f"{verdict.plies_replayed} plies",
        STATUS_WORDS.get(verdict.status, "?"),
        seal_words.get(answer.seal, "?"),
    ]
    lines = ["  ".join(head)]
    lines += [f"  {signer_text(signer)}" for signer in answer.signers]
    lines.append(f"  {proves_text(answer)}")
    lines += [f"  {finding_text(finding)}" for finding in answer.findings]
    return "\n".join(lines)


def signer_text(signer: wpb.Signer) -> str:
    """``seat 1  SHA256:...  trusted  signed every ply and the result``."""
    name = "host" if signer.signer == 0 else f"seat {signer.signer}"
    if not signer.fingerprint:
        return f"{name:<7} no key"
    trusted = "trusted" if signer.trusted else "-"
    if signer.signed_result:
        covered = "signed every ply and the result"
    elif signer.signed_through:
        covered = f"signed plies 1-{signer.signed_through}"
    else:
        covered = "signed nothing"
    return f"{name:<7} {signer.fingerprint}  {trusted:<7}  {covered}"
