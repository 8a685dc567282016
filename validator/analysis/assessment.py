"""The engine's assessment of an unfinished game, for adjudication (``adjudicate --engine``).

The position reached is searched (:func:`.plies.analyse_position`: MCTS, or exact where
endgame tables cover every next position, or where every next position is the rules' end).
The assessment favours the seat with the best chance of winning; it *decides* when its
value is exact and names a sole winner, or when that chance is at least the confidence
threshold (0.9 by default). Otherwise the rules' provisional result stands, and the ruling
says so. The assessment is reported either way, apart from the rules' result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.analysis.plies import EXACT, analyse_position
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.games.protocol import GameState
from gamerec.validator.identity import RulesIdentity

#: The win chance at or above which a searched assessment decides.
DEFAULT_CONFIDENCE: Final = 0.9


@dataclass(frozen=True, slots=True)
class EngineRequest:
    """Adjudication's use of the engine: how to search, and when the engine decides.

    Attributes:
        settings: the search's limits and seed.
        confidence: the win chance at or above which a searched value decides.

    Raises:
        ValueError: a confidence outside (0.5, 1].
    """

    settings: SearchSettings
    confidence: float = DEFAULT_CONFIDENCE

    def __post_init__(self) -> None:
        """Check the confidence."""
        if not 0.5 < self.confidence <= 1:
            raise ValueError(
                f"the confidence must be above 0.5 and at most 1, not {self.confidence}"
            )


def assess(
    identity: RulesIdentity, state: GameState[Any], request: EngineRequest
) -> vpb.EngineAssessment:
    """The engine's assessment of ``state`` (a game not over), and whether it decides."""
    analysis = analyse_position(identity, state, request.settings)
    chances = analysis.win
    best = max(chances)
    leaders = [seat for seat, chance in enumerate(chances, start=1) if chance == best]
    favourite = leaders[0] if len(leaders) == 1 else 0
    exact = analysis.value == EXACT
    decides = bool(favourite) and ((exact and best == 1.0) or best >= request.confidence)
    return vpb.EngineAssessment(
        exact=exact,
        win=chances,
        margin=analysis.margin,
        line=analysis.line,
        playouts=analysis.visits,
        depth=analysis.depth,
        seconds=analysis.seconds,
        confidence=request.confidence,
        favourite=favourite,
        decides=decides,
    )


def assessment_sentence(assessment: vpb.EngineAssessment) -> str:
    """The assessment in words, and whether it decides."""
    seat = assessment.favourite
    if assessment.exact and seat:
        lead = assessment.margin[seat - 1]
        value = f"seat {seat} wins by {lead:g} with perfect play (exact)"
    elif seat:
        value = (
            f"seat {seat} wins with chance {assessment.win[seat - 1]:.2f} and an expected "
            f"margin of {assessment.margin[seat - 1]:+.1f} (searched: "
            f"{assessment.playouts:,} playouts, depth {assessment.depth})"
        )
    else:
        chances = ", ".join(f"{chance:.2f}" for chance in assessment.win)
        value = f"no seat is favoured (win chances {chances})"
    if assessment.decides:
        verdict = "it decides"
    elif assessment.exact:
        verdict = "a shared result does not decide"
    else:
        verdict = f"below the confidence threshold {assessment.confidence:g}, it does not decide"
    return f"Engine assessment: {value}; {verdict}."
