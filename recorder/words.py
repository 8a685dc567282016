"""Words of messages: a count with its noun (``1 ply``, ``2 plies``), a "did you mean" hint.

Imports nothing, so any module can use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

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


def did_you_mean(word: str, choices: Iterable[str], *, quoted: bool = False) -> str:
    """``"; did you mean LANDING_OCCUPIED?"`` for the choice nearest ``word``, else ``""``.

    Case is ignored; the choice is given as it is spelt in ``choices`` (``quoted``: in
    quotes, ``'validate'``).
    """
    import difflib  # noqa: PLC0415 (only a mistyped word needs it)

    spelt = {choice.lower(): choice for choice in choices}
    near = difflib.get_close_matches(word.strip().lower(), list(spelt), n=1, cutoff=0.7)
    if not near:
        return ""
    return f"; did you mean {spelt[near[0]]!r}?" if quoted else f"; did you mean {spelt[near[0]]}?"
