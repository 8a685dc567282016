"""The viewer's pages: one offline HTML file per record, and an index of many.

A page holds everything it needs (inline CSS, inline script, the positions as JSON): it opens
from disk or from an e-mail attachment and asks the network for nothing. The board is drawn
by the SVG renderer from the same board model as ``gamerec render``; the verdict is
:func:`gamerec.validator.judge.validate`'s. The script (``viewer.js``) only swaps the board's
elements, the highlighted move and the seat table; without it the page still shows the
opening position, the move list and the verdict.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from importlib import resources
from typing import Any

from gamerec.recorder.arguments import require_record
from gamerec.recorder.summary import RecordSummary, summarize
from gamerec.recorder.syntax import GameValue
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.analysis.commands import without_engine_commands
from gamerec.validator.identity import RulesError, RulesIdentity, identify
from gamerec.validator.judge import format_scores, format_seats, termination_word, validate
from gamerec.validator.render.ending import ending_words, special_words
from gamerec.validator.render.svg import (
    PADDING,
    SEAT_COLOURS,
    TEXT_ON_SEAT,
    board_lines,
    group,
    site_labels,
)
from gamerec.validator.render.viewer.graph import (
    WinGraph,
    graph_html,
    mark_html,
    seat_stroke,
    win_graph,
)
from gamerec.validator.render.viewer.tree import (
    LISTED_LEGAL_MOVES,
    ElementTable,
    Node,
    Tree,
    build_tree,
    clock_text,
    fixed_sites,
    fragment_of,
    glyph_text,
)

#: A rules citation inside a finding's sentence: ``docs/rules/one.md §4.2``.
CITATION = re.compile(r"docs/rules/[\w.-]+\.md §[\d.]+")


@dataclass(frozen=True, slots=True)
class ViewerPage:
    """One record's page and what its index row shows.

    Attributes:
        html: the whole page, one offline HTML document.
        verdict: the record's verdict.
        summary: the record at a glance (game, seats, plies, claimed result).
    """

    html: str
    verdict: vpb.Verdict
    summary: RecordSummary


@dataclass(frozen=True, slots=True)
class IndexEntry:
    """One row of an index page.

    Attributes:
        href: the page's file name, relative to the index.
        label: where the record came from (``games.pbs #3``).
        summary: the record at a glance; None when it could not be read.
        verdict: its verdict; None when it could not be read.
        problem: why it could not be read (``""`` when it was).
    """

    href: str
    label: str
    summary: RecordSummary | None = None
    verdict: vpb.Verdict | None = None
    problem: str = ""


def render_html(record: pb.GameRecord) -> str:
    """The viewer page of ``record``: one offline HTML file (see :func:`view_page`)."""
    require_record(record, "render_html")
    return view_page(record).html


def view_page(record: pb.GameRecord, *, label: str = "", index_href: str = "") -> ViewerPage:
    """The viewer page of ``record``, with its verdict.

    Args:
        record: the record (any game, variant and seat count; invalid records too).
        label: where the record came from, shown under the title.
        index_href: a link back to an index page (``""``: none).

    Raises:
        LimitExceededError: the record has more plies than the default limit.
    """
    verdict = validate(record)
    summary = summarize(record)
    try:
        identity: RulesIdentity | None = identify(record)
    except RulesError:
        identity = None
    tree = build_tree(record, identity) if identity is not None else None
    graph = win_graph(tree) if tree is not None else None
    parts = [
        _head(f"{summary.game} · {' – '.join(summary.seats) or 'record'}"),
        _header(record, summary, tree.model.seats if tree else 0, label, index_href),
        '<main class="layout">',
        _board_panel(tree, identity, verdict, graph),
        '<div class="side">',
        _verdict_html(record, summary, verdict, identity),
        _moves_html(tree, record.rules.game, graph) if tree is not None else "",
        "</div></main>",
        _data_script(tree, verdict, graph) if tree is not None else "",
        "</body></html>",
    ]
    return ViewerPage("\n".join(parts) + "\n", verdict, summary)


# -- the frame of a page ---------------------------------------------------------------------


@cache
def _asset(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _seat_styles() -> str:
    """The seat colours of the SVG renderer, for the page's badges and the chart."""
    return "".join(
        f".seat-{seat}{{background:{colour};color:{TEXT_ON_SEAT[seat - 1]}}}"
        for seat, colour in enumerate(SEAT_COLOURS, start=1)
    )


def _head(title: str) -> str:
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title>"
        f"<style>{_asset('viewer.css')}{_seat_styles()}</style></head><body>"
    )


def _header(
    record: pb.GameRecord, summary: RecordSummary, seats: int, label: str, index_href: str
) -> str:
    meta = record.metadata
    facts = [summary.variant_text(), meta.event, meta.site, meta.round and f"round {meta.round}"]
    facts += [meta.date, meta.time_control and f"time control {meta.time_control}", label]
    back = f'<a class="back" href="{escape(index_href)}">All games</a> ' if index_href else ""
    comment = f'<p class="game-comment">{escape(record.comment)}</p>' if record.comment else ""
    return (
        f"<header>{back}<h1>{escape(summary.game)}: "
        f"{escape(_seats_text(summary, seats))}</h1>"
        f'<p class="facts">{escape(" · ".join(fact for fact in facts if fact))}</p>'
        f"{comment}</header>"
    )


def _seats_text(summary: RecordSummary, seats: int) -> str:
    """``Ana – Ben – Chi``, or ``3 seats`` when the record names no player."""
    if any(summary.seats):
        return " – ".join(name or "?" for name in summary.seats)
    return f"{seats or len(summary.seats) or '?'} seats"


# -- the board, the controls, the seats ------------------------------------------------------


def _board_panel(
    tree: Tree | None,
    identity: RulesIdentity | None,
    verdict: vpb.Verdict,
    graph: WinGraph | None = None,
) -> str:
    if tree is None or identity is None:
        reason = verdict.errors[0].message if verdict.errors else "the rules cannot be replayed"
        return (
            '<section class="board-panel"><p class="no-board">No board: this record cannot be '
            f"replayed ({escape(reason)}).</p></section>"
        )
    model = tree.model
    left, top, right, bottom = model.bounds
    box = (left - PADDING, top - PADDING, right - left + 2 * PADDING, bottom - top + 2 * PADDING)
    opening = tree.nodes[_opening_node(tree, verdict)]
    return "\n".join(
        [
            '<section class="board-panel" aria-label="Board">',
            f'<p id="caption" class="caption">{escape(opening.scene.title)}</p>',
            '<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'aria-labelledby="caption" viewBox="{" ".join(f"{value:g}" for value in box)}" '
            'font-family="DejaVu Sans, Verdana, sans-serif">',
            *group("board", board_lines(model)),
            *group("sites", iter(fixed_sites(tree))),
            '<g id="position">',
            *_drawn(opening, set(fixed_sites(tree))),
            "</g>",
            *group("labels", site_labels(model)),
            "</svg>",
            _CONTROLS,
            '<p id="status" class="status" aria-live="polite"></p>',
            '<div id="finding" class="finding-panel" hidden></div>',
            _seats_table(tree),
            _chart(tree),
            graph_html(graph, [model.mark(seat) for seat in range(1, model.seats + 1)]),
            "</section>",
        ]
    )


def _drawn(node: Node, fixed: set[str]) -> list[str]:
    """What a node draws beyond the fixed site shapes."""
    return [element for element in node.sites if element not in fixed] + node.elements


_BUTTONS = (
    ("first", "Home", "«", "Start"),
    ("prev", "ArrowLeft", "◀", "Back"),
    ("next", "ArrowRight", "▶", "Forward"),
    ("last", "End", "»", "End"),
    ("enter", "ArrowDown", "↳", "Enter variation"),
    ("leave", "ArrowUp", "↰", "Leave variation"),
)
_CONTROLS = (
    '<div class="controls" role="toolbar" aria-label="Move through the game">'
    + "".join(
        f'<button type="button" data-go="{go}" aria-keyshortcuts="{key}">'
        f'<span aria-hidden="true">{symbol}</span> {text}</button>'
        for go, key, symbol, text in _BUTTONS
    )
    + "</div>"
    '<p class="keys">Keys: ← → step, Home / End, ↓ enter a variation of the next move '
    "(again: the next variation), ↑ leave it. A move in the list goes there.</p>"
)


def _seats_table(tree: Tree) -> str:
    start = tree.nodes[0].scene
    columns = ["Seat", "Player", "Score"]
    if start.position.supplies:
        columns.append("Supply")
    if start.position.captured:
        columns.append("Store" if tree.model.kind == "pit" else "Captured")
    head = "".join(f'<th scope="col">{name}</th>' for name in columns)
    rows = []
    for seat in range(1, tree.model.seats + 1):
        name = start.seat_names[seat - 1] if seat <= len(start.seat_names) else ""
        cells = [
            f'<td><span class="badge seat-{seat}">{escape(tree.model.mark(seat))}</span>'
            '<span class="to-move"></span></td>',
            f"<td>{escape(name) or '—'}</td>",
            '<td class="score"></td>',
            *['<td class="extra"></td>'] * (len(columns) - 3),
        ]
        rows.append(f'<tr data-seat="{seat}">{"".join(cells)}</tr>')
    return (
        '<table id="seats" class="seats"><caption>Seats after this ply</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _chart(tree: Tree) -> str:
    """A small chart of every seat's score over the main line, with a cursor at the ply."""
    points = [node for node in tree.main if node.finding is None]
    width, height, pad = 320.0, 110.0, 8.0
    last = max(points[-1].scene.ply, 1)
    top = max((max(node.scene.scores, default=0) for node in points), default=0) or 1
    lines = []
    for seat in range(1, tree.model.seats + 1):
        coords = " ".join(
            f"{pad + (width - 2 * pad) * node.scene.ply / last:.1f},"
            f"{height - pad - (height - 2 * pad) * node.scene.scores[seat - 1] / top:.1f}"
            for node in points
        )
        lines.append(f'<polyline points="{coords}" fill="none" {seat_stroke(seat)}/>')
    final = ", ".join(
        f"seat {seat} {score}" for seat, score in enumerate(points[-1].scene.scores, start=1)
    )
    return (
        '<figure class="chart"><svg id="chart" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width:g} {height:g}" data-pad="{pad:g}" data-last="{last}" '
        f'aria-label="Scores over the game, up to {top}; after ply {points[-1].scene.ply}: '
        f'{final}">'
        f'<line x1="{pad:g}" y1="{height - pad:g}" x2="{width - pad:g}" y2="{height - pad:g}" '
        'stroke="#8a8170"/>'
        f"{''.join(lines)}"
        f'<line id="chart-cursor" x1="{pad:g}" y1="0" x2="{pad:g}" y2="{height:g}" '
        'stroke="#222" stroke-width="1"/></svg>'
        f"<figcaption>Scores over the game (0 to {top}, ply 0 to {last})</figcaption></figure>"
    )


# -- the verdict -----------------------------------------------------------------------------


def citations(finding: vpb.Finding, identity: RulesIdentity | None) -> tuple[str, ...]:
    """The rules a finding cites: the engine's sections for its code, else those it names."""
    if identity is not None:
        cited = identity.engine.citations.get(finding.code)
        if cited:
            return cited
    return tuple(dict.fromkeys(CITATION.findall(finding.message)))


def _claimed_text(summary: RecordSummary) -> str:
    parts = [f"Result {summary.result}" if summary.result else "no result"]
    if summary.winners:
        parts.append(f"winner {format_seats(summary.winners)}")
    if summary.termination:
        parts.append(summary.termination)
    return " · ".join(parts)


def _computed_text(verdict: vpb.Verdict) -> str:
    if verdict.status == vpb.GAME_STATUS_NOT_REPLAYED:
        return "not replayed"
    result = verdict.result
    parts = [f"scores {format_scores(result.scores)}"]
    if result.winners:
        parts.append(f"winner {format_seats(result.winners)}")
    if result.termination:
        parts.append(termination_word(result.termination))
    if result.provisional:
        parts.append("provisional: the game is not over")
    return " · ".join(parts)


def _verdict_html(
    record: pb.GameRecord,
    summary: RecordSummary,
    verdict: vpb.Verdict,
    identity: RulesIdentity | None,
) -> str:
    word = "valid" if verdict.valid else "invalid"
    findings = "".join(_finding_item(finding, identity) for finding in verdict.errors)
    said = ending_words(record) if identity is not None else ""
    ended = f'<dt>Ended</dt><dd class="ending">{escape(said)}</dd>' if said else ""
    return (
        f'<section id="verdict" class="verdict {word}" aria-labelledby="verdict-title">'
        f'<h2 id="verdict-title">Verdict: <span class="word">{word.upper()}</span></h2>'
        f"<dl>{ended}<dt>Claimed</dt><dd>{escape(_claimed_text(summary))}</dd>"
        f"<dt>Computed</dt><dd>{escape(_computed_text(verdict))}</dd>"
        f"<dt>Plies</dt><dd>{verdict.plies_replayed} replayed of {len(record.moves)}</dd></dl>"
        f"{f'<ol class=findings>{findings}</ol>' if findings else ''}</section>"
    )


def _finding_item(finding: vpb.Finding, identity: RulesIdentity | None) -> str:
    where = []
    if finding.ply:
        where.append(f'<a href="#ply={finding.ply}">ply {finding.ply}</a>')
    if finding.seat:
        where.append(f"seat {finding.seat}")
    if finding.move:
        where.append(f"<code>{escape(finding.move)}</code>")
    rules = ", ".join(citations(finding, identity))
    return (
        f"<li>{', '.join(where)}{': ' if where else ''}<strong class=code>"
        f"{escape(finding.code)}</strong> {escape(finding.message)}"
        f"{f' <span class=rule>Rule: {escape(rules)}</span>' if rules else ''}</li>"
    )


# -- the move list ---------------------------------------------------------------------------


def _moves_html(tree: Tree, game: GameValue, graph: WinGraph | None) -> str:
    return (
        '<nav id="moves" class="moves" aria-label="Moves"><h2>Moves</h2>'
        f"{''.join(_line_html(tree, 0, game, graph))}</nav>"
    )


def _line_html(tree: Tree, line: int, game: GameValue, graph: WinGraph | None) -> Iterator[str]:
    """A line as a list; after each move, the variations that replace it.

    The variations of a move start from the position before it, the node before the move
    in the line (the variations of a variation's first move are listed beside it).
    """
    numbers = tree.lines[line].nodes
    yield f'<ol class="line{" main" if line == 0 else " variation"}">'
    for position, number in enumerate(numbers):
        yield f"<li>{_move_link(tree, number, game)}{mark_html(tree, graph, number)}</li>"
        if position:
            for variation in tree.nodes[numbers[position - 1]].branches:
                yield '<li class="branch">'
                yield from _line_html(tree, variation, game, graph)
                yield "</li>"
    yield "</ol>"


def _move_link(tree: Tree, number: int, game: GameValue) -> str:
    node = tree.nodes[number]
    href = f"#{fragment_of(tree, number)}"
    if node.move is None and node.finding is None:
        return f'<a class="mv" id="node-{number}" href="{href}">Start</a>'
    seat = node.finding.seat if node.finding is not None else node.scene.seat
    token = node.finding.move if node.finding is not None else node.scene.token
    move = node.move or pb.Move()
    glyph, clock = glyph_text(move), clock_text(move)
    comment = without_engine_commands(move.comment)
    said = special_words(game, token) if node.finding is None else ""
    wrong = " wrong" if node.finding is not None else ""
    return (
        f'<a class="mv{wrong}" id="node-{number}" href="{href}">'
        f'<span class="ply">{node.ply}.</span> '
        f'<span class="badge seat-{seat}" title="seat {seat}">{escape(tree.model.mark(seat))}'
        f'</span> <span class="token">{escape(token)}{escape(glyph)}</span>'
        f"{f' <span class=clock>{escape(clock)}</span>' if clock else ''}"
        f"{' <span class=refused>refused</span>' if wrong else ''}</a>"
        f"{f'<span class=said>{escape(said)}</span>' if said else ''}"
        f"{f'<span class=comment>{escape(comment)}</span>' if comment else ''}"
    )


# -- the data the script reads ---------------------------------------------------------------


def _opening_node(tree: Tree, verdict: vpb.Verdict) -> int:
    """Where the page opens: the first wrong ply; the end after a wrong claim; else the start."""
    main = tree.lines[0].nodes
    if tree.nodes[main[-1]].finding is not None:
        return main[-1]
    return main[-1] if verdict.errors else main[0]


def _node_data(tree: Tree, number: int, table: ElementTable, fixed: set[str]) -> dict[str, Any]:
    node = tree.nodes[number]
    scene, position = node.scene, node.scene.position
    data: dict[str, Any] = {
        "l": node.line,
        "p": node.ply,
        "s": scene.seat,
        "t": scene.token,
        "e": table.numbers_of(_drawn(node, fixed)),
        "sc": list(scene.scores),
        "su": list(position.supplies),
        "ca": list(position.captured),
        "tm": position.to_move,
        "rs": list(position.resigned),
        "ti": scene.title,
        "b": node.branches,
        "f": fragment_of(tree, number),
    }
    if node.finding is not None:
        finding = node.finding
        data.update(s=finding.seat, t=finding.move, ti=f"{scene.title} · ply {finding.ply} refused")
        data["w"] = {
            "code": finding.code,
            "message": finding.message,
            "rule": ", ".join(citations(finding, None)),
            "legal": list(node.legal[:LISTED_LEGAL_MOVES]),
            "count": len(node.legal),
        }
    return data


def page_data(tree: Tree, verdict: vpb.Verdict, graph: WinGraph | None = None) -> dict[str, Any]:
    """Everything the script needs: the element table, the nodes, the lines, the opening.

    With a win-probability graph, ``graph`` holds its plies, chances and marks
    (:meth:`WinGraph.data`).
    """
    table = ElementTable()
    fixed = set(fixed_sites(tree))
    nodes = [_node_data(tree, number, table, fixed) for number in range(len(tree.nodes))]
    return {
        "elements": table.elements,
        "nodes": nodes,
        "lines": [{"n": line.nodes, "p": line.parent, "b": line.branch} for line in tree.lines],
        "open": _opening_node(tree, verdict),
        "names": list(tree.nodes[0].scene.seat_names),
        "seats": tree.model.seats,
        **({"graph": graph.data()} if graph is not None else {}),
    }


def _data_script(tree: Tree, verdict: vpb.Verdict, graph: WinGraph | None) -> str:
    data = page_data(tree, verdict, graph)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c")
    return (
        f'<script type="application/json" id="game-data">{text}</script>'
        f"<script>{_asset('viewer.js')}</script>"
    )


# -- the index -------------------------------------------------------------------------------


def index_page(entries: Sequence[IndexEntry], *, title: str = "Games") -> str:
    """An index page: one row per record (game, seats, result, verdict, plies) with its link."""
    rows = "".join(_index_row(entry) for entry in entries)
    valid = sum(1 for entry in entries if entry.verdict is not None and entry.verdict.valid)
    return (
        f"{_head(title)}<header><h1>{escape(title)}</h1>"
        f'<p class="facts">{len(entries)} records, {valid} valid</p></header>'
        '<main><table class="index"><thead><tr><th scope="col">Record</th>'
        '<th scope="col">Game</th><th scope="col">Seats</th><th scope="col">Result</th>'
        '<th scope="col">Verdict</th><th scope="col">Plies</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></main></body></html>\n"
    )


def _index_row(entry: IndexEntry) -> str:
    summary, verdict = entry.summary, entry.verdict
    if summary is None or verdict is None:
        return (
            f"<tr class=unreadable><td>{escape(entry.label)}</td>"
            f'<td colspan="5">unreadable: {escape(entry.problem)}</td></tr>'
        )
    word = "valid" if verdict.valid else "invalid"
    first = verdict.errors[0].code if verdict.errors else ""
    return (
        f'<tr><td><a href="{escape(entry.href)}">{escape(entry.label)}</a></td>'
        f"<td>{escape(summary.game)}</td>"
        f"<td>{escape(' – '.join(name or '?' for name in summary.seats))}</td>"
        f"<td>{escape(_claimed_text(summary))}</td>"
        f'<td class="{word}">{word}{f" ({escape(first)})" if first else ""}</td>'
        f"<td>{summary.plies}</td></tr>"
    )
