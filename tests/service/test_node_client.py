"""The Node.js example client (examples/node-client) validates records through a real server."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.validator.judge import validate
from tests.service.conftest import FIXTURES, ROOT, InProcessServer

CLIENT = ROOT / "examples" / "node-client"


def run_client(server: InProcessServer, record: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    assert node, "node is needed for the example client"
    if not (CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail("the Node client's packages are missing: run `make node-client`")
    return subprocess.run(
        [node, "validate.mjs", "--address", server.address, str(record)],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_node_client_validates_a_grn_game_and_prints_the_verdict(server: InProcessServer) -> None:
    path = FIXTURES / "games" / "ohwahree-3p.grn"
    (record,) = read_records(str(path))
    verdict = validate(record)
    finished = run_client(server, path)
    assert finished.returncode == 0, finished.stderr
    scores = "-".join(map(str, verdict.result.scores))
    winners = ",".join(map(str, verdict.result.winners))
    assert finished.stdout == (
        f"{path}: valid  Oh-Wah-Ree  {len(record.moves)} plies  finished  scores {scores}"
        f"  winners {winners}\n"
    )
    assert server.log.calls("Validate")[-1]["game"] == "Oh-Wah-Ree"


def test_node_client_prints_the_finding_of_an_invalid_record_and_exits_1(
    server: InProcessServer,
) -> None:
    path = FIXTURES / "invalid" / "oust-must-place-again.grn"
    (finding,) = validate(next(iter(read_records(str(path))))).errors
    finished = run_client(server, path)
    assert finished.returncode == 1, finished.stderr
    first, second = finished.stdout.splitlines()
    assert first.startswith(f"{path}: INVALID  Oust  {finding.ply - 1} plies  unfinished")
    assert second == (
        f"  ply {finding.ply}, seat {finding.seat}, {finding.move}: "
        f"{finding.code}: {finding.message}"
    )


def test_node_client_reports_a_refused_request_in_one_line_and_exits_2(
    server: InProcessServer,
) -> None:
    path = FIXTURES / "broken" / "bad-coordinate.grn"
    finished = run_client(server, path)
    assert finished.returncode == 2
    assert finished.stdout == ""
    assert finished.stderr == (
        f"validate.mjs: error: {path}: INVALID_ARGUMENT: data: line 4, column 16: move 'c7x': "
        "expected a ONE point such as c7 (a ring letter and an index) after 'c7x', found "
        "nothing\n"
    )
