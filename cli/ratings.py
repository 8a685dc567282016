"""``gamerec ratings ARCHIVE...``: Glicko-2 and Weng-Lin rating lists over an archive."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of
from gamerec.cli.collected import Failures, WorkersOption
from gamerec.cli.edge import EXIT_OK, fail, reported_errors, write_text


def ratings(
    paths: PathsArgument,
    *,
    as_json: Annotated[bool, typer.Option("--json", help="The list as JSON data.")] = False,
    as_html: Annotated[bool, typer.Option("--html", help="The list as one HTML page.")] = False,
    output: Annotated[
        str, typer.Option("-o", "--output", metavar="OUT", help="Where to write, - for stdout.")
    ] = "-",
    from_: FromOption = None,
    workers: WorkersOption = 0,
    limit: LimitOption = None,
) -> None:
    """Rate every player of an archive: Glicko-2 for two seats, Weng-Lin for 3 to 6.

    One pool per game and seat count; games rated from the rules' results (as adjudicate
    rules), in the order of their date, start time, event and round, then their place in
    the archive; the same game given twice is rated once. The same archive always gives the
    same list. Exit code 0; 2 when an input cannot be read (what can be read is rated).
    """
    from gamerec.validator.ratings.archive import read_archive
    from gamerec.validator.ratings.pools import rate_games
    from gamerec.validator.ratings.report import ratings_html, ratings_json, ratings_text

    if as_json and as_html:
        fail("--json and --html: give one of them (the default is text)")
    failures = Failures()
    with reported_errors():
        archive = read_archive(paths, encoding=from_, limits=limits_of(limit), workers=workers)
        pools = rate_games(archive.games)
    failures.report_all(archive.unreadable)
    if as_json:
        text = json.dumps(ratings_json(pools, archive), ensure_ascii=False, indent=1) + "\n"
    elif as_html:
        text = ratings_html(pools, archive)
    else:
        text = ratings_text(pools, archive) + "\n"
    write_text(output, text)
    raise typer.Exit(failures.exit_code(EXIT_OK))
