"""The ``gamerec`` Typer application."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="gamerec",
    help="Validate, convert, annotate, diff and render game records.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def _root() -> None:
    """Game records toolkit and referee."""


def main() -> None:
    """Run the ``gamerec`` command."""
    app()
