"""``gamerec challenge``: the lobby from a terminal, on a real server."""

from __future__ import annotations

import subprocess

from tests.live.conftest import LiveServer
from tests.players.engines import GAMEREC


def _challenge(server: LiveServer, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(GAMEREC), "challenge", *arguments, "--server", server.address],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _field(output: str, first: str) -> str:
    return next(line.split()[1] for line in output.splitlines() if line.startswith(first + " "))


def test_new_wait_take_list_and_cancel_from_the_command_line(lobby_server: LiveServer) -> None:
    waiting = subprocess.Popen(
        [
            *(str(GAMEREC), "challenge", "new", "--server", lobby_server.address),
            *("--game", "oh-wah-ree", "--variant", "Players=3", "--name", "Ana", "--wait"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert waiting.stdout is not None
    first = waiting.stdout.readline()
    assert first.startswith("challenge ") and first.rstrip().endswith(
        "3 seats  clock -  casual  open"
    )
    challenge_id = first.split()[1]
    ben = _challenge(lobby_server, "take", challenge_id, "--name", "Ben")
    assert ben.returncode == 0, ben.stderr
    assert "seat 2  Ben  (you)" in ben.stdout and "match " not in ben.stdout
    # someone else than its creator cannot withdraw it
    refused = _challenge(
        lobby_server, "cancel", challenge_id, "--token", _field(ben.stdout, "token")
    )
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"gamerec: error: {lobby_server.address}: UNAUTHENTICATED: the token is not the "
        f"creator's of challenge {challenge_id}"
    ]
    chi = _challenge(lobby_server, "take", challenge_id, "--name", "Chi")
    assert chi.returncode == 0, chi.stderr
    match_id = _field(chi.stdout, "match")
    token = _field(chi.stdout, "token")
    assert chi.stdout.splitlines()[-1] == (
        f"play: gamerec play --server {lobby_server.address} --match {match_id} "
        f"--token {token} --seat 3"
    )
    out, err = waiting.communicate(timeout=60)
    assert waiting.returncode == 0, err
    assert f"match {match_id}" in out
    assert f"--match {match_id} --token seat_" in out and out.rstrip().endswith("--seat 1")
    listed = _challenge(lobby_server, "list", "--token", token)
    assert listed.stdout.splitlines()[:4] == [
        f"challenge {challenge_id}  Oh-Wah-Ree  3 seats  clock -  casual  started",
        "seat 1  Ana",
        "seat 2  Ben",
        "seat 3  Chi  (you)",
    ]
