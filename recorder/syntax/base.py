"""What every game's record syntax is made of: the :class:`GameSyntax` shape and its parts.

A game's record syntax is everything ``recorder`` must know to read and write that game's
records without its rules: the names people give the game, its ``Game`` enum value, the
fields of ``Move`` and ``Rules`` that hold its moves and variant, its move tokens
(notation.md) and its variant tags (GRN). Each game fills one :class:`GameSyntax` in its own
module of this package; the helpers here are the pieces those modules share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from google.protobuf.message import Message

from gamerec.recorder.errors import EncodingError, NotationError, RecordMalformedError
from gamerec.recorder.grn_values import parse_uint32, parse_uint32_list
from gamerec.v1 import record_pb2 as pb

GameValue: TypeAlias = pb.Game.ValueType

#: The most a 1-based number of a token may be (the record's fields are uint32).
UINT32_MAX = 2**32 - 1
LETTERS = "abcdefghijklmnopqrstuvwxyz"
LETTER_NUMBER = re.compile(r"([a-z])([0-9]+)")


@dataclass(frozen=True, slots=True)
class VariantOption:
    """A variant option: its GRN tag, its field in the game's variant message, its value text.

    Attributes:
        tag: the GRN tag (``Players``, ``Board``, ``Mirror`` ...).
        field: the field of the game's variant message.
        read: the tag's text to the field's value; raises RecordMalformedError.
        write: the field's value to the tag's text; raises EncodingError.
        repeated: the field is a repeated one (ONE's ring sizes).
    """

    tag: str
    field: str
    read: Callable[[str], Any]
    write: Callable[[Any], str]
    repeated: bool = False


@dataclass(frozen=True, slots=True)
class GameSyntax:
    """One game's record syntax (see the module docstring).

    Attributes:
        game: the game's ``Game`` enum value.
        name: the canonical name, as the GRN ``Game`` tag writes it (``Oh-Wah-Ree``).
        aliases: other spellings people type, read wherever a game is named (``ohwahree``);
            matching ignores case, ``-``, ``_`` and spaces.
        action: the field of ``Move.action`` that holds the game's own moves.
        variant: the field of ``Rules.variant`` that holds the game's variant.
        options: the variant options, in the order GRN writes them.
        parse_move: a lower-case move token that is not ``resign``, ``pass`` or ``swap`` to the
            message of ``action`` (raises NotationError).
        format_move: the message of ``action`` to its canonical token (raises EncodingError).
    """

    game: GameValue
    name: str
    aliases: tuple[str, ...]
    action: str
    variant: str
    options: tuple[VariantOption, ...]
    parse_move: Callable[[str], Message]
    format_move: Callable[[Any], str]

    @property
    def spellings(self) -> tuple[str, ...]:
        """The name and every alias."""
        return (self.name, *self.aliases)


def name_key(name: str) -> str:
    """How game names are compared: lower case, without ``-``, ``_`` or white space."""
    return re.sub(r"[-_\s]+", "", name).lower()


# -- pieces of move tokens -------------------------------------------------------------------


def number(digits: str, token: str, what: str) -> int:
    """A 1-based number written without leading zeros, within uint32.

    Raises:
        NotationError: not digits, ``0``, a leading zero, or too large.
    """
    if not (digits.isascii() and digits.isdigit()) or digits == "0":
        found = repr(digits) if digits else "nothing"
        raise NotationError(f"move {token!r}: expected {what} counted from 1, found {found}")
    if digits.startswith("0"):
        raise NotationError(
            f"move {token!r}: expected {what} without leading zeros, found {digits!r}"
        )
    if len(digits) > 10 or int(digits) > UINT32_MAX:
        raise NotationError(f"move {token!r}: {digits} is too large for {what}")
    return int(digits)


def letter_number(part: str, token: str, what: str, example: str) -> tuple[int, int]:
    """Split a letter-number place (``c7``) into the letter's rank (a = 1) and the number.

    Raises:
        NotationError: not a letter followed by a number.
    """
    match = LETTER_NUMBER.fullmatch(part)
    if match is None:
        found = repr(part) if part else "nothing"
        raise NotationError(
            f"move {token!r}: expected {what} such as {example} (a letter and a number), "
            f"found {found}"
        )
    letter, digits = match.groups()
    return LETTERS.index(letter) + 1, number(digits, token, "a number")


def letter(rank: int, what: str) -> str:
    """The letter of a 1-based rank (1 = a), for rings and columns.

    Raises:
        EncodingError: the rank has no letter.
    """
    if not 1 <= rank <= len(LETTERS):
        raise EncodingError(f"{what} {rank} has no letter (a..z are 1..26)")
    return LETTERS[rank - 1]


def positive(value: int, what: str) -> int:
    """A 1-based number; 0 has no token.

    Raises:
        EncodingError: the number is 0.
    """
    if value < 1:
        raise EncodingError(f"{what} 0 has no token (numbers count from 1)")
    return value


# -- variant options -------------------------------------------------------------------------


def named_option(tag: str, field: str, names: Mapping[str, int]) -> VariantOption:
    """An option whose values are names (``none``, ``first``, ...), read in any case."""
    by_value = {value: name for name, value in names.items()}

    def read(text: str) -> int:
        value = names.get(text.lower())
        if value is None:
            raise RecordMalformedError(f"{tag} must be one of {', '.join(names)}, not {text!r}")
        return value

    def write(value: int) -> str:
        name = by_value.get(value)
        if name is None:
            raise EncodingError(f"{tag} value {value} is unknown to this version")
        return name

    return VariantOption(tag, field, read, write)


def number_option(tag: str, field: str, what: str) -> VariantOption:
    """An option holding one whole number."""
    return VariantOption(tag, field, lambda text: parse_uint32(text, f"{what} ({tag})"), str)


def number_list_option(tag: str, field: str, what: str) -> VariantOption:
    """An option holding whole numbers joined by ``,`` (ONE's ``Board``)."""

    def write(values: Sequence[int]) -> str:
        return ",".join(str(value) for value in values)

    return VariantOption(
        tag,
        field,
        lambda text: parse_uint32_list(text, ",", f"{what} ({tag})"),
        write,
        repeated=True,
    )


#: The ``Players`` option every game's variant message has.
PLAYERS = number_option("Players", "players", "a player count")
