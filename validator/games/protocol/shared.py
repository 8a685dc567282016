"""What engines share as functions: variant options, digests, ranks, bit pictures, perft.

Reading a variant option the same way in every game (:func:`option_number`,
:func:`option_numbers`, :func:`option_word`, :func:`tag_number`), the position digest
(:func:`digest_of`), competition ranks (:func:`rank_seats`), two bitboards as seat bytes
(:func:`seats_of_bits`) and the generic :func:`perft`. It may import the standard library,
``gamerec.recorder.errors`` and ``protocol.contract``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamerec.recorder.errors import excerpt
from gamerec.validator.games.protocol.contract import GameState, MoveT, VariantError, VariantValue

try:  # hashlib's own blake2b, without the OpenSSL library hashlib loads on import
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter without the built-in module
    from hashlib import blake2b as _blake2b


#: The largest number a variant option may hold (nine digits, as a tag may write).
MAX_NUMBER = 999_999_999


def option_number(tag: str, value: VariantValue, least: int = 0) -> int:
    """A number option: a tag's text read by :func:`tag_number`, or a record's number.

    Raises:
        VariantError: not a whole number from ``least`` to :data:`MAX_NUMBER` (the
            message :func:`tag_number` gives, whichever form the value came in).
    """
    if isinstance(value, str):
        return tag_number(tag, value, least)
    if isinstance(value, int) and not isinstance(value, bool) and least <= value <= MAX_NUMBER:
        return value
    floor = f" of at least {least}" if least else ""
    raise VariantError(f"the {tag} tag must be a whole number{floor}, not {str(value)!r}")


def option_numbers(tag: str, value: VariantValue) -> tuple[int, ...]:
    """A list option (ONE's ring sizes): ``"10,10,20"`` or a record's numbers, each checked."""
    if isinstance(value, str):
        return tuple(tag_number(tag, part) for part in value.split(","))
    parts = (value,) if isinstance(value, int) else value
    return tuple(option_number(tag, part) for part in parts)


def option_word(value: VariantValue) -> str:
    """A word option (``first``, ``on``): a tag's text or a record's word, lower case."""
    return str(value).strip().lower()


def digest_of(data: bytes) -> str:
    """The digest engines give a position (``GameState.digest``): blake2b, 16 bytes, in hex."""
    return _blake2b(data, digest_size=16).hexdigest()


def rank_seats(keys: Sequence[int], resigned: Sequence[int]) -> tuple[int, ...]:
    """Competition ranks per seat in seat order, from each seat's key (higher ranks first).

    ``keys[i]`` is seat i+1's key (ONE: its score and tiebreak, Oh-Wah-Ree: its score). The
    seats still playing are ranked by their keys, equal keys sharing a rank; the resigned
    seats follow, the later resignation ranking higher.
    """
    if not resigned:
        # A key's first place in the keys sorted high to low, after a head that equals
        # nothing: one more than the number of keys above it.
        ranked: list[int | None] = [None, *sorted(keys, reverse=True)]
        return tuple(map(ranked.index, keys))
    playing = [seat for seat in range(1, len(keys) + 1) if seat not in resigned]
    ranked = [None, *sorted((keys[seat - 1] for seat in playing), reverse=True)]
    ranks = [0] * len(keys)
    for seat in playing:
        ranks[seat - 1] = ranked.index(keys[seat - 1])
    for rank, seat in enumerate(reversed(resigned), len(playing) + 1):
        ranks[seat - 1] = rank
    return tuple(ranks)


#: Binary digits to a seat's number: the first seat's bitboard, then the second's.
_AS_SEAT_1 = bytes.maketrans(b"01", b"\x00\x01")
_AS_SEAT_2 = bytes.maketrans(b"01", b"\x00\x02")


def seats_of_bits(first: int, second: int, width: int) -> bytes:
    """One byte per bit 0 to ``width - 1`` of two seats' bitboards (Aronda, Oust).

    The byte is 1 where ``first`` has the bit, else 2 where ``second`` has it, else 0. Both
    bitboards must fit in ``width`` bits. Made from their binary digits, translated and added
    as numbers (no byte carries), instead of a loop over the bits.
    """
    digits = f"0{width}b"
    ones = format(first, digits).encode("ascii").translate(_AS_SEAT_1)
    twos = format(second & ~first, digits).encode("ascii").translate(_AS_SEAT_2)
    both = int.from_bytes(ones, "big") + int.from_bytes(twos, "big")
    return both.to_bytes(width, "big")[::-1]


def tag_number(tag: str, text: str, least: int = 0) -> int:
    """The whole number a GRN variant tag holds (``Players``, ``Board``, ``StonesPerPit``).

    Only plain ASCII digits are accepted (no sign, no ``_``, no other scripts' digits), at
    most 9 of them, so a tag can never ask for a huge number.

    Raises:
        VariantError: anything else, or a number below ``least``.
    """
    value = text.strip()
    if not (value.isascii() and value.isdigit() and len(value) <= 9) or int(value) < least:
        floor = f" of at least {least}" if least else ""
        raise VariantError(f"the {tag} tag must be a whole number{floor}, not {excerpt(text)}")
    return int(value)


def perft(state: GameState[MoveT], depth: int) -> int:
    """Count the leaves of the legal-move tree to ``depth`` (perft.md conventions).

    A game that ends before ``depth`` counts as one leaf. This generic version uses only the
    protocol; engines may provide a faster one with the same answer.
    """
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total
