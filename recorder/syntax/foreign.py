"""How a game's records look in other tools' formats: the per-game hooks of the foreign codecs.

A game that Abstract Play or Ludii also plays says so in its :class:`GameSyntax` with an
:class:`AbstractPlayForm` or a :class:`LudiiForm` (docs/formats.md). The codecs
(``gamerec.recorder.foreign``) know the formats; these forms hold only what is the game's
own: its name there, how that tool names its variants, and how it writes a move or a place.
Variants travel as GRN variant tags (``{"Board": "6"}``), moves as GRN move tokens, so a form
needs nothing of protobuf (the rules engines import this package).

Every conversion function raises ``ValueError`` with a sentence saying what has no
counterpart (the codecs add the place: the file, the round and seat, the line).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

#: GRN variant tags, by tag name (``{"Board": "6", "Pie": "off"}``).
Tags = Mapping[str, str]


class AbstractPlayForm(NamedTuple):
    """A game as Abstract Play's game records (schema gamerecord 1-0-0) hold it.

    Attributes:
        name: ``header.game.name`` (gameslib's ``gameinfo.name``).
        tags_for: ``header.game.variants`` (uids or their English names; empty when the
            record has none) and whether the pie rule was invoked, to the record's GRN
            variant tags; raises ValueError for a variant gamerec does not have.
        variants_for: GRN variant tags to the ``variants`` list to write (None: none, the
            game's default); raises ValueError for a variant Abstract Play does not have.
        move_to_grn: one move string of a record (lower case, no white space; never
            ``pass``, ``resign`` or an end such as ``timeout``) to a GRN move token, under
            the variant's tags; raises ValueError for a place that is not on the board.
        move_from_grn: a GRN move token (not ``pass``, ``resign`` or ``swap``) to the move
            string Abstract Play writes; raises ValueError.
        results_are_scores: whether the game's GRN ``Result`` scores are the players'
            ``result`` numbers (1 for the winner, 0 for the others).
    """

    name: str
    tags_for: Callable[[Sequence[str], bool], dict[str, str]]
    variants_for: Callable[[Tags], list[str] | None]
    move_to_grn: Callable[[str, Tags], str]
    move_from_grn: Callable[[str, Tags], str]
    results_are_scores: bool = True


class LudiiForm(NamedTuple):
    """A game as Ludii's trials (``Trial.saveTrialToTextFile``) hold it.

    Attributes:
        path: the ``.lud`` path of the game in Ludii's library, as the ``game=`` line of a
            trial saved by Ludii names it.
        tags_for: the lines of the ``START GAME OPTIONS`` block (``Board Size/7x7``) to the
            record's GRN variant tags; raises ValueError for an option gamerec does not have.
        options_for: GRN variant tags to the option lines to write; raises ValueError.
        cells: the board's places in Ludii's site order (site 0 first), as GRN names, for
            the variant's tags; raises ValueError for a board Ludii has no sites for.
        chains: whether one GRN ply is a run of Ludii moves by the same mover (a turn of
            several placements) written joined by ``,``.
        results_are_scores: whether the GRN ``Result`` scores are 1 for the winner and 0
            for the others (Ludii's trials hold ranks, not scores).
        players: the number of players of the game in Ludii (movers are 1 to this).
    """

    path: str
    tags_for: Callable[[Sequence[str]], dict[str, str]]
    options_for: Callable[[Tags], list[str]]
    cells: Callable[[Tags], Sequence[str]]
    chains: bool = True
    results_are_scores: bool = True
    players: int = 2

    @property
    def stem(self) -> str:
        """The game's file name without ``.lud``: how a ``game=`` line names it at least."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".lud")
