"""``gamerec match new|bulk|show|list|abort`` on a server, ``gamerec match export`` of a store.

Thin: each command is one MatchService call (gamerec.v1.MatchService, docs/live.md) and its
answer printed, or (``export``) the final records read from a match store file. A call the
server refuses is one line on stderr, ``gamerec: error: CODE: message``, and exit code 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from gamerec.cli.collected import OutOption, ToOption, output_encoding, written_note
from gamerec.cli.connection import Connection, with_connection
from gamerec.cli.edge import EXIT_FINDINGS, error_line, fail, reported_errors
from gamerec.recorder.syntax.registered import known_games

if TYPE_CHECKING:
    from gamerec.v1 import match_pb2 as mpb
    from gamerec.v1 import match_pb2_grpc as mgrpc

app = typer.Typer(
    name="match",
    help="Live matches on a server: new, bulk, show, list, abort; export a store's records.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
    pretty_exceptions_show_locals=False,
)

S = TypeVar("S")

JsonOption = Annotated[
    bool, typer.Option("--json", help="Print the answer as one line of ProtoJSON.")
]
StartOption = Annotated[
    str,
    typer.Option(
        "--start-at",
        metavar="TIME",
        help="Start the clocks at this UTC time (2026-12-06T19:00:00Z); plies before it are "
        "untimed. Default: each seat's clock starts with its first move (docs/live.md).",
    ),
]
#: Seconds a call may take.
CALL_SECONDS = 30.0


class Policy(StrEnum):
    """What an illegal move costs."""

    REJECT = "reject"
    FORFEIT = "forfeit"


class Status(StrEnum):
    """Which matches."""

    OPEN = "open"
    FINISHED = "finished"
    ABORTED = "aborted"


@app.command()
@with_connection
def new(
    *,
    game: Annotated[
        str,
        typer.Option(
            "--game",
            metavar="GAME",
            help=f"{known_games(' or ')}, in any spelling (case, - and _ do not matter).",
        ),
    ],
    seat: Annotated[
        list[str],
        typer.Option("--seat", metavar="NAME", help="A seat's player, in seat order; repeat."),
    ],
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            metavar="CONTROL",
            help="The time control: - (none), 300, 300+3, 300d3, 300b3, 30/move (docs/live.md).",
        ),
    ] = "-",
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", metavar="TAG=VALUE", help="A variant option as a GRN tag (Players=3)."
        ),
    ] = None,
    key: Annotated[
        list[str] | None,
        typer.Option(
            "--key",
            metavar="SEAT=FILE",
            help="A seat's public key file, for the seat to sign its plies (1=alice.pub).",
        ),
    ] = None,
    illegal: Annotated[
        Policy, typer.Option("--illegal", help="What an illegal move costs.")
    ] = Policy.REJECT,
    event: Annotated[str, typer.Option(help="The record's Event.")] = "",
    site: Annotated[str, typer.Option(help="The record's Site.")] = "",
    round_: Annotated[str, typer.Option("--round", help="The record's Round.")] = "",
    start_at: StartOption = "",
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """Create a match; print its id and one secret token per seat (shown only now)."""
    from gamerec.v1 import match_pb2 as mpb

    with reported_errors():
        request = mpb.CreateMatchRequest(
            rules=rules_of(game, variant or []),
            seats=_seats(seat, key or []),
            time_control=clock,
            illegal_move_policy=(
                mpb.ILLEGAL_MOVE_POLICY_FORFEIT
                if illegal is Policy.FORFEIT
                else mpb.ILLEGAL_MOVE_POLICY_REJECT
            ),
            event=event,
            site=site,
            round=round_,
        )
        if start_at:
            request.start_at.CopyFrom(start_time(start_at))
    with _service(connection) as stub:
        created = stub.CreateMatch(
            request, timeout=CALL_SECONDS, metadata=connection.transport.metadata()
        )
    if as_json:
        _print_json(created)
        return
    for line in _created_lines(created):
        typer.echo(line)


@app.command()
@with_connection
def bulk(
    file: Annotated[
        str,
        typer.Argument(
            metavar="FILE",
            help="The matches: a CreateMatchesRequest in ProtoJSON (.json), or one "
            "CreateMatchRequest a line (.jsonl); - reads standard input as JSON Lines.",
        ),
    ],
    *,
    start_at: StartOption = "",
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """Create many matches in one call that creates them all or none (a round of an event).

    Prints each match as ``match new`` does, in the file's order (the tokens are shown only
    now). A match the server refuses fails the whole call: nothing is created, and the
    error names the match by its index (``matches[3].time_control``) and says why. With
    ``--start-at``, every match that gives no ``startAt`` starts its clocks then.
    """
    with reported_errors():
        request = read_bulk(file)
        if start_at:
            start = start_time(start_at)
            for match in request.matches:
                if not match.HasField("start_at"):
                    match.start_at.CopyFrom(start)
    with _service(connection) as stub:
        created = stub.CreateMatches(
            request, timeout=CALL_SECONDS, metadata=connection.transport.metadata()
        )
    if as_json:
        _print_json(created)
        return
    for made in created.matches:
        for line in _created_lines(made):
            typer.echo(line)


@app.command()
@with_connection
def show(
    match_id: Annotated[str, typer.Argument(metavar="ID", help="The match.")],
    *,
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """Show a match now: status, seat to move, clocks, the last plies, the legal moves."""
    from gamerec.v1 import match_pb2 as mpb

    with _service(connection) as stub:
        state = stub.GetMatch(
            mpb.GetMatchRequest(match_id=match_id),
            timeout=CALL_SECONDS,
            metadata=connection.transport.metadata(),
        )
    if as_json:
        _print_json(state)
        return
    for line in _state_lines(state):
        typer.echo(line)


@app.command(name="list")
@with_connection
def list_(
    *,
    status: Annotated[Status | None, typer.Option("--status", help="Only these matches.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="At most this many.")] = 100,
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """List the server's matches, newest first."""
    from gamerec.v1 import match_pb2 as mpb

    wanted = _status_value(status) if status else mpb.MATCH_STATUS_UNSPECIFIED
    with _service(connection) as stub:
        answer = stub.ListMatches(
            mpb.ListMatchesRequest(status=wanted, limit=limit),
            timeout=CALL_SECONDS,
            metadata=connection.transport.metadata(),
        )
    if as_json:
        _print_json(answer)
        return
    for summary in answer.matches:
        typer.echo(_summary_line(summary))


@app.command()
@with_connection
def abort(
    match_id: Annotated[str, typer.Argument(metavar="ID", help="The match.")],
    *,
    token: Annotated[
        str,
        typer.Option(help="A seat's token (a seat may abort until every seat has moved)."),
    ] = "",
    connection: Connection,
) -> None:
    """Call a match off with no result (a seat by its token, or the admin at any time)."""
    from gamerec.v1 import match_pb2 as mpb

    with _service(connection) as stub:
        answer = stub.Abort(
            mpb.AbortRequest(match_id=match_id, token=token),
            timeout=CALL_SECONDS,
            metadata=connection.transport.metadata(),
        )
    for event in answer.events:
        if event.HasField("ended"):
            typer.echo(f"match {match_id}: {event.ended.reason}")


@app.command()
def export(
    store: Annotated[
        str,
        typer.Argument(
            metavar="DB",
            help="A match store (gamerec serve --matches): a file or postgresql:// URL.",
        ),
    ],
    output: OutOption,
    to: ToOption = None,
    aborted: Annotated[
        bool, typer.Option("--aborted", help="Aborted matches too (no result: Result *).")
    ] = False,
) -> None:
    """Write the final records of a match store's finished matches, oldest first.

    Each record is judged, sealed and signed as the referee left it, with every signature
    the seats sent: ready for validate, verify, standings, stats and view. The store is only
    read (a server may be running on it). A record the store holds damaged is skipped and
    named on stderr, and the exit code is then 1.
    """
    from gamerec.recorder.codecs import write_records
    from gamerec.v1 import match_pb2 as mpb
    from gamerec.validator.live.stores import describe, final_records

    encoding = output_encoding(output, to)
    statuses = [mpb.MATCH_STATUS_FINISHED] + ([mpb.MATCH_STATUS_ABORTED] if aborted else [])
    skipped: list[str] = []
    with reported_errors():
        count = write_records(final_records(store, statuses, skipped), output, encoding)
    written_note(count, output, encoding)
    for line in skipped:
        typer.echo(error_line(f"{describe(store)}: {line}; skipped"), err=True)
    if skipped:
        raise typer.Exit(EXIT_FINDINGS)


# -- the calls ------------------------------------------------------------------------------


@contextmanager
def _service(connection: Connection) -> Iterator[mgrpc.MatchServiceStub]:
    """A MatchService stub on a channel to the server; a refused call is one line, exit 2."""
    from gamerec.v1 import match_pb2_grpc as mgrpc

    with stub_of(connection, mgrpc.MatchServiceStub) as stub:
        yield stub


@contextmanager
def stub_of(connection: Connection, make: Callable[[Any], S]) -> Iterator[S]:
    """A stub ``make`` builds on a channel to the server; a refused call is one line, exit 2."""
    import grpc

    with reported_errors():
        opened = connection.transport.channel(connection.server)
    with opened as channel:
        try:
            yield make(channel)
        except grpc.RpcError as error:
            from gamerec.validator.service.match_client import refusal_text

            code = error.code() if isinstance(error, grpc.Call) else None
            details = error.details() if isinstance(error, grpc.Call) else str(error)
            fail(f"{connection.server}: {refusal_text(code, details)}")


def rules_of(game: str, variant: list[str]) -> Any:
    """The match's rules: ``game`` in any spelling with ``--variant TAG=VALUE`` options."""
    from gamerec.recorder.errors import GamerecError
    from gamerec.recorder.grn_tags import read_tag
    from gamerec.recorder.notation import game_from_name
    from gamerec.v1 import record_pb2 as pb

    if game_from_name(game) is None:
        raise GamerecError(f"--game: unknown game {game!r}; known: {known_games()}")
    record = pb.GameRecord()
    read_tag(record, "Game", game)
    for option in variant:
        tag, equals, value = option.partition("=")
        if not equals:
            raise GamerecError(f"--variant: expected TAG=VALUE such as Players=3, found {option!r}")
        read_tag(record, tag.strip(), value.strip())
    record.rules.SetInParent()
    return record.rules


def start_time(text: str) -> Any:
    """A ``--start-at`` time as a Timestamp: RFC 3339 with its zone (``...Z``, ``+01:00``).

    Raises:
        GamerecError: not such a time.
    """
    from datetime import datetime

    from google.protobuf.timestamp_pb2 import Timestamp

    from gamerec.recorder.errors import GamerecError, excerpt

    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise GamerecError(
            f"--start-at: expected a time with its zone such as 2026-12-06T19:00:00Z, found "
            f"{excerpt(text)}"
        )
    stamp = Timestamp()
    stamp.FromDatetime(when)
    return stamp


def read_bulk(file: str) -> mpb.CreateMatchesRequest:
    """The matches of ``gamerec match bulk FILE`` (a key given twice is refused).

    Raises:
        GamerecError: the file cannot be read, or a line or the whole is no request (the
            message names the file, the line and the field).
    """
    from google.protobuf import json_format

    from gamerec.recorder.errors import GamerecError, bounded
    from gamerec.recorder.json_keys import loads
    from gamerec.v1 import match_pb2 as mpb

    whole = file.endswith(".json")
    if not whole and not file.endswith(".jsonl") and file != "-":
        raise GamerecError(f"{file}: expected a .json or .jsonl file of matches (or -)")
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise GamerecError(f"{file}: cannot read it: {error}") from None
    pieces = [(0, text)] if whole else list(enumerate(text.splitlines(), start=1))
    request = mpb.CreateMatchesRequest()
    for line, piece in pieces:
        if not piece.strip():
            continue
        where = file if whole else f"{file} line {line}"
        try:
            value = loads(piece)
            if whole:
                json_format.ParseDict(value, request)
            else:
                json_format.ParseDict(value, request.matches.add())
        except (ValueError, json_format.ParseError) as error:
            raise GamerecError(bounded(f"{where}: {error}", 400)) from None
    return request


def _seats(names: list[str], keys: list[str]) -> list[mpb.MatchSeat]:
    from gamerec.recorder.errors import GamerecError
    from gamerec.recorder.signing import load_public_key
    from gamerec.v1 import match_pb2 as mpb

    seats = [mpb.MatchSeat(name=name) for name in names]
    for entry in keys:
        number, equals, path = entry.partition("=")
        if not equals or not number.strip().isdigit() or not 1 <= int(number) <= len(seats):
            raise GamerecError(
                f"--key: expected SEAT=FILE with a seat from 1 to {len(seats)}, found {entry!r}"
            )
        seats[int(number) - 1].public_key = load_public_key(path)
    return seats


def _status_value(status: Status) -> Any:
    from gamerec.v1 import match_pb2 as mpb

    return {
        Status.OPEN: mpb.MATCH_STATUS_OPEN,
        Status.FINISHED: mpb.MATCH_STATUS_FINISHED,
        Status.ABORTED: mpb.MATCH_STATUS_ABORTED,
    }[status]


# -- printing ---------------------------------------------------------------------------------


def _print_json(message: Any) -> None:
    from google.protobuf import json_format

    sys.stdout.write(json_format.MessageToJson(message, indent=None) + "\n")


def _game(record: Any) -> str:
    from gamerec.recorder.notation import game_label

    return str(game_label(record.rules.game))


def _created_lines(created: mpb.CreateMatchResponse) -> list[str]:
    """A new match as ``match new`` prints it: id, game, clock, when the clocks start; seats."""
    start = created.created.created
    head = f"match {created.match_id}  {_game(start.record)}  clock {start.time_control}"
    if start.HasField("clocks_start"):
        head += f"  clocks start {start.clocks_start.ToJsonString()}"
    seats = [seat.name for seat in start.record.seats]
    return [head] + [
        f"seat {number}  {name}  {token}"
        for number, (name, token) in enumerate(zip(seats, created.seat_tokens, strict=True), 1)
    ]


def _duration(value: Any) -> str:
    from gamerec.recorder.grn_values import format_clock

    return str(format_clock(value))


_STATUS_WORDS = {1: "open", 2: "finished", 3: "aborted"}


def _state_lines(state: mpb.MatchState) -> list[str]:
    record = state.record
    status = _STATUS_WORDS.get(state.status, "unknown")
    head = f"match {state.match_id}  {_game(record)}  {status}  clock {state.time_control}"
    if state.to_move:
        head += f"  ply {state.plies + 1}, seat {state.to_move} to move"
    lines = [head]
    for number, seat in enumerate(record.seats, start=1):
        clock = f"  {_duration(state.clocks[number - 1])}" if state.clocks else ""
        running = _clock_note(state) if number == state.to_move and state.clocks else ""
        lines.append(f"seat {number}  {seat.name}{clock}{running}")
    if record.moves:
        from gamerec.recorder.notation import format_action
        from gamerec.validator.render.ending import special_words

        shown = [(n, format_action(m)) for n, m in enumerate(record.moves, start=1)][-10:]
        lines.append("last plies  " + "  ".join(f"{n}. {token}" for n, token in shown))
        lines += [
            f"{n}. {token}: {said}"
            for n, token in shown
            if (said := special_words(record.rules.game, token))
        ]
    if state.legal_moves:
        more = len(state.legal_moves) - 20
        tail = f" ... ({more} more)" if more > 0 else ""
        lines.append("legal  " + " ".join(state.legal_moves[:20]) + tail)
    if state.draw_offered_by:
        lines.append(f"draw offered by seat {state.draw_offered_by}")
    if state.HasField("ended"):
        from gamerec.validator.render.ending import match_ending

        lines.append(f"ended: {match_ending(state.ended)}")
    return lines


def _clock_note(state: mpb.MatchState) -> str:
    """What the clock of the seat to move does now (docs/live.md "When the clocks start")."""
    if state.clock_running:
        return "  (running)"
    if state.HasField("abort_at"):
        return f"  (first ply, untimed; aborted at {state.abort_at.ToJsonString()} without it)"
    if state.HasField("clocks_start"):
        return f"  (starts at {state.clocks_start.ToJsonString()})"
    return ""


def _summary_line(summary: mpb.MatchSummary) -> str:
    from gamerec.recorder.notation import game_label

    status = _STATUS_WORDS.get(summary.status, "unknown")
    created = summary.created.ToJsonString()
    seats = ", ".join(summary.seats)
    where = f"seat {summary.to_move} to move" if summary.to_move else status
    return (
        f"{summary.match_id}  {game_label(summary.game)}  {summary.time_control}  {seats}  "
        f"{summary.plies} plies  {where}  {created}"
    )
