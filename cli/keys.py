"""``gamerec keys new PATH`` / ``gamerec keys show FILE...``: Ed25519 keys for signing records."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from gamerec.cli.edge import reported_errors


class KeysAction(StrEnum):
    """What ``gamerec keys`` does."""

    NEW = "new"
    SHOW = "show"


def keys(
    action: Annotated[
        KeysAction,
        typer.Argument(help="new: make a key pair; show: print key files' fingerprints."),
    ],
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH",
            help="new: the private key file to write (PATH.pub beside it); show: key files.",
        ),
    ],
    comment: Annotated[
        str, typer.Option("--comment", "-C", help="new: the comment of the .pub line.")
    ] = "",
) -> None:
    """Make Ed25519 key pairs for signing records, or show key files' fingerprints.

    new writes PATH (an OpenSSH private key, mode 0600, as ssh-keygen -t ed25519 -N ""
    writes it) and PATH.pub, and never overwrites a file. show reads .pub lines, PEM files of
    openssl and private key files alike. Keys are named by fingerprint (SHA256:..., as
    ssh-keygen -l prints it).
    """
    from gamerec.recorder.signing import (
        fingerprint,
        load_public_key,
        new_key,
        openssh_line,
        public_bytes,
        write_key_pair,
    )

    with reported_errors():
        for path in paths:
            if action is KeysAction.NEW:
                key = new_key()
                public_path = write_key_pair(key, path, comment)
                typer.echo(f"{fingerprint(public_bytes(key))}  {path} (private), {public_path}")
            else:
                public = load_public_key(path)
                typer.echo(f"{fingerprint(public)}  {path}  {openssh_line(public)}")
