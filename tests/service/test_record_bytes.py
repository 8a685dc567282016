"""The jobs hand the judge the record's own bytes when the request is the record alone.

The judge reads a record's moves from the bytes it was parsed from when it has them
(``serialized``), instead of serializing the record again. A request whose only field is
``record``, given once, carries exactly those bytes; any other request must not pass a slice
that is not the whole record (protobuf merges a message field given twice).
"""

from __future__ import annotations

from typing import Any

import pytest

from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator import judge
from gamerec.validator.generation import generate
from gamerec.validator.service import work


def test_a_request_of_the_record_alone_gives_the_records_own_bytes(
    sowing_game: pb.GameRecord,
) -> None:
    short = next(generate("ONE", {"Players": "2"}, 1, 3))
    # lengths of one, two and three varint bytes
    for record in (pb.GameRecord(), short, sowing_game):
        request = spb.ValidateRequest(record=record).SerializeToString()
        assert work.sole_record_bytes(request) == record.SerializeToString()


def test_a_length_padded_with_continuation_bytes_is_read_as_protobuf_reads_it() -> None:
    record = next(generate("ONE", {"Players": "2"}, 1, 3))
    data = record.SerializeToString()
    assert 128 <= len(data) < 16384
    low, high = (len(data) & 0x7F) | 0x80, len(data) >> 7
    for length in (bytes((low, high)), bytes((low, high | 0x80, 0x00))):
        request = b"\x0a" + length + data
        assert spb.ValidateRequest.FromString(request).record == record
        assert work.sole_record_bytes(request) == data


def test_the_validate_and_score_jobs_pass_those_bytes_to_the_judge(
    sowing_game: pb.GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[bytes | None] = []

    def spying(real: Any) -> Any:
        def call(record: pb.GameRecord, **options: Any) -> Any:
            seen.append(options.get("serialized"))
            return real(record, **options)

        return call

    monkeypatch.setattr(work, "validate", spying(judge.validate))
    monkeypatch.setattr(work, "score", spying(judge.score))
    record_bytes = sowing_game.SerializeToString()
    validated = work.validate_job(spb.ValidateRequest(record=sowing_game).SerializeToString(), None)
    scored = work.score_job(spb.ScoreRequest(record=sowing_game).SerializeToString(), None)
    assert seen == [record_bytes, record_bytes]
    assert vpb.Verdict.FromString(validated.payload) == judge.validate(sowing_game)
    assert vpb.ComputedResult.FromString(scored.payload) == judge.score(sowing_game)


def test_a_record_given_twice_is_judged_as_protobuf_merges_it(sowing_game: pb.GameRecord) -> None:
    half = len(sowing_game.moves) // 2
    first = pb.GameRecord()
    first.CopyFrom(sowing_game)
    del first.moves[half:]
    second = pb.GameRecord(moves=sowing_game.moves[half:])
    request = (
        spb.ValidateRequest(record=first).SerializeToString()
        + spb.ValidateRequest(record=second).SerializeToString()
    )
    assert spb.ValidateRequest.FromString(request).record == sowing_game
    assert work.sole_record_bytes(request) is None
    answer = work.validate_job(request, None)
    assert answer.plies == len(sowing_game.moves)
    assert vpb.Verdict.FromString(answer.payload) == judge.validate(sowing_game)
    # Judged from either occurrence's bytes alone, the same record would be another game.
    assert judge.validate(sowing_game, serialized=second.SerializeToString()) != (
        judge.validate(sowing_game)
    )


def test_any_other_request_gives_no_bytes(sowing_game: pb.GameRecord) -> None:
    record_alone = spb.ValidateRequest(record=sowing_game).SerializeToString()
    others = [
        b"",
        spb.ValidateRequest().SerializeToString(),
        spb.ValidateRequest(data=b"[Game ONE]").SerializeToString(),
        spb.ValidateRequest(
            record=sowing_game, encoding=spb.RECORD_ENCODING_BINARY
        ).SerializeToString(),
        record_alone + b"\x18\x01",  # another field after the record
        record_alone[:-1],  # cut short: the length says more than there is
        b"\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",  # no varint
    ]
    for request in others:
        assert work.sole_record_bytes(request) is None, request[:12]
