"""The protocol every rules engine follows: its errors, verdicts, events, pictures and shapes.

Holds :class:`GameState` and :class:`Engine` (the contract), the errors engines raise
(:class:`VariantError`, :class:`MoveSyntaxError`, :class:`IllegalMoveError`), the values they
give (:class:`Illegal`, :class:`GameEvent`, :class:`Site`, :class:`Position`,
:class:`ReplayOutcome`) and :data:`VariantValue`. It may import only the standard library's
typing and dataclasses and ``gamerec.recorder.errors``; the rest of the package imports it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, Self, TypeVar

from gamerec.recorder.errors import GamerecError


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
