"""What the site's build adds to MkDocs: the generated reference pages, and clean sessions.

- ``on_files`` adds every page of :data:`scripts.docs_site.references.PAGES`, written now
  from the code, as a file of the site (there is no such file under docs/).
- ``on_page_markdown`` takes the session options (``mask="keys"``) out of the info string of
  each console block, so that Markdown sees a plain ``console`` block.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from scripts.docs_site.references import PAGES
from scripts.docs_site.sessions import without_session_options


def on_files(files: Files, config: MkDocsConfig, **_: Any) -> Files:
    """Add the reference pages, made from the code of this build."""
    for path, write in PAGES.items():
        if files.get_file_from_path(path) is not None:
            raise ValueError(f"docs/{path} exists, but the build makes that page from the code")
        files.append(File.generated(config, path, content=write()))
    return files


def on_page_markdown(markdown: str, page: Page, **_: Any) -> str:
    """The page with plain console blocks (their session options removed)."""
    return without_session_options(markdown)
