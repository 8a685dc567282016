r"""Strict JSON reading: a key given twice in one object is refused, never overridden.

orjson, like most JSON parsers, keeps the last value of a key given twice, while other readers
keep the first: the same bytes would show two different records, and a seal would hold for
the one gamerec read. Every JSON reader of gamerec (ProtoJSON, JSON Lines, Abstract Play,
Ludii's embedded record, the foreign codecs' kept tags) reads through :func:`loads`, which
refuses such text (docs/encodings.md, "Strict JSON").

The check costs almost nothing on the way most files are read: in JSON a colon is either the
separator of a key or a character of a string, so text whose every object has distinct keys
holds exactly as many colons as orjson writes back for what it read (strings are kept whole,
and orjson never escapes a colon). A key given twice loses its entry, colon included, so the
written text has fewer. Only a colon written as the escape ``\u003a`` breaks the count; text
holding one is checked by the exact, slower scan, which also finds the path of the key for
the message.
"""

from __future__ import annotations

import json
from typing import Any, Final

import orjson

#: Bytes without which the colon count cannot be off: the start of a colon's escape
#: (``\u003a`` or ``\u003A``; one search finds both, and the few other escapes it also
#: finds only send the text to the exact scan).
_COLON_ESCAPE_START: Final = b"\\u003"


def colons_countable(raw: bytes) -> bool:
    """Whether counting the colons of ``raw`` can prove its keys distinct: no colon's escape.

    A backslash is looked for first, at memchr speed: most texts hold none, and so no escape.
    """
    return b"\\" not in raw or _COLON_ESCAPE_START not in raw


class DuplicateKeyError(ValueError):
    """A key given twice in one JSON object.

    Attributes:
        path: where the object is, as a JSON path (``metadata``, ``moves[3]``; ``""`` for the
            top-level object).
        key: the key given twice.
    """

    def __init__(self, path: str, key: str) -> None:
        self.path = path
        self.key = key
        field = f"{path}.{key}" if path else key
        reason = "is given twice (a JSON object's keys are unique)"
        super().__init__(f"the key {_shown(field)} {reason}")


def _shown(text: str) -> str:
    return repr(text if len(text) <= 80 else text[:77] + "...")


def loads(data: bytes | str) -> Any:
    """The JSON value of ``data``, refusing an object that gives a key twice.

    Raises:
        orjson.JSONDecodeError: not JSON.
        DuplicateKeyError: a key given twice, with its path.
    """
    value = orjson.loads(data)
    if isinstance(value, dict | list):
        check_unique_keys(data, value)
    return value


def check_unique_keys(data: bytes | str, value: Any) -> None:
    """Refuse ``data`` (which orjson read as ``value``) when an object in it gives a key twice.

    Raises:
        DuplicateKeyError: a key given twice, with its path.
    """
    raw = data.encode() if isinstance(data, str) else data
    if colons_countable(raw):
        try:
            if raw.count(b":") == orjson.dumps(value).count(b":"):
                return
        except orjson.JSONEncodeError:  # nested deeper than orjson writes: scan it
            pass
    _find_duplicate(raw)


class _Found:
    """A duplicate met while the exact scan builds the value, carried up to the top."""

    __slots__ = ("key", "path")

    def __init__(self, key: str) -> None:
        self.key = key
        self.path: list[str | int] = []


def _marker_in(value: Any) -> _Found | None:
    """The marker inside ``value`` (a list nesting kept), its list indices added to its path."""
    if isinstance(value, _Found):
        return value
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _marker_in(item)
            if found is not None:
                found.path.insert(0, index)
                return found
    return None


def _pairs(pairs: list[tuple[str, Any]]) -> Any:
    seen: set[str] = set()
    for key, value in pairs:
        found = _marker_in(value)
        if found is not None:
            found.path.insert(0, key)
            return found
        if key in seen:
            return _Found(key)
        seen.add(key)
    return dict(pairs)


def _find_duplicate(raw: bytes) -> None:
    """The exact scan (the standard library's parser, with a hook on every object's pairs)."""
    try:
        value = json.loads(raw, object_pairs_hook=_pairs)
    except (ValueError, RecursionError):  # orjson read it: nothing more to find here
        return
    found = _marker_in(value)
    if found is not None:
        path = ""
        for step in found.path:
            path += f"[{step}]" if isinstance(step, int) else (f".{step}" if path else step)
        raise DuplicateKeyError(path, found.key)
