"""No input crashes a decoder: whatever the bytes, a decoder returns records or raises
RecordMalformedError (LimitExceededError naming its limit), never a bare DecodeError,
UnicodeDecodeError, KeyError or RecursionError; and what it returns is within the limits and
survives a write and a read (``fuzzing.decode_checked``).

Inputs: any bytes and text, GRN-like and JSON-like text, records drawn by ``tests.strategies``
and the seed records (fixtures and generated games) in every encoding, damaged byte by byte
and spliced together. Records that still decode are validated too (``fuzzing.judge_checked``).

Each fuzzer runs 150 examples by default; set GAMEREC_FUZZ_EXAMPLES for a long run, e.g.
``GAMEREC_FUZZ_EXAMPLES=20000 pytest tests/robustness/test_fuzz_decoders.py`` (``make fuzz``
runs them longer, next to the coverage-guided fuzzers).
"""

from __future__ import annotations

import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import Encoding, encode_record
from gamerec.recorder.encoding import OWN_ENCODINGS
from gamerec.recorder.limits import Limits
from tests.robustness.fuzzing import decode_checked, judge_checked, mutate_bytes, seed_inputs
from tests.robustness.trust_oracles import (
    has_key_twice,
    json_texts,
    sealed_foreign_inputs,
    twin_a_key,
)
from tests.strategies import records

FUZZ = settings(
    max_examples=int(os.environ.get("GAMEREC_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ENCODINGS = [None, *Encoding]

GRN_ALPHABET = (
    '[]{}()"\\ \n\t.,!?$*-x%:0123456789abcmoiwGameOUST resign pass swap clk ts seat\ufeff\xe9'
)
grn_like = st.text(alphabet=GRN_ALPHABET, max_size=200)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "rules",
                    "game",
                    "moves",
                    "one",
                    "path",
                    "ring",
                    "seats",
                    "rating",
                    "metadata",
                    "extraTags",
                    "startTime",
                    "clock",
                    "result",
                    "scores",
                    "values",
                    "glyph",
                    "variations",
                    "x",
                ]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=20,
)
#: Small limits, so that fuzzed inputs reach every limit check too.
SMALL = Limits(
    max_record_bytes=2000,
    max_plies=12,
    max_moves=20,
    max_variation_depth=2,
    max_tags=2,
    max_tag_chars=30,
    max_seats=3,
    max_comment_chars=20,
)


@FUZZ
@given(st.binary(max_size=400), st.sampled_from(ENCODINGS))
def test_any_bytes_are_records_or_a_malformed_error(data: bytes, encoding: Encoding | None) -> None:
    decode_checked(data, encoding)


@FUZZ
@given(st.text(max_size=300), st.sampled_from(ENCODINGS))
def test_any_text_is_records_or_a_malformed_error(text: str, encoding: Encoding | None) -> None:
    decode_checked(text.encode("utf-8", "surrogatepass"), encoding)


@FUZZ
@given(grn_like, st.booleans())
def test_grn_like_text_is_records_or_a_malformed_error(text: str, small: bool) -> None:
    decode_checked(text.encode("utf-8"), Encoding.GRN, SMALL if small else Limits())


@FUZZ
@given(json_values, st.sampled_from([Encoding.JSON, Encoding.JSONL, None]), st.booleans())
def test_any_json_value_is_a_record_or_a_malformed_error(
    value: object, encoding: Encoding | None, small: bool
) -> None:
    decode_checked(json.dumps(value).encode(), encoding, SMALL if small else Limits())


@st.composite
def damaged(draw: st.DrawFn) -> tuple[bytes, Encoding]:
    """A valid encoding of a drawn record, then cut, or with a byte changed, added or removed."""
    encoding = draw(st.sampled_from(list(OWN_ENCODINGS)))
    data = bytearray(encode_record(draw(records(depth=1)), encoding))
    kind = draw(st.sampled_from(["cut", "change", "insert", "delete"]))
    at = draw(st.integers(0, max(len(data) - 1, 0)))
    if kind == "cut":
        del data[at:]
    elif kind == "change" and data:
        data[at] = draw(st.integers(0, 255))
    elif kind == "insert":
        data.insert(at, draw(st.integers(0, 255)))
    elif data:
        del data[at]
    return bytes(data), encoding


@FUZZ
@given(damaged())
def test_damaged_records_are_records_or_a_malformed_error(case: tuple[bytes, Encoding]) -> None:
    data, encoding = case
    decode_checked(data, encoding)
    decode_checked(data, None)


@st.composite
def mutated_seeds(draw: st.DrawFn) -> tuple[bytes, Encoding]:
    """A seed record (fixture or generated game) in some encoding, damaged in 1 to 4 places
    and maybe spliced with another seed (another tool's format: its hand-made files too)."""
    encoding = draw(st.sampled_from(list(Encoding)))
    return _damaged(draw, seed_inputs(encoding), 4), encoding


def _damaged(draw: st.DrawFn, seeds: tuple[bytes, ...], most: int) -> bytes:
    """One of ``seeds`` damaged in 1 to ``most`` places, maybe spliced with another."""
    data = seeds[draw(st.integers(0, len(seeds) - 1))]

    def choose(count: int) -> int:
        return draw(st.integers(0, count - 1)) if count > 1 else 0

    return mutate_bytes(data, choose, seeds, draw(st.integers(1, most)))


@FUZZ
@given(mutated_seeds(), st.booleans())
def test_mutated_seed_records_decode_or_fail_cleanly_and_what_decodes_is_judged(
    case: tuple[bytes, Encoding], sniff: bool
) -> None:
    data, encoding = case
    for record in decode_checked(data, None if sniff else encoding):
        judge_checked(record)


@FUZZ
@given(mutated_seeds())
def test_mutated_seed_records_under_small_limits(case: tuple[bytes, Encoding]) -> None:
    data, encoding = case
    decode_checked(data, encoding, SMALL)


# -- other tools' formats --------------------------------------------------------------------

FOREIGN = [Encoding.ABSTRACT_PLAY, Encoding.LUDII]
#: JSON shaped like Abstract Play's records: their keys, labels, specials and numbers.
ap_like = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 2**40)
    | st.sampled_from(["Oust", "hex-6", "size-8 hex", "square-11", "a1", "g7,g8", "pass", "z"])
    | st.sampled_from(["resign", "timeout", "2024-01-01T00:00:00.000Z", "#board", "1970"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "header", "game", "name", "variants", "site", "gameid", "players", "result",
                    "score", "userid", "moves", "move", "sequence", "date-start", "pie-invoked",
                    "pied", "gamerec", "event", "round", "unrated",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=25,
)  # fmt: skip


@FUZZ
@given(ap_like, st.sampled_from([Encoding.ABSTRACT_PLAY, Encoding.JSON, None]), st.booleans())
def test_any_abstract_play_like_json_is_a_record_or_a_malformed_error(
    value: object, encoding: Encoding | None, small: bool
) -> None:
    decode_checked(json.dumps(value).encode(), encoding, SMALL if small else Limits())
    decode_checked(json.dumps([value, value]).encode(), encoding, SMALL if small else Limits())


trial_like = st.lists(
    st.sampled_from(
        [
            "game=/lud/board/war/replacement/eliminate/all/Oust.lud",
            "game=Oust",
            "START GAME OPTIONS",
            "Board Size/5x5",
            "END GAME OPTIONS",
            "RNG internal state=1,2",
            "Move=[Move:mover=1,from=3,to=3,actions=[Add:type=Cell,to=3,what=1,decision=true]]",
            "Move=[Move:mover=2,actions=[Pass:decision=true,forced=true]]",
            "Move=[Move:mover=1,to=9,actions=[Add:to=9,decision=true],[Remove:to=3]]",
            "Move=[Move:mover=2,actions=[[[decision=true]",
            "winner=1",
            "endtype=MoveLimit",
            "rankings=0.0,1.0,2.0",
            "numInitialPlacementMoves=0",
            "LUDII_VERSION=1.3.12",
            'gamerec={"moves": []}',
        ]
    )
    | st.text(max_size=30),
    max_size=12,
)


@FUZZ
@given(trial_like, st.sampled_from([Encoding.LUDII, None]), st.booleans())
def test_any_trial_like_text_is_a_record_or_a_malformed_error(
    lines: list[str], encoding: Encoding | None, crlf: bool
) -> None:
    text = ("\r\n" if crlf else "\n").join(lines)
    decode_checked(text.encode("utf-8", "surrogatepass"), encoding)


# -- issue 38: keys given twice, seals on other tools' files ------------------------------------


@st.composite
def twinned_seeds(draw: st.DrawFn) -> tuple[bytes, Encoding]:
    """A seed in a JSON-reading encoding (sealed foreign files too) with a key given a twin."""
    encoding = draw(
        st.sampled_from([Encoding.JSON, Encoding.JSONL, Encoding.ABSTRACT_PLAY, Encoding.LUDII])
    )
    seeds = seed_inputs(encoding)
    data = seeds[draw(st.integers(0, len(seeds) - 1))]
    return twin_a_key(data, lambda count: draw(st.integers(0, count - 1))), encoding


@FUZZ
@given(twinned_seeds(), st.booleans())
def test_a_key_given_twice_is_refused_by_every_json_reader(
    case: tuple[bytes, Encoding], sniff: bool
) -> None:
    data, encoding = case
    records = decode_checked(data, None if sniff else encoding)
    if any(has_key_twice(text) for text in json_texts(data, encoding)):
        assert not records


@st.composite
def damaged_sealed_foreign_files(draw: st.DrawFn) -> tuple[bytes, Encoding]:
    """A sealed, signed Abstract Play file or Ludii trial, damaged in 1 to 3 places."""
    encoding = draw(st.sampled_from(FOREIGN))
    return _damaged(draw, sealed_foreign_inputs(encoding), 3), encoding


@FUZZ
@given(damaged_sealed_foreign_files())
def test_a_damaged_sealed_foreign_file_is_refused_or_shows_its_sealed_record(
    case: tuple[bytes, Encoding],
) -> None:
    data, encoding = case  # decode_checked holds what a file whose seal holds may show
    for record in decode_checked(data, encoding):
        judge_checked(record)
