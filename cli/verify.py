"""``gamerec verify PATH... [--trust DIR]``: what each sealed record proves, then its replay."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of, records_of
from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, error_line, reported_errors

if TYPE_CHECKING:
    from gamerec.v1 import verification_pb2 as wpb


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
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Verify sealed records: chain, signatures, what each signer covers, trust, then replay.

    A record is verified when its seal holds, every seat (and the host, if it has a key)
    signed the final head with its key, every key is trusted (with --trust), and the strict
    replay is valid. Exit code 0 when every record is verified, 1 when any is not, 2 when an
    input cannot be read.
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
        unverified |= not answer.verified
        typer.echo(message_json(answer) if as_json else verification_text(answer))
    raise typer.Exit(EXIT_FAILED if failed else EXIT_FINDINGS if unverified else EXIT_OK)


def verification_text(answer: wpb.Verification) -> str:
    """A headline, one line per signer, then one line per finding.

    ``game.grn #1: VERIFIED  ONE  64 plies  seal holds``
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
    word = "verified" if answer.verified else "NOT VERIFIED"
    head = [
        f"{answer.source} #{answer.record_number}: {word}",
        game_label(verdict.game),
        f"{verdict.plies_replayed} plies",
        STATUS_WORDS.get(verdict.status, "?"),
        seal_words.get(answer.seal, "?"),
    ]
    lines = ["  ".join(head)]
    lines += [f"  {signer_text(signer)}" for signer in answer.signers]
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
