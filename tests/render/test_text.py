"""The text drawings of ``gamerec replay``, laid out by the board model."""

from __future__ import annotations

from pathlib import Path

from gamerec.recorder.codecs import read_records
from gamerec.validator.frames import steps
from gamerec.validator.games import engine
from gamerec.validator.identity import identify
from gamerec.validator.render import board_model, draw_text, step_places

VALID = Path(__file__).resolve().parents[2] / "fixtures" / "valid"


def drawing_after(name: str, ply: int) -> str:
    record = next(read_records(VALID / name))
    identity = identify(record)
    model = board_model(identity.name, identity.variant)
    step = next(step for step in steps(record, include_start=True) if step.ply == ply)
    return draw_text(model, step.state.position(), step_places(step))


def test_oust_empty_board_is_the_hex_diagram_of_the_rules() -> None:
    found = engine("Oust")
    variant = found.variant(side=3)
    drawing = draw_text(board_model("Oust", variant), found.new_game(variant).position())
    # docs/rules/oust.md §2.1, side 3, with every cell empty: the rows numbered on the left,
    # each letter where its diagonal of cells (going up-right) leaves the board.
    assert drawing.splitlines()[:6] == [
        "           a   b   c",
        "  5      .   .   .   d",
        "  4    .   .   .   .   e",
        "  3  .   .   .   .   .",
        "  2    .   .   .   .",
        "  1      .   .   .",
    ]


def test_every_oust_cell_lies_on_its_letters_diagonal_and_its_rows_line() -> None:
    """Going down-left from a letter, one line and half a cell a step, meets its cells."""
    found = engine("Oust")
    for side in (2, 3, 7, 13):
        variant = found.variant(side=side)
        model = board_model("Oust", variant)
        lines = draw_text(model, found.new_game(variant).position()).splitlines()
        for place in model.sites:
            letter, number = place.name[0], place.name[1:]
            row = place.row + 1  # the line of letters comes first
            at = 4 + place.column * 2 + 1  # the cell's mark, centred in its 4 columns
            assert lines[row][at] == "." and lines[row][:3].strip() == number, place.name
            up = 1
            while lines[row - up][at + 2 * up] == ".":
                up += 1
            assert lines[row - up][at + 2 * up] == letter, (side, place.name)


def test_one_capture_brackets_the_jump_start_and_landing() -> None:
    assert drawing_after("one-e3-round-completion.grn", 4).splitlines() == [
        "      1   2   3   4   5   6",
        "  a  [.]  .  [1]  .   .   .",
        "  b   3   .   .   .   .   .",
        "supply   seat 1: 3  seat 2: 3  seat 3: 3",
        "captured seat 1: 1  seat 2: 0  seat 3: 0",
        "to move  seat 2",
    ]


def test_aronda_rows_show_owners_and_pieces_per_seat() -> None:
    assert drawing_after("aronda-e4-inside-then-outside.grn", 7).splitlines()[:5] == [
        "          1      2      3      4      5      6      7      8",
        "  o      0:1     .      .      #1     #1    [#1]    .      #2",
        "  m       .      .      .      .    [1:0]    .      .      .",
        "  i       .      .      .      .      .      .      .      .",
        "  c       .",
    ]


def test_ohwahree_table_has_pits_owners_and_stones() -> None:
    lines = drawing_after("ohwahree-e2-three-seats.grn", 0).splitlines()
    pits = "  pit    " + "".join(str(pit).center(5) for pit in range(1, 13))
    owners = "  seat   " + "".join(
        str(owner).center(5) for owner in (1, 1, 1, 1, 3, 3, 3, 3, 2, 2, 2, 2)
    )
    assert lines[:2] == [pits.rstrip(), owners.rstrip()]
    assert lines[2].split()[1:] == ["4"] * 12
    assert lines[-1] == "to move  seat 1"
