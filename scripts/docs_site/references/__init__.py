"""The reference pages of the documentation site, made from the code each time it is built.

Nothing here is pasted: the command line comes from the Typer application itself, the gRPC API
from the ``.proto`` files' comments (protoc's descriptors with source info), the Python API
from the front door's ``__all__`` (rendered by mkdocstrings from the docstrings), the finding
codes from the engines and :mod:`gamerec.validator.finding_codes` (with a real sentence of
each, judged from ``fixtures/invalid/`` during the build), and the limits from the rows
``gamerec limits`` prints. A reference page cannot drift from the code: it is the code.

The package: ``common`` (the registry :data:`PAGES`, the note on top, text helpers) and one
module per page, imported here in the site's order: ``command_line``, ``grpc_api``,
``python_api``, ``findings``, ``limits``. ``python -m scripts.docs_site.references [PAGE]``
prints pages.
"""

from __future__ import annotations

import sys

from scripts.docs_site.references.common import GENERATED_NOTE, PAGES, ROOT, reference_page

# Each import registers its page in PAGES: this order is the pages' order.
# isort: off
from scripts.docs_site.references.command_line import command_line_page
from scripts.docs_site.references.grpc_api import grpc_page
from scripts.docs_site.references.python_api import python_page
from scripts.docs_site.references.findings import findings_page
from scripts.docs_site.references.limits import limits_page

# isort: on

__all__ = [
    "GENERATED_NOTE",
    "PAGES",
    "ROOT",
    "command_line_page",
    "findings_page",
    "grpc_page",
    "limits_page",
    "main",
    "python_page",
    "reference_page",
]


def main() -> None:
    """``python -m scripts.docs_site.references PAGE``: print one reference page."""
    for path in sys.argv[1:] or list(PAGES):
        sys.stdout.write(PAGES[path]())
