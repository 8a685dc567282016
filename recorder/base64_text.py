"""Bytes written as base64 text as seals write them: the one canonical text of the bytes.

A seal's heads, keys and signatures are bytes, which GRN and ProtoJSON write in standard,
padded base64 with zero pad bits: the one text ``base64.b64encode`` makes of them, so that a
sealed file has one text (docs/seals.md). :func:`canonical_bytes` reads such a text with
binascii's strict decoder and checks it against the encoder, without the base64 module's
layers: a sealed record has a head for every ply.

Imports: the standard library only.
"""

from __future__ import annotations

import binascii


def canonical_bytes(text: str) -> bytes | None:
    """The bytes whose canonical base64 is ``text``; None for any other text.

    None: not base64 (``base64.b64decode(text, validate=True)`` refuses it), or base64 that
    ``b64encode`` does not write so (pad bits set), or not ASCII.
    """
    try:
        data = binascii.a2b_base64(text, strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    return data if binascii.b2a_base64(data, newline=False) == text.encode() else None
