"""A round on a match server: every table's match created in one call, each player's ticket.

``gamerec event start`` (docs/events.md, "Running rounds on a server"). The round's tables
become ``CreateMatchRequest`` messages (the event's game and seats, the variant options, the
clock, the event's name and the round number), sent together in one ``CreateMatches`` call,
which creates them all or none, with the clocks starting at one scheduled moment. Each table
keeps its match (server, id, and the host key that sealed it) in the event file, and each
player gets a :class:`Ticket`: the match, the seat and its secret token, said as the web
client's link or as the ``gamerec play`` command.

Bad input is refused before anything is created, naming the event, the round and the
player: a round not paired, started already, or whose tables have results; a server that
refuses any table creates none of them (its error names the table and, when the server says
which seat, the player).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

import grpc
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.grn_tags import read_tag
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.events.model import Event, Round, ServerMatch, Table
from gamerec.validator.service.match_client import refusal_text
from gamerec.validator.service.transport import ClientTransport

#: Seconds one call to the server may take.
CALL_SECONDS: Final = 60.0


@dataclass(frozen=True)
class ServerLink:
    """How the director reaches the match server.

    Attributes:
        address: ``HOST:PORT``.
        transport: TLS or not, and the director's (admin's) token.
    """

    address: str
    transport: ClientTransport = field(default_factory=ClientTransport)


@dataclass(frozen=True)
class Ticket:
    """What one player needs to play a round's game: the match, the seat and the token.

    Attributes:
        round: the round.
        table: the table's number.
        seat: the player's seat (1 first).
        player: the player's name.
        number: the player's pairing number.
        match_id: the match on the server.
        token: the seat's secret token (the server keeps only its hash).
    """

    round: int
    table: int
    seat: int
    player: str
    number: int
    match_id: str
    token: str

    def command(self, server: str) -> str:
        """The ``gamerec play`` command that plays this seat from a terminal."""
        return (
            f"gamerec play --server {server} --match {self.match_id} "
            f"--token {self.token} --seat {self.seat}"
        )

    def link(self, web_url: str) -> str:
        """The web client's play page (docs/web-client.md): the token rides in the fragment."""
        return f"{web_url.rstrip('/')}/#play={self.match_id}&seat={self.seat}&token={self.token}"


def event_rules(game: str, seats: int, variant: Sequence[tuple[str, str]] = ()) -> pb.Rules:
    """The rules of the event's matches: its game at its seats, with variant options (GRN tags).

    Raises:
        GamerecError: an option the game does not have, or a value it cannot hold.
    """
    record = pb.GameRecord()
    read_tag(record, "Game", game)
    read_tag(record, "Players", str(seats))
    for tag, value in variant:
        if tag.strip().lower() in ("game", "players"):
            raise GamerecError(f"--variant: {tag} is the event's own; give only other options")
        read_tag(record, tag.strip(), value.strip())
    record.rules.SetInParent()
    return record.rules


def requests_for(
    event: Event, made: Round, rules: pb.Rules, clock: str
) -> list[mpb.CreateMatchRequest]:
    """One ``CreateMatchRequest`` per table of the round, in table order."""
    return [
        mpb.CreateMatchRequest(
            rules=rules,
            seats=[mpb.MatchSeat(name=name) for name in table.seats],
            time_control=clock,
            event=event.settings.name,
            round=str(made.number),
        )
        for table in made.tables
    ]


def startable(event: Event, number: int) -> Round:
    """Round ``number``, checked to be one that can start: paired, not started, no result.

    Raises:
        EventError: the round is not paired, is started already (naming its first match),
            has no tables (byes only), or a table already has a result.
    """
    made = event.round(number)
    if not made.tables:
        raise event.error("the round has byes only: no match to start", number)
    for table in made.tables:
        if table.match is not None:
            raise event.error(
                f"the round is started already: table {table.number} "
                f"({' - '.join(table.seats)}) is match {table.match.match_id} on "
                f"{table.match.server}",
                number,
            )
        if table.result is not None:
            raise event.error(
                f"table {table.number} ({' - '.join(table.seats)}) already has a result", number
            )
    return made


#: How the matches are created: the bulk call, or one call per match (the bench's baseline).
Creator = Callable[
    [mgrpc.MatchServiceStub, list[mpb.CreateMatchRequest], ServerLink, "datetime.datetime | None"],
    list[mpb.CreateMatchResponse],
]


class RefusedError(GamerecError):
    """The server refused a table: its index in the round and the seat, when it says which."""

    def __init__(self, index: int, seat: int | None, failure: str) -> None:
        """``index``: the table's 0-based index; ``seat``: its 0-based seat, or None."""
        super().__init__(failure)
        self.index = index
        self.seat = seat
        self.failure = failure


def create_each(
    stub: mgrpc.MatchServiceStub,
    requests: list[mpb.CreateMatchRequest],
    link: ServerLink,
    start_at: datetime.datetime | None,
) -> list[mpb.CreateMatchResponse]:
    """Create the matches one ``CreateMatch`` at a time; on a refusal abort those made.

    What the bulk call does on the server, done from the client: the bench's baseline.
    """
    _schedule(requests, start_at)
    made: list[mpb.CreateMatchResponse] = []
    metadata = link.transport.metadata()
    for index, request in enumerate(requests):
        try:
            made.append(stub.CreateMatch(request, timeout=CALL_SECONDS, metadata=metadata))
        except grpc.RpcError as error:
            abort_all(stub, [created.match_id for created in made], link)
            raise _refused(error, index) from None
    return made


def create_bulk(
    stub: mgrpc.MatchServiceStub,
    requests: list[mpb.CreateMatchRequest],
    link: ServerLink,
    start_at: datetime.datetime | None,
) -> list[mpb.CreateMatchResponse]:
    """Create the matches in one ``CreateMatches`` call: all of them, or none.

    Raises:
        RefusedError: the server refused one match (the error's field names its index).
        grpc.RpcError: the server refused the call as a whole (a limit, the admin token).
    """
    _schedule(requests, start_at)
    try:
        answer = stub.CreateMatches(
            mpb.CreateMatchesRequest(matches=requests),
            timeout=CALL_SECONDS,
            metadata=link.transport.metadata(),
        )
    except grpc.RpcError as error:
        found = re.match(r"matches\[(\d+)\]", field_of(error))
        if found is None or int(found.group(1)) >= len(requests):
            raise
        raise _refused(error, int(found.group(1))) from None
    if len(answer.matches) != len(requests):
        raise GamerecError(
            f"{link.address} answered {len(answer.matches)} matches for {len(requests)} asked"
        )
    return list(answer.matches)


def _schedule(requests: list[mpb.CreateMatchRequest], start_at: datetime.datetime | None) -> None:
    """Every match's clocks start at ``start_at`` (None: each seat's at its first move)."""
    if start_at is None:
        return
    for request in requests:
        request.start_at.FromDatetime(start_at.astimezone(datetime.UTC))


def _refused(error: grpc.RpcError, index: int) -> RefusedError:
    """The server's refusal of table ``index`` (the seat from the error's field, if named)."""
    code = error.code() if isinstance(error, grpc.Call) else None
    details = error.details() if isinstance(error, grpc.Call) else str(error)
    failure = refusal_text(code, details or "")
    found = re.search(r"(?:^|\.)seats\[(\d+)\]", field_of(error))
    return RefusedError(index, int(found.group(1)) if found else None, failure)


def field_of(error: grpc.RpcError) -> str:
    """The field an error's ``google.rpc.ErrorInfo`` names (empty: none)."""
    if not isinstance(error, grpc.Call):
        return ""
    status = rpc_status.from_call(error)
    if status is None:
        return ""
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Is(info.DESCRIPTOR):
            detail.Unpack(info)
            return str(info.metadata.get("field", ""))
    return ""


def abort_all(stub: mgrpc.MatchServiceStub, match_ids: Sequence[str], link: ServerLink) -> None:
    """Call matches off (the director's undo); one already over is no error."""
    metadata = link.transport.metadata()
    for match_id in match_ids:
        try:
            stub.Abort(mpb.AbortRequest(match_id=match_id), timeout=CALL_SECONDS, metadata=metadata)
        except grpc.RpcError as error:
            if isinstance(error, grpc.Call) and error.code() in (
                grpc.StatusCode.FAILED_PRECONDITION,
                grpc.StatusCode.NOT_FOUND,
            ):
                continue
            raise


@dataclass
class Started:
    """A round created on the server: its tickets, and the matches to abort on an undo."""

    link: ServerLink
    match_ids: list[str]
    tickets: list[Ticket]

    def abort(self) -> None:
        """Call every match of the round off (nothing else of the start is kept then)."""
        with self.link.transport.channel(self.link.address) as channel:
            abort_all(mgrpc.MatchServiceStub(channel), self.match_ids, self.link)


def start_round(
    event: Event,
    number: int,
    link: ServerLink,
    *,
    rules: pb.Rules,
    clock: str,
    start_at: datetime.datetime | None = None,
    creator: Creator = create_bulk,
) -> Started:
    """Create every match of round ``number`` on the server; record them in ``event``.

    Raises:
        EventError: the round cannot start (:func:`startable`), or the server refused a
            table (nothing is created then; the message names the table and the player).
    """
    made = startable(event, number)
    requests = requests_for(event, made, rules, clock)
    try:
        with link.transport.channel(link.address) as channel:
            created = creator(mgrpc.MatchServiceStub(channel), requests, link, start_at)
    except RefusedError as refused:
        table = made.tables[refused.index]
        raise event.error(_refusal(table, refused, link), number) from None
    except grpc.RpcError as error:
        code = error.code() if isinstance(error, grpc.Call) else None
        details = error.details() if isinstance(error, grpc.Call) else str(error)
        failure = refusal_text(code, details or "")
        if code in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
            # The call may have reached the server: say so rather than promise nothing.
            said = (
                "the round's matches may have been created (see gamerec match list); the "
                "event file is unchanged"
            )
        else:
            said = "no match was created"
        raise event.error(f"{link.address}: {failure}; {said}", number) from None
    when = _rfc3339(start_at) if start_at is not None else ""
    numbers = {player.name: player.number for player in event.players}
    tickets = []
    for table, answer in zip(made.tables, created, strict=True):
        host_key = answer.created.created.record.seal.host_key.hex()
        table.match = ServerMatch(link.address, answer.match_id, host_key, when)
        for seat, (name, token) in enumerate(zip(table.seats, answer.seat_tokens, strict=True)):
            tickets.append(
                Ticket(number, table.number, seat + 1, name, numbers[name], answer.match_id, token)
            )
    return Started(link, [answer.match_id for answer in created], tickets)


def _refusal(table: Table, refused: RefusedError, link: ServerLink) -> str:
    seats = " - ".join(table.seats)
    who = (
        f"player {table.seats[refused.seat]!r}"
        if refused.seat is not None and refused.seat < len(table.seats)
        else f"players {seats}"
    )
    return (
        f"{link.address} refused table {table.number} ({seats}), {who}: {refused.failure}; "
        "no match of the round was created"
    )


def _rfc3339(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


_RELATIVE = re.compile(r"^\+(\d+(?:\.\d+)?)(s|m|h)$")


def moment(text: str, now: datetime.datetime | None = None) -> datetime.datetime:
    """A time as the director writes it: ``+30s``, ``+5m``, ``+1h`` from now, or RFC 3339.

    Raises:
        GamerecError: neither form, or an RFC 3339 time without its offset.
    """
    now = now or datetime.datetime.now(datetime.UTC)
    relative = _RELATIVE.match(text.strip())
    if relative:
        unit = {"s": 1, "m": 60, "h": 3600}[relative.group(2)]
        return now + datetime.timedelta(seconds=float(relative.group(1)) * unit)
    try:
        parsed = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise GamerecError(
            f"{text!r} is not a time: write +30s, +5m, +1h (from now) or an RFC 3339 time "
            "with its offset, such as 2026-12-06T19:30:00Z"
        )
    return parsed
