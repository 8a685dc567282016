"""A record at a glance: game, variant, seats, plies and the claimed result (``gamerec info``).

A summary never fails: a record that GRN could not hold (no game, a variant of another game)
is still summarized, with the odd parts shown as they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_tags import variant_tags
from gamerec.recorder.notation import game_label
from gamerec.v1 import record_pb2 as pb


@dataclass(frozen=True, slots=True)
class RecordSummary:
    """What ``gamerec info`` shows of one record.

    Attributes:
        game: the GRN name of the game, or ``?`` followed by the number when unknown.
        variant: the variant option tags as GRN writes them, e.g. ``(("Players", "3"),)``.
        seats: the seat names in seat order (empty names included).
        plies: the number of plies of the main line.
        result: the claimed ``Result`` (``31-24``, ``*``), or empty when none is claimed.
        winners: the claimed winning seats.
        termination: the claimed termination (``normal``, ``resignation``...), or empty.
    """

    game: str
    variant: tuple[tuple[str, str], ...]
    seats: tuple[str, ...]
    plies: int
    result: str
    winners: tuple[int, ...]
    termination: str

    def variant_text(self) -> str:
        """The variant in GRN tag form: ``[Players "3"] [Board "6,6"]``."""
        return " ".join(f'[{tag} "{value}"]' for tag, value in self.variant)

    def as_mapping(self) -> dict[str, Any]:
        """The summary as plain JSON-ready data."""
        return {
            "game": self.game,
            "variant": dict(self.variant),
            "seats": list(self.seats),
            "plies": self.plies,
            "result": self.result,
            "winners": list(self.winners),
            "termination": self.termination,
        }


def summarize(record: pb.GameRecord) -> RecordSummary:
    """Summarize one record."""
    game = record.rules.game
    return RecordSummary(
        game=game_label(game, f"?{game}"),
        variant=_variant(record.rules),
        seats=tuple(seat.name for seat in record.seats),
        plies=len(record.moves),
        result=_claim(record.result),
        winners=tuple(record.result.winners),
        termination=_termination(record.result.termination),
    )


def _variant(rules: pb.Rules) -> tuple[tuple[str, str], ...]:
    try:
        return tuple(variant_tags(rules))
    except EncodingError as error:
        return (("Variant", f"unwritable: {error}"),)


def _claim(result: pb.ClaimedResult) -> str:
    claim = result.WhichOneof("claim")
    if claim == "unfinished":
        return "*"
    if claim == "scores":
        return "-".join(str(value) for value in result.scores.values)
    return ""


def _termination(termination: pb.Termination.ValueType) -> str:
    if termination == pb.TERMINATION_UNSPECIFIED:
        return ""
    try:
        return pb.Termination.Name(termination).removeprefix("TERMINATION_").lower()
    except ValueError:
        return f"?{termination}"
