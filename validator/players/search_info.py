"""What an engine says about its search (``info`` lines) and the move comment gamerec keeps.

An engine may send any number of ``info`` lines while it thinks on a move. The host merges
them, each field taking the value of the last line that gave it, and the referee writes the
merged facts into the comment of the ply the engine then plays (docs/engine-protocol.md,
"Search information"), as PGN-style commands after the engine's free text::

    opening book [%eval 35,12] [%nodes 10234] [%pv c8 d14 c7xc9]

==================  =======================================================================
``info`` field      in the comment
==================  =======================================================================
``string TEXT``     ``TEXT``, first, as written (the last ``string`` of the move)
``score N``         ``[%eval N]`` (N a whole number, the mover's view; ``-120``, ``0``)
``score win N``     ``[%eval #N]`` (the engine sees a forced win in N plies)
``score loss N``    ``[%eval #-N]`` (a forced loss in N plies)
``depth N``         with a score: ``[%eval N,D]`` (enhanced PGN's form); alone ``[%depth D]``
``nodes N``         ``[%nodes N]``
``pv M1 M2 ...``    ``[%pv m1 m2 ...]`` (each token written canonically)
``time MS``         not written: the record's time facts are the referee's clock
==================  =======================================================================
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

ScoreKind = Literal["value", "win", "loss"]


@dataclass(frozen=True, slots=True)
class Score:
    """An engine's evaluation of its position, from the mover's point of view.

    Attributes:
        kind: ``value`` (a number in the engine's own unit, by convention hundredths of the
            game's score points; positive is good for the mover), ``win`` or ``loss`` (a forced
            result the engine sees).
        amount: the value, or in how many plies the forced result comes (at least 1).
    """

    kind: ScoreKind
    amount: int

    def protocol_text(self) -> str:
        """The score as an ``info`` line writes it: ``35``, ``win 5``, ``loss 5``."""
        return str(self.amount) if self.kind == "value" else f"{self.kind} {self.amount}"

    def eval_text(self) -> str:
        """The score as the comment's ``[%eval ...]`` writes it: ``35``, ``#5``, ``#-5``."""
        if self.kind == "value":
            return str(self.amount)
        return f"#{self.amount}" if self.kind == "win" else f"#-{self.amount}"


@dataclass(frozen=True, slots=True)
class SearchInfo:
    """The facts of one or more ``info`` lines; a field is None (or empty) when not given.

    Attributes:
        score: the evaluation.
        depth: the search depth, in plies.
        nodes: positions searched.
        time_ms: the engine's own count of its thinking time.
        pv: the principal variation, the move to play first, as GRN move tokens.
        text: free text (``info string ...``).
    """

    score: Score | None = None
    depth: int | None = None
    nodes: int | None = None
    time_ms: int | None = None
    pv: tuple[str, ...] = ()
    text: str = ""

    @property
    def empty(self) -> bool:
        """Whether no field is given."""
        return self == SearchInfo()

    def merged(self, later: SearchInfo) -> SearchInfo:
        """These facts updated by a later line's: every field ``later`` gives replaces ours."""
        return replace(
            self,
            score=later.score if later.score is not None else self.score,
            depth=later.depth if later.depth is not None else self.depth,
            nodes=later.nodes if later.nodes is not None else self.nodes,
            time_ms=later.time_ms if later.time_ms is not None else self.time_ms,
            pv=later.pv or self.pv,
            text=later.text or self.text,
        )

    def comment(self) -> str:
        """The move comment these facts make (see the module docstring); ``""`` when empty."""
        parts = [self.text] if self.text else []
        if self.score is not None:
            depth = "" if self.depth is None else f",{self.depth}"
            parts.append(f"[%eval {self.score.eval_text()}{depth}]")
        elif self.depth is not None:
            parts.append(f"[%depth {self.depth}]")
        if self.nodes is not None:
            parts.append(f"[%nodes {self.nodes}]")
        if self.pv:
            parts.append(f"[%pv {' '.join(self.pv)}]")
        return " ".join(parts)
