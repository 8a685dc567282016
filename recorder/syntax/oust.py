"""Oust's record syntax: cells ``g7`` and turns ``e5,f5,k9`` (notation.md, Oust), its variant tags.

Move form: a tuple of ``(column, row)`` pairs, one per placement, the column as the rank of
its letter (``a`` = 1). A cell is a letter and a row number; whether the board has it
(``g0`` parses) is the referee's question, and so is how many placements a turn may chain.

Oust is also played on Abstract Play and in Ludii; how their records name its boards and
cells is here too (docs/formats.md, "Oust's cells"). All three number the same rows: GRN
names a cell by its column letter and row number, Abstract Play by its row letter (``a`` is
the bottom row) and its place in the row counted from the left, Ludii by its site index,
counted row by row from the bottom row's left end. So ``g1`` is Abstract Play's ``a1`` and
Ludii's site 0 on side 7, and the centre ``g7`` is ``g7`` and site 63.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, Final

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.recorder.syntax.base import (
    LETTERS,
    PLAYERS,
    GameSyntax,
    letter,
    letter_number,
    named_option,
    number_option,
)
from gamerec.recorder.syntax.foreign import AbstractPlayForm, LudiiForm, Tags

#: An Oust move form: ``(column, row)`` per placement (``g7`` is ``((7, 7),)``).
Cells = tuple[tuple[int, int], ...]


def parse_move(token: str) -> Cells:
    """``g7`` or ``e5,f5,k9``, lower case.

    Raises:
        NotationError: a part is not an Oust cell.
    """
    return tuple(letter_number(part, token, "an Oust cell", "g7") for part in token.split(","))


def message_of(cells: Cells) -> dict[str, Any]:
    """The fields of an ``OustTurn`` for a move form."""
    return {"placements": [{"column": column, "row": row} for column, row in cells]}


def format_move(turn: Any) -> str:
    """The canonical token of an ``OustTurn``.

    Raises:
        EncodingError: no placement, or a column with no letter.
    """
    if not turn.placements:
        raise EncodingError("an Oust turn with no placement has no token")
    return ",".join(f"{letter(cell.column, 'column')}{cell.row}" for cell in turn.placements)


# -- the board's rows, for the other tools' names of its cells -----------------------------------

#: The side of a board when the ``Board`` tag is absent (docs/rules/oust.md §8.1).
DEFAULT_SIDE: Final = 7


def board_side(tags: Tags) -> int:
    """The board side the variant tags name (7 when ``Board`` is absent or empty)."""
    text = tags.get("Board", "")
    return int(text) if text else DEFAULT_SIDE


def row_span(side: int, row: int) -> range:
    """The columns of row ``row`` (1-based, from the bottom) of the board of side ``side``.

    docs/rules/oust.md §2.1: row v + 1 holds the letters u = max(N−1−v, 0) .. min(3N−3−v, 2N−2);
    here columns count from 1 (``a`` = 1).
    """
    v = row - 1
    return range(max(side - 1 - v, 0) + 1, min(3 * side - 3 - v, 2 * side - 2) + 2)


def cells_by_rows(side: int) -> list[tuple[int, int]]:
    """Every cell as ``(column, row)``: the bottom row first, each row from the left."""
    return [(column, row) for row in range(1, 2 * side) for column in row_span(side, row)]


def cell_text(column: int, row: int) -> str:
    """A cell's GRN name."""
    return f"{LETTERS[column - 1]}{row}"


def on_board(column: int, row: int, side: int) -> bool:
    """Whether the board of side ``side`` has the cell."""
    return 1 <= row <= 2 * side - 1 and column in row_span(side, row)


#: Abstract Play's cell labels (gameslib HexTriGraph): a row letter, then a place from 1.
AP_LABEL: Final = re.compile(r"([a-z])([1-9][0-9]{0,2})")
#: Abstract Play's board variants and the side each one names (gameslib's Oust ``variants``
#: and their English names in locales/en/apgames.json; ``#board`` is the default group's
#: name, ``hex-7`` the name the issue that asked for this codec gives the default).
AP_BOARDS: Final = {
    "#board": 7,
    "size-7 hex": 7,
    "hex-7": 7,
    "hex-6": 6,
    "size-6 hex": 6,
    "hex-8": 8,
    "size-8 hex": 8,
}
#: The variants gameslib's Oust has and gamerec's has not.
AP_REFUSED: Final = {
    "square-11": "square Oust (docs/rules/oust.md §8.2)",
    "size-11 square": "square Oust (docs/rules/oust.md §8.2)",
}
#: What Abstract Play writes for each board side (the default, 7, is written as no variant).
AP_WRITTEN: Final = {6: "size-6 hex", 8: "size-8 hex"}


def ap_tags(variants: Sequence[str], pie_invoked: bool) -> dict[str, str]:
    """The GRN variant tags of an Abstract Play Oust record (it has no pie rule of its own).

    Raises:
        ValueError: a variant gamerec's Oust does not have (``square-11``), or none it knows.
    """
    tags = {"Pie": "on" if pie_invoked else "off"}
    for variant in variants:
        if variant in AP_REFUSED:
            raise ValueError(f"variant {variant!r} is {AP_REFUSED[variant]}, which gamerec lacks")
        if variant not in AP_BOARDS:
            known = ", ".join(sorted(AP_BOARDS))
            raise ValueError(f"variant {variant!r} is not one of Abstract Play's Oust ({known})")
        side = AP_BOARDS[variant]
        if tags.setdefault("Board", str(side)) != str(side):
            raise ValueError(f"variants {list(variants)!r} name two boards")
    return tags


def ap_variants(tags: Tags) -> list[str] | None:
    """The ``variants`` Abstract Play writes for the record's board (none for side 7).

    Raises:
        ValueError: a board side Abstract Play does not offer.
    """
    side = board_side(tags)
    if side == DEFAULT_SIDE:
        return None
    if side not in AP_WRITTEN:
        raise ValueError(f"Abstract Play's Oust has boards of side 6, 7 and 8, not {side}")
    return [AP_WRITTEN[side]]


def ap_label(column: int, row: int, side: int) -> str:
    """Abstract Play's label of a GRN cell: its row's letter, then its place in the row.

    Raises:
        ValueError: the cell is not on the board.
    """
    if not on_board(column, row, side):
        raise ValueError(f"cell {cell_text(column, row)} is not on the board of side {side}")
    return f"{LETTERS[row - 1]}{column - row_span(side, row)[0] + 1}"


def cell_of_ap_label(label: str, side: int) -> tuple[int, int]:
    """The GRN ``(column, row)`` of an Abstract Play label.

    Raises:
        ValueError: not a label, or a label of no cell of the board.
    """
    found = AP_LABEL.fullmatch(label)
    if found is None:
        raise ValueError(f"{label!r} is not an Abstract Play cell label such as a1")
    row = LETTERS.index(found.group(1)) + 1
    place = int(found.group(2))
    if row > 2 * side - 1 or place > len(row_span(side, row)):
        raise ValueError(f"{label!r} is not a cell of Abstract Play's Oust board of side {side}")
    return row_span(side, row)[0] + place - 1, row


@functools.cache
def _ap_names(side: int) -> tuple[dict[str, str], dict[str, str]]:
    """Every label of the board of side ``side`` to its GRN name, and back.

    A year of games converts the same few hundred names over and over.
    """
    cells = {
        ap_label(column, row, side): cell_text(column, row) for column, row in cells_by_rows(side)
    }
    return cells, {cell: label for label, cell in cells.items()}


def ap_move_to_grn(text: str, tags: Tags) -> str:
    """An Abstract Play move (``a1,b3``) as a GRN turn (``g1,f3``).

    Raises:
        ValueError: a part that is no label of the board.
    """
    side = board_side(tags)
    cells = _ap_names(side)[0]
    try:
        return ",".join([cells[label] for label in text.split(",")])
    except KeyError:  # the slow way, to say why
        return ",".join(cell_text(*cell_of_ap_label(label, side)) for label in text.split(","))


def ap_move_from_grn(token: str, tags: Tags) -> str:
    """A GRN turn as Abstract Play writes it.

    Raises:
        ValueError: a cell off the board, or a token that is no turn.
    """
    side = board_side(tags)
    labels = _ap_names(side)[1]
    try:
        return ",".join([labels[cell] for cell in token.split(",")])
    except KeyError:  # the slow way, to say why
        pass
    try:
        cells = parse_move(token)
    except NotationError as error:
        raise ValueError(error.reason) from None
    return ",".join(ap_label(column, row, side) for column, row in cells)


#: Ludii's Oust (Common/res/lud/board/war/replacement/eliminate/all/Oust.lud): its option
#: ``Board Size`` offers hex boards of side 5, 7 (the default) and 9, and it has no pie rule.
LUDII_PATH: Final = "/lud/board/war/replacement/eliminate/all/Oust.lud"
LUDII_BOARDS: Final = {"Board Size/5x5": 5, "Board Size/7x7": 7, "Board Size/9x9": 9}


def ludii_tags(options: Sequence[str]) -> dict[str, str]:
    """The GRN variant tags of a Ludii Oust trial's options (the default board has no tag).

    Raises:
        ValueError: an option Ludii's Oust does not have.
    """
    tags = {"Pie": "off"}
    for option in options:
        side = LUDII_BOARDS.get(option)
        if side is None:
            known = ", ".join(LUDII_BOARDS)
            raise ValueError(f"option {option!r} is not one of Ludii's Oust ({known})")
        if side != DEFAULT_SIDE:
            tags["Board"] = str(side)
    return tags


def ludii_options(tags: Tags) -> list[str]:
    """The option line Ludii writes for the record's board.

    Raises:
        ValueError: a side Ludii's Oust does not offer.
    """
    side = board_side(tags)
    option = next((name for name, each in LUDII_BOARDS.items() if each == side), None)
    if option is None:
        raise ValueError(f"Ludii's Oust has boards of side 5, 7 and 9 (Board Size), not {side}")
    return [option]


def ludii_cells(tags: Tags) -> list[str]:
    """The cells in Ludii's site order.

    Ludii numbers a hex board's cells by their centres, bottom row first, each row from the
    left (Graph.reorder), as gamerec lists them.
    """
    return [cell_text(column, row) for column, row in cells_by_rows(board_side(tags))]


SYNTAX: Final = GameSyntax(
    enum="GAME_OUST",
    name="Oust",
    aliases=("oust",),
    action="oust",
    variant="oust",
    options=(
        PLAYERS,
        number_option("Board", "board_side", "a board side"),
        named_option("Pie", "pie", "OustPie", {"on": "OUST_PIE_ON", "off": "OUST_PIE_OFF"}),
    ),
    parse_move=parse_move,
    message_of=message_of,
    format_move=format_move,
    abstract_play=AbstractPlayForm(
        name="Oust",
        tags_for=ap_tags,
        variants_for=ap_variants,
        move_to_grn=ap_move_to_grn,
        move_from_grn=ap_move_from_grn,
    ),
    ludii=LudiiForm(
        path=LUDII_PATH,
        tags_for=ludii_tags,
        options_for=ludii_options,
        cells=ludii_cells,
    ),
)
