"""Base64 texts read as the base64 module reads them, through binascii's decoder alone.

A sealed record holds a head for every ply, so its readers read base64 through binascii
directly: ``base64_text.canonical_bytes`` (seals' canonical texts, in GRN and ProtoJSON) and
``protojson.bytes_fields.bytes_of`` (json_format's own expression for any bytes field). Both
must give what the base64 module gives, and refuse what it refuses, for any text.
"""

from __future__ import annotations

import base64
import binascii

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.base64_text import canonical_bytes
from gamerec.recorder.protojson.bytes_fields import UnreadableBytesError, bytes_of

#: Texts near base64: encodings of drawn bytes (standard and URL-safe), cut or padded or with a
#: character changed, and texts of base64's characters and a few others.
NEAR_BASE64 = st.one_of(
    st.binary(max_size=70).map(lambda data: base64.b64encode(data).decode()),
    st.binary(max_size=70).map(lambda data: base64.urlsafe_b64encode(data).decode()),
    st.tuples(
        st.binary(min_size=1, max_size=40), st.integers(0, 60), st.sampled_from("AB+/-_=!é ")
    ).map(lambda drawn: _changed(base64.b64encode(drawn[0]).decode(), drawn[1], drawn[2])),
    st.text(alphabet="ABQZaz09+/-_= \n\u00e9", max_size=16),
)


def _changed(text: str, index: int, character: str) -> str:
    """``text`` with one character changed, added or (``=``) the padding cut."""
    if character == "=":
        return text.rstrip("=")
    index %= len(text) + 1
    return text[:index] + character + text[index + 1 :]


def _old_canonical(text: str) -> bytes | None:
    """The definition as the readers wrote it with the base64 module."""
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None
    return data if base64.b64encode(data).decode() == text else None


def _json_format_bytes(text: str) -> bytes | None:
    """json_format's reading of a bytes field's text (None: it refuses the text)."""
    encoded = text.encode("utf-8")
    try:
        return base64.urlsafe_b64decode(encoded + b"=" * (4 - len(encoded) % 4))
    except (binascii.Error, ValueError):
        return None


@settings(max_examples=1000, deadline=None)
@given(NEAR_BASE64)
def test_a_canonical_text_reads_as_the_base64_module_reads_it(text: str) -> None:
    assert canonical_bytes(text) == _old_canonical(text)


@settings(max_examples=1000, deadline=None)
@given(NEAR_BASE64)
def test_a_bytes_field_reads_as_json_format_reads_it(text: str) -> None:
    expected = _json_format_bytes(text)
    if expected is None:
        with pytest.raises(UnreadableBytesError):
            bytes_of(text)
    else:
        assert bytes_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("QQ==", b"A"), ("QR==", None), ("QQ", None), ("", b""), ("Q\u00e9==", None), ("-_-_", None)],
)
def test_canonical_texts_and_near_misses(text: str, expected: bytes | None) -> None:
    assert canonical_bytes(text) == expected
