"""Oust's cells in the other tools' names, checked on every cell of every board they offer.

The conversions (``gamerec.recorder.syntax.oust``) are compared with boards built here from
the other tools' own descriptions (docs/formats.md, "Oust's cells"), never from gamerec's
mapping: Abstract Play's labelled board (``tests.reference.abstractplay_oust``) and Ludii's
sites ordered by their centres as Ludii's ``HexagonOnHex`` and ``Graph.reorder`` place them.
A conversion is right when it is one to one and every pair of neighbours stays neighbours.
"""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.recorder.syntax import oust
from gamerec.recorder.syntax.base import LETTERS
from tests.reference.abstractplay_oust import LabelledBoard
from tests.reference.oust_rules import OustBoard

ROOT = Path(__file__).resolve().parents[2]
#: The boards each tool offers (Abstract Play: hex-6, hex-7, hex-8; Ludii: 5x5, 7x7, 9x9).
ABSTRACT_PLAY_SIDES = (6, 7, 8)
LUDII_SIDES = (5, 7, 9)


def grn_cell(name: str) -> tuple[int, int]:
    """A GRN cell name as (column, row)."""
    return LETTERS.index(name[0]) + 1, int(name[1:])


@pytest.mark.parametrize("side", ABSTRACT_PLAY_SIDES)
def test_abstract_play_labels_name_every_cell_once(side: int) -> None:
    grn = OustBoard(side)
    labels = {name: oust.ap_label(*grn_cell(name), side) for name in grn.cells}
    assert sorted(labels.values()) == sorted(LabelledBoard(side).labels)
    for name, label in labels.items():
        assert oust.cell_text(*oust.cell_of_ap_label(label, side)) == name


@pytest.mark.parametrize("side", ABSTRACT_PLAY_SIDES)
def test_abstract_play_labels_keep_every_neighbour(side: int) -> None:
    grn = OustBoard(side)
    labelled = LabelledBoard(side)
    label = {name: oust.ap_label(*grn_cell(name), side) for name in grn.cells}
    for name in grn.cells:
        assert {label[other] for other in grn.neighbours[name]} == labelled.neighbours[label[name]]


@pytest.mark.parametrize(
    ("side", "grn", "label"),
    [
        (7, "g1", "a1"),  # the bottom row's left end
        (7, "m1", "a7"),
        (7, "a7", "g1"),  # the middle row
        (7, "g7", "g7"),  # the centre keeps its name
        (7, "m7", "g13"),
        (7, "a13", "m1"),  # the top row
        (7, "g13", "m7"),
        (6, "f1", "a1"),
        (6, "f11", "k6"),
        (6, "k6", "f11"),
        (8, "h1", "a1"),
        (8, "h15", "o8"),
    ],
)
def test_the_corners_and_the_centre(side: int, grn: str, label: str) -> None:
    assert oust.ap_label(*grn_cell(grn), side) == label
    assert oust.ap_move_to_grn(label, {"Board": str(side)}) == grn


@pytest.mark.parametrize("side", ABSTRACT_PLAY_SIDES)
@pytest.mark.parametrize("label", ["a0", "a01", "A1", "1a", "", "aa1"])
def test_what_is_no_label_is_refused(side: int, label: str) -> None:
    with pytest.raises(ValueError, match="not an Abstract Play cell label"):
        oust.cell_of_ap_label(label, side)


@pytest.mark.parametrize("side", ABSTRACT_PLAY_SIDES)
def test_labels_past_a_row_or_above_the_board_are_refused(side: int) -> None:
    rows = 2 * side - 1
    top = LETTERS[rows]
    for label in (f"a{side + 1}", f"{LETTERS[side - 1]}{rows + 1}", f"{top}1"):
        with pytest.raises(ValueError, match="is not a cell of Abstract Play's Oust board"):
            oust.cell_of_ap_label(label, side)


def ludii_sites(side: int) -> list[tuple[float, float]]:
    """The centres of Ludii's (hex N) cells in site order.

    HexagonOnHex lays cells at rows r and columns c with |c - r| <= N - 1 (0 <= r, c <= 2N-2),
    centred at (sqrt(3) * (c - r / 2), 1.5 * r); Graph.reorder numbers them by y * 100 + x.
    """
    n = side - 1
    centres = [
        (math.sqrt(3) * (col - row / 2), 1.5 * row)
        for row in range(2 * n + 1)
        for col in range(2 * n + 1)
        if abs(col - row) <= n
    ]
    return sorted(centres, key=lambda centre: centre[1] * 100 + centre[0])


@pytest.mark.parametrize("side", LUDII_SIDES)
def test_ludii_sites_are_gamerec_cells_with_the_same_neighbours(side: int) -> None:
    centres = ludii_sites(side)
    cells = oust.ludii_cells({"Board": str(side)})
    assert sorted(cells) == sorted(OustBoard(side).cells)
    neighbours = OustBoard(side).neighbours
    for site, (x, y) in enumerate(centres):
        touching = {
            cells[other]
            for other, (u, v) in enumerate(centres)
            if other != site and math.isclose(math.hypot(x - u, y - v), math.sqrt(3))
        }
        assert touching == neighbours[cells[site]], site


@pytest.mark.parametrize("side", LUDII_SIDES)
def test_ludii_site_0_is_the_bottom_left_cell_and_the_centre_is_the_middle_site(
    side: int,
) -> None:
    cells = oust.ludii_cells({"Board": str(side)})
    assert cells[0] == f"{LETTERS[side - 1]}1"
    assert cells[len(cells) // 2] == f"{LETTERS[side - 1]}{side}"


def test_the_picture_in_the_docs_is_the_scripts() -> None:
    """docs/images/oust-cell-names.svg draws the conversions above (scripts/oust_cell_names.py)."""
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "oust_cell_names.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    svg = (ROOT / "docs" / "images" / "oust-cell-names.svg").read_text()
    for name, label, site in (("g1", "a1", 0), ("g7", "g7", 63), ("m7", "g13", 69)):
        assert f">{site}</text>" in svg and f">{name}</text>" in svg and f">{label}</text>" in svg
