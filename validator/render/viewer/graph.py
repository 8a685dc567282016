"""The viewer's win-probability graph and the engine's marks in its move list.

A record annotated by ``gamerec annotate --engine`` carries, in its main line's comments, each
seat's chance of winning after every ply (``[%win]``), the marked plies' drop (``[%drop]``)
and, as a variation of each marked ply, the better line (its first move's ``[%engine]``); the
grammar is :mod:`gamerec.validator.analysis.commands`. From them this module computes the
graph (one line per seat over the plies, the marks as dots on the mover's line), draws it as
SVG, and gives the data the page embeds (the script only moves the cursor and turns a click
into a ply). A record without ``[%win]`` has no graph. A comment whose commands cannot be read
exactly is not drawn, and the graph's caption says which ply and why.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from html import escape
from typing import Any, Final

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.analysis.commands import (
    EngineCommandError,
    EngineNotes,
    is_engine_line,
    read_engine_commands,
)
from gamerec.validator.render.svg import SEAT_COLOURS
from gamerec.validator.render.viewer.tree import Tree, fragment_of, glyph_text

#: The engine's marks, by the glyph ``annotate --engine`` gives them.
MARK_WORDS: Final = {
    pb.GLYPH_DUBIOUS: "inaccuracy",
    pb.GLYPH_MISTAKE: "mistake",
    pb.GLYPH_BLUNDER: "blunder",
}
#: A marked ply whose glyph a person chose (annotate keeps it) is a ``marked`` ply.
_FILLS: Final = {
    "inaccuracy": "#f0e442",
    "mistake": "#f28e2b",
    "blunder": "#b00020",
    "marked": "#777777",
}
_RADII: Final = {"inaccuracy": 3.5, "mistake": 4.5, "blunder": 5.5, "marked": 3.5}
#: How many unreadable comments the caption names.
_NAMED: Final = 3
_WIDTH, _HEIGHT, _PAD = 320.0, 120.0, 8.0


@dataclass(frozen=True, slots=True)
class GraphMark:
    """A marked ply of the main line.

    Attributes:
        ply: the ply.
        seat: its mover.
        kind: ``inaccuracy``, ``mistake``, ``blunder``, or ``marked`` (a person's glyph kept).
        glyph: the ply's glyph as GRN writes it (``??``).
        drop: how much the mover's chance of winning fell.
        lost: the score points its expected margin fell by.
        better: the better ply's token (``""``: the record has no engine line for it).
        better_node: the better ply's node (-1 without one).
    """

    ply: int
    seat: int
    kind: str
    glyph: str
    drop: float
    lost: float
    better: str = ""
    better_node: int = -1


@dataclass(frozen=True, slots=True)
class WinGraph:
    """The chances of winning over the main line, and its marks.

    Attributes:
        seats: the seats (one line each).
        last: the main line's last ply (the graph's right end).
        points: ``(ply, chances)`` for every ply whose ``[%win]`` was read, in ply order.
        marks: the marked plies, in ply order.
        unread: why a ply's commands were not read (``ply 7: [%win] is given twice``).
    """

    seats: int
    last: int
    points: tuple[tuple[int, tuple[float, ...]], ...]
    marks: tuple[GraphMark, ...]
    unread: tuple[str, ...] = ()

    def data(self) -> dict[str, Any]:
        """What the page embeds: the plies, each seat's chances, the marks."""
        return {
            "last": self.last,
            "plies": [ply for ply, _ in self.points],
            "win": [list(chances) for _, chances in self.points],
            "marks": [
                {"p": mark.ply, "s": mark.seat, "k": mark.kind, "d": mark.drop, "b": mark.better}
                for mark in self.marks
            ],
        }


def node_notes(tree: Tree, number: int) -> EngineNotes:
    """A node's engine commands (none when its comment has none).

    Raises:
        EngineCommandError: the comment's commands cannot be read exactly.
    """
    move = tree.nodes[number].move
    return read_engine_commands(move.comment, tree.model.seats) if move else EngineNotes()


def win_graph(tree: Tree) -> WinGraph | None:
    """The graph of a tree's main line; None when no ply of it says its chances."""
    main = [number for number in tree.lines[0].nodes if tree.nodes[number].finding is None]
    points: list[tuple[int, tuple[float, ...]]] = []
    marks: list[GraphMark] = []
    unread: list[str] = []
    for before, number in itertools.pairwise(main):
        node = tree.nodes[number]
        try:
            notes = node_notes(tree, number)
        except EngineCommandError as error:
            unread.append(f"ply {node.ply}: {error}")
            continue
        if notes.win:
            points.append((node.ply, notes.win))
        if notes.drop is not None:
            marks.append(_mark(tree, before, number, notes))
    if not points:
        return None
    last = max(tree.nodes[main[-1]].ply, 1)
    return WinGraph(tree.model.seats, last, tuple(points), tuple(marks), tuple(unread))


def _mark(tree: Tree, before: int, number: int, notes: EngineNotes) -> GraphMark:
    """The mark of a main-line node, with the engine line that branches before it."""
    node, move = tree.nodes[number], tree.nodes[number].move or pb.Move()
    kind = MARK_WORDS.get(move.glyph, "marked")
    mark = GraphMark(
        node.ply, node.scene.seat, kind, glyph_text(move), notes.drop or 0.0, notes.lost
    )
    for line in tree.nodes[before].branches:
        first = tree.nodes[tree.lines[line].nodes[0]]
        if first.move is not None and first.finding is None and is_engine_line(first.move.comment):
            better = tree.lines[line].nodes[0]
            return dataclasses.replace(mark, better=first.scene.token, better_node=better)
    return mark


# -- the picture -----------------------------------------------------------------------------


def _x(ply: int, last: int) -> float:
    return _PAD + (_WIDTH - 2 * _PAD) * ply / last


def _y(chance: float) -> float:
    return _HEIGHT - _PAD - (_HEIGHT - 2 * _PAD) * chance


def _seat_path(graph: WinGraph, seat: int) -> str:
    """One path per seat through its chances; a ply without them starts a new stretch."""
    steps = []
    previous = -2
    for ply, chances in graph.points:
        command = "L" if ply == previous + 1 else "M"
        steps.append(f"{command}{_x(ply, graph.last):.1f},{_y(chances[seat - 1]):.1f}")
        previous = ply
    return (
        f'<path class="win-line" data-seat="{seat}" d="{" ".join(steps)}" fill="none" '
        f"{seat_stroke(seat)}/>"
    )


def seat_stroke(seat: int) -> str:
    """How a seat's line is drawn in the viewer's charts: its colour, dashed from seat 2 on."""
    colour = SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]
    dash = "" if seat == 1 else f' stroke-dasharray="{seat * 2} 2"'
    return f'stroke="{colour}" stroke-width="2"{dash}'


def _mark_dot(graph: WinGraph, mark: GraphMark) -> str:
    """A dot on the mover's line at the marked ply ("" when that ply has no chances)."""
    chances = dict(graph.points).get(mark.ply)
    if chances is None:
        return ""
    better = f"; better {mark.better}" if mark.better else ""
    return (
        f'<circle class="win-mark {mark.kind}" data-ply="{mark.ply}" '
        f'cx="{_x(mark.ply, graph.last):.1f}" cy="{_y(chances[mark.seat - 1]):.1f}" '
        f'r="{_RADII[mark.kind]:g}" fill="{_FILLS[mark.kind]}" stroke="#222222">'
        f"<title>{escape(f'ply {mark.ply}, seat {mark.seat}: {mark.kind} {mark.glyph}')}"
        f"{escape(f' (chance -{mark.drop:.2f}){better}')}</title></circle>"
    )


def graph_html(graph: WinGraph | None, badges: list[str]) -> str:
    """The graph as a figure ("" without one); ``badges`` are the seats' badge texts."""
    if graph is None:
        return ""
    grid = "".join(
        f'<line x1="{_PAD:g}" y1="{_y(level):g}" x2="{_WIDTH - _PAD:g}" y2="{_y(level):g}" '
        f'stroke="#d8d2c4"{dash}/>'
        for level, dash in ((0.0, ""), (0.5, ' stroke-dasharray="3 3"'), (1.0, ""))
    )
    lines = "".join(_seat_path(graph, seat) for seat in range(1, graph.seats + 1))
    dots = "".join(_mark_dot(graph, mark) for mark in graph.marks)
    counts = {kind: sum(mark.kind == kind for mark in graph.marks) for kind in _FILLS}
    said = ", ".join(f"{count} {kind}" for kind, count in counts.items() if count) or "no marks"
    legend = " ".join(
        f'<span class="badge seat-{seat}">{escape(badge)}</span>'
        for seat, badge in enumerate(badges, start=1)
    )
    keys = " ".join(
        f'<span class="key {kind}">{glyph} {kind}</span>'
        for kind, glyph in (("inaccuracy", "?!"), ("mistake", "?"), ("blunder", "??"))
    )
    return (
        '<figure class="chart win-chart"><svg id="win-graph" xmlns="http://www.w3.org/2000/svg" '
        f'role="img" viewBox="0 0 {_WIDTH:g} {_HEIGHT:g}" data-pad="{_PAD:g}" '
        f'data-last="{graph.last}" aria-label="Each seat&#39;s chance of winning after each '
        f'ply, 0 to 1, ply 0 to {graph.last}; {said}">{grid}{lines}{dots}'
        f'<line id="win-cursor" x1="{_PAD:g}" y1="0" x2="{_PAD:g}" y2="{_HEIGHT:g}" '
        'stroke="#222" stroke-width="1"/></svg>'
        f"<figcaption>Chances of winning after each ply (0 to 1; the engine's, from "
        f"<code>gamerec annotate --engine</code>), seats {legend}. Dots: {keys}. "
        f"A click goes to that ply.{_unread_text(graph)}</figcaption></figure>"
    )


def _unread_text(graph: WinGraph) -> str:
    if not graph.unread:
        return ""
    named = "; ".join(graph.unread[:_NAMED])
    more = f" and {len(graph.unread) - _NAMED} more" if len(graph.unread) > _NAMED else ""
    return f' <span class="unread">Not drawn: {escape(named)}{more}.</span>'


# -- the move list ---------------------------------------------------------------------------


def mark_html(tree: Tree, graph: WinGraph | None, number: int) -> str:
    """What the move list says after a marked ply or an engine line's first move ("")."""
    node = tree.nodes[number]
    if graph is not None and node.line == 0 and node.finding is None:
        for mark in graph.marks:  # a few marks a game
            if mark.ply == node.ply:
                return _mark_words(tree, mark)
    if node.move is None or not is_engine_line(node.move.comment):
        return ""
    try:
        engine = node_notes(tree, number).engine
    except EngineCommandError:
        return ""
    if engine is None:
        return ""
    return (
        f'<span class="engine">the engine&#39;s line: chance {engine[0]:.2f}, '
        f"margin {engine[1]:+.1f}</span>"
    )


def _mark_words(tree: Tree, mark: GraphMark) -> str:
    better = (
        f' · better <a class="better" href="#{fragment_of(tree, mark.better_node)}">'
        f"{escape(mark.better)}</a>"
        if mark.better
        else ""
    )
    return (
        f'<span class="mark {mark.kind}">{escape(mark.glyph)} {mark.kind}: chance '
        f"-{mark.drop:.2f}, score {-mark.lost:+.1f}{better}</span>"
    )
