"""A round's results from the match server: its sealed records, verified, judged, adjudicated.

``gamerec event results EVENT ROUND --server`` (docs/events.md, "Running rounds on a
server"). For each table of a round started on the server (``on_server``), the match's
final record is taken from the server (``GetMatch``) and

1. verified as ``gamerec verify --require host`` verifies it: the seal holds, the host
   signed every ply and the result, the strict replay is valid; and the host key is the
   one that sealed the match when the round started (the event file keeps it);
2. judged as ``gamerec adjudicate`` judges it: a game the rules ended counts as they
   ranked it; a game that did not reach its end by the rules (a flag with three or more
   seats playing, a match aborted on the server, or one still open at the deadline, which
   the director's call aborts first) counts the standing of the position reached, and is
   marked adjudicated, with why;
3. matched to its table by its round and its seats (``event.add_results``: a record whose
   seats differ from its pairing is refused, nothing recorded).

With a deadline, :func:`wait_round` first waits for the round's open matches (polling the
server, outside the event file's transaction) until each is over or the deadline passes,
and calls off those still open. The records are written next to the event
file (``<event>-records/round-R/table-T.pb``), each counted from there.
"""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import grpc

from gamerec.recorder.codecs import write_records
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.v1 import verification_pb2 as wpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.collection.standings import competition_ranks, game_digest
from gamerec.validator.events.event import Intake, Outcome, add_results
from gamerec.validator.events.model import Event, Table
from gamerec.validator.events.on_server import CALL_SECONDS, ServerLink, abort_all
from gamerec.validator.judge import format_scores
from gamerec.validator.service.match_client import refusal_text
from gamerec.validator.verification import verify

#: Seconds between two looks at the open matches while waiting for the deadline.
POLL_SECONDS: Final = 0.5
#: What a game still open at the deadline is marked with.
NOT_FINISHED: Final = "not finished by the deadline"


@dataclass(frozen=True)
class Game:
    """One table's game as the server's record gives it.

    Attributes:
        table: the table's number.
        record: the final record (sealed and signed by the server's host).
        adjudicated: why the result is the position's standing (empty: the rules ended it).
        ruling: the standing adjudicated, in words (empty: the rules ended the game).
        result: the adjudication's result.
    """

    table: int
    record: pb.GameRecord
    adjudicated: str
    ruling: str
    result: vpb.ComputedResult


@dataclass
class Collected:
    """What :func:`collect_round` did: the intake's lines, the tables still being played."""

    intake: Intake
    adjudicated: list[str]
    open: list[str]


def records_folder(event_path: str, number: int) -> Path:
    """Where the records of round ``number`` go: ``<event>-records/round-N`` beside it."""
    path = Path(event_path)
    return path.with_name(f"{path.stem}-records") / f"round-{number}"


def _started(event: Event, number: int) -> list[Table]:
    """The tables of round ``number`` on the server still without a result."""
    made = event.round(number)
    started = [table for table in made.tables if table.match is not None]
    if not started:
        raise event.error(
            "the round was not started on a server (gamerec event start); its results come "
            "from record files (gamerec event results EVENT PATH...)",
            number,
        )
    unstarted = [table for table in made.tables if table.match is None]
    if unstarted:
        table = unstarted[0]
        raise event.error(
            f"table {table.number} ({' - '.join(table.seats)}) has no match on the server",
            number,
        )
    return [table for table in started if table.result is None]


def wait_round(
    event: Event,
    number: int,
    link: ServerLink,
    deadline: datetime.datetime,
    clock: Callable[[], datetime.datetime] | None = None,
) -> set[str]:
    """Wait until every match of the round without a result is over, or the deadline passes.

    Run outside the event file's transaction (the wait may be long): the event is only
    read. At the deadline the matches still open are called off (the director's abort).

    Returns:
        The ids of the matches called off.

    Raises:
        EventError: the round was not started on the server, or the server refused a call.
    """
    now = clock or (lambda: datetime.datetime.now(datetime.UTC))
    pending = _started(event, number)
    with _calling(event, number, link) as stub:
        while True:
            still = [table for table in pending if _state(stub, table, link) is None]
            if not still:
                return set()
            if now() >= deadline:
                late = [table.match.match_id for table in still if table.match is not None]
                abort_all(stub, late, link)
                return set(late)
            time.sleep(POLL_SECONDS)


@contextmanager
def _calling(event: Event, number: int, link: ServerLink) -> Iterator[mgrpc.MatchServiceStub]:
    """A stub on the server; a refused call is an error naming the event and the round."""
    with link.transport.channel(link.address) as channel:
        try:
            yield mgrpc.MatchServiceStub(channel)
        except grpc.RpcError as error:
            code = error.code() if isinstance(error, grpc.Call) else None
            details = error.details() if isinstance(error, grpc.Call) else str(error)
            failure = refusal_text(code, details or "")
            raise event.error(f"{link.address}: {failure}; no result recorded", number) from None


def _state(stub: mgrpc.MatchServiceStub, table: Table, link: ServerLink) -> mpb.MatchState | None:
    """The table's match once it is over (finished or aborted); None while it is open."""
    assert table.match is not None
    state = stub.GetMatch(
        mpb.GetMatchRequest(match_id=table.match.match_id),
        timeout=CALL_SECONDS,
        metadata=link.transport.metadata(),
    )
    return None if state.status == mpb.MATCH_STATUS_OPEN else state


def collect_round(
    event: Event,
    event_path: str,
    number: int,
    link: ServerLink,
    late: Collection[str] = (),
) -> Collected:
    """Collect round ``number``'s results from the server into ``event`` (see the module).

    The matches over are collected, the others named as still open; ``late``: the matches
    :func:`wait_round` called off at the deadline (adjudicated as not finished by it). The
    records are written only when every result is accepted.

    Raises:
        EventError: the round was not started on the server, a record does not verify or
            carries another host key, or its seats do not match its table (nothing recorded).
    """
    pending = _started(event, number)
    games: list[Game] = []
    still: list[Table] = []
    with _calling(event, number, link) as stub:
        for table in pending:
            assert table.match is not None
            state = _state(stub, table, link)
            if state is None:
                still.append(table)
            else:
                games.append(_game(event, number, table, state, table.match.match_id in late))
    folder = records_folder(event_path, number)
    outcomes = [_outcome(number, game, folder) for game in games]
    intake = add_results(event, outcomes)
    made = event.round(number)
    adjudicated = []
    for game in games:
        table = made.tables[game.table - 1]
        if game.adjudicated and table.result is not None:
            table.result.adjudicated = game.adjudicated
            adjudicated.append(
                f"round {number} table {table.number} ({' - '.join(table.seats)}): "
                f"adjudicated ({game.adjudicated}): {game.ruling}"
            )
    _write(folder, games)
    return Collected(
        intake,
        adjudicated,
        [f"table {table.number} ({' - '.join(table.seats)})" for table in still],
    )


def _game(event: Event, number: int, table: Table, state: mpb.MatchState, late: bool) -> Game:
    """The table's game from its final state: verified, then judged."""
    assert table.match is not None
    where = f"table {table.number} ({' - '.join(table.seats)}), match {table.match.match_id}"
    record = state.record
    answer = verify(record)
    if wpb.PROOF_LEVEL_HOST not in answer.proven:
        finding = next((f for f in answer.findings if f.seat == 0), None) or next(
            iter(answer.findings), None
        )
        said = f"{finding.code}: {finding.message}" if finding else "no host signature"
        raise event.error(f"{where}: the server's record does not verify ({said})", number)
    if record.seal.host_key.hex() != table.match.host_key:
        raise event.error(
            f"{where}: the record is sealed by host key {record.seal.host_key.hex()[:16]}..., "
            f"not the one that sealed the match ({table.match.host_key[:16]}...)",
            number,
        )
    ruling = adjudicate(record)
    if late:
        why = NOT_FINISHED
    elif state.status == mpb.MATCH_STATUS_ABORTED:
        why = f"aborted on the server ({state.ended.reason.rstrip('.')})"
    elif ruling.decision == vpb.DECISION_PROVISIONAL:
        why = "the rules did not end the game"
    else:
        why = ""
    standing = (
        f"the standing after ply {len(record.moves)}, {format_scores(ruling.result.scores)}"
        if why
        else ""
    )
    return Game(table.number, record, why, standing, ruling.result)


def _outcome(number: int, game: Game, folder: Path) -> Outcome:
    """The game as an outcome for ``add_results``, its source the file it is written to."""
    record, result = game.record, game.result
    seats = len(record.seats)
    if result.termination == pb.TERMINATION_AGREEMENT:
        ranks = competition_ranks(result.winners, result.scores, seats)
    else:
        ranks = tuple(result.ranks)
    return Outcome(
        source=f"{folder / _file_name(game.table)}#1",
        round=record.metadata.round or str(number),
        players=tuple(seat.name for seat in record.seats),
        ranks=ranks if len(ranks) == seats else None,
        key=game_digest(record),
        note="the record's result does not rank every seat",
    )


def _file_name(table: int) -> str:
    return f"table-{table}.pb"


def _write(folder: Path, games: list[Game]) -> None:
    """Write each game's record in ``folder`` (each file atomically)."""
    if not games:
        return
    os.makedirs(folder, exist_ok=True)
    for game in games:
        write_records([game.record], str(folder / _file_name(game.table)))
