"""Write a record while the game is played, every ply checked by the rules at once.

In the spirit of python-chess's ``Board.push_san`` with ``pgn.Game``: a game client starts a
:class:`RecordBuilder` from the game, the variant and the seats, calls :meth:`~RecordBuilder.play`
with each move as notation.md writes it, and takes :attr:`~RecordBuilder.record` at any time::

    from gamerec import RecordBuilder

    game = RecordBuilder("ONE", {"Players": 3, "Board": "6,6"}, seats=["Ana", "Ben", "Chi"])
    game.play("a1")
    game.play("a2", comment="a4 would be illegal")
    ...
    game.record  # a GameRecord; once the game is over it claims the rules' result

With ``signing_keys`` (Ed25519 private keys by seat, 0 for the host) or ``public_keys`` (of
signers who sign on their own devices), the record is sealed from the start (docs/seals.md):
each ply's chain head is added as the ply is played and signed at once by the seat that made
it and by the host, and the final head by every key held when the game ends or is stopped.

An illegal ply raises :class:`IllegalPlyError` with the very finding ``validate`` would give
for that ply (its code, sentence and rule citation, ply, seat and move), and the record is left
as it was. When the game ends by its rules, the record's claimed result (scores, winners,
termination) is the rules' result, so the finished record validates as it stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.notation import parse_action
from gamerec.recorder.signing import LiveSeal, SealError
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.annotation import parse_glyph
from gamerec.validator.games.protocol import GameEvent, GameState, Illegal, IllegalMoveError
from gamerec.validator.games.registry import entry_named
from gamerec.validator.generation import variant_options
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.judge import (
    OUTSIDE_TERMINATIONS,
    Judgement,
    computed_result,
    illegal_finding,
    unreadable_finding,
)
from gamerec.validator.moves import UnreadableMoveError, reader_for

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: The terminations :meth:`RecordBuilder.stop` takes (those that are not rule events).
STOP_TERMINATIONS = {
    "timeout": pb.TERMINATION_TIMEOUT,
    "agreement": pb.TERMINATION_AGREEMENT,
    "abandoned": pb.TERMINATION_ABANDONED,
    "adjudicated": pb.TERMINATION_ADJUDICATED,
}


class IllegalPlyError(IllegalMoveError):
    """A ply the rules refuse, with the finding ``validate`` gives for it.

    Attributes:
        finding: the finding (``ply``, ``seat``, ``code``, ``message`` citing the rule,
            ``move``), exactly as the verdict of the record with this ply would hold it.
    """

    def __init__(self, finding: vpb.Finding) -> None:
        """Wrap the finding; the message reads ``illegal move 'c7xc9' at ply 17 (seat 2): ...``."""
        self.finding = finding
        self.illegal = Illegal(finding.code, finding.message)
        GamerecError.__init__(
            self,
            f"illegal move {finding.move!r} at ply {finding.ply} (seat {finding.seat}): "
            f"{finding.code}: {finding.message}",
        )

    @property
    def code(self) -> str:
        """The finding's code (``LANDING_OCCUPIED``, ``NOT_YOUR_TURN`` ...)."""
        return self.finding.code


class RecordBuilder:
    """A record of one game, written ply by ply and checked against the rules as it grows.

    Args:
        game: the game, in any spelling (``ONE``, ``Oh-Wah-Ree``, ``ohwahree``).
        variant: the variant as GRN tags (``{"Players": 3, "Board": "6,6"}``; names in any
            case); a missing option takes the rules' default.
        seats: the players' names in seat order (or ``Seat`` messages), or none.
        state_seats: write the seat that made each ply into the record (``Move.seat``), so
            the record states who moved; on by default.
        signing_keys: Ed25519 private keys held here, by seat (0: the host); the record is
            sealed and each ply signed as it is played (see the module docstring).
        public_keys: 32-byte public keys of signers that sign elsewhere, by seat (0: the
            host); they add their signatures with :meth:`add_signature`.
        **metadata: ``event``, ``site``, ``round``, ``date``, ``time_control``, ``client``
            (text) and ``start_time`` (a ``datetime``).

    Raises:
        VariantError: an unknown game, or an impossible or unknown variant option.
        RulesError: the seats do not match the variant's number of players.
        KeyFileError: a key for a seat the record does not have.
    """

    def __init__(
        self,
        game: str,
        variant: Mapping[str, object] | None = None,
        *,
        seats: Iterable[str | pb.Seat] = (),
        state_seats: bool = True,
        signing_keys: Mapping[int, Ed25519PrivateKey] | None = None,
        public_keys: Mapping[int, bytes] | None = None,
        **metadata: str | datetime,
    ) -> None:
        """Start the record and the game at the start position (see the class docstring)."""
        entry = entry_named(game)
        record = pb.GameRecord(format_version=1)
        read_tag(record, "Game", entry.name)
        tags = {tag: str(value) for tag, value in (variant or {}).items()}
        for tag, value in variant_options(entry.name, tags).items():
            read_tag(record, tag, value)
        record.rules.SetInParent()
        for seat in seats:
            record.seats.append(seat if isinstance(seat, pb.Seat) else pb.Seat(name=seat))
        _set_metadata(record, metadata)
        self._start(record, state_seats, signing_keys, public_keys)

    @classmethod
    def from_record(
        cls,
        record: pb.GameRecord,
        *,
        state_seats: bool = True,
        signing_keys: Mapping[int, Ed25519PrivateKey] | None = None,
        public_keys: Mapping[int, bytes] | None = None,
    ) -> RecordBuilder:
        """A builder that starts from a record's rules, seats and metadata (not its moves).

        For a platform that holds the rules as a record's ``Rules`` message (a live match's
        request); the arguments are the class's.

        Raises:
            RulesError: the game is unknown, the variant impossible, or the seats do not
                match the variant's number of players.
            KeyFileError: a key for a seat the record does not have.
        """
        start = pb.GameRecord(format_version=1)
        start.rules.CopyFrom(record.rules)
        start.seats.extend(record.seats)
        start.metadata.CopyFrom(record.metadata)
        builder = cls.__new__(cls)
        builder._start(start, state_seats, signing_keys, public_keys)
        return builder

    def _start(
        self,
        record: pb.GameRecord,
        state_seats: bool,
        signing_keys: Mapping[int, Ed25519PrivateKey] | None,
        public_keys: Mapping[int, bytes] | None,
    ) -> None:
        """Take ``record`` (no moves) as the record being written, at the start position."""
        self._record = record
        self._identity: RulesIdentity = identify(record)
        self._reader = reader_for(self._identity)
        self._state: GameState[Any] = self._identity.engine.new_game(self._identity.variant)
        self._state_seats = state_seats
        self._seal: LiveSeal | None = None
        if signing_keys or public_keys:
            self._seal = LiveSeal(record, dict(public_keys or {}), dict(signing_keys or {}))

    # -- the game so far ---------------------------------------------------------------------

    @property
    def record(self) -> pb.GameRecord:
        """A copy of the record as it stands (it claims the rules' result once over)."""
        copy = pb.GameRecord()
        copy.CopyFrom(self._record)
        return copy

    @property
    def plies(self) -> int:
        """The plies played so far."""
        return len(self._record.moves)

    @property
    def identity(self) -> RulesIdentity:
        """The game's registry entry and the engine's variant."""
        return self._identity

    @property
    def comment(self) -> str:
        """The comment on the whole game (not sealed: it may change at any time)."""
        return self._record.comment

    @comment.setter
    def comment(self, text: str) -> None:
        self._record.comment = text

    @property
    def to_move(self) -> int:
        """The seat to move; 0 once the game is over."""
        return self._state.to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended by its rules (resignation included)."""
        return self._state.is_over

    @property
    def state(self) -> GameState[Any]:
        """A copy of the engine's position (safe to keep or explore)."""
        return self._state.copy()

    def scores(self) -> tuple[int, ...]:
        """Every seat's score now, by the rules' definition."""
        return tuple(self._state.scores())

    def legal_moves(self) -> list[str]:
        """The legal next decisions as tokens (Oust: the next placements, ``swap``, ``pass``)."""
        identity = self._identity
        return [
            identity.engine.format_move(identity.variant, move)
            for move in self._state.legal_moves()
        ]

    # -- playing -----------------------------------------------------------------------------

    def play(
        self,
        move: str,
        *,
        comment: str = "",
        glyph: str = "",
        clock: timedelta | None = None,
        timestamp: datetime | None = None,
    ) -> tuple[GameEvent, ...]:
        """Play one ply written as notation.md writes it (``c7xc9``, ``o1,o3``, ``4cw``).

        Args:
            move: the ply's token (case-insensitive), ``resign``, ``pass`` or ``swap``.
            comment: a comment on the ply.
            glyph: ``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!`` or ``$1``-``$6``.
            clock: the mover's clock after the ply.
            timestamp: when the ply was made.

        Returns:
            What the ply did (captures, possessions, the end ...).

        Raises:
            NotationError: the text is not a move token of the game.
            IllegalPlyError: the rules refuse the ply (the record is unchanged).
            AnnotationError: an unknown glyph.
        """
        recorded = parse_action(self._identity.game, move)
        if self._state_seats:
            recorded.seat = self._state.to_move
        _annotate(recorded, comment, glyph, clock, timestamp)
        engine_move = self._engine_move(recorded)
        illegal = self._state.check(engine_move, recorded.seat or None)
        if illegal is not None:
            text = self._reader.text(recorded)
            raise IllegalPlyError(
                illegal_finding(self.plies + 1, recorded, text, self._state, illegal)
            )
        mover = self._state.to_move
        events = self._state.play(engine_move)
        self._record.moves.append(recorded)
        if self._seal is not None:
            self._seal.ply_played(self._record, mover)
        if self._state.is_over:
            self._claim_the_rules_result()
            self._result_changed()
        return events

    def move(self, ply: int) -> pb.Move:
        """A copy of the recorded move of ``ply`` (1-based; its seat, action and annotations).

        Raises:
            IndexError: no such ply.
        """
        if not 1 <= ply <= self.plies:
            raise IndexError(f"no ply {ply} (plies so far: {self.plies})")
        copy = pb.Move()
        copy.CopyFrom(self._record.moves[ply - 1])
        return copy

    def head_after(self, ply: int) -> bytes:
        """The seal's chain head after ``ply`` (0: the final head); empty when unsealed.

        Raises:
            IndexError: no such ply.
        """
        if self._seal is None:
            return b""
        seal = self._record.seal
        return seal.final_head if ply == 0 else seal.plies[ply - 1].head

    def add_signature(self, ply: int, signer: int, signature: bytes) -> None:
        """Add a signature made elsewhere over the head after ``ply`` (0: the final head).

        The head a signer signs is ``record.seal.plies[ply - 1].head`` (docs/seals.md says
        which bytes are signed).

        Raises:
            SealError: the record is not sealed, there is no such ply, or the signature is
                not the signer's over that head.
        """
        if self._seal is None:
            raise SealError("the record is not sealed: give the builder public or signing keys")
        self._seal.add_signature(self._record, ply, signer, signature)

    def _result_changed(self) -> None:
        """Seal the claimed result anew and sign it with every key held (it is final)."""
        if self._seal is not None:
            self._seal.result_changed(self._record, final=True)

    def resign(self, **annotations: Any) -> tuple[GameEvent, ...]:
        """The seat to move resigns (a ``resign`` ply; see :meth:`play` for the annotations)."""
        return self.play("resign", **annotations)

    def stop(
        self,
        termination: str,
        *,
        scores: Iterable[int] | None = None,
        winners: Iterable[int] = (),
        unfinished: bool = False,
    ) -> pb.GameRecord:
        """End the record before the game's end for a reason outside the rules.

        Args:
            termination: ``timeout``, ``agreement``, ``abandoned`` or ``adjudicated``.
            scores: the scores claimed, if any (an agreement usually claims them).
            winners: the winning seats claimed, if any.
            unfinished: claim ``Result *`` (no result: an abandoned game), not scores.

        Returns:
            The record as it now stands (as :attr:`record`).

        Raises:
            GamerecError: the game is already over, or the termination is not one of those.
        """
        if self._state.is_over:
            raise GamerecError("the game is already over by its rules; nothing to stop")
        if termination not in STOP_TERMINATIONS:
            raise GamerecError(
                f"stop with one of {', '.join(STOP_TERMINATIONS)}, not {termination!r}"
            )
        result = self._record.result
        result.Clear()
        result.termination = STOP_TERMINATIONS[termination]
        if unfinished:
            result.unfinished.SetInParent()
        elif scores is not None:
            result.scores.values.extend(scores)
        result.winners.extend(winners)
        self._result_changed()
        return self.record

    # -- helpers -----------------------------------------------------------------------------

    def _engine_move(self, recorded: pb.Move) -> Any:
        """The engine's move for a record move, or the finding validate gives when there is none."""
        try:
            return self._reader.engine_move(recorded)
        except UnreadableMoveError as problem:
            finding = unreadable_finding(
                self.plies + 1, recorded, problem, self._state, self._identity
            )
            raise IllegalPlyError(finding) from None

    def _claim_the_rules_result(self) -> None:
        """Write the rules' result as the record's claim (the game just ended)."""
        judgement = Judgement(
            identity=self._identity,
            state=self._state,
            plies=self.plies,
            last_move=self._record.moves[-1] if self._record.moves else None,
        )
        computed = computed_result(self._record, judgement)
        assert computed.termination not in OUTSIDE_TERMINATIONS
        result = self._record.result
        result.Clear()
        result.scores.values.extend(computed.scores)
        result.winners.extend(computed.winners)
        result.termination = computed.termination


def _annotate(
    move: pb.Move,
    comment: str,
    glyph: str,
    clock: timedelta | None,
    timestamp: datetime | None,
) -> None:
    """Set a recorded move's annotations."""
    if comment:
        move.comment = comment
    if glyph:
        move.glyph = parse_glyph(glyph)
    if clock is not None:
        move.clock.FromTimedelta(clock)
    if timestamp is not None:
        move.timestamp.FromDatetime(timestamp)


_METADATA_TEXT = ("event", "site", "round", "date", "time_control", "client")


def _set_metadata(record: pb.GameRecord, metadata: Mapping[str, str | datetime]) -> None:
    """The record's metadata from the builder's keyword arguments."""
    for name, value in metadata.items():
        if name == "start_time" and isinstance(value, datetime):
            record.metadata.start_time.FromDatetime(value)
        elif name in _METADATA_TEXT and isinstance(value, str):
            setattr(record.metadata, name, value)
        else:
            known = ", ".join((*_METADATA_TEXT, "start_time"))
            raise GamerecError(f"unknown metadata {name!r} (or of the wrong type); use {known}")
