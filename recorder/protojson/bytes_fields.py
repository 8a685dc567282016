"""A bytes field's ProtoJSON text to its bytes, read exactly as ``json_format`` reads it.

A sealed record holds a head for every ply (``seal.plies[i].head``) and its keys as bytes, which
ProtoJSON writes in base64. The fast reading path (``fast_read``) converts them here with
``json_format``'s own expression (padding added, the URL-safe alphabet read), so that a sealed
record is read as fast as the record it seals; any value that expression refuses raises, and
the fast path, which gives up on any exception, leaves it to ``json_format`` to word the error.

Imports: the standard library only.
"""

from __future__ import annotations

import binascii
from typing import Any, Final


class UnreadableBytesError(ValueError):
    """A value ``json_format`` would read otherwise, or refuse: not the fast path's to judge."""


def bytes_of(value: Any) -> bytes:
    """The bytes of a bytes field's JSON value, as ``json_format`` decodes it.

    Raises:
        UnreadableBytesError: the value is not a string, or not base64 that decodes.
    """
    if type(value) is not str:
        raise UnreadableBytesError
    encoded = value.encode("utf-8")
    # base64.urlsafe_b64decode(padded), unrolled: the URL-safe alphabet's two characters
    # read as the standard ones, then binascii's decoder as b64decode calls it.
    padded = encoded + b"=" * (4 - len(encoded) % 4)
    try:
        return binascii.a2b_base64(padded.translate(_URL_SAFE), strict_mode=False)
    except (binascii.Error, ValueError):
        raise UnreadableBytesError from None


#: The URL-safe alphabet's ``-`` and ``_`` as the standard ``+`` and ``/`` (base64's own table).
_URL_SAFE: Final = bytes.maketrans(b"-_", b"+/")


def bytes_list_of(values: Any) -> list[bytes]:
    """A repeated bytes field's JSON list, each value as :func:`bytes_of` reads it.

    Raises:
        UnreadableBytesError: not a list, or a value :func:`bytes_of` refuses.
    """
    if type(values) is not list:
        raise UnreadableBytesError
    return [bytes_of(value) for value in values]
