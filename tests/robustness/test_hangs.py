"""Hang detectors: adversarial inputs that once took super-linear time, each under a generous
time bound (not a performance test: a linear decoder needs a small fraction of the bound, the
quadratic ones needed many times it on a quiet machine).

Regressions kept here (found by the fuzzers and by probing long tokens):

- GRN comments full of ``[%clk `` with no ``]``: the command pattern scanned to the end of the
  comment from every ``[%`` (quadratic; 240 KB took over a minute);
- writing a comment with long runs of inner white space: the pattern ``\\s+\\Z`` backtracked
  from every white-space character (quadratic; 40 K characters took 5 s);
- GRN tokens longer than a read chunk (a move, a tag value, a comment, an unclosed tag): the
  lexer copied and rescanned the whole token for every chunk (quadratic; 64 MB took a minute).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import orjson
import pytest

from gamerec.recorder.codecs import Encoding, read_records
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.grn_lexer import Places, decode_record_text, scan, split_records
from gamerec.recorder.grn_writer import format_grn
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb

#: CPU seconds any one of these inputs may take. CPU time of this process, not the clock on
#: the wall: other work on a busy machine does not count against it.
BOUND = 10.0


@contextmanager
def bounded(seconds: float = BOUND) -> Iterator[None]:
    started = time.process_time()
    yield
    elapsed = time.process_time() - started
    assert elapsed < seconds, f"took {elapsed:.1f} CPU s (bound {seconds} s): super-linear?"


def decode(data: bytes, encoding: Encoding) -> int:
    """Records decoded, or -1 when the input is refused (cleanly)."""
    try:
        return len(list(read_records(io.BytesIO(data), encoding, name="hang")))
    except RecordMalformedError:
        return -1


MB = 1 << 20

#: Long tokens, lexed from 64-byte chunks: a lexer that copies or rescans a token per chunk
#: makes tens of thousands of passes over megabytes here; a linear one makes a few.
LONG_TOKENS: dict[str, bytes] = {
    "a move token": b"a" + b"1" * (2 * MB),
    "a token of commas": b"a," * MB,
    "a tag value": b'[Event "' + b"e" * (2 * MB) + b'"]\n',
    "an unclosed tag": b'[Event "' + b"e" * (2 * MB),
    "a comment": b"{" + b"c" * (2 * MB) + b"}",
    "a comment of escapes": b"{" + b"\\}" * MB + b"}",
    "an unclosed comment": b"{" + b"c" * (2 * MB),
    "white space": b" " * (2 * MB) + b"a1",
}


@pytest.mark.parametrize("name", sorted(LONG_TOKENS))
def test_a_long_token_is_lexed_in_linear_time_whatever_the_chunks(name: str) -> None:
    stream = io.BytesIO(LONG_TOKENS[name])
    with bounded():
        try:
            for raw in split_records(stream, "hang.grn", 1 << 30, chunk_bytes=64):
                place = ("hang.grn", raw.line, raw.column, raw.byte_offset, raw.offset)
                text = decode_record_text(raw.data, place)
                for _ in scan(Places(text, "hang.grn", raw.line, raw.column, raw.offset)):
                    pass
        except RecordMalformedError:
            pass  # an unclosed tag or comment: refused, in time


GRN_INPUTS: dict[str, Callable[[], bytes]] = {
    "unclosed commands in a comment": lambda: (
        b'[Game "ONE"]\n\n1. a1 {' + b"[%clk " * 100_000 + b"}"
    ),
    "a 16 MB unclosed tag": lambda: b'[Game "ONE"]\n[Event "' + b"e" * (16 * MB),
    "50,000 free tags": lambda: (
        b'[Game "ONE"]\n' + b"".join(b'[X%d "v"]\n' % i for i in range(50_000))
    ),
    "200,000 plies": lambda: b'[Game "ONE"]\n[Players "2"]\n\n' + b"a1 " * 200_000,
    "100,000 empty variations": lambda: b'[Game "ONE"]\n\n1. a1 ' + b"() " * 100_000,
    "a million opening parentheses": lambda: b'[Game "ONE"]\n\n1. a1 ' + b"(1. a2 " * 1_000_000,
}


@pytest.mark.parametrize("name", sorted(GRN_INPUTS))
def test_adversarial_grn_is_read_or_refused_in_bounded_time(name: str) -> None:
    data = GRN_INPUTS[name]()
    with bounded():
        decode(data, Encoding.GRN)


def test_writing_a_comment_with_long_inner_white_space_is_linear() -> None:
    record = pb.GameRecord(comment="a" + " \t" * 200_000 + "b")
    record.rules.game = pb.GAME_ONE
    record.moves.add().one.path.add(ring=1, index=1)
    record.moves[0].comment = "x" + " " * 400_000 + "y"
    with bounded():
        text = format_grn(record)
    assert decode(text.encode(), Encoding.GRN) == 1


def many_moves_pb(count: int) -> bytes:
    move = b"\x2a\x02\x3a\x00"  # GameRecord.moves: Move(pass={})
    return b"\x12\x02\x08\x01" + move * count


BINARY_INPUTS: dict[str, tuple[Callable[[], bytes], Encoding]] = {
    "a million plies (.pb)": (lambda: many_moves_pb(1_000_000), Encoding.PB),
    "a million plies (.pbs)": (
        lambda: encode_varint(4_000_004) + many_moves_pb(1_000_000),
        Encoding.PBS,
    ),
    "500,000 plies (.json)": (
        lambda: orjson.dumps({"moves": [{"pass": {}}] * 500_000}),
        Encoding.JSON,
    ),
    "variations 100,000 deep (.json)": (
        lambda: b'{"moves":[' + b'{"variations":[{"moves":[' * 100_000 + b"]}]}" * 100_000 + b"]}",
        Encoding.JSONL,
    ),
    "300,000 variations of one move (.json)": (
        lambda: orjson.dumps({"moves": [{"pass": {}, "variations": [{"moves": []}] * 300_000}]}),
        Encoding.JSON,
    ),
}


@pytest.mark.parametrize("name", sorted(BINARY_INPUTS))
def test_adversarial_binary_and_json_are_refused_in_bounded_time(name: str) -> None:
    make, encoding = BINARY_INPUTS[name]
    data = make()
    with bounded():
        assert decode(data, encoding) == -1
