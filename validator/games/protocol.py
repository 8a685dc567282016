"""The one protocol every rules engine follows, and the values they share.

One module per game (``one``, ``aronda``, ``oust``, ``ohwahree``) exposes an ``ENGINE`` object
that satisfies :class:`Engine`. The validator, the service, the CLI and the conformance tests
reach every game through the registry in ``gamerec.validator.games`` and this protocol only.
Each ``ENGINE`` is a :class:`BaseEngine`, which holds what the four share (delegation to the
module's functions, variant options, random games, perft); :class:`Engine` stays the contract.

Engines are pure: no I/O, no protobuf, no logging. They take and give moves in their own
compact types (each module documents its ``Move``), and text in the syntax of notation.md.

State model: states are **mutable**. ``play`` changes the state in place (a replay of a
thousand plies then allocates no new position per ply); ``copy`` gives an independent state
for search, perft and what-if questions. Seats are 1-based everywhere.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, Self, TypeVar

from gamerec.recorder.errors import GamerecError, excerpt

try:  # hashlib's own blake2b, without the OpenSSL library hashlib loads on import
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - an interpreter without the built-in module
    from hashlib import blake2b as _blake2b

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


class VariantError(GamerecError):
    """A variant is unknown or impossible (e.g. 5 players in Oh-Wah-Ree, a ring of 4 points)."""


class MoveSyntaxError(GamerecError):
    """A move text is not a move token of the game at all (``c7x``, ``banana``).

    A well-formed token naming a point that is not on the board is *not* a syntax error: it
    parses, and ``check`` reports it (``NO_SUCH_POINT`` and the like).
    """


class IllegalMoveError(GamerecError):
    """``play`` was given a move that ``check`` rejects. Carries the :class:`Illegal` reason."""

    def __init__(self, illegal: Illegal) -> None:
        """Wrap an :class:`Illegal` verdict."""
        self.illegal = illegal
        super().__init__(f"{illegal.code}: {illegal.message}")


class Illegal(NamedTuple):
    """Why a move is illegal.

    Attributes:
        code: a stable UPPER_SNAKE reason code (``OCCUPIED``, ``NOT_YOUR_TURN``, ...). Codes are
            API: tests, the CLI's JSON and the service return them; never rename one.
        message: one plain sentence that names the move's points and cites the rule,
            e.g. ``"landing point c9 is occupied (docs/rules/one.md §4.2)"``.
    """

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class GameEvent:
    """Something a ply did besides the move itself, for replay frames, annotation and rendering.

    Attributes:
        kind: what happened; one of the kinds below (engines add none without documenting it):
            ``"capture"`` (ONE jumped stones, Oust removed groups, Oh-Wah-Ree taken pits),
            ``"possession-inside"`` / ``"possession-outside"`` (Aronda), ``"skip"`` (a seat
            that could not move was passed over, Oh-Wah-Ree), ``"resign"``, ``"pass"``,
            ``"swap"``, ``"turn-ended"`` (Oust turn ended because no placement was possible;
            Aronda turn cut to one piece), ``"end"`` (the game is over after this ply).
        seat: the seat the event belongs to (the captor, the new owner, the skipped seat).
        where: the points / fields / cells / pits concerned, in notation.md's text.
        count: how many stones or pieces, where that means something (0 otherwise).
    """

    kind: str
    seat: int
    where: tuple[str, ...] = ()
    count: int = 0


class Site(NamedTuple):
    """One place on the board in a :class:`Position`.

    Attributes:
        name: the place in notation.md's text (``c7``, ``m5``, ``g7``, ``4``).
        owner: 0 for none, else a seat. ONE and Oust: the seat whose stone stands there.
            Aronda: the seat that possesses the field. Oh-Wah-Ree: the seat that owns the pit.
        pieces: Aronda: the placement pieces on the field per seat, in seat order.
            Oh-Wah-Ree: ``(stones in the pit,)``. ONE and Oust: ``()``.
    """

    name: str
    owner: int
    pieces: tuple[int, ...] = ()


class Position(NamedTuple):
    """A plain, game-neutral picture of a state: for replay frames, rendering and JSON.

    Attributes:
        to_move: the seat to move, 0 when the game is over.
        sites: every place on the board, in board order (ONE: ring a first, each ring by
            index; Aronda: ``c``, ``i1..i8``, ``m1..m8``, ``o1..o8``; Oust: row 1 first, each
            row by letter; Oh-Wah-Ree: pits 1..12).
        supplies: per seat, pieces still to place (ONE stones, Aronda pieces); ``()`` where
            the game has no supply.
        captured: per seat, ONE captured stones or the Oh-Wah-Ree store; ``()`` where the
            game keeps no count.
        resigned: the seats that have resigned, in the order they did.
    """

    to_move: int
    sites: tuple[Site, ...]
    supplies: tuple[int, ...] = ()
    captured: tuple[int, ...] = ()
    resigned: tuple[int, ...] = ()


MoveT = TypeVar("MoveT", bound=Hashable)
VariantT = TypeVar("VariantT")


class GameState(Protocol[MoveT]):
    """A position, with the seat to move, that can check and play moves.

    Implementations are mutable: ``play`` changes the state in place.
    """

    @property
    def seats(self) -> int:
        """The number of seats at the table (resigned seats included)."""
        ...

    @property
    def to_move(self) -> int:
        """The 1-based seat to move; 0 when the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended by its rules (including resignation)."""
        ...

    @property
    def ply(self) -> int:
        """The number of plies played so far."""
        ...

    def legal_moves(self) -> list[MoveT]:
        """Every legal next ply (Oust: every legal next *placement*; see its module).

        Empty when the game is over. ``resign`` is always legal while the game goes on and is
        not listed.
        """
        ...

    def check(self, move: MoveT, seat: int | None = None) -> Illegal | None:
        """Return why ``move`` is illegal here, or None when it is legal.

        When ``seat`` is given and is not the seat to move, the answer is ``NOT_YOUR_TURN``.
        After the end of the game every move is ``GAME_ALREADY_OVER``.
        """
        ...

    def play(self, move: MoveT) -> tuple[GameEvent, ...]:
        """Play a legal move in place and return what it did.

        Raises:
            IllegalMoveError: when ``check`` rejects the move (the state is left unchanged).
        """
        ...

    def decide(self, decision: MoveT) -> None:
        """Make one of the decisions ``legal_moves`` lists, in place, without its events.

        A decision is a whole ply in every game but Oust, where a turn chains placements and
        a decision is one placement (or ``swap`` / ``pass``).

        Raises:
            IllegalMoveError: the decision is illegal now; the state is unchanged.
        """
        ...

    def copy(self) -> Self:
        """An independent copy of this state, of the same class."""
        ...

    def scores(self) -> tuple[int, ...]:
        """The score of every seat in seat order, by the rules' own definition, now."""
        ...

    def ranking(self) -> tuple[int, ...]:
        """The competition rank of every seat in seat order (1 = first; ties share a rank).

        Meaningful at the end of the game; before the end it is the standing from ``scores``.
        Resigned seats rank below all seats still playing.
        """
        ...

    def winners(self) -> tuple[int, ...]:
        """The winning seats (those ranked first), empty when the rules name no winner."""
        ...

    def position(self) -> Position:
        """A game-neutral snapshot of the position (see :class:`Position`)."""
        ...

    def digest(self) -> str:
        """A stable hex digest of the position (board, supplies, stores, seat to move, ...).

        Equal positions reached by different move orders give equal digests; the digest does
        not depend on the Python process, platform or version.
        """
        ...


class ReplayOutcome(NamedTuple):
    """What :meth:`Engine.replay` found.

    Attributes:
        state: the position after the last legal ply (the start position if ply 1 is illegal).
        plies: how many plies were played legally.
        illegal: why ply ``plies + 1`` is illegal, or None when every ply was legal.
    """

    state: GameState[Any]
    plies: int
    illegal: Illegal | None


class Engine(Protocol[VariantT, MoveT]):
    """A game's rules behind one shape; one module-level ``ENGINE`` object per game."""

    @property
    def name(self) -> str:
        """The game's name as the GRN ``Game`` tag writes it (``ONE``, ``Oh-Wah-Ree``)."""
        ...

    @property
    def reason_codes(self) -> dict[str, str]:
        """Every reason code ``check`` can return, with a one-line description of each."""
        ...

    @property
    def citations(self) -> dict[str, tuple[str, ...]]:
        """Every reason code with the rules sections its sentences cite.

        Each citation is a file and a section, ``docs/rules/one.md §4.2``.
        """
        ...

    def variant(self, **options: object) -> VariantT:
        """Build and check a variant from keyword options (the dataclass fields).

        Raises:
            VariantError: an unknown option or an impossible value.
        """
        ...

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> VariantT:
        """Build a variant from its options by GRN tag name (``Players``, ``Board`` ...).

        A value is what a record holds (a number, a tuple of numbers, an option's word such as
        ``first``) or a tag's text (``"3"``, ``"10,10,20"``): a record's rules map here
        straight, with no text between, and a tag's text is read as the GRN reader reads it.
        Names that are not rule options of this game are ignored; a missing option takes the
        documented default.

        Raises:
            VariantError: a missing required option, or a value that is unknown or impossible.
        """
        ...

    def variant_from_tags(self, tags: Mapping[str, str]) -> VariantT:
        """Build a variant from GRN tag texts (:meth:`variant_from_values` of them).

        Raises:
            VariantError: a missing required tag, or a value that is unknown or impossible.
        """
        ...

    def variant_tags(self, variant: VariantT) -> dict[str, str]:
        """The GRN tags that describe ``variant`` (inverse of :meth:`variant_from_tags`)."""
        ...

    def new_game(self, variant: VariantT) -> GameState[MoveT]:
        """The start position of a game under ``variant``."""
        ...

    def parse_move(self, variant: VariantT, text: str) -> MoveT:
        """Parse a move token of notation.md (case-insensitive; surrounding space ignored).

        Raises:
            MoveSyntaxError: the text is not a token of this game.
        """
        ...

    def format_move(self, variant: VariantT, move: MoveT) -> str:
        """The canonical lower-case token of ``move``."""
        ...

    def replay(
        self,
        variant: VariantT,
        moves: Sequence[MoveT],
        seats: Sequence[int] | None = None,
    ) -> ReplayOutcome:
        """Check and play ``moves`` from the start; stop at the first illegal one.

        This is the validator's hot path: implementations keep it tight. ``seats``, when given,
        is the seat each ply claims to be by (0 = unstated); a mismatch is ``NOT_YOUR_TURN``.
        """
        ...

    def first_decision(self, move: MoveT) -> MoveT:
        """The first decision a move makes (see :meth:`GameState.decide`).

        That is the move itself in every game but Oust, where it is the turn's first placement.
        """
        ...

    def play_chosen(
        self, state: GameState[MoveT], choose: Callable[[GameState[MoveT], list[MoveT]], MoveT]
    ) -> MoveT:
        """Play one whole ply on ``state`` in place, ``choose`` picking each decision; return it.

        ``choose(state, options)`` gets the legal decisions (``state.legal_moves()``) and
        returns one of them. A ply is one decision in every game but Oust, where a turn chains
        placements and ``choose`` is asked again after each capturing placement. The game
        must not be over.
        """
        ...

    def random_game(
        self,
        variant: VariantT,
        rng: random.Random,
        choose: Callable[[GameState[MoveT], list[MoveT]], MoveT] | None = None,
    ) -> list[MoveT]:
        """Play one complete legal game and return its plies.

        ``choose`` picks a ply from the legal ones (default: ``rng.choice``); the same ``rng``
        seed always gives the same game. Never resigns.
        """
        ...


#: A variant option's value: a number, a tuple of numbers, a word, or a GRN tag's text.
VariantValue = int | tuple[int, ...] | str
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


OptionsT = TypeVar("OptionsT", bound="DataclassInstance")
StateT = TypeVar("StateT", bound=GameState[Any])


def any_variant(format_move: Callable[[MoveT], str]) -> Callable[[object, MoveT], str]:
    """A game's ``format_move(move)`` as the ``(variant, move)`` form :class:`BaseEngine` takes.

    For the games whose move tokens read the same under every variant.
    """

    def format_in(variant: object, move: MoveT) -> str:
        return format_move(move)

    return format_in


class BaseEngine(Generic[OptionsT, MoveT, StateT]):
    """What every engine shares, built from its module's data and functions.

    A game's ``<Game>Engine`` subclasses this and keeps only what is its own: the GRN tags of
    its variant, and where it has them a faster perft, an unchecked way to play a listed move,
    its own random games or first decisions. Instances satisfy :class:`Engine`.

    The variant type is a frozen dataclass whose fields are the options :meth:`variant` takes;
    a field without a default is a required option.
    """

    def __init__(
        self,
        *,
        name: str,
        rules: str,
        reason_codes: Mapping[str, str],
        reason_sections: Mapping[str, tuple[str, ...]],
        variant_type: type[OptionsT],
        state_type: Callable[[OptionsT], StateT],
        parse_move: Callable[[str], MoveT],
        format_move: Callable[[OptionsT, MoveT], str],
        replay: Callable[[OptionsT, Sequence[MoveT], Sequence[int] | None], ReplayOutcome],
    ) -> None:
        """Tie the module's data and functions together.

        Args:
            name: the game's name as the GRN ``Game`` tag writes it.
            rules: the rules text every message cites (``docs/rules/one.md``).
            reason_codes: every reason code ``check`` returns, with a one-line description.
            reason_sections: the sections of ``rules`` each reason code's sentences cite.
            variant_type: the variant dataclass; its fields are the options.
            state_type: builds the start position of a variant.
            parse_move: the module's ``parse_move(text)``.
            format_move: the canonical token of a move under a variant (see
                :func:`any_variant`).
            replay: the module's fast checked ``replay(variant, moves, seats)``.
        """
        self._name = name
        self._rules = rules
        self._reason_codes = dict(reason_codes)
        self._reason_sections = dict(reason_sections)
        self._variant_type = variant_type
        fields = dataclasses.fields(variant_type)
        self._options = frozenset(field.name for field in fields)
        self._required = tuple(field.name for field in fields if _is_required(field))
        self._state_type = state_type
        self._parse_move = parse_move
        self._format_move = format_move
        self._replay = replay

    @property
    def name(self) -> str:
        """The game's name as the GRN ``Game`` tag writes it (``ONE``, ``Oh-Wah-Ree``)."""
        return self._name

    @property
    def reason_codes(self) -> dict[str, str]:
        """Every reason code ``check`` can return, with a one-line description of each."""
        return dict(self._reason_codes)

    @property
    def citations(self) -> dict[str, tuple[str, ...]]:
        """Every reason code with the rules sections its sentences cite (``file §4.2``)."""
        return {
            code: tuple(f"{self._rules} {section}" for section in sections)
            for code, sections in self._reason_sections.items()
        }

    def variant(self, **options: object) -> OptionsT:
        """Build and check a variant from keyword options (the variant dataclass's fields).

        Raises:
            VariantError: an unknown option, a missing required one, or an impossible value.
        """
        unknown = sorted(set(options) - self._options)
        if unknown:
            raise VariantError(f"unknown {self._name} option(s): {', '.join(unknown)}")
        missing = [option for option in self._required if option not in options]
        if missing:
            raise VariantError(f"{self._name} needs the option(s) {', '.join(missing)}")
        build: Callable[..., OptionsT] = self._variant_type
        return build(**options)

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OptionsT:
        """Build a variant from its options by GRN tag name (see ``Engine``); each game's own."""
        raise NotImplementedError

    def variant_from_tags(self, tags: Mapping[str, str]) -> OptionsT:
        """Build a variant from GRN tag texts (:meth:`variant_from_values` reads text too)."""
        return self.variant_from_values(tags)

    def new_game(self, variant: OptionsT) -> StateT:
        """The start position of a game under ``variant``."""
        return self._state_type(variant)

    def parse_move(self, variant: OptionsT, text: str) -> MoveT:
        """Parse a move token of notation.md (the variant is not consulted).

        Raises:
            MoveSyntaxError: the text is not a token of this game.
        """
        return self._parse_move(text)

    def format_move(self, variant: OptionsT, move: MoveT) -> str:
        """The canonical lower-case token of ``move``."""
        return self._format_move(variant, move)

    def replay(
        self, variant: OptionsT, moves: Sequence[MoveT], seats: Sequence[int] | None = None
    ) -> ReplayOutcome:
        """Check and play ``moves`` from the start; stop at the first illegal one.

        The module's fast replay: the same verdicts as ``check`` / ``play`` ply by ply.
        ``seats[i]`` is the seat ply i+1 claims (0 or missing: unstated).
        """
        return self._replay(variant, moves, seats)

    def first_decision(self, move: MoveT) -> MoveT:
        """The first decision of ``move``: the whole ply, in every game that does not chain."""
        return move

    def play_chosen(
        self, state: GameState[MoveT], choose: Callable[[GameState[MoveT], list[MoveT]], MoveT]
    ) -> MoveT:
        """Play the ply ``choose(state, state.legal_moves())`` picks, checked; return it.

        Every listed decision is a whole ply in a game that does not chain decisions.
        """
        move = choose(state, state.legal_moves())
        state.play(move)
        return move

    def random_game(
        self,
        variant: OptionsT,
        rng: random.Random,
        choose: Callable[[GameState[MoveT], list[MoveT]], MoveT] | None = None,
    ) -> list[MoveT]:
        """Play one complete legal game and return its plies (never resigns).

        ``choose(state, legal)`` picks each ply (default ``rng.choice``); a seeded ``rng``
        always gives the same game. A ply ``choose`` returns is played with ``play`` (checked);
        one of ``rng.choice`` by :meth:`_play_listed`.
        """
        state = self.new_game(variant)
        moves: list[MoveT] = []
        while not state.is_over:
            legal = state.legal_moves()
            if choose is None:
                move = rng.choice(legal)
                self._play_listed(state, move)
            else:
                move = choose(state, legal)
                state.play(move)
            moves.append(move)
        return moves

    def perft(self, variant: OptionsT, depth: int) -> int:
        """perft.md's leaf count from the start position of ``variant`` to ``depth``."""
        return self.perft_from(self.new_game(variant), depth)

    def perft_from(self, state: StateT, depth: int) -> int:
        """perft.md's leaf count from ``state`` to ``depth``; a finished game is one leaf.

        The same answer as the generic :func:`perft`, faster: the last level is counted as
        ``len(legal_moves())`` (every listed move is one whole ply), and each child is played
        by :meth:`_play_listed`.
        """
        if depth == 0 or state.is_over:
            return 1
        moves = state.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            child = state.copy()
            self._play_listed(child, move)
            total += self.perft_from(child, depth - 1)
        return total

    def _play_listed(self, state: StateT, move: MoveT) -> None:
        """Play ``move``, one of ``state.legal_moves()``; an engine may skip the check here."""
        state.play(move)


def _is_required(field: dataclasses.Field[Any]) -> bool:
    """Whether a variant field has no default: an option :meth:`BaseEngine.variant` requires."""
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
