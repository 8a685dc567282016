"""A seat of ``gamerec play`` in a live match on a server, over gRPC (MatchService).

:class:`ServerTable` is the :class:`~gamerec.validator.play.table.Table` of a seat whose
match a ``gamerec serve --matches`` server referees (docs/live.md): the events by ``Watch``,
the state by ``GetMatch``, the seat's commands with its token. It lives here because only
``validator/service`` speaks gRPC; the screen (``gamerec.validator.play``) knows only the
table. A failed call is a :class:`~gamerec.validator.play.table.TableLostError` when it may
be tried again (the server unreachable or restarting), else a
:class:`~gamerec.validator.play.table.TableRefusedError` with the status and its sentence.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any, Final

import grpc
import grpc.aio

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.seal import final_message, ply_message
from gamerec.recorder.signing import fingerprint, public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.play.table import PlayAnswer, TableLostError, TableRefusedError
from gamerec.validator.service.match_client import NO_MATCHES, token_mismatch

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: Seconds a call to the server may take.
CALL_SECONDS: Final = 30.0
#: Statuses after which a call may be tried again.
_LOST: Final = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNKNOWN,
)


class ServerTable:
    """A seat in a live match on a MatchService server (see the module docstring).

    Args:
        channel: an asyncio channel to the server.
        match_id: the match; "": the token's (WhoAmI says it).
        token: the seat's token (``match new`` printed it).
        seat: the seat the token is; 0: the token's (WhoAmI says it).
        key: the seat's private key, when it registered one: each of its plies is signed as
            it is accepted (the head after it, which covers the plies before), and the final
            head once the match is over (docs/live.md, step 6).
    """

    def __init__(
        self,
        channel: grpc.aio.Channel,
        match_id: str,
        token: str,
        seat: int,
        key: Ed25519PrivateKey | None = None,
    ) -> None:
        """A table on ``channel``; :meth:`check` it before use."""
        self.channel = channel
        self.stub: mgrpc.MatchServiceAsyncStub = mgrpc.MatchServiceStub(channel)
        self.match_id = match_id
        self.token = token
        self.seat = seat
        self.key = key

    async def check(self) -> mpb.MatchState:
        """The match now, once the server has said which match and seat the token is.

        The match and seat given (if any) must be the token's.

        Raises:
            TableRefusedError: a token that is no seat's (UNAUTHENTICATED), the token of
                another match or seat than given (WRONG_SEAT), or no such match.
            TableLostError: the server cannot be reached.
        """
        found = await self._call(self.stub.WhoAmI, mpb.WhoAmIRequest(token=self.token))
        wrong = token_mismatch(found, self.match_id, self.seat)
        if wrong is not None:
            raise TableRefusedError(wrong, reason="WRONG_SEAT")
        self.match_id, self.seat = found.match_id, found.seat
        state = await self.state()
        self._check_key(state)
        return state

    def _check_key(self, state: mpb.MatchState) -> None:
        """Refuse a key that is not the one the seat registered (its signatures would fail)."""
        if self.key is None:
            return
        keys = state.record.seal.seat_keys
        registered = keys[self.seat - 1] if self.seat <= len(keys) else b""
        mine = public_bytes(self.key)
        if registered != mine:
            has = f"registered {fingerprint(registered)}" if registered else "registered no key"
            raise TableRefusedError(
                f"seat {self.seat} {has}; the key given is {fingerprint(mine)}", reason="WRONG_KEY"
            )

    async def events(self, from_event: int) -> AsyncIterator[mpb.MatchEvent]:
        """The events from ``from_event`` (a lost connection raises TableLostError)."""
        request = mpb.WatchRequest(match_id=self.match_id, from_event=from_event)
        try:
            async for event in self.stub.Watch(request):
                if event.HasField("ended"):
                    with contextlib.suppress(TableRefusedError):  # the key was checked
                        await self._sign_result(event.ended)
                yield event
        except grpc.aio.AioRpcError as error:
            raise _table_error(error) from None

    async def state(self, decided: Sequence[str] = ()) -> mpb.MatchState:
        """See :class:`~gamerec.validator.play.table.Table`."""
        request = mpb.GetMatchRequest(match_id=self.match_id, decided=list(decided))
        answer: mpb.MatchState = await self._call(self.stub.GetMatch, request)
        return answer

    async def play(self, ply: int, text: str) -> PlayAnswer:
        """See :class:`~gamerec.validator.play.table.Table`."""
        request = mpb.PlayRequest(match_id=self.match_id, token=self.token, ply=ply, text=text)
        answer = await self._call(self.stub.Play, request)
        illegal = answer.illegal if answer.HasField("illegal") else None
        accepted = answer.events[0].move if answer.events else None
        if self.key is not None and accepted is not None and accepted.head:
            await self._sign(accepted.ply, ply_message(accepted.ply, accepted.head))
        return PlayAnswer(tuple(answer.events), illegal)

    async def _sign_result(self, ended: mpb.MatchEnded) -> None:
        """Sign the final head (a seat with a key), once the match is over."""
        head = ended.record.seal.final_head
        if self.key is not None and head:
            await self._sign(0, final_message(head))

    async def _sign(self, ply: int, message: bytes) -> None:
        """Send the seat's signature of ``message`` (the head after ``ply``; 0: the final)."""
        assert self.key is not None
        request = mpb.SignRequest(
            match_id=self.match_id, token=self.token, ply=ply, signature=self.key.sign(message)
        )
        signed = await self._call(self.stub.Sign, request)
        if signed.HasField("rejected"):
            raise TableRefusedError(signed.rejected.message, reason=signed.rejected.code)

    async def resign(self) -> None:
        """See :class:`~gamerec.validator.play.table.Table`."""
        await self._call(
            self.stub.Resign, mpb.ResignRequest(match_id=self.match_id, token=self.token)
        )

    async def offer_draw(self) -> None:
        """See :class:`~gamerec.validator.play.table.Table`."""
        await self._call(
            self.stub.OfferDraw, mpb.OfferDrawRequest(match_id=self.match_id, token=self.token)
        )

    async def answer_draw(self, accept: bool) -> None:
        """See :class:`~gamerec.validator.play.table.Table`."""
        request = mpb.AnswerDrawRequest(match_id=self.match_id, token=self.token, accept=accept)
        await self._call(self.stub.AnswerDraw, request)

    async def abort(self) -> None:
        """See :class:`~gamerec.validator.play.table.Table`."""
        await self._call(
            self.stub.Abort, mpb.AbortRequest(match_id=self.match_id, token=self.token)
        )

    async def leave(self) -> None:
        """Close the connection; the match goes on (``play`` again with the token rejoins it)."""
        await self.channel.close()

    async def _call(self, method: Any, request: Any) -> Any:
        try:
            return await method(request, timeout=CALL_SECONDS)
        except grpc.aio.AioRpcError as error:
            raise _table_error(error) from None


def _table_error(error: grpc.aio.AioRpcError) -> GamerecError:
    """A failed call as the table's error: lost (try again) or refused (say why)."""
    code = error.code()
    details = error.details() or code.name
    if code in _LOST:
        return TableLostError(f"the server is out of reach ({code.name}): {details}")
    if code is grpc.StatusCode.UNIMPLEMENTED:
        return TableRefusedError(NO_MATCHES, reason=code.name)
    return TableRefusedError(details, reason=code.name)
