"""``gamerec tables build|probe``: the file written, the answers and their exit codes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.validator.tables import open_table

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "t3.owrt"
    result = run("tables", "build", "--stones", "3", "--out", str(path), "-q")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"wrote {path}: 455 positions of up to 3 stones (139 never")
    assert open_table(path).stones == 3
    return path


def test_build_writes_the_default_table_where_the_environment_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMEREC_TABLES", str(tmp_path / "named.owrt"))
    result = run("tables", "build", "--stones", "1")
    assert result.exit_code == 0, result.output
    assert open_table(tmp_path / "named.owrt").stones == 1
    assert "1 stones: 12 positions" in result.stderr


@pytest.mark.parametrize(
    ("position", "said", "code"),
    [
        (
            "0,0,0,0,0,1,0,0,0,0,0,0:1",
            "exact: with perfect play seat 1 (to move) ends -1 on seat 2 in the stones still on"
            " the board",
            0,
        ),
        (
            "0 0 0 0 1 0 0 0 0 0 0 1",
            "perfect play never ends (the rules have no repetition rule, §8.2): the most seat 1"
            " can make sure of with an end is +2; seat 2 cannot force an end",
            0,
        ),
        (
            "0,0,0,0,0,1,0,0,0,0,0,1:2",
            "perfect play never ends (the rules have no repetition rule, §8.2): seat 2 cannot"
            " force an end; seat 1 can end it holding seat 2 to -2",
            0,
        ),
        (
            "1,1,1,1,0,0,0,0,0,0,0,0:1",
            "not covered: 4 stones on the board, the table holds up to 3",
            1,
        ),
        ("0,0,0,0,0,0,0,0,0,0,0,1:1", "not covered: the game is over", 1),
    ],
)
def test_probe_a_typed_position(table: Path, position: str, said: str, code: int) -> None:
    result = run("tables", "probe", position, "--table", str(table))
    assert (result.exit_code, result.stdout.strip()) == (code, said)


def test_probe_a_record(table: Path) -> None:
    record = str(GAMES / "ohwahree-2p.grn")
    over = run("tables", "probe", record, "--table", str(table))
    assert (over.exit_code, over.stdout.strip()) == (1, "not covered: the game is over")
    early = run("tables", "probe", record, "--ply", "50", "--table", str(table))
    assert early.exit_code == 1
    assert early.stdout.strip() == "not covered: 16 stones on the board, the table holds up to 3"
    three = run("tables", "probe", str(GAMES / "ohwahree-3p.grn"), "--table", str(table))
    assert three.stdout.strip() == "not covered: the tables hold two-seat Oh-Wah-Ree positions only"


@pytest.mark.parametrize(
    ("position", "said"),
    [
        ("1,2,3", "position '1,2,3': 3 pit counts, not 12"),
        ("0,0,0,0,0,1,0,0,0,0,0,0:3", "seat 3 cannot be to move with 2 seats"),
        ("no-such-file.grn", "no-such-file.grn: no such record file, and not a position"),
    ],
)
def test_a_bad_position_is_exit_2_with_its_reason(table: Path, position: str, said: str) -> None:
    result = run("tables", "probe", position, "--table", str(table))
    assert result.exit_code == 2 and said in result.stderr and len(result.stderr) < 300


def test_a_damaged_table_is_exit_2_with_its_reason(tmp_path: Path, table: Path) -> None:
    damaged = tmp_path / "damaged.owrt"
    data = bytearray(table.read_bytes())
    data[70] ^= 0xFF
    damaged.write_bytes(bytes(data))
    result = run("tables", "probe", "0,0,0,0,0,1,0,0,0,0,0,0", "--table", str(damaged))
    assert result.exit_code == 2
    assert f"{damaged}: checksum mismatch at byte 32: the table is damaged" in result.stderr
    assert "Traceback" not in result.output
