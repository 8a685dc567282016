"""What every game's record syntax is made of: the :class:`GameSyntax` shape and its parts.

A game's record syntax is everything the records of that game need without its rules: the
names people give the game, its ``Game`` enum value, the fields of ``Move`` and ``Rules``
that hold its moves and variant, its move tokens (notation.md) and its variant tags (GRN).
Each game fills one :class:`GameSyntax` in its own module of this package.

These modules are plain Python: no protobuf is imported when they load, so the rules engines
read their move tokens with the very grammar the GRN reader uses (one grammar per game).
Enum values are named, and turned into numbers only when a record is built or read
(:func:`enum_value`); a move token parses into a plain *move form* (tuples of numbers and
letters, the game's module documents it), which the record and the engine each map to
their own move.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias, cast

from gamerec.recorder.errors import EncodingError, NotationError, RecordMalformedError, excerpt
from gamerec.recorder.syntax.foreign import AbstractPlayForm, LudiiForm

if TYPE_CHECKING:
    from gamerec.v1.record_pb2 import Game

    #: A ``Game`` enum value.
    GameValue: TypeAlias = Game.ValueType
else:
    GameValue = int  # the generated enum type exists for type checkers only

#: The largest number a token or tag may hold (the record's fields are uint32).
UINT32_MAX: Final = 2**32 - 1
LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"
#: A letter and a number (``c7``, ``g13``); the number may have leading zeros and be 0.
LETTER_NUMBER: Final = re.compile(r"([a-z])([0-9]+)")
_WHOLE_NUMBER: Final = re.compile(r"[0-9]{1,10}")


class VariantOption(NamedTuple):
    """A variant option: its GRN tag, its field in the game's variant message, its values.

    Attributes:
        tag: the GRN tag (``Players``, ``Board``, ``Mirror`` ...).
        field: the field of the game's variant message.
        what: the value in words, for errors (``a player count``).
        names: for an enum option, the tag's values and the enum value names they stand for
            (``{"none": "ONE_MIRROR_NONE", ...}``); empty for a number.
        enum: for an enum option, the enum's type name in the record schema (``OneMirror``).
        repeated: the field holds a list of numbers joined by ``,`` (ONE's ring sizes).
    """

    tag: str
    field: str
    what: str = ""
    names: Mapping[str, str] | None = None
    enum: str = ""
    repeated: bool = False

    def read(self, text: str) -> Any:
        """The field's value for a tag's text: a number, a list of them, an enum name, or None.

        Empty text (``[Players ""]``) is None: the variant message is present, this option
        is not set.

        Raises:
            RecordMalformedError: the text is not a value of this option.
        """
        if not text.strip():
            return None
        if self.names is not None:
            value = self.names.get(text.lower())
            if value is None:
                raise RecordMalformedError(
                    f"{self.tag} must be one of {', '.join(self.names)}, not {excerpt(text)}"
                )
            return value
        what = f"{self.what} ({self.tag})"
        if self.repeated:
            return whole_numbers(text, ",", what)
        return whole_number(text, what)

    def is_set(self, message: Any) -> bool:
        """Whether ``message`` (the game's variant message) sets this option.

        A number option has presence in the schema, so an explicit 0 is set (and names no
        board or count: an impossible variant); an enum or list option is set when not zero
        or empty.
        """
        if self.names is None and not self.repeated:
            return bool(message.HasField(self.field))
        return bool(getattr(message, self.field))

    def value_of(self, value: Any) -> int | tuple[int, ...] | str:
        """A field's value as engines take it: a number, a tuple of numbers, or the word.

        Raises:
            EncodingError: an enum value this version does not know.
        """
        if self.names is None:
            return tuple(value) if self.repeated else int(value)
        return self.write(value)

    def write(self, value: Any) -> str:
        """The tag's text for a field's value (an enum option takes the value's number).

        Raises:
            EncodingError: an enum value this version does not know.
        """
        if self.names is None:
            return ",".join(map(str, value)) if self.repeated else str(value)
        name = enum_name(self.enum, value)
        text = next((key for key, named in self.names.items() if named == name), None)
        if text is None:
            raise EncodingError(f"{self.tag} value {value} is unknown to this version")
        return text


class GameSyntax(NamedTuple):
    """One game's record syntax (see the module docstring).

    Attributes:
        enum: the game's ``Game`` enum value name (``GAME_ONE``).
        name: the canonical name, as the GRN ``Game`` tag writes it (``Oh-Wah-Ree``).
        aliases: other spellings people type, read wherever a game is named (``ohwahree``);
            matching ignores case, ``-``, ``_`` and spaces.
        action: the field of ``Move.action`` that holds the game's own moves.
        variant: the field of ``Rules.variant`` that holds the game's variant.
        options: the variant options, in the order GRN writes them.
        parse_move: a lower-case move token that is not ``resign``, ``pass`` or ``swap`` to
            its move form (raises NotationError).
        message_of: a move form to the fields of the game's move message, as the message's
            constructor takes them (nested mappings and lists, enum value names).
        format_move: the game's move message (or anything with its fields) to its token
            (raises EncodingError).
        abstract_play: how Abstract Play's game records hold the game, if they do
            (docs/formats.md).
        ludii: how Ludii's trials hold the game, if they do.
    """

    enum: str
    name: str
    aliases: tuple[str, ...]
    action: str
    variant: str
    options: tuple[VariantOption, ...]
    parse_move: Callable[[str], Any]
    message_of: Callable[[Any], dict[str, Any]]
    format_move: Callable[[Any], str]
    abstract_play: AbstractPlayForm | None = None
    ludii: LudiiForm | None = None

    @property
    def game(self) -> GameValue:
        """The ``Game`` enum value."""
        return cast("GameValue", enum_value("Game", self.enum))

    @property
    def spellings(self) -> tuple[str, ...]:
        """The name and every alias."""
        return (self.name, *self.aliases)


def name_key(name: str) -> str:
    """How game names are compared: lower case, without ``-``, ``_`` or white space."""
    return re.sub(r"[-_\s]+", "", name).lower()


# -- enum values, named here and numbered by the record schema ---------------------------------

_ENUM_VALUES: dict[tuple[str, str], int] = {}


def enum_value(enum: str, name: str) -> int:
    """The number of the value ``name`` of the record schema's enum ``enum``."""
    key = (enum, name)
    value = _ENUM_VALUES.get(key)
    if value is None:
        from gamerec.v1 import record_pb2  # noqa: PLC0415 (the grammar itself needs none)

        value = _ENUM_VALUES[key] = int(getattr(record_pb2, enum).Value(name))
    return value


def enum_name(enum: str, value: int) -> str:
    """The name of the value ``value`` of the enum ``enum``; ``""`` for an unknown number."""
    from gamerec.v1 import record_pb2  # noqa: PLC0415 (the grammar itself needs none)

    values = getattr(record_pb2, enum).DESCRIPTOR.values_by_number
    known = values.get(value)
    return "" if known is None else str(known.name)


# -- numbers -----------------------------------------------------------------------------------


def whole_number(text: str, what: str) -> int:
    """A whole number from 0 to 2^32 - 1, digits only (a tag's value).

    Raises:
        RecordMalformedError: anything else.
    """
    if not _WHOLE_NUMBER.fullmatch(text) or int(text) > UINT32_MAX:
        raise RecordMalformedError(f"expected {what} as a whole number, found {excerpt(text)}")
    return int(text)


def whole_numbers(text: str, separator: str, what: str) -> list[int]:
    """Whole numbers joined by ``separator`` (spaces around them allowed); empty text is []."""
    if not text.strip():
        return []
    return [whole_number(part.strip(), what) for part in text.split(separator)]


def number(digits: str, token: str, what: str) -> int:
    """A number in a move token: digits, read as the number they spell, within uint32.

    Leading zeros are allowed and 0 too (notation.md: an index that names nothing is an
    illegal move, not a malformed record).

    Raises:
        NotationError: not digits, or too large for the record.
    """
    if not (digits.isascii() and digits.isdigit()):
        found = excerpt(digits) if digits else "nothing"
        raise NotationError(f"move {excerpt(token)}: expected {what}, found {found}")
    value = int(digits) if len(digits) <= 30 else UINT32_MAX + 1
    if value > UINT32_MAX:
        raise NotationError(f"move {excerpt(token)}: {digits[:30]} is too large for {what}")
    return value


def letter_number(part: str, token: str, what: str, example: str) -> tuple[int, int]:
    """Split a letter-number place (``c7``) into the letter's rank (a = 1) and the number.

    Raises:
        NotationError: not a letter followed by a number.
    """
    match = LETTER_NUMBER.fullmatch(part)
    if match is None:
        found = excerpt(part) if part else "nothing"
        raise NotationError(
            f"move {excerpt(token)}: expected {what} such as {example} (a letter and a number), "
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


# -- variant options -----------------------------------------------------------------------------


def named_option(tag: str, field: str, enum: str, names: Mapping[str, str]) -> VariantOption:
    """An option whose values are names (``none``, ``first``, ...), read in any case."""
    return VariantOption(tag, field, names=dict(names), enum=enum)


def number_option(tag: str, field: str, what: str) -> VariantOption:
    """An option holding one whole number."""
    return VariantOption(tag, field, what=what)


def number_list_option(tag: str, field: str, what: str) -> VariantOption:
    """An option holding whole numbers joined by ``,`` (ONE's ``Board``)."""
    return VariantOption(tag, field, what=what, repeated=True)


#: The ``Players`` option every game's variant message has.
PLAYERS: Final = number_option("Players", "players", "a player count")
