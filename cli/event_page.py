"""``gamerec event standings EVENT --html PAGE``: the standings page and a viewer page per game.

The page (``PAGE``) is the standings with the crosstable; each game's cell links to the
game's viewer page (as ``gamerec view`` makes it) in the folder ``PAGE`` names without its
extension and with ``-games`` (``club.html``: ``club-games/round-1-table-2.html``). A game's
record is read again from where ``event results`` took it (its first source); one that
cannot be read any more keeps its cell without a link and is named on stderr.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from gamerec.cli.edge import EXIT_FINDINGS, EXIT_OK, error_line, reported_errors, write_text
from gamerec.cli.reading import records_of

if TYPE_CHECKING:
    from gamerec.v1 import record_pb2 as pb
    from gamerec.validator.events.model import Event
    from gamerec.validator.events.tiebreaks import Line


def _games(event: Event) -> dict[tuple[int, int], str]:
    """Each game with a result: (round, table) -> its first source (``file#number``)."""
    return {
        (made.number, table.number): table.result.sources[0]
        for made in event.rounds
        for table in made.tables
        if table.result is not None and table.result.sources
    }


def _records(sources: dict[tuple[int, int], str]) -> tuple[dict[str, pb.GameRecord], list[str]]:
    """The records of ``sources`` (each file read once) and what could not be read."""
    from gamerec.recorder.inputs import InputFailure

    wanted: dict[str, set[int]] = {}
    for source in sources.values():
        name, _, number = source.rpartition("#")
        wanted.setdefault(name, set()).add(int(number))
    found: dict[str, pb.GameRecord] = {}
    problems: list[str] = []
    for name, numbers in wanted.items():
        for item in records_of([name], None):
            if isinstance(item, InputFailure):
                if item.number == 0 or item.number in numbers:
                    problems.append(item.message)
                continue
            if item.number in numbers:
                found[f"{name}#{item.number}"] = item.record
    return found, problems


def write_page(
    event: Event, lines: list[Line], listed: Mapping[str, float] | None, page: str
) -> int:
    """Write the standings page and the games' viewer pages; the exit code.

    1 when a game has no viewer page (its record could not be read again).
    """
    from gamerec.validator.events.report import standings_html
    from gamerec.validator.render.viewer import view_page

    target = Path(page)
    folder = target.with_name(target.stem + "-games")
    sources = _games(event)
    records, problems = _records(sources)
    links: dict[tuple[int, int], str] = {}
    with reported_errors():
        folder.mkdir(parents=True, exist_ok=True)
    for (round_, table), source in sorted(sources.items()):
        record = records.get(source)
        if record is None:
            problems.append(f"round {round_} table {table}: {source} cannot be read again")
            continue
        name = f"round-{round_}-table-{table}.html"
        with reported_errors():
            made = view_page(record, label=source, index_href=f"../{target.name}")
        write_text(str(folder / name), made.html)
        links[round_, table] = f"{folder.name}/{name}"
    write_text(page, standings_html(event, lines, links, listed))
    for problem in problems:
        typer.echo(error_line(f"no viewer page: {problem}"), err=True)
    typer.echo(f"gamerec: {page} written with {len(links)} game pages in {folder}/", err=True)
    return EXIT_FINDINGS if len(links) < len(sources) else EXIT_OK
