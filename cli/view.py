"""``gamerec view IN -o game.html``: a self-contained HTML replay viewer of a record.

With ``-o DIR/`` (a name ending in ``/``, or a folder that exists) every record of the input
gets its own page (``game-001.html``, ...) and ``index.html`` lists them (game, seats,
result, verdict, plies). Exit code 0 when every record is valid, 1 when a page shows an
invalid record, 2 when the job could not be done (nothing read, a file not written; in a
folder, a record that could not be read is listed in the index and the others are written).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, limits_of
from gamerec.cli.edge import (
    EXIT_FAILED,
    EXIT_FINDINGS,
    error_line,
    fail,
    reported_errors,
    write_text,
)
from gamerec.cli.reading import records_of

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gamerec.recorder.inputs import InputFailure, ParsedRecord
    from gamerec.validator.render.viewer import IndexEntry


def view(
    path: Annotated[
        str,
        typer.Argument(metavar="IN", help="A record file or folder, or - for standard input."),
    ],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="OUT",
            help="The page to write (game.html), or a folder (DIR/) for one page per record "
            "and an index.html.",
        ),
    ],
    *,
    number: Annotated[
        int | None,
        typer.Option("--record", min=1, help="Which record of the input (1-based)."),
    ] = None,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Write a self-contained HTML replay viewer of a record (or of every record, with an index).

    The page opens offline: the board of every ply (keys, buttons, a click on a move, or
    ``game.html#ply=23``), variations, comments, glyphs and clocks, the seats' scores and a
    chart, and the verdict; an invalid record opens at its first wrong ply with the finding,
    the rule it cites, and the legal moves of that position marked.
    """
    items = records_of([path], from_, limits_of(limit))
    if output.endswith(("/", os.sep)) or Path(output).is_dir():
        if number is not None:
            fail("--record picks one record for one page; give -o a file name such as game.html")
        raise typer.Exit(_write_folder(items, Path(output), path))
    item = _chosen(items, path, number)
    from gamerec.validator.render.viewer import view_page

    with reported_errors():
        page = view_page(item.record, label=f"{item.source} #{item.number}")
    write_text(output, page.html)
    word = "valid" if page.verdict.valid else "INVALID"
    typer.echo(
        f"gamerec: {page.summary.game} record ({page.summary.plies} plies, {word}) written "
        f"to {output} ({len(page.html.encode()):,} bytes)",
        err=True,
    )
    if not page.verdict.valid:
        raise typer.Exit(EXIT_FINDINGS)


def _chosen(
    items: Iterator[ParsedRecord | InputFailure], path: str, number: int | None
) -> ParsedRecord:
    """The one record a page is made of: ``--record K``, or the input's only record."""
    from gamerec.recorder.inputs import InputFailure

    found: ParsedRecord | None = None
    for count, item in enumerate(items, start=1):
        if isinstance(item, InputFailure):
            if number is None or item.number in (0, number):
                fail(item.message)
            continue
        if number is None and found is not None:
            fail(
                f"{path} holds more than one record: pick one with --record K, or write a "
                "page for each with -o DIR/"
            )
        if number is None:
            found = item
        elif count == number:
            return item
    if found is None:
        fail(f"{path}: there is no record {number}" if number else f"{path}: no record in it")
    return found


def _write_folder(items: Iterator[ParsedRecord | InputFailure], folder: Path, path: str) -> int:
    """One page per record and ``index.html``; the exit code."""
    from gamerec.recorder.inputs import InputFailure
    from gamerec.validator.render.viewer import IndexEntry, index_page, view_page

    with reported_errors():
        folder.mkdir(parents=True, exist_ok=True)
    entries: list[IndexEntry] = []
    for item in items:
        if isinstance(item, InputFailure):
            typer.echo(error_line(item.message), err=True)
            label = f"{item.source} #{item.number}" if item.number else item.source
            entries.append(IndexEntry("", label, problem=item.message))
            continue
        href = f"game-{len(entries) + 1:03d}.html"
        label = f"{item.source} #{item.number}"
        with reported_errors():
            page = view_page(item.record, label=label, index_href="index.html")
        write_text(str(folder / href), page.html)
        entries.append(IndexEntry(href, label, page.summary, page.verdict))
    title = f"Games of {path}"
    write_text(str(folder / "index.html"), index_page(entries, title=title))
    pages = sum(1 for entry in entries if entry.verdict is not None)
    typer.echo(f"gamerec: {pages} pages and index.html written to {folder}", err=True)
    return _exit_code(entries)


def _exit_code(entries: list[IndexEntry]) -> int:
    if not entries or any(entry.verdict is None for entry in entries):
        return EXIT_FAILED
    invalid = any(entry.verdict is not None and not entry.verdict.valid for entry in entries)
    return EXIT_FINDINGS if invalid else 0
