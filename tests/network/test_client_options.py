"""Every client command of the project's own reaches a server with the same connection options.

Issue 28: ``gamerec match``, ``play``, ``bot`` and ``tournament --server`` take ``--tls``,
``--ca``, ``--client-cert``, ``--client-key`` and ``--server-name`` under the same names, with
the same meaning (defined once in cli/connection.py), so a TLS server is reachable from each.
"""

from __future__ import annotations

from typing import Any

import pytest
import typer

from gamerec.cli.connection import CONNECTION_OPTIONS
from gamerec.cli.main import load_command

#: Every command that calls a match server.
CLIENTS = [
    ("match", "new"),
    ("match", "show"),
    ("match", "list"),
    ("match", "abort"),
    ("bot",),
    ("play",),
    ("tournament",),
]
TRANSPORT = ["--server", "--token-file", "--tls", "--ca", "--client-cert", "--client-key"]


def _command(path: tuple[str, ...]) -> Any:
    """The Typer (click) command of ``gamerec PATH...``."""
    command: Any = load_command(path[0])
    for name in path[1:]:
        found = command.get_command(typer.Context(command), name)
        assert found is not None, f"gamerec {' '.join(path)} is missing"
        command = found
    return command


@pytest.mark.parametrize("path", CLIENTS, ids=" ".join)
def test_a_client_command_takes_the_shared_connection_options(path: tuple[str, ...]) -> None:
    options = {
        flag: parameter
        for parameter in _command(path).params
        for flag in parameter.opts
        if flag.startswith("--")
    }
    missing = [flag for flag in [*TRANSPORT, "--server-name"] if flag not in options]
    assert not missing, f"gamerec {' '.join(path)} lacks {missing}"
    names = {options[flag].name for flag in TRANSPORT}
    assert names <= {name for name, _, _ in CONNECTION_OPTIONS}


@pytest.mark.parametrize("path", [("play",), ("tournament",)], ids=" ".join)
def test_without_server_the_local_commands_call_no_server(path: tuple[str, ...]) -> None:
    server = next(p for p in _command(path).params if "--server" in p.opts)
    assert server.default is None and not server.envvar
