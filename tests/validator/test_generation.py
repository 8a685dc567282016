"""Every policy ends every game (``gamerec generate``), and what it makes is legal and finished."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.judge import validate

# Greedy play once repeated a position every 4 plies here (41. 8cw 42. 2cw 43. 7ccw 44. 1ccw)
# and never returned; 16 of 399 four-seat greedy games did so.
SWEEP = """
from gamerec.validator.generation import generate
games = list(generate("Oh-Wah-Ree", {"Players": "4"}, 150, 5, "greedy"))
print(len(games), sum(record.result.HasField("unfinished") for record in games))
"""


def test_four_seat_greedy_oh_wah_ree_games_all_end() -> None:
    # In a child process with a deadline, so a regression fails instead of hanging the run.
    done = subprocess.run(
        [sys.executable, "-c", SWEEP], capture_output=True, text=True, timeout=240, check=True
    )
    assert done.stdout.split() == ["150", "0"]


VARIANTS = [
    ("ONE", {"Players": "2"}),
    ("ONE", {"Players": "5"}),
    ("Aronda", {}),
    ("Oust", {"Board": "4"}),
    ("Oh-Wah-Ree", {"Players": "2"}),
    ("Oh-Wah-Ree", {"Players": "3"}),
    ("Oh-Wah-Ree", {"Players": "4"}),
]


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize(("game", "tags"), VARIANTS)
def test_generated_games_are_legal_and_claim_the_rules_result(
    game: str, tags: dict[str, str], policy: str
) -> None:
    for record in generate(game, tags, 4, 11, policy):
        verdict = validate(record)
        assert verdict.valid, [finding.message for finding in verdict.errors]
        if record.result.HasField("unfinished"):  # only a forced cycle (engine's own guard)
            assert policy == "random" and "repeats" in record.comment
        else:
            assert record.result.termination == pb.TERMINATION_NORMAL
