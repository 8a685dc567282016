"""Oh-Wah-Ree perft: the move-generation counts of spec/perft.md (fixtures/perft/ohwahree.txt).

The deepest row of each variant runs under the slow marker; the others in the default run.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from gamerec.validator.games.ohwahree import ENGINE
from gamerec.validator.games.protocol import perft

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "perft" / "ohwahree.txt"


class PerftRow(NamedTuple):
    tags: dict[str, str]
    depth: int
    leaves: int


def read_rows() -> list[PerftRow]:
    rows = []
    for line in FIXTURE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tags_text, depth, leaves = (part.strip() for part in line.split("|"))
        tags = dict(pair.strip().split("=", 1) for pair in tags_text.split(","))
        rows.append(PerftRow(tags, int(depth), int(leaves)))
    return rows


ROWS = read_rows()


def row_param(row: PerftRow) -> object:
    label = ",".join(f"{tag}={value}" for tag, value in row.tags.items())
    deepest = max(other.depth for other in ROWS if other.tags == row.tags)
    marks = [pytest.mark.slow] if row.depth == deepest else []
    return pytest.param(row, id=f"{label}-d{row.depth}", marks=marks)


def test_fixture_holds_every_row_of_perft_md() -> None:
    counted = {(row.tags["Players"], row.depth) for row in ROWS}
    assert counted == {("2", d) for d in range(1, 8)} | {
        (players, d) for players in ("3", "4") for d in range(1, 6)
    }


@pytest.mark.parametrize("row", [row_param(row) for row in ROWS])
def test_perft_count_matches_the_spec(row: PerftRow) -> None:
    variant = ENGINE.variant_from_tags(row.tags)
    assert perft(ENGINE.new_game(variant), row.depth) == row.leaves
    assert ENGINE.perft(variant, row.depth) == row.leaves
