"""The viewer's data: every position of a record's main line and variations, as a tree.

The main line comes from the one replay (:func:`gamerec.validator.frames.steps`); each
variation is replayed the same way, from the position before the move it replaces. A node is
one position (the start, or after a ply) with the move's annotations and the picture's
elements, drawn by the SVG renderer (:mod:`gamerec.validator.render.svg`) from the board
model. Pictures share most of their elements, so every distinct element is stored once
(:class:`ElementTable`) and a node lists the numbers of its elements; the site shapes that
never change are drawn once for the whole page.

A ply the rules refuse becomes a *wrong* node: the position before it, the refused move's
places ringed, and the places of the legal moves of that position marked, with the finding.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_values import format_clock
from gamerec.recorder.grn_writer import GLYPHS
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.frames import ReplayStoppedError, Step, steps
from gamerec.validator.identity import RulesIdentity
from gamerec.validator.render.model import BoardModel, board_model
from gamerec.validator.render.scene import Scene, move_places, scene_of
from gamerec.validator.render.svg import ply_marks, shape_element, site_contents, site_shapes

#: The legal moves a wrong node lists by name (all of them are marked on the board).
LISTED_LEGAL_MOVES = 60


@dataclass
class Node:
    """One position of the tree.

    Attributes:
        line: the line the node belongs to (0: the main line).
        scene: the picture's contents (for a wrong node: the position before the refused ply).
        move: the record's move that led here (None for the start position).
        sites: the site shapes of the picture.
        elements: everything else drawn on the board (contents and marks).
        branches: the lines that start from this position (variations of the next move).
        finding: for a wrong node, why the ply was refused.
        legal: for a wrong node, the legal moves of the position before it, as tokens.
    """

    line: int
    scene: Scene
    move: pb.Move | None
    sites: list[str]
    elements: list[str]
    branches: list[int] = field(default_factory=list)
    finding: vpb.Finding | None = None
    legal: tuple[str, ...] = ()

    @property
    def ply(self) -> int:
        """The ply the node shows: after it, or (wrong node) the ply refused."""
        return self.finding.ply if self.finding is not None else self.scene.ply


@dataclass
class Line:
    """A line of play: the main line, or a variation.

    Attributes:
        nodes: the numbers of its nodes, in order.
        parent: the line it branches from (-1 for the main line).
        branch: the node of ``parent`` it starts from (the position before its first move).
    """

    nodes: list[int] = field(default_factory=list)
    parent: int = -1
    branch: int = -1


@dataclass
class Tree:
    """Every position of a record, its lines, and the model they are drawn on."""

    model: BoardModel
    nodes: list[Node] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)

    @property
    def main(self) -> list[Node]:
        """The nodes of the main line."""
        return [self.nodes[index] for index in self.lines[0].nodes]


def build_tree(record: pb.GameRecord, identity: RulesIdentity) -> Tree:
    """The tree of ``record``'s main line and every variation that can be reached."""
    builder = _Builder(record, identity)
    builder.line(list(record.moves), start=0, parent=-1, branch=-1)
    return builder.tree


class _Builder:
    """Replays the lines of a record and adds their nodes to a tree."""

    def __init__(self, record: pb.GameRecord, identity: RulesIdentity) -> None:
        self.record = record
        self.identity = identity
        self.names = tuple(seat.name for seat in record.seats)
        self.tree = Tree(board_model(identity.name, identity.variant))

    def line(self, moves: list[pb.Move], *, start: int, parent: int, branch: int) -> None:
        """Add the line that plays ``moves[start:]`` after the first ``start`` of them."""
        number = len(self.tree.lines)
        self.tree.lines.append(Line(parent=parent, branch=branch))
        if branch >= 0:
            self.tree.nodes[branch].branches.append(number)
        sub = self.record
        if start or parent >= 0:
            sub = pb.GameRecord(rules=self.record.rules, seats=self.record.seats)
            sub.moves.extend(moves)
        last: Step | None = None
        try:
            for step in steps(sub, self.identity, include_start=parent < 0, start=start):
                move = moves[step.ply - 1] if step.ply else None
                self._add(number, self._scene(step, len(moves)), move)
                last = step
        except ReplayStoppedError as stopped:
            self._add_wrong(number, stopped.finding, moves, last)
        self._variations(number, moves, start)

    def _variations(self, number: int, moves: list[pb.Move], start: int) -> None:
        """The lines of the variations of every move of line ``number`` that was reached."""
        line = self.tree.lines[number]
        for index in range(start, len(moves)):
            if not moves[index].variations:
                continue
            branch = self._position_before(line, index - start)
            if branch is None:
                continue
            for variation in moves[index].variations:
                if not variation.moves:
                    continue  # an empty variation has no position to show
                played = moves[:index] + list(variation.moves)
                self.line(played, start=index, parent=self.tree.nodes[branch].line, branch=branch)

    def _position_before(self, line: Line, offset: int) -> int | None:
        """The node of the position before the line's move ``offset``; None if not reached.

        The main line's first node is the start position; a variation's first move is played
        from the node it branches from (a variation of it is one more branch there).
        """
        if line.parent < 0:
            found = line.nodes[offset] if offset < len(line.nodes) else None
        elif offset == 0:
            found = line.branch
        else:
            found = line.nodes[offset - 1] if offset - 1 < len(line.nodes) else None
        if found is None or self.tree.nodes[found].finding is not None:
            return None
        return found

    def _scene(self, step: Step, plies: int) -> Scene:
        return scene_of(step, self.tree.model, plies=plies, seat_names=self.names)

    def _add(self, line: int, scene: Scene, move: pb.Move | None, **extra: Any) -> Node:
        elements = [*site_contents(scene), *ply_marks(scene), *extra.pop("marks", ())]
        node = Node(line, scene, move, list(site_shapes(scene)), elements, **extra)
        self.tree.lines[line].nodes.append(len(self.tree.nodes))
        self.tree.nodes.append(node)
        return node

    def _add_wrong(
        self, line: int, finding: vpb.Finding, moves: list[pb.Move], last: Step | None
    ) -> None:
        """The wrong node: the position before the refused ply, its places and the legal ones."""
        if last is None:  # a variation refused at its first move: replay up to the branch
            last = _step_before(self.record, self.identity, moves, finding.ply)
        scene = self._scene(last, len(moves))
        state, engine, variant = last.state, self.identity.engine, self.identity.variant
        legal = tuple(engine.format_move(variant, move) for move in state.legal_moves())
        marks = [
            *self._rings(move_places(finding.move), "wrong-move", 'stroke="#b00020" '),
            *self._rings(_places(legal), "legal", 'stroke="#000000" stroke-dasharray="2 3" '),
        ]
        move = moves[finding.ply - 1] if finding.ply - 1 < len(moves) else None
        self._add(line, scene, move, marks=marks, finding=finding, legal=legal)

    def _rings(self, places: Iterable[str], cls: str, stroke: str) -> Iterator[str]:
        """A ring round each of ``places`` that the board has."""
        for name in places:
            site = self.tree.model.site(name)
            if site is not None:
                yield shape_element(
                    site.shape, f'class="{cls}" fill="none" {stroke}stroke-width="3"', grow=5.0
                )


def _step_before(
    record: pb.GameRecord, identity: RulesIdentity, moves: list[pb.Move], ply: int
) -> Step:
    """The step of the position before ``ply`` of the line ``moves`` (its plies are legal)."""
    sub = pb.GameRecord(rules=record.rules, seats=record.seats)
    sub.moves.extend(moves[: ply - 1])
    *_, last = steps(sub, identity, include_start=True, start=max(ply - 2, 0))
    return last


def _places(tokens: Iterable[str]) -> list[str]:
    """The distinct places the tokens name, in order of first mention."""
    return list(dict.fromkeys(place for token in tokens for place in move_places(token)))


def glyph_text(move: pb.Move) -> str:
    """The move's glyph as GRN writes it (``!?``), or ``""``."""
    return GLYPHS.get(move.glyph, "")


def clock_text(move: pb.Move) -> str:
    """The mover's clock after the move (``0:09:58``), or ``""`` when the record has none."""
    if not move.HasField("clock"):
        return ""
    try:
        return format_clock(move.clock)
    except EncodingError:
        return "?"


class ElementTable:
    """Every distinct SVG element of a page, numbered in order of first use."""

    def __init__(self) -> None:
        """An empty table."""
        self.numbers: dict[str, int] = {}

    def number(self, element: str) -> int:
        """The element's number (a new one when it is new)."""
        return self.numbers.setdefault(element, len(self.numbers))

    def numbers_of(self, elements: Iterable[str]) -> list[int]:
        """The numbers of ``elements``, in order."""
        return [self.number(element) for element in elements]

    @property
    def elements(self) -> list[str]:
        """The elements, by number."""
        return list(self.numbers)


def fixed_sites(tree: Tree) -> list[str]:
    """The site shapes that every node draws the same (drawn once for the page)."""
    if not tree.nodes:
        return []
    common = set(tree.nodes[0].sites)
    for node in tree.nodes[1:]:
        common.intersection_update(node.sites)
    return [element for element in tree.nodes[0].sites if element in common]


def fragment_of(tree: Tree, number: int) -> str:
    """The URL fragment of a node: ``ply=23`` on the main line, ``line=2&ply=9`` elsewhere."""
    node = tree.nodes[number]
    return f"ply={node.ply}" if node.line == 0 else f"line={node.line}&ply={node.ply}"
