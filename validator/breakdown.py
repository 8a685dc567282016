"""What a batch of verdicts says per game and per finding code: the view after a rules change.

``gamerec validate`` prints it under its summary line (``--json``: one JSON object), locally
and on a cluster alike, from the :class:`~gamerec.validator.batch.Outcome` values it prints.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamerec.validator.batch import Outcome


@dataclass
class Breakdown:
    """Verdicts counted per game (valid and invalid) and findings counted per code.

    Attributes:
        valid: valid records per game.
        invalid: invalid records per game.
        findings: findings per code (a record with two findings of one code counts twice).

    Records that could not be read have no game and are not counted here.
    """

    valid: Counter[str] = field(default_factory=Counter)
    invalid: Counter[str] = field(default_factory=Counter)
    findings: Counter[str] = field(default_factory=Counter)

    def add(self, outcome: Outcome) -> None:
        """Count one outcome."""
        if outcome.status == "unreadable":
            return
        (self.valid if outcome.status == "valid" else self.invalid)[outcome.game] += 1
        self.findings.update(outcome.codes)

    def games(self) -> list[str]:
        """The games seen, by name."""
        return sorted(set(self.valid) | set(self.invalid))

    def lines(self) -> list[str]:
        """``by game: ONE 10 (9 valid, 1 invalid); ...`` and ``by finding: CODE 1, ...``."""
        if not self.games():
            return []
        games = "; ".join(
            f"{game} {self.valid[game] + self.invalid[game]:,} "
            f"({self.valid[game]:,} valid, {self.invalid[game]:,} invalid)"
            for game in self.games()
        )
        lines = [f"by game: {games}"]
        if self.findings:
            codes = ", ".join(f"{code} {count:,}" for code, count in _by_count(self.findings))
            lines.append(f"by finding: {codes}")
        return lines

    def as_dict(self) -> dict[str, Any]:
        """``{"games": {"ONE": {"valid": 9, "invalid": 1}}, "findings": {"CODE": 1}}``."""
        return {
            "games": {
                game: {"valid": self.valid[game], "invalid": self.invalid[game]}
                for game in self.games()
            },
            "findings": dict(_by_count(self.findings)),
        }


def _by_count(counts: Counter[str]) -> list[tuple[str, int]]:
    """Most frequent first, then by name."""
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
