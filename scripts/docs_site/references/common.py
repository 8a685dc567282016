"""What every reference page shares: the registry of pages, the note on top, text helpers.

:data:`PAGES` and :func:`reference_page` (which registers a page's writer), the repository's
folders, :data:`GENERATED_NOTE`, :func:`one_line` and :func:`plain_brackets`. It imports
only the standard library; the pages' modules import it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parents[3]
PROTO_ROOT: Final = ROOT / "protos"

#: Every reference page: its path under docs/ and the function that writes it.
PAGES: Final[dict[str, Callable[[], str]]] = {}

GENERATED_NOTE: Final = (
    '!!! note "Made from the code"\n'
    "    This page is generated from {source} each time the site is built "
    "(`scripts/docs_site/references/`); it always says what this version does.\n"
)


def reference_page(path: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register a function as the writer of the reference page at ``path``."""

    def register(write: Callable[[], str]) -> Callable[[], str]:
        PAGES[path] = write
        return write

    return register


def one_line(text: str) -> str:
    """Text on one line, for a table cell or a list item (``|`` escaped for tables)."""
    return " ".join(text.split()).replace("|", "\\|")


_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1", re.DOTALL)


def plain_brackets(text: str) -> str:
    """Help text whose brackets outside code spans are plain text, not links (``[%clk]``)."""
    pieces = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        pieces += [_escaped(text[last : span.start()]), span.group(0)]
        last = span.end()
    return "".join([*pieces, _escaped(text[last:])])


def _escaped(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")
