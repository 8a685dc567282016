"""Aronda perft counts (fixtures/perft/aronda.txt, from spec/perft.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.validator.games import protocol
from gamerec.validator.games.aronda import ENGINE, ArondaVariant

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "perft" / "aronda.txt"
SHALLOW = 2  # deeper rows run under the slow marker


def perft_rows() -> list[tuple[ArondaVariant, int, int]]:
    """The fixture's rows as (variant, depth, count)."""
    rows = []
    for line in FIXTURE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tags_text, depth, count = (cell.strip() for cell in line.split("|"))
        tags = {}
        if tags_text != "defaults":
            tags = dict(pair.split("=") for pair in tags_text.split(";"))
        rows.append((ENGINE.variant_from_tags(tags), int(depth), int(count)))
    return rows


def rows_param(deep: bool) -> list[object]:
    """The fixture rows as pytest parameters, shallow or deep ones."""
    return [
        pytest.param(variant, depth, count, id=f"{variant.supply}-{variant.second_piece}-d{depth}")
        for variant, depth, count in perft_rows()
        if (depth > SHALLOW) == deep
    ]


def test_fixture_holds_the_spec_row() -> None:
    counts = {depth: count for variant, depth, count in perft_rows() if variant == ArondaVariant()}
    assert counts == {1: 8, 2: 640, 3: 74508}


@pytest.mark.parametrize(("variant", "depth", "count"), rows_param(deep=False))
def test_perft_shallow(variant: ArondaVariant, depth: int, count: int) -> None:
    assert ENGINE.perft(variant, depth) == count
    assert protocol.perft(ENGINE.new_game(variant), depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "depth", "count"), rows_param(deep=True))
def test_perft_deep(variant: ArondaVariant, depth: int, count: int) -> None:
    assert ENGINE.perft(variant, depth) == count
    assert protocol.perft(ENGINE.new_game(variant), depth) == count
