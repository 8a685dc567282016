"""The figures of a benchmark run, each next to its reference, and the one table they make.

Every section of ``python -m bench`` returns :class:`Figure` values: a measured value, the
reference it is compared with (measured in the same run, on the same machine and data), their
ratio and, where the issue sets one, the target the ratio must meet.

The machine is shared and noisy, so a figure and its reference are timed in turn (A, B, A,
B, ...: :func:`paired`) and the ratio is the median of the ratios of each pair, shown with
their spread (the lowest and highest pair): each pair ran under the same moment's load.
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

#: Generated data is cached here (seeded, so the same every time); ``.gitignore``d.
DATA = Path(__file__).resolve().parent / ".data"


@dataclass(frozen=True, slots=True)
class Figure:
    """One measured figure and what it is compared with.

    Attributes:
        name: what was measured (``ONE, 2 seats: replay``).
        value: the measured value.
        unit: its unit (``plies/s``, ``MiB``, ``ms``).
        reference: what it is compared with (empty: a figure on its own).
        reference_value: the reference's value, measured in the same run (None: not measured).
        target: the least ratio the issue asks for (the most, when ``at_most``); None: none.
        at_most: the target is an upper bound (memory growth, latency).
        pairs: the ratios of each pair measured in turn (empty: the ratio is
            ``value / reference_value``); the ratio is then their median.
    """

    name: str
    value: float
    unit: str
    reference: str = ""
    reference_value: float | None = None
    target: float | None = None
    at_most: bool = False
    pairs: tuple[float, ...] = ()

    @property
    def ratio(self) -> float | None:
        """The median of the pairs' ratios, else ``value / reference_value``; None: none."""
        if self.pairs:
            return statistics.median(self.pairs)
        if not self.reference_value:
            return None
        return self.value / self.reference_value

    @property
    def spread(self) -> tuple[float, float] | None:
        """The lowest and highest ratio of the pairs (None: not measured in pairs)."""
        return (min(self.pairs), max(self.pairs)) if self.pairs else None

    @property
    def met(self) -> bool | None:
        """Whether the ratio meets the target; None when there is no target or no ratio."""
        ratio = self.ratio
        if self.target is None or ratio is None:
            return None
        return ratio <= self.target if self.at_most else ratio >= self.target


def median_seconds(run: Callable[[], object], repetitions: int) -> float:
    """The median wall time of ``repetitions`` calls of ``run`` (at least one)."""
    times = []
    for _ in range(max(1, repetitions)):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


@dataclass(frozen=True, slots=True)
class Paired:
    """Two things timed in turn: each one's times, in the order they were taken.

    Attributes:
        first: the seconds of each run of the first (the measured figure).
        second: the seconds of each run of the second (its reference).
    """

    first: tuple[float, ...]
    second: tuple[float, ...]

    def rate_ratios(self, first_work: float = 1.0, second_work: float = 1.0) -> tuple[float, ...]:
        """Each pair's ratio of rates: ``first_work`` per its time over ``second_work`` per its."""
        return tuple(
            (first_work / a) / (second_work / b)
            for a, b in zip(self.first, self.second, strict=True)
        )

    def time_ratios(self) -> tuple[float, ...]:
        """Each pair's ratio of times (the first's over the second's)."""
        return tuple(a / b for a, b in zip(self.first, self.second, strict=True))

    @property
    def first_seconds(self) -> float:
        """The median time of the first."""
        return statistics.median(self.first)

    @property
    def second_seconds(self) -> float:
        """The median time of the second."""
        return statistics.median(self.second)


def paired(first: Callable[[], object], second: Callable[[], object], repetitions: int) -> Paired:
    """Time ``first`` and ``second`` in turn (A, B, A, B, ...), ``repetitions`` pairs.

    The order within a pair alternates (A B, B A, ...) so that neither always runs second
    (a warm cache, a load that starts mid-pair).
    """
    firsts: list[float] = []
    seconds: list[float] = []
    for repetition in range(max(1, repetitions)):
        order = ((first, firsts), (second, seconds))
        for run, took in order if repetition % 2 == 0 else order[::-1]:
            started = time.perf_counter()
            run()
            took.append(time.perf_counter() - started)
    return Paired(tuple(firsts), tuple(seconds))


def rate_figure(
    name: str,
    work: float,
    unit: str,
    reference: str,
    times: Paired,
    *,
    target: float | None = None,
    reference_work: float | None = None,
) -> Figure:
    """A rate (``work`` per second) next to its reference's, both timed in turn by ``times``.

    ``reference_work``: what each run of the reference does (default: ``work``, the same
    games); the ratio is that of the rates, pair by pair.
    """
    other = work if reference_work is None else reference_work
    return Figure(
        name,
        work / times.first_seconds,
        unit,
        reference,
        other / times.second_seconds,
        target,
        pairs=times.rate_ratios(work, other),
    )


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank; 0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[rank]


def source_digest(*paths: Path) -> str:
    """A short digest of some source files: cached data made by them is stale when it changes."""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _number(value: float, unit: str) -> str:
    """A value as the table writes it: rates as whole numbers, times and sizes with decimals."""
    if unit.endswith("/s") or value >= 1000:
        return f"{value:,.0f}"
    return f"{value:,.2f}" if value < 10 else f"{value:,.1f}"


def _target(figure: Figure) -> str:
    if figure.target is None:
        return ""
    return f"{'<=' if figure.at_most else '>='} {figure.target:.2f}x"


def _ratio(figure: Figure) -> str:
    ratio, spread = figure.ratio, figure.spread
    if ratio is None:
        return ""
    if spread is None:
        return f"{ratio:.2f}x"
    count = len(figure.pairs)
    return f"{ratio:.2f}x ({spread[0]:.2f}-{spread[1]:.2f}, {count} pair{'s' * (count != 1)})"


def _met(figure: Figure) -> str:
    met = figure.met
    return "" if met is None else "yes" if met else "NO"


def table(figures: Iterable[Figure]) -> str:
    """The figures as one table: figure, value, reference, its value, ratio, target, met.

    A ratio measured in pairs shows its spread: ``0.61x (0.58-0.66, 5 pairs)``.
    """
    header = ("figure", "value", "unit", "reference", "ref. value", "ratio", "target", "met?")
    rows = [header]
    for figure in figures:
        rows.append(
            (
                figure.name,
                _number(figure.value, figure.unit),
                figure.unit,
                figure.reference,
                ""
                if figure.reference_value is None
                else _number(figure.reference_value, figure.unit),
                _ratio(figure),
                _target(figure),
                _met(figure),
            )
        )
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    right = {1, 4, 5}
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if column in right else cell.ljust(width)
            for column, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    lines.insert(1, "-" * len(lines[0]))
    return "\n".join(lines)
