"""The validator on mutated valid records: a verdict for every record, and answers that agree.

Seeds are the fixtures and generated complete games; ``fuzzing.RecordMutator`` changes them at
the message level (plies dropped, repeated, swapped, spliced from other records and games,
actions and coordinates changed, variants, games, seats and claims changed, a variation made
the main line). ``fuzzing.judge_checked`` then asserts the invariants: valid means no finding
and every ply replayed, the first finding's ply is within range and follows the last ply
replayed, and the explaining replay, ``score`` and ``adjudicate`` agree with ``validate``.
Mutated records also pass through every encoding unchanged before they are judged.

150 examples per test by default; GAMEREC_FUZZ_EXAMPLES sets more.
"""

from __future__ import annotations

import io
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.recorder.encoding import OWN_ENCODINGS
from gamerec.recorder.errors import EncodingError, LimitExceededError
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from tests.robustness.fuzzing import RecordMutator, judge_checked, seed_records

FUZZ = settings(
    max_examples=int(os.environ.get("GAMEREC_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@st.composite
def mutated_records(draw: st.DrawFn) -> pb.GameRecord:
    """A seed record after one to five message-level mutations."""
    seeds = seed_records()

    def choose(count: int) -> int:
        return draw(st.integers(0, count - 1)) if count > 1 else 0

    seed = seeds[choose(len(seeds))]
    return RecordMutator(choose, seeds).mutated(seed, draw(st.integers(1, 5)))


def test_every_seed_record_is_judged_consistently() -> None:
    verdicts = [judge_checked(record) for record in seed_records()]
    assert any(verdict.valid for verdict in verdicts)
    assert any(not verdict.valid for verdict in verdicts)


@FUZZ
@given(mutated_records())
def test_a_mutated_record_gets_a_consistent_verdict(record: pb.GameRecord) -> None:
    judge_checked(record)


@FUZZ
@given(mutated_records(), st.sampled_from(list(OWN_ENCODINGS)))
def test_a_mutated_record_survives_its_encoding_and_is_judged_the_same(
    record: pb.GameRecord, encoding: Encoding
) -> None:
    try:
        data = encode_record(record, encoding)
    except EncodingError:
        return  # GRN cannot hold a move of another game, or an unknown game
    (decoded,) = read_records(io.BytesIO(data), encoding)
    assert decoded == record
    assert judge_checked(decoded) == validate(record)


@FUZZ
@given(mutated_records(), st.integers(0, 80))
def test_validate_refuses_a_record_over_the_plies_limit_before_replaying_it(
    record: pb.GameRecord, plies: int
) -> None:
    limits = Limits(max_plies=plies)
    if len(record.moves) <= plies:
        assert validate(record, limits=limits) == validate(record)
        return
    with pytest.raises(LimitExceededError) as caught:
        validate(record, limits=limits)
    assert (caught.value.limit, caught.value.value, caught.value.maximum) == (
        "plies",
        len(record.moves),
        plies,
    )
