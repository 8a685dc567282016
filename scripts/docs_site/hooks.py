"""The MkDocs hooks of the site (``hooks:`` in mkdocs.yml).

MkDocs loads this file by its path, so it puts the repository on ``sys.path`` first (the
``scripts`` and ``gamerec`` packages live there) and then hands each event to
:mod:`scripts.docs_site.site`.
"""

from __future__ import annotations

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from scripts.docs_site.site import on_files, on_page_markdown  # noqa: E402

__all__ = ["on_files", "on_page_markdown"]
