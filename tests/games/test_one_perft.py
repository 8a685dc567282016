"""ONE perft counts (fixtures/perft/one.txt, the ONE rows of perft.md).

Rows with more than DEFAULT_RUN_LEAVES leaves run only with ``-m slow``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from gamerec.validator.games import protocol
from gamerec.validator.games.one import ENGINE, OneState

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "perft" / "one.txt"
DEFAULT_RUN_LEAVES = 250_000


class PerftRow(NamedTuple):
    tags: dict[str, str]
    depth: int
    leaves: int


def perft_rows() -> list[PerftRow]:
    rows = []
    for line in FIXTURE.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tags, depth, leaves = (field.strip() for field in line.split("|"))
        pairs = dict(pair.split("=", 1) for pair in tags.split())
        rows.append(PerftRow(pairs, int(depth), int(leaves)))
    return rows


def row_id(row: PerftRow) -> str:
    return " ".join(f"{k}={v}" for k, v in row.tags.items()) + f" d={row.depth}"


def marked(row: PerftRow) -> object:
    marks = [pytest.mark.slow] if row.leaves > DEFAULT_RUN_LEAVES else []
    return pytest.param(row, id=row_id(row), marks=marks)


def start(tags: dict[str, str]) -> OneState:
    return ENGINE.new_game(ENGINE.variant_from_tags(tags))


def test_fixture_holds_every_one_row_of_perft_md() -> None:
    assert len(perft_rows()) == 10
    assert {row.depth for row in perft_rows()} == {1, 2, 3, 4}


@pytest.mark.parametrize("row", [marked(row) for row in perft_rows()])
def test_perft_count(row: PerftRow) -> None:
    assert ENGINE.perft_from(start(row.tags), row.depth) == row.leaves


@pytest.mark.parametrize("tags", [{"Players": "2"}, {"Players": "3", "Mirror": "every"}])
def test_fast_perft_agrees_with_the_protocol_perft(tags: dict[str, str]) -> None:
    assert ENGINE.perft_from(start(tags), 2) == protocol.perft(start(tags), 2)


@pytest.mark.slow
def test_fast_perft_agrees_with_the_protocol_perft_at_depth_3() -> None:
    tags = {"Players": "2", "Board": "10,10,20"}
    assert ENGINE.perft_from(start(tags), 3) == protocol.perft(start(tags), 3) == 57860


@pytest.mark.parametrize(("players", "captures"), [(2, 160), (3, 0)])
def test_ply_3_captures_are_one_per_directed_jump_with_two_seats(
    players: int, captures: int
) -> None:
    # 202000 = 60 x 58 x 58 placements + one capture per directed jump (p, q, t) after
    # 1. p 2. q; with 3 seats ply 3 is seat 3's, which has no stone to jump with.
    root = start({"Players": str(players)})
    found = 0
    for first in root.legal_moves():
        one = root.copy()
        one.play(first)
        for second in one.legal_moves():
            two = one.copy()
            two.play(second)
            found += sum(len(move) > 1 for move in two.legal_moves())
    assert found == captures
