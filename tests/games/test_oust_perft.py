"""Oust perft counts (fixtures/perft/oust.txt, from spec/perft.md): whole turns, not placements.

The deepest depth of each variant runs under the slow marker.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.validator.games.oust import ENGINE, OustState, OustVariant, perft

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "perft" / "oust.txt"


def perft_rows() -> list[tuple[OustVariant, int, int]]:
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
    """The rows as pytest parameters: the deepest of each variant, or all the others."""
    deepest: dict[OustVariant, int] = {}
    for variant, depth, _ in perft_rows():
        deepest[variant] = max(depth, deepest.get(variant, 0))
    return [
        pytest.param(variant, depth, count, id=f"side{variant.side}-pie{variant.pie}-d{depth}")
        for variant, depth, count in perft_rows()
        if (depth == deepest[variant]) == deep
    ]


def perft_by_play(state: OustState, depth: int) -> int:
    """Perft the slow way: every listed turn is checked and played on a copy."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_turns():
        assert state.check(move) is None
        child = state.copy()
        child.play(move)
        total += perft_by_play(child, depth - 1)
    return total


def test_fixture_holds_the_spec_rows() -> None:
    counts = {(v.side, v.pie, depth): count for v, depth, count in perft_rows()}
    assert counts[(3, True, 5)] == 4442364
    assert counts[(3, False, 5)] == 4291728
    assert counts[(7, True, 3)] == 1935708
    assert len(counts) == 13


@pytest.mark.parametrize(("variant", "depth", "count"), rows_param(deep=False))
def test_perft_shallow(variant: OustVariant, depth: int, count: int) -> None:
    assert perft(OustState(variant), depth) == count
    assert ENGINE.perft(variant, depth) == count  # the engine's perft counts whole turns too


@pytest.mark.parametrize(
    ("variant", "depth", "count"),
    [(OustVariant(side=3), 3, 5220), (OustVariant(side=3, pie=False), 3, 4878)],
)
def test_listed_turns_played_one_by_one_give_the_same_counts(
    variant: OustVariant, depth: int, count: int
) -> None:
    assert perft_by_play(OustState(variant), depth) == count


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "depth", "count"), rows_param(deep=True))
def test_perft_deep(variant: OustVariant, depth: int, count: int) -> None:
    assert perft(OustState(variant), depth) == count
