"""``gamerec event new|players|pair|start|results|standings|export``: run an event on a file."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, limits_of
from gamerec.cli.collected import Failures, WorkersOption
from gamerec.cli.connection import Connection, with_connection, with_optional_connection
from gamerec.cli.edge import EXIT_FINDINGS, EXIT_OK, fail, reported_errors, write_text

if TYPE_CHECKING:
    from fractions import Fraction

app = typer.Typer(
    name="event",
    help="Run an event on an event file: new, players, pair, start, results, standings, export.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
    pretty_exceptions_show_locals=False,
)

EventArgument = Annotated[
    str, typer.Argument(metavar="EVENT", help="The event file (SQLite; see docs/events.md).")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
DeadlineOption = Annotated[
    str | None,
    typer.Option(
        "--deadline",
        metavar="TIME",
        help="With --server: wait for the open matches until then (+10m from now, or RFC "
        "3339), then adjudicate those not finished.",
    ),
]


class Format(StrEnum):
    """The pairing system."""

    SWISS = "swiss"
    ROUNDROBIN = "roundrobin"


def _fractions(option: str, text: str) -> list[Fraction]:
    from fractions import Fraction

    try:
        return [Fraction(part.strip()) for part in text.split(",")]
    except (ValueError, ZeroDivisionError):
        fail(f"{option}: {text!r} is not numbers separated by commas, e.g. 3,1,0,0")


def _tiebreaks(text: str) -> tuple[str, ...]:
    from gamerec.validator.events.model import TIEBREAKS

    names = tuple(part.strip() for part in text.split(",") if part.strip())
    for name in names:
        if name not in TIEBREAKS:
            fail(f"--tiebreaks: unknown tie-break {name!r} (known: {', '.join(TIEBREAKS)})")
    return names


@app.command()
def new(
    path: EventArgument,
    *,
    name: Annotated[str, typer.Option("--name", help="The event's name (records' Event tag).")],
    game: Annotated[str, typer.Option("--game", help="The game, in any spelling.")],
    seats: Annotated[int, typer.Option("--seats", min=2, max=6, help="Seats at a table.")] = 2,
    form: Annotated[Format, typer.Option("--format", help="swiss or roundrobin.")] = Format.SWISS,
    rounds: Annotated[
        int, typer.Option("--rounds", min=0, help="Rounds (0: as many as a round robin needs).")
    ] = 0,
    points: Annotated[
        str | None,
        typer.Option(
            "--points", metavar="P1,P2,...", help="Points by place, first first (default: n-r)."
        ),
    ] = None,
    bye_points: Annotated[
        str | None,
        typer.Option("--bye-points", metavar="P", help="Points of a bye (default: first place's)."),
    ] = None,
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            "--tiebreaks", metavar="T1,T2,...", help="Tie-breaks in the order they apply."
        ),
    ] = None,
    time_control: Annotated[
        str, typer.Option("--time-control", help="The time control, as written (informative).")
    ] = "",
) -> None:
    """Make a new event file (refused when the file exists)."""
    from fractions import Fraction

    from gamerec.recorder.syntax import syntax_named
    from gamerec.validator.events import store
    from gamerec.validator.events.model import DEFAULT_TIEBREAKS, Settings

    syntax = syntax_named(game)
    if syntax is None:
        fail(f"--game: unknown game {game!r}")
    table = (
        _fractions("--points", points)
        if points
        else [Fraction(seats - r) for r in range(1, seats + 1)]
    )
    if len(table) != seats:
        fail(f"--points: {len(table)} values for {seats} seats; give one per place")
    if form is Format.SWISS and rounds == 0:
        fail("--rounds: a Swiss needs its number of rounds")
    bye = _fractions("--bye-points", bye_points)[0] if bye_points else table[0]
    settings = Settings(
        name=name.strip() or fail("--name: the event's name is empty"),
        game=syntax.name,
        seats=seats,
        format=form.value,
        rounds=rounds,
        points=tuple(table),
        bye_points=bye,
        tiebreaks=_tiebreaks(tiebreaks) if tiebreaks else DEFAULT_TIEBREAKS,
        time_control=time_control,
    )
    with reported_errors():
        store.create(path, settings)
    typer.echo(f"{path}: event {settings.name!r}, {settings.game}, {seats} seats, {form.value}")


@app.command()
def players(
    path: EventArgument,
    *,
    add: Annotated[
        list[str] | None,
        typer.Option("--add", metavar="NAME[=RATING]", help="Enter a player (repeatable)."),
    ] = None,
    withdraw: Annotated[
        list[str] | None,
        typer.Option("--withdraw", metavar="NAME", help="Withdraw a player (repeatable)."),
    ] = None,
) -> None:
    """Enter players (late entries after round 1 is paired), withdraw them, list them."""
    from gamerec.validator.events import event as operations
    from gamerec.validator.events import store
    from gamerec.validator.events.report import players_text

    entries = [_entry(text) for text in add or []]
    with reported_errors():
        if entries or withdraw:
            with store.editing(path) as event:
                operations.add_players(event, entries)
                for name in withdraw or []:
                    operations.withdraw(event, name)
        else:
            event = store.load(path)
    typer.echo(players_text(event))


def _entry(text: str) -> tuple[str, int | None]:
    name, _, rating = text.partition("=")
    if not rating:
        return name, None
    if not rating.strip().isdigit():
        fail(f"--add: {text!r}: the rating after = is not a whole number")
    return name, int(rating)


@app.command()
def pair(
    path: EventArgument,
    *,
    swap: Annotated[
        str | None,
        typer.Option(
            "--swap",
            metavar="NAME,NAME",
            help="Exchange two players' places in the latest round, by hand (recorded so).",
        ),
    ] = None,
) -> None:
    """Pair the next round (or change the latest by hand with --swap) and print it."""
    from gamerec.validator.events import event as operations
    from gamerec.validator.events import store
    from gamerec.validator.events.report import round_text

    with reported_errors(), store.editing(path) as event:
        if swap is None:
            made = operations.pair_next(event)
        else:
            names = [name.strip() for name in swap.split(",")]
            if len(names) != 2:
                fail(f"--swap: {swap!r} is not two names separated by a comma")
            made = operations.swap(event, len(event.rounds), names[0], names[1])
    typer.echo(round_text(event, made))


@app.command()
@with_optional_connection
def results(
    path: EventArgument,
    records: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH...|ROUND",
            help="Record files (any encoding); with --server, the round.",
        ),
    ],
    *,
    round_: Annotated[
        int | None,
        typer.Option("--round", min=1, help="Only the records of this round; others are skipped."),
    ] = None,
    deadline: DeadlineOption = None,
    from_: FromOption = None,
    workers: WorkersOption = 1,
    limit: LimitOption = None,
    connection: Connection | None = None,
) -> None:
    """Read games from record files and count each as its pairing's result.

    A game is matched to its pairing by its Round tag and its seats. The same game given
    twice counts once; two different games for one pairing are a conflict (exit 1), the
    pairing keeps no result. A record with no pairing, or whose seats differ from its
    pairing's, is refused (exit 2) and the event file is unchanged.

    With --server, the round's results come from the server the round was started on
    (gamerec event start): each match's sealed record, verified, judged as adjudicate
    judges it, and written next to the event file. With --deadline the command waits for
    the open matches until then, and adjudicates those not finished (marked so).
    """
    if connection is not None:
        _collect(path, records, connection, deadline, round_)
        return
    if deadline is not None:
        fail("--deadline: only with --server (the round's matches on a server)")
    from gamerec.recorder.inputs import InputFailure
    from gamerec.validator.events import event as operations
    from gamerec.validator.events import store
    from gamerec.validator.events.intake import outcomes

    unread: list[InputFailure] = []
    with reported_errors():
        found = outcomes(records, unread, encoding=from_, limits=limits_of(limit), workers=workers)
    if unread:
        Failures().report_all(unread)
        fail(f"{path}: {len(unread)} input(s) could not be read; no result recorded")
    skipped = 0
    if round_ is not None:
        kept = [game for game in found if game.round.strip() == str(round_)]
        skipped, found = len(found) - len(kept), kept
    with reported_errors(), store.editing(path) as event:
        intake = operations.add_results(event, found)
    for line in intake.counted + intake.copies:
        typer.echo(line)
    if skipped:
        typer.echo(f"{skipped} record(s) of other rounds skipped")
    for line in intake.conflicts:
        typer.echo("conflict: " + line)
    raise typer.Exit(EXIT_FINDINGS if intake.conflicts else EXIT_OK)


def _collect(
    path: str, given: list[str], connection: Connection, deadline: str | None, round_: int | None
) -> None:
    """``results --server``: the round's results from the server's sealed records."""
    from gamerec.validator.events import store
    from gamerec.validator.events.collect import collect_round, wait_round
    from gamerec.validator.events.on_server import ServerLink, moment

    if len(given) != 1 or not given[0].isdigit() or int(given[0]) < 1 or round_ is not None:
        fail("with --server, give the round (a number) after the event file, and no --round")
    number = int(given[0])
    link = ServerLink(connection.server, connection.transport)
    with reported_errors():
        late: set[str] = set()
        if deadline is not None:
            late = wait_round(store.load(path), number, link, moment(deadline))
        with store.editing(path) as event:
            done = collect_round(event, path, number, link, late)
    for line in done.intake.counted + done.intake.copies + done.adjudicated:
        typer.echo(line)
    for line in done.intake.conflicts:
        typer.echo("conflict: " + line)
    if done.open:
        typer.echo(f"still being played: {'; '.join(done.open)}")
    missing = done.intake.conflicts or done.open
    raise typer.Exit(EXIT_FINDINGS if missing else EXIT_OK)


@app.command()
@with_connection
def start(
    path: EventArgument,
    round_: Annotated[int, typer.Argument(metavar="ROUND", min=1, help="The round to start.")],
    *,
    clock: Annotated[
        str | None,
        typer.Option(
            "--clock",
            metavar="CONTROL",
            help="The matches' time control in docs/live.md's notation, in seconds "
            "(300+3); default: the event's --time-control.",
        ),
    ] = None,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", metavar="TAG=VALUE", help="A variant option as a GRN tag (Board=5,5)."
        ),
    ] = None,
    start_at: Annotated[
        str | None,
        typer.Option(
            "--start-at",
            metavar="TIME",
            help="When the clocks start: +30s, +5m (from now) or an RFC 3339 time.",
        ),
    ] = None,
    tokens_dir: Annotated[
        str | None,
        typer.Option(
            "--tokens-dir",
            metavar="DIR",
            help="Write each player's ticket to a file of its own here (mode 0600).",
        ),
    ] = None,
    web_url: Annotated[
        str | None,
        typer.Option(
            "--web-url",
            metavar="URL",
            help="The server's web client: tickets are its links instead of gamerec play.",
        ),
    ] = None,
    connection: Connection,
) -> None:
    """Create every match of a round on a match server in one call, all or none.

    Each table's match is recorded in the event file and each player gets a ticket: the
    web client's link (with --web-url) or the gamerec play command, with the seat's secret
    token. The clocks start together at --start-at. A round not paired, already started or
    with results, or a table the server refuses, is an error naming the event, round and
    player; the server then has no match of the round and the event file is unchanged.
    """
    from gamerec.validator.events import store
    from gamerec.validator.events.on_server import (
        ServerLink,
        Started,
        event_rules,
        moment,
        start_round,
    )
    from gamerec.validator.events.tickets import TicketWriter

    link = ServerLink(connection.server, connection.transport)
    options = [_option(text) for text in variant or []]
    made: list[Started] = []
    with reported_errors():
        when = moment(start_at) if start_at is not None else None
        writer = TicketWriter(connection.server, web_url, tokens_dir)
        writer.check_folder()
        try:
            with store.editing(path) as event:
                control = clock if clock is not None else event.settings.time_control
                if not control:
                    fail("--clock: the event has no time control; give the matches' clock")
                rules = event_rules(event.settings.game, event.settings.seats, options)
                writer.check_free(event, round_)
                made.append(
                    start_round(event, round_, link, rules=rules, clock=control, start_at=when)
                )
                lines = writer.write(event, made[0].tickets)
        except BaseException:
            # Anything after the matches were made (a ticket file, the event file's commit)
            # undoes the start: the matches are called off, the files removed.
            writer.remove()
            for started in made:
                started.abort()
            raise
    for line in lines:
        typer.echo(line)


def _option(text: str) -> tuple[str, str]:
    tag, equals, value = text.partition("=")
    if not equals:
        fail(f"--variant: expected TAG=VALUE such as Board=5,5, found {text!r}")
    return tag, value


@app.command()
def standings(
    path: EventArgument,
    *,
    tiebreaks: Annotated[
        str | None,
        typer.Option(
            "--tiebreaks", metavar="T1,T2,...", help="Tie-breaks in order (default: the event's)."
        ),
    ] = None,
    as_json: JsonOption = False,
    ratings: Annotated[
        str | None,
        typer.Option(
            "--ratings",
            metavar="LIST.json",
            help="A rating list (gamerec ratings --json): its ratings beside the players.",
        ),
    ] = None,
    html_page: Annotated[
        str | None,
        typer.Option(
            "--html",
            metavar="PAGE",
            help="Write the standings as one HTML page, each game linked to its viewer page "
            "(in PAGE's name with -games).",
        ),
    ] = None,
) -> None:
    """The standings with tie-breaks and the crosstable (a cell per round).

    A rating column shows each player's rating from --ratings (the pool of the event's game
    and seats), else the rating entered with the player. --html PAGE writes the page and a
    viewer page per game (exit 1 when a game's record cannot be read again).
    """
    from gamerec.validator.events import store
    from gamerec.validator.events.report import standings_json, standings_text
    from gamerec.validator.events.tiebreaks import standings as make

    order = _tiebreaks(tiebreaks) if tiebreaks else None
    with reported_errors():
        event = store.load(path)
        lines = make(event, order)
        listed = _rating_list(ratings, event.settings.game, event.settings.seats)
    if html_page is not None:
        from gamerec.cli.event_page import write_page

        raise typer.Exit(write_page(event, lines, listed, html_page))
    if as_json:
        data = standings_json(event, lines, listed)
        typer.echo(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        typer.echo(standings_text(event, lines, listed))


def _rating_list(path: str | None, game: str, seats: int) -> dict[str, float] | None:
    """The ratings of the event's pool in the list at ``path`` (None: no list given)."""
    if path is None:
        return None
    from gamerec.validator.ratings.report import RatingListError, pool_ratings

    def unique(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        twice = sorted({key for key in keys if keys.count(key) > 1})
        if twice:
            raise ValueError(f"the key {twice[0]!r} is given twice")
        return dict(pairs)

    try:
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream, object_pairs_hook=unique)
    except (OSError, ValueError) as error:
        raise RatingListError(f"{path}: cannot read the rating list: {error}") from None
    return pool_ratings(data, game, seats, path)


@app.command()
def export(
    path: EventArgument,
    *,
    output: Annotated[
        str, typer.Option("-o", "--output", metavar="OUT", help="Where to write, - for stdout.")
    ] = "-",
) -> None:
    """Export a two-seat event in FIDE's TRF (Tournament Report File)."""
    from gamerec.validator.events import store, trf

    with reported_errors():
        text = trf.export(store.load(path))
    write_text(output, text)
