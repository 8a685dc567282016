"""The ``gamerec`` Typer application: one small module per command, registered here."""

from __future__ import annotations

from typing import Annotated

import typer

from gamerec.cli.annotate import annotate
from gamerec.cli.convert import convert
from gamerec.cli.diff import diff
from gamerec.cli.generate import generate
from gamerec.cli.info import info
from gamerec.cli.judging import adjudicate, score
from gamerec.cli.render import render
from gamerec.cli.replay import replay
from gamerec.cli.serve import serve
from gamerec.cli.validate import validate

app = typer.Typer(
    name="gamerec",
    help="Validate, convert, annotate, diff and render game records.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode="markdown",
)


def _print_version(asked: bool) -> None:
    """``--version``: print the version and stop."""
    if asked:
        from gamerec import __version__  # noqa: PLC0415 (only when asked)

        typer.echo(f"gamerec {__version__} (the gamerec-toolkit distribution)")
        raise typer.Exit


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Game records toolkit and referee."""


app.command("validate")(validate)
app.command("replay")(replay)
app.command("score")(score)
app.command("adjudicate")(adjudicate)
app.command("convert")(convert)
app.command("info")(info)
app.command("serve")(serve)
app.command("render")(render)
app.command("annotate")(annotate)
app.command("generate")(generate)
app.command("diff")(diff)


def main() -> None:
    """Run the ``gamerec`` command."""
    app(prog_name="gamerec")
