"""The fuzzers' oracles of issue 38: strict JSON, and seals on other tools' files.

- **Strict JSON**: whatever a JSON reader accepts (ProtoJSON, JSON Lines, Abstract Play,
  Ludii's embedded ``gamerec=`` line) gives no key twice in one object; the standard library's
  parser, with a hook on every object, is the independent judge.
- **Foreign seals**: an Abstract Play file or a Ludii trial that reads as one record whose
  seal holds shows exactly what that record's form is: its own parts (all but the embedded
  copy) are what the writer makes of the record.

And the inputs that aim at them: sealed, signed foreign files (seeds), and a mutation that
gives a key of a JSON text a twin.
"""

from __future__ import annotations

import functools
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.recorder.foreign import abstractplay, ludii
from gamerec.recorder.seal import seal_record
from gamerec.recorder.signing import sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.validator.seal_check import check_seal
from tests.sealing import key, public

FOREIGN = Path(__file__).resolve().parents[2] / "fixtures" / "foreign"
_JSON_KEY = re.compile(rb'(?<![\\\w])"([A-Za-z_][\w-]{0,30})"\s*:')
_TWIN_VALUES = (b"1", b'"x"', b"null", b"{}", b"[]", b"true")


# -- strict JSON ---------------------------------------------------------------------------------


class _TwiceError(Exception):
    """A key given twice, met by the standard library's parser."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    if len(keys) != len(set(keys)):
        raise _TwiceError
    return dict(pairs)


def has_key_twice(text: bytes) -> bool:
    """Whether JSON ``text`` gives a key twice in an object (False when it is no JSON)."""
    try:
        json.loads(text, object_pairs_hook=_pairs)
    except _TwiceError:
        return True
    except (ValueError, RecursionError):
        return False
    return False


def json_texts(data: bytes, encoding: Encoding | None) -> list[bytes]:
    """The JSON texts a reader of ``encoding`` parses in ``data`` (none for other encodings)."""
    if encoding in (Encoding.JSON, Encoding.ABSTRACT_PLAY):
        return [data]
    if encoding is Encoding.JSONL:
        return [line for line in data.split(b"\n") if line.strip()]
    if encoding is Encoding.LUDII:
        prefix = ludii.EMBEDDED_PREFIX.encode()
        return [line[len(prefix) :] for line in data.split(b"\n") if line.startswith(prefix)]
    return []


def assert_no_key_twice(data: bytes, encoding: Encoding | None) -> None:
    """What decoded gives no key twice (the readers refuse such text, issue 38)."""
    for text in json_texts(data, encoding):
        assert not has_key_twice(text), "a JSON reader accepted a key given twice"


def twin_a_key(data: bytes, choose: Callable[[int], int]) -> bytes:
    """``data`` with a twin of one of its JSON keys inserted before it (same object)."""
    keys = list(_JSON_KEY.finditer(data))
    if not keys:
        return data
    found = keys[choose(len(keys))]
    twin = found.group(0) + _TWIN_VALUES[choose(len(_TWIN_VALUES))] + b","
    return data[: found.start()] + twin + data[found.start() :]


# -- seals on other tools' files -----------------------------------------------------------------


@functools.cache
def sealed_foreign_inputs(encoding: Encoding) -> tuple[bytes, ...]:
    """The foreign fixtures of ``encoding``, sealed with every seat's key and signed by all."""
    folder, pattern = {
        Encoding.ABSTRACT_PLAY: ("abstractplay", "*.json"),
        Encoding.LUDII: ("ludii", "*.trl"),
    }.get(encoding, ("", ""))
    if not folder:
        return ()
    found = []
    for path in sorted((FOREIGN / folder).glob(pattern)):
        for record in read_records(path):
            seats = len(record.seats)
            sealed = seal_record(record, [public(n) for n in range(1, seats + 1)], public(0))
            for signer in range(seats + 1):
                sealed = sign_record(sealed, key(signer), signer)
            found.append(encode_record(sealed, encoding))
    return tuple(found)


def assert_a_sealed_file_shows_its_record(
    data: bytes, encoding: Encoding | None, records: list[pb.GameRecord]
) -> None:
    """A foreign file whose one record's seal holds shows exactly that record's form."""
    if encoding not in (Encoding.ABSTRACT_PLAY, Encoding.LUDII) or len(records) != 1:
        return
    (record,) = records
    if not record.HasField("seal") or check_seal(record).status != spb.SEAL_STATUS_HOLDS:
        return
    if encoding is Encoding.LUDII:
        shown = _trial_lines(data.decode("utf-8-sig"))
        assert shown == _trial_lines(ludii.trial_text(record)), "a sealed trial shows another game"
        return
    value = json.loads(data)
    if not isinstance(value, dict):
        return  # an array of one record
    stream = io.BytesIO()
    abstractplay.write_abstract_play([record], stream)
    written = json.loads(stream.getvalue())
    for each in (value, written):
        each["header"].pop(abstractplay.EMBEDDED, None)
    assert value == written, "a sealed Abstract Play file shows another game"


def _trial_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if not line.startswith(ludii.EMBEDDED_PREFIX)]
