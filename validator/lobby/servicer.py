"""The LobbyService servicer: a thin shell over :class:`~gamerec.validator.lobby.lobby.Lobby`.

Each RPC reads its request (the size checked against the ``request_bytes`` limit first),
asks the lobby, and sends its answer; what cannot be done ends the call with the status
MatchService gives the same trouble (``match_servicer.status_of``), and NOT_FOUND
(``google.rpc.ResourceInfo``) for an unknown challenge. Every call writes one log line.
The gate admits the lobby's calls as it admits watching (``access.RULES``): anyone when the
server allows anonymous watching, else a token of its token files. A client is counted (its
open challenges) by the gate's key: its token's hash, or its address without a token.

:func:`running_lobby` opens the lobby's store beside the match store and starts the lobby
for one server process; ``gamerec serve --matches`` registers it beside MatchService.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Final, TypeVar

import grpc
import grpc.aio
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2  # type: ignore[import-untyped]

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.validator.live.postgres_store import is_postgres
from gamerec.validator.live.referee import LimitReachedError, Referee
from gamerec.validator.lobby.lobby import EventsGoneError, Lobby
from gamerec.validator.lobby.postgres_store import PostgresLobbyStore
from gamerec.validator.lobby.sqlite_store import SQLiteLobbyStore
from gamerec.validator.lobby.store import LobbyStore
from gamerec.validator.lobby.table import UnknownChallengeError
from gamerec.validator.service.calls import Call
from gamerec.validator.service.match_servicer import (
    UnaryMethod,
    add_service,
    answering,
    parse_request,
    status_of,
    unary_method,
)
from gamerec.validator.service.principal import current_principal
from gamerec.validator.service.server import ExtraService
from gamerec.validator.service.servicer import Context
from gamerec.validator.service.statuses import status_with

#: The service's full name, as clients, health and reflection name it.
LOBBY_SERVICE_NAME: Final = lpb.DESCRIPTOR.services_by_name["LobbyService"].full_name
#: The domain of the service's ``ErrorInfo`` details.
DOMAIN: Final = "gamerec.v1.LobbyService"

M = TypeVar("M", bound=Message)


async def open_lobby_store(location: str) -> LobbyStore:
    """The lobby's tables in the match store at ``location`` (a file or a PostgreSQL URL).

    Raises:
        StoreError: they cannot be opened.
    """
    if is_postgres(location):
        return await PostgresLobbyStore(location).open()
    return await SQLiteLobbyStore(location).open()


@contextlib.asynccontextmanager
async def running_lobby(
    location: str, referee: Referee, client_challenges: int
) -> AsyncIterator[ExtraService]:
    """Open the lobby over a started referee; the service to register; stop it after.

    Raises:
        StoreError: the lobby's tables cannot be opened or read.
    """
    store = await open_lobby_store(location)
    lobby = Lobby(store, referee, client_challenges)
    try:
        await lobby.start()
    except BaseException:
        await store.close()
        raise
    try:
        yield ExtraService(LOBBY_SERVICE_NAME, LobbyServicer(lobby).register)
    finally:
        await lobby.stop()


class LobbyServicer:
    """The RPCs of ``gamerec.v1.LobbyService`` over one :class:`Lobby`."""

    def __init__(self, lobby: Lobby) -> None:
        """Serve this lobby."""
        self.lobby = lobby
        self.watchers = 0

    def register(self, server: grpc.aio.Server) -> None:
        """Add the service's handlers to a server."""
        unary = (
            self._unary("OpenChallenge", lpb.OpenChallengeRequest, self.open_challenge),
            self._unary("ListChallenges", lpb.ListChallengesRequest, self.list_challenges),
            self._unary("TakeSeat", lpb.TakeSeatRequest, self.take_seat),
            self._unary("CancelChallenge", lpb.CancelChallengeRequest, self.cancel_challenge),
            self._unary("ListLiveMatches", lpb.ListLiveMatchesRequest, self.list_live_matches),
        )
        add_service(server, LOBBY_SERVICE_NAME, unary, {"WatchLobby": self.watch_lobby})

    # -- the RPCs -------------------------------------------------------------------------------

    async def open_challenge(
        self, request: lpb.OpenChallengeRequest, context: Context
    ) -> lpb.OpenChallengeResponse:
        """OpenChallenge: counted against the caller (the gate's key, else its address)."""
        principal = current_principal()
        client = principal.key if principal is not None else "peer:" + context.peer()
        return await self.lobby.open_challenge(request, client)

    async def list_challenges(
        self, request: lpb.ListChallengesRequest, context: Context
    ) -> lpb.ListChallengesResponse:
        """ListChallenges."""
        return await self.lobby.challenges(request.token, request.limit)

    async def take_seat(
        self, request: lpb.TakeSeatRequest, context: Context
    ) -> lpb.TakeSeatResponse:
        """TakeSeat."""
        return await self.lobby.take_seat(request)

    async def cancel_challenge(
        self, request: lpb.CancelChallengeRequest, context: Context
    ) -> lpb.CancelChallengeResponse:
        """CancelChallenge: its creator's token."""
        return await self.lobby.cancel(request.challenge_id, request.token)

    async def list_live_matches(
        self, request: lpb.ListLiveMatchesRequest, context: Context
    ) -> lpb.ListLiveMatchesResponse:
        """ListLiveMatches."""
        matches = await self.lobby.live_matches(request.limit, request.before)
        return lpb.ListLiveMatchesResponse(matches=matches)

    async def watch_lobby(self, raw: bytes, context: Context) -> AsyncIterator[bytes]:
        """WatchLobby: the events from the number asked, then each new one."""
        call = Call("WatchLobby", context.peer())
        async with answering(context, call, lobby_status):
            limits = self.lobby.referee.limits
            request = parse_request(lpb.WatchLobbyRequest, raw, most=limits.request_bytes)
            most = limits.watchers
            if self.watchers >= most:
                raise LimitReachedError(
                    "watchers",
                    "(request)",
                    f"the lobby has {self.watchers:,} watchers on this server process, its "
                    "limit (limit watchers)",
                )
            stream = await self.lobby.watch(request.from_event)
            self.watchers += 1
            try:
                async for event in stream:
                    call.plies += 1
                    yield event.SerializeToString()
            finally:
                self.watchers -= 1

    # -- the shell ------------------------------------------------------------------------------

    def _unary(
        self,
        method: str,
        kind: type[M],
        behaviour: Callable[[M, Context], Awaitable[Message]],
    ) -> UnaryMethod:
        most = self.lobby.referee.limits.request_bytes
        return unary_method(
            method, partial(parse_request, kind, most=most), behaviour, lobby_status
        )


def lobby_status(error: Exception) -> grpc.Status | None:
    """The status of an error the lobby expects (None: a bug, INTERNAL)."""
    if isinstance(error, UnknownChallengeError):
        detail = error_details_pb2.ResourceInfo(
            resource_type="gamerec.v1.Challenge",
            resource_name=error.challenge_id[:64],
            description=str(error),
        )
        return status_with(
            code_pb2.NOT_FOUND,
            str(error),
            reason="UNKNOWN_CHALLENGE",
            domain=DOMAIN,
            field_name="challenge_id",
            details=(detail,),
        )
    if isinstance(error, EventsGoneError):
        return status_with(
            code_pb2.OUT_OF_RANGE,
            str(error),
            reason="EVENTS_GONE",
            domain=DOMAIN,
            field_name="from_event",
        )
    return status_of(error)
