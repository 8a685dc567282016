"""Words of messages: a count with its noun, singular or plural (``1 ply``, ``2 plies``).

Imports nothing, so any module can use it.
"""

from __future__ import annotations

#: Plurals that are not the noun with ``s``.
_IRREGULAR = {"ply": "plies", "was": "were", "is": "are"}


def plural(count: int, noun: str, many: str = "") -> str:
    """``1 record``, ``2 records``, ``1,000 plies``: the count (with thousands commas) and noun.

    ``many`` is the plural when it is neither in the built-in list nor the noun with ``s``.
    """
    return f"{count:,} {noun_for(count, noun, many)}"


def noun_for(count: int, noun: str, many: str = "") -> str:
    """The noun alone, singular for a count of 1, else plural (``plies``, ``records``)."""
    if count == 1:
        return noun
    return many or _IRREGULAR.get(noun) or noun + "s"
