"""The service's jobs: a serialized request in, a serialized answer out, one library call each.

These run in the worker processes (or inline for small requests; see service.pool),
so they take and give bytes: nothing large is pickled on the way, and the main process
never parses a request it only hands on. Every job returns an :class:`Answer`; a request
that cannot be processed is an answer too (``INVALID_ARGUMENT`` with the field at fault and
the problem), so nothing but bugs travels back as an exception. This module never imports
grpc: the workers do not load it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import islice
from typing import Final, NamedTuple, Protocol, TypeAlias, TypeVar

from google.protobuf.message import DecodeError

from gamerec.recorder.codecs import Encoding, decode_record, encode_record
from gamerec.recorder.ed25519_checks import key_weakness
from gamerec.recorder.errors import (
    DeadlineExceededError,
    EncodingError,
    RecordMalformedError,
)
from gamerec.recorder.limits import DEFAULT_LIMITS, check_record
from gamerec.recorder.notation import game_label
from gamerec.recorder.seal import KEY_BYTES
from gamerec.recorder.well_known import check_times
from gamerec.recorder.wire import WireError, decode_varint
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.analysis.assessment import DEFAULT_CONFIDENCE, EngineRequest
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.comparison import compare_records
from gamerec.validator.frames import ReplayStoppedError, replay
from gamerec.validator.identity import RulesError
from gamerec.validator.judge import judge, score, validate
from gamerec.validator.search.core import Limits
from gamerec.validator.verification import verify

OK: Final = "OK"
INVALID_ARGUMENT: Final = "INVALID_ARGUMENT"
DEADLINE_EXCEEDED: Final = "DEADLINE_EXCEEDED"

#: The codecs' encoding for each RecordEncoding of a request (UNSPECIFIED: sniff).
READ_ENCODINGS: Final[dict[int, Encoding | None]] = {
    spb.RECORD_ENCODING_UNSPECIFIED: None,
    spb.RECORD_ENCODING_BINARY: Encoding.PB,
    spb.RECORD_ENCODING_JSON: Encoding.JSON,
    spb.RECORD_ENCODING_GRN: Encoding.GRN,
}
WRITE_ENCODINGS: Final = {
    code: encoding for code, encoding in READ_ENCODINGS.items() if encoding is not None
}


class Answer(NamedTuple):
    """What a job gives back: the response, or why there is none, and facts for the call log.

    Attributes:
        status: ``OK``, ``INVALID_ARGUMENT`` or ``DEADLINE_EXCEEDED``.
        payload: the serialized response (unary calls).
        frames: the serialized ReplayFrames of one piece of a replay.
        more: a replay has frames after this piece.
        game: the record's game (``ONE``), for the log; empty when unknown.
        plies: the plies the record holds (Replay: the frames of this piece).
        verdict: one word or phrase for the log (``valid``, ``confirmed``, ``same``).
        field: the request field at fault (``data``, ``left.encoding``, ``ply``).
        problem: what is wrong with it, or how far a job got before its deadline.
    """

    status: str
    payload: bytes = b""
    frames: tuple[bytes, ...] = ()
    more: bool = False
    game: str = ""
    plies: int = 0
    verdict: str = ""
    field: str = ""
    problem: str = ""


class BadFieldError(Exception):
    """A request field that cannot be processed (becomes ``INVALID_ARGUMENT``)."""

    def __init__(self, field: str, problem: str) -> None:
        """Name the field and say what is wrong with it."""
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


#: Every message that holds one record: ``record``, or ``data`` with its ``encoding``.
RecordRequest: TypeAlias = (
    spb.ValidateRequest
    | spb.ReplayRequest
    | spb.ScoreRequest
    | spb.AdjudicateRequest
    | spb.ConvertRequest
    | spb.LegalMovesRequest
    | spb.VerifyRequest
    | spb.RecordInput
)


def record_of(
    request: RecordRequest, raw: bytes, prefix: str = "", deadline: float | None = None
) -> pb.GameRecord:
    """The record a request holds, decoded when it came as bytes.

    ``raw`` is the whole serialized request: a record message inside it is checked against
    every limit of gamerec.recorder.limits, as the decoders check one that came as bytes, with
    the record's own bytes (``raw``'s part when the request holds the record alone, else the
    record serialized again: the checks read the record's main line from them).

    Raises:
        BadFieldError: no record, an unknown encoding, bytes that are not one record, or a
            record past a limit (named, with the value found and the field), or a time out of
            its type's range.
        DeadlineExceededError: ``deadline`` passed while the bytes were decoded.
    """
    source = request.WhichOneof("source")
    if source == "record":
        # The checks' fast proofs read bytes that parse to the record itself.
        exact = sole_record_bytes(raw) if not prefix else None
        serialized = request.record.SerializeToString() if exact is None else exact
        try:
            check_record(request.record, serialized=serialized)
            check_times(request.record, serialized)
        except RecordMalformedError as error:
            raise BadFieldError(prefix + "record", _problem(error)) from None
        return request.record
    if source is None:
        raise BadFieldError(prefix + "record", "the request holds no record: set record or data")
    if request.encoding not in READ_ENCODINGS:
        raise BadFieldError(prefix + "encoding", f"unknown record encoding {request.encoding}")
    try:
        return decode_record(request.data, READ_ENCODINGS[request.encoding], deadline=deadline)
    except RecordMalformedError as error:
        raise BadFieldError(prefix + "data", _problem(error)) from None


#: The first byte of a request that begins with its ``record`` (field 1, length-delimited).
_RECORD_TAG: Final = 0x0A


def sole_record_bytes(raw: bytes) -> bytes | None:
    """The bytes of a request's ``record`` field when the request holds that field alone, once.

    Such a request's record was parsed from exactly these bytes, so the judge can read its
    moves from them (``serialized``) instead of serializing the record again (about 10 µs of
    a 100-ply record's Validate). Any other request gives None: the record as ``data``,
    other fields beside it, or the record field given more than once (protobuf merges the
    occurrences, so no one of them is the record).
    """
    size = len(raw)
    if size < 2 or raw[0] != _RECORD_TAG:
        return None
    # A length of one or two varint bytes (a record under 16 KiB) is read here, in line.
    first = raw[1]
    if first < 0x80:
        length, start = first, 2
    elif size > 2 and raw[2] < 0x80:
        length, start = (first & 0x7F) | raw[2] << 7, 3
    else:
        try:
            length, start = decode_varint(raw, 1, size, "the record's length")
        except WireError:
            return None
    return raw[start:] if start + length == size else None


def _problem(error: RecordMalformedError) -> str:
    """The place and the reason of a decoding error (the request's field names the source)."""
    return ": ".join(part for part in (error.where, error.reason) if part)


def game_name(record: pb.GameRecord) -> str:
    """The record's game as GRN names it, for the log (empty when unknown)."""
    return game_label(record.rules.game, "")


# -- the jobs, one per RPC -----------------------------------------------------------------------


def validate_job(request: bytes, deadline: float | None) -> Answer:
    """Validate: the record's Verdict."""
    record = record_of(_parse(spb.ValidateRequest, request), request, deadline=deadline)
    verdict = validate(record, deadline=deadline, serialized=sole_record_bytes(request))
    word = "valid" if verdict.valid else "invalid"
    return _answer(record, verdict.SerializeToString(), word)


def score_job(request: bytes, deadline: float | None) -> Answer:
    """Score: the rules' result of the record."""
    record = record_of(_parse(spb.ScoreRequest, request), request, deadline=deadline)
    result = score(record, deadline=deadline, serialized=sole_record_bytes(request))
    word = "provisional" if result.provisional else "final"
    return _answer(record, result.SerializeToString(), word)


def adjudicate_job(request: bytes, deadline: float | None) -> Answer:
    """Adjudicate: the ruling on the record's result (with the engine when asked)."""
    parsed = _parse(spb.AdjudicateRequest, request)
    record = record_of(parsed, request, deadline=deadline)
    engine = _engine_request(parsed.engine, deadline) if parsed.HasField("engine") else None
    ruling = adjudicate(record, deadline=deadline, engine=engine)
    word = vpb.Decision.Name(ruling.decision).removeprefix("DECISION_").lower()
    return _answer(record, ruling.SerializeToString(), word)


#: The most search an Adjudicate request may ask for (the call's deadline also bounds it).
MAX_ENGINE_PLAYOUTS: Final = 100_000
MAX_ENGINE_MS: Final = 10_000


def _engine_request(options: spb.EngineOptions, deadline: float | None) -> EngineRequest:
    """The engine's settings of an Adjudicate request, bounded by the limits and the deadline.

    Raises:
        BadFieldError: more playouts or time than allowed, or a confidence out of range.
    """
    if options.playouts > MAX_ENGINE_PLAYOUTS:
        raise BadFieldError("engine.playouts", f"at most {MAX_ENGINE_PLAYOUTS:,} playouts")
    if options.time_ms > MAX_ENGINE_MS:
        raise BadFieldError("engine.time_ms", f"at most {MAX_ENGINE_MS:,} milliseconds")
    if options.confidence and not 0.5 < options.confidence <= 1:
        raise BadFieldError("engine.confidence", "must be above 0.5 and at most 1")
    # with playouts, time only bounds them (the most allowed, and the deadline)
    seconds = (MAX_ENGINE_MS if options.playouts else options.time_ms or 1000) / 1000
    if deadline is not None:  # leave a tenth of what is left for the ruling and the answer
        seconds = max(0.001, min(seconds, 0.9 * (deadline - time.monotonic())))
    limits = (
        Limits(playouts=options.playouts, time=seconds)
        if options.playouts
        else Limits(time=seconds)
    )
    settings = SearchSettings(limits, seed=options.seed)
    return EngineRequest(settings, options.confidence or DEFAULT_CONFIDENCE)


def diff_job(request: bytes, deadline: float | None) -> Answer:
    """Diff: how the right record differs from the left one."""
    parsed = _parse(spb.DiffRequest, request)
    for side in ("left", "right"):
        if not parsed.HasField(side):
            raise BadFieldError(side, f"the request holds no {side} record")
    left = record_of(parsed.left, request, "left.", deadline)
    right = record_of(parsed.right, request, "right.", deadline)
    diff = compare_records(left, right)
    return _answer(left, diff.SerializeToString(), "same" if diff.same else "different")


def convert_job(request: bytes, deadline: float | None) -> Answer:
    """Convert: the record in the target encoding."""
    parsed = _parse(spb.ConvertRequest, request)
    target = WRITE_ENCODINGS.get(parsed.target)
    if target is None:
        raise BadFieldError(
            "target", "choose the encoding to write: RECORD_ENCODING_BINARY, _JSON or _GRN"
        )
    record = record_of(parsed, request, deadline=deadline)
    try:
        data = encode_record(record, target)
    except EncodingError as error:
        raise BadFieldError("target", str(error)) from None
    response = spb.ConvertResponse(data=data, encoding=parsed.target)
    return _answer(record, response.SerializeToString(), target.value)


def legal_moves_job(request: bytes, deadline: float | None) -> Answer:
    """LegalMoves: the seat to move and its legal next decisions after ``ply`` plies."""
    parsed = _parse(spb.LegalMovesRequest, request)
    record = record_of(parsed, request, deadline=deadline)
    plies = len(record.moves)
    ply = parsed.ply if parsed.HasField("ply") else plies
    if ply > plies:
        raise BadFieldError("ply", f"ply {ply} is past the end of the record ({plies} plies)")
    reached = pb.GameRecord(rules=record.rules, seats=record.seats, moves=record.moves[:ply])
    judgement = judge(reached, deadline=deadline)
    response = spb.LegalMovesResponse(ply=judgement.plies)
    if judgement.stopped or judgement.state is None or judgement.identity is None:
        response.error.CopyFrom(judgement.findings[0])
        return _answer(record, response.SerializeToString(), response.error.code)
    state, identity = judgement.state, judgement.identity
    response.to_move = state.to_move
    response.game_over = state.is_over
    response.moves.extend(
        identity.engine.format_move(identity.variant, move) for move in state.legal_moves()
    )
    count = len(response.moves)
    word = "game over" if state.is_over else f"{count} move{'s' * (count != 1)}"
    return _answer(record, response.SerializeToString(), word)


def verify_job(request: bytes, deadline: float | None) -> Answer:
    """Verify: what the record's seal and signatures prove, then its strict replay."""
    parsed = _parse(spb.VerifyRequest, request)
    record = record_of(parsed, request)
    trusted = None
    if parsed.trusted_keys:
        for index, key in enumerate(parsed.trusted_keys):
            if len(key) != KEY_BYTES:
                problem = f"an Ed25519 public key has {KEY_BYTES} bytes, not {len(key)}"
                raise BadFieldError(f"trusted_keys[{index}]", problem)
            weakness = key_weakness(key)
            if weakness is not None:
                raise BadFieldError(f"trusted_keys[{index}]", f"the key is refused: {weakness}")
        trusted = set(parsed.trusted_keys)
    answer = verify(record, trusted, deadline=deadline)
    word = "verified" if answer.verified else "not verified"
    return _answer(record, answer.SerializeToString(), word)


def replay_piece_job(request: bytes, deadline: float | None, start: int, count: int) -> Answer:
    """Replay: the frames of plies ``start + 1`` to ``start + count``.

    A replay that stops (an illegal ply, rules that cannot be judged) ends with a frame whose
    ``error`` holds the finding.
    """
    record = record_of(_parse(spb.ReplayRequest, request), request, deadline=deadline)
    frames: list[bytes] = []
    stop: vpb.Finding | None = None
    try:
        for frame in islice(replay(record, start=start, deadline=deadline), count):
            frames.append(frame.SerializeToString())
    except RulesError as error:
        stop = vpb.Finding(code=error.code, message=str(error))
    except ReplayStoppedError as stopped:
        stop = stopped.finding
    if stop is not None:
        error_frame = vpb.ReplayFrame(ply=stop.ply, seat=stop.seat, move=stop.move, error=stop)
        frames.append(error_frame.SerializeToString())
        word = f"stopped at ply {stop.ply}: {stop.code}"
    legal = len(frames) - (stop is not None)
    more = stop is None and start + legal < len(record.moves)
    if stop is None:
        word = "" if more else "complete"
    return Answer(
        OK, frames=tuple(frames), more=more, game=game_name(record), plies=legal, verdict=word
    )


UnaryJob = Callable[[bytes, float | None], Answer]

#: The unary jobs by RPC name.
UNARY_JOBS: Final[dict[str, UnaryJob]] = {
    "Validate": validate_job,
    "Score": score_job,
    "Adjudicate": adjudicate_job,
    "Diff": diff_job,
    "Convert": convert_job,
    "LegalMoves": legal_moves_job,
    "Verify": verify_job,
}


def run_unary(method: str, request: bytes, deadline: float | None) -> Answer:
    """Run the job of a unary RPC (the worker processes' entry point)."""
    return _guarded(lambda: UNARY_JOBS[method](request, deadline))


def run_replay_piece(request: bytes, deadline: float | None, start: int, count: int) -> Answer:
    """Run one piece of a Replay (the worker processes' entry point)."""
    return _guarded(lambda: replay_piece_job(request, deadline, start, count))


def _guarded(job: Callable[[], Answer]) -> Answer:
    """A job's answer, with a bad field or a passed deadline turned into an answer too."""
    try:
        return job()
    except BadFieldError as bad:
        return Answer(INVALID_ARGUMENT, field=bad.field, problem=bad.problem)
    except DeadlineExceededError as late:
        return Answer(DEADLINE_EXCEEDED, problem=str(late))


class _Message(Protocol):
    """What :func:`_parse` needs of a message class."""

    def ParseFromString(self, serialized: bytes, /) -> int:  # noqa: N802 - protobuf's name
        """Fill the message from bytes."""
        ...


M = TypeVar("M", bound=_Message)


def _parse(kind: type[M], request: bytes) -> M:
    """Parse a serialized request.

    Raises:
        BadFieldError: the bytes are not a request of that kind.
    """
    message = kind()
    try:
        message.ParseFromString(request)
    except DecodeError as error:
        raise BadFieldError("", _undecodable(kind.__name__, str(error))) from None
    return message


def _undecodable(kind: str, error: str) -> str:
    """Why a request could not be parsed, naming the limit when nesting was too deep."""
    if "MaxDepth" in error:  # upb's words: only a record's variations nest so deep
        return (
            f"the {kind} is nested deeper than protobuf decodes (more than 100 nested "
            "messages): its record's variations are deeper than the limit variation-depth "
            f"allows ({DEFAULT_LIMITS.max_variation_depth})"
        )
    return f"the request is not a {kind}: {error}"


def _answer(record: pb.GameRecord, payload: bytes, verdict: str) -> Answer:
    """The answer of a unary job that succeeded."""
    return Answer(OK, payload, game=game_name(record), plies=len(record.moves), verdict=verdict)
