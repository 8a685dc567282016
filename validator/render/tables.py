"""Offline HTML pages of tables (rating lists, standings): inline style, no script, escaped.

Pure: strings in, a string out. The viewer (``viewer/``) makes the game pages they link to.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

#: A cell: its text, or its text and the address it links to.
Cell = str | tuple[str, str]

STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
    "table{border-collapse:collapse;margin-bottom:2em}"
    "th,td{border:1px solid #ccc;padding:.2em .6em;text-align:right;white-space:nowrap}"
    ".l{text-align:left}th{background:#eee}"
    "caption{text-align:left;font-weight:bold;padding:.4em 0}"
)


def _cell(tag: str, cell: Cell, left: bool) -> str:
    opened = f'<{tag} class="l">' if left else f"<{tag}>"
    if isinstance(cell, tuple):
        text, href = cell
        return f'{opened}<a href="{html.escape(href)}">{html.escape(text)}</a></{tag}>'
    return f"{opened}{html.escape(cell)}</{tag}>"


def _row(tag: str, row: Sequence[Cell], left: int) -> str:
    return "<tr>" + "".join(_cell(tag, c, n == left) for n, c in enumerate(row)) + "</tr>"


def table_html(rows: Sequence[Sequence[Cell]], *, left: int = 1, caption: str = "") -> str:
    """An HTML table: the first row is the heading; every text and address escaped.

    Column ``left`` (0-based) is aligned left, the others right.
    """
    head = _row("th", rows[0], left)
    body = "".join(_row("td", row, left) for row in rows[1:])
    titled = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{titled}<thead>{head}</thead><tbody>{body}</tbody></table>"


def page(title: str, body: str) -> str:
    """One offline HTML page of ``body`` (already HTML) under the heading ``title``."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{body}</body></html>\n"
    )
