"""``gamerec challenge new|list|take|cancel``: the lobby of a server (docs/lobby.md).

Thin: each command is one LobbyService call (gamerec.v1.LobbyService) and its answer
printed; ``--wait`` then asks the lobby, with the seat's token, until the table is full, and
prints the match and the ``gamerec play`` command that plays the seat. A call the server
refuses is one line on stderr, ``gamerec: error: CODE: message``, and exit code 2.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from gamerec.cli.connection import Connection, with_connection
from gamerec.cli.edge import EXIT_FINDINGS, reported_errors
from gamerec.cli.match import rules_of, stub_of
from gamerec.recorder.syntax.registered import known_games

if TYPE_CHECKING:
    from gamerec.v1 import lobby_pb2 as lpb
    from gamerec.v1 import lobby_pb2_grpc as lgrpc
    from gamerec.v1 import match_pb2 as mpb

app = typer.Typer(
    name="challenge",
    help="The lobby of a server: open a challenge, list them, take a seat, cancel.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
    pretty_exceptions_show_locals=False,
)

#: Seconds a call may take; seconds between two looks at a challenge while waiting.
CALL_SECONDS: Final = 30.0
POLL_SECONDS: Final = 0.5

NameOption = Annotated[str, typer.Option("--name", help="Your name at the table.")]
KeyOption = Annotated[
    str,
    typer.Option(
        "--key",
        metavar="PUB",
        help="Your public key file, to sign your plies (gamerec keys new makes a pair).",
    ),
]
WaitOption = Annotated[
    bool,
    typer.Option(
        "--wait",
        help="Wait until the table is full, then print the match and how to play it.",
    ),
]
JsonOption = Annotated[
    bool, typer.Option("--json", help="Print the answer as one line of ProtoJSON.")
]


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
    name: NameOption,
    variant: Annotated[
        list[str] | None,
        typer.Option(
            "--variant", metavar="TAG=VALUE", help="A variant option as a GRN tag (Players=4)."
        ),
    ] = None,
    seats: Annotated[
        int,
        typer.Option("--seats", min=0, max=6, help="The seat count (0: the variant's); checked."),
    ] = 0,
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            metavar="CONTROL",
            help="The time control: - (none), 300, 300+3, 300d3, 300b3, 30/move (docs/live.md).",
        ),
    ] = "-",
    rated: Annotated[bool, typer.Option("--rated", help="A rated game (not casual).")] = False,
    seat: Annotated[
        int, typer.Option("--seat", min=0, max=6, help="The seat you take (0: seat 1).")
    ] = 0,
    key: KeyOption = "",
    wait: WaitOption = False,
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """Open a challenge and take a seat; print it and your seat's token (shown only now)."""
    from gamerec.v1 import lobby_pb2 as lpb

    with reported_errors():
        request = lpb.OpenChallengeRequest(
            rules=rules_of(game, variant or []),
            seats=seats,
            time_control=clock,
            rated=rated,
            player=_player(name, key),
            seat=seat,
        )
    with _lobby(connection) as stub:
        opened = stub.OpenChallenge(
            request, timeout=CALL_SECONDS, metadata=connection.transport.metadata()
        )
    if as_json:
        _print_json(opened)
    else:
        _print_challenge(opened.challenge)
        typer.echo(f"token {opened.token}")
    if wait:
        _wait(connection, opened.token)


@app.command(name="list")
@with_connection
def list_(
    *,
    token: Annotated[
        str,
        typer.Option(
            "--token", metavar="T", help="A seat's token: show the challenge it holds a seat of."
        ),
    ] = "",
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """List the open challenges, oldest first (or, with --token, your challenge)."""
    from gamerec.v1 import lobby_pb2 as lpb

    with _lobby(connection) as stub:
        answer = stub.ListChallenges(
            lpb.ListChallengesRequest(token=token),
            timeout=CALL_SECONDS,
            metadata=connection.transport.metadata(),
        )
    if as_json:
        _print_json(answer)
        return
    for challenge in answer.challenges:
        _print_challenge(challenge)
        if challenge.match_id and token:
            _print_play(connection, challenge, token)


@app.command()
@with_connection
def take(
    challenge_id: Annotated[str, typer.Argument(metavar="ID", help="The challenge.")],
    *,
    name: NameOption,
    seat: Annotated[
        int, typer.Option("--seat", min=0, max=6, help="The seat (0: the first free one).")
    ] = 0,
    key: KeyOption = "",
    wait: WaitOption = False,
    connection: Connection,
    as_json: JsonOption = False,
) -> None:
    """Take a seat of a challenge; print your token (shown only now), the match once full."""
    from gamerec.v1 import lobby_pb2 as lpb

    with reported_errors():
        request = lpb.TakeSeatRequest(
            challenge_id=challenge_id, player=_player(name, key), seat=seat
        )
    with _lobby(connection) as stub:
        taken = stub.TakeSeat(
            request, timeout=CALL_SECONDS, metadata=connection.transport.metadata()
        )
    if as_json:
        _print_json(taken)
    else:
        _print_challenge(taken.challenge)
        typer.echo(f"token {taken.token}")
        if taken.challenge.match_id:
            _print_play(connection, taken.challenge, taken.token)
            return
    if wait:
        _wait(connection, taken.token)


@app.command()
@with_connection
def cancel(
    challenge_id: Annotated[str, typer.Argument(metavar="ID", help="The challenge.")],
    *,
    token: Annotated[
        str, typer.Option("--token", metavar="T", help="Your token (challenge new printed it).")
    ],
    connection: Connection,
) -> None:
    """Withdraw a challenge you opened (while it is open)."""
    from gamerec.v1 import lobby_pb2 as lpb

    with _lobby(connection) as stub:
        answer = stub.CancelChallenge(
            lpb.CancelChallengeRequest(challenge_id=challenge_id, token=token),
            timeout=CALL_SECONDS,
            metadata=connection.transport.metadata(),
        )
    _print_challenge(answer.challenge)


# -- waiting ----------------------------------------------------------------------------------


def _wait(connection: Connection, token: str) -> None:
    """Ask the lobby until the token's table is full; print the match (exit 1: it closed)."""
    from gamerec.v1 import lobby_pb2 as lpb

    while True:
        with _lobby(connection) as stub:
            answer = stub.ListChallenges(
                lpb.ListChallengesRequest(token=token),
                timeout=CALL_SECONDS,
                metadata=connection.transport.metadata(),
            )
        (challenge,) = answer.challenges
        if challenge.match_id:
            _print_challenge(challenge)
            _print_play(connection, challenge, token)
            return
        if challenge.status not in (lpb.CHALLENGE_STATUS_OPEN, lpb.CHALLENGE_STATUS_FULL):
            _print_challenge(challenge)
            raise typer.Exit(EXIT_FINDINGS)
        time.sleep(POLL_SECONDS)


# -- the calls --------------------------------------------------------------------------------


@contextmanager
def _lobby(connection: Connection) -> Iterator[lgrpc.LobbyServiceStub]:
    """A LobbyService stub on a channel to the server; a refused call is one line, exit 2."""
    from gamerec.v1 import lobby_pb2_grpc as lgrpc

    with stub_of(connection, lgrpc.LobbyServiceStub) as stub:
        yield stub


def _player(name: str, key: str) -> mpb.MatchSeat:
    from gamerec.v1 import match_pb2 as mpb

    seat = mpb.MatchSeat(name=name)
    if key:
        from gamerec.recorder.signing import load_public_key

        seat.public_key = load_public_key(key)
    return seat


# -- printing ---------------------------------------------------------------------------------

_STATUS_WORDS: Final = {1: "open", 2: "full", 3: "started", 4: "cancelled", 5: "expired"}


def _print_json(message: Any) -> None:
    from google.protobuf import json_format

    typer.echo(json_format.MessageToJson(message, indent=None))


def _print_challenge(challenge: lpb.Challenge) -> None:
    """``challenge ID  GAME  N seats  clock C  casual  open``, then a line per seat."""
    from gamerec.recorder.notation import game_label

    status = _STATUS_WORDS.get(challenge.status, "unknown")
    kind = "rated" if challenge.rated else "casual"
    typer.echo(
        f"challenge {challenge.challenge_id}  {game_label(challenge.rules.game)}  "
        f"{len(challenge.seats)} seats  clock {challenge.time_control}  {kind}  {status}"
    )
    for seat in challenge.seats:
        who = seat.name if seat.taken else "(free)"
        yours = "  (you)" if seat.seat == challenge.your_seat else ""
        typer.echo(f"seat {seat.seat}  {who}{yours}")


def _print_play(connection: Connection, challenge: lpb.Challenge, token: str) -> None:
    """The match and the command that plays the token's seat in it."""
    typer.echo(f"match {challenge.match_id}")
    typer.echo(
        f"play: gamerec play --server {connection.server} --match {challenge.match_id} "
        f"--token {token} --seat {challenge.your_seat}"
    )
