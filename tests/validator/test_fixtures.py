"""The validator's fixtures: complete games are valid, each invalid record fails as it says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.games import engine, game_names
from gamerec.validator.judge import validate

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = sorted((ROOT / "fixtures" / "games").glob("*.grn"))
INVALID = sorted((ROOT / "fixtures" / "invalid").glob("*"))
#: The validator's own finding codes (judge.py, moves.py, identity.py).
VALIDATOR_CODES = {
    "UNKNOWN_GAME",
    "IMPOSSIBLE_VARIANT",
    "SEAT_COUNT_MISMATCH",
    "EMPTY_MOVE",
    "MOVE_OF_OTHER_GAME",
    "MALFORMED_MOVE",
    "GAME_ALREADY_OVER",
    "RECORD_ENDS_EARLY",
    "RESULT_MISMATCH",
    "WINNER_MISMATCH",
    "TERMINATION_MISMATCH",
}
#: Engine codes no legal sequence of plies can provoke (the engine tests cover them).
UNREACHABLE = {("ONE", "NO_STONES_LEFT")}


def only_record(path: Path) -> pb.GameRecord:
    records = list(read_records(path))
    assert len(records) == 1
    return records[0]


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_complete_game_fixture_is_valid_with_its_claimed_scores(path: Path) -> None:
    record = only_record(path)
    verdict = validate(record)
    assert verdict.valid, [(e.ply, e.code, e.message) for e in verdict.errors]
    assert verdict.plies_replayed == len(record.moves)
    if record.result.HasField("scores") and verdict.status == vpb.GAME_STATUS_FINISHED:
        assert list(verdict.result.scores) == list(record.result.scores.values)
        assert list(verdict.result.winners) == sorted(record.result.winners)


def test_complete_games_cover_every_game_and_player_count() -> None:
    seen = set()
    for path in GAMES:
        record = only_record(path)
        verdict = validate(record)
        seen.add((record.rules.game, len(verdict.result.scores)))
    one, owr = pb.GAME_ONE, pb.GAME_OH_WAH_REE
    wanted = {(one, n) for n in range(2, 7)} | {(owr, n) for n in range(2, 5)}
    wanted |= {(pb.GAME_ARONDA, 2), (pb.GAME_OUST, 2)}
    assert wanted <= seen


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_fixture_fails_at_the_ply_and_code_it_states(path: Path) -> None:
    record = only_record(path)
    expected_code = record.metadata.extra_tags["ExpectedCode"]
    expected_ply = int(record.metadata.extra_tags["ExpectedPly"])
    verdict = validate(record)
    assert not verdict.valid
    first = verdict.errors[0]
    assert (first.code, first.ply) == (expected_code, expected_ply), first.message
    assert first.message


def test_every_reachable_code_has_an_invalid_fixture() -> None:
    covered = set()
    for path in INVALID:
        record = only_record(path)
        covered.add((record.rules.game, record.metadata.extra_tags["ExpectedCode"]))
    codes = {code for _, code in covered}
    assert codes >= VALIDATOR_CODES
    game_numbers = dict(pb.Game.items())
    for name in game_names():
        number = game_numbers["GAME_" + name.upper().replace("-", "_")]
        for code in engine(name).reason_codes:
            if (name, code) not in UNREACHABLE:
                assert (number, code) in covered, (name, code)


def test_fixtures_are_fresh() -> None:
    script = ROOT / "scripts" / "make_verdict_fixtures.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
