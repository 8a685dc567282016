"""The search options ``analyse``, ``annotate --engine`` and ``adjudicate --engine`` share.

``--time`` takes seconds as ``1s``, ``500ms`` or ``0.5``; ``--playouts N`` makes the search
reproducible (with ``--seed``). With neither, a search gets :data:`DEFAULT_SECONDS` a
position.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Final

import typer

from gamerec.cli.edge import fail

if TYPE_CHECKING:  # the search is loaded when a command searches (start-up)
    from gamerec.validator.analysis.searcher import SearchSettings

#: A search's time a position when no limit is given.
DEFAULT_SECONDS: Final = 1.0
_DURATION = re.compile(r"(\d+(?:\.\d+)?)(ms|s)?")

TimeOption = Annotated[
    str | None,
    typer.Option(
        "--time", metavar="DURATION", help="Search time a position: 1s, 500ms, 0.5 (default 1s)."
    ),
]
PlayoutsOption = Annotated[
    int | None,
    typer.Option("--playouts", metavar="N", help="Playouts a position (reproducible with --seed)."),
]
SeedOption = Annotated[int, typer.Option("--seed", help="The search's seed.")]


def seconds_of(text: str) -> float:
    """Seconds from ``1s``, ``500ms`` or ``0.5`` (exit 2 on anything else)."""
    found = _DURATION.fullmatch(text.strip())
    if found is None or float(found.group(1)) <= 0:
        fail(f"--time {text!r}: give a positive duration such as 1s, 500ms or 0.5")
    value = float(found.group(1))
    return value / 1000 if found.group(2) == "ms" else value


def search_settings(time: str | None, playouts: int | None, seed: int) -> SearchSettings:
    """The settings of the options (exit 2 when both a time and playouts are given)."""
    from gamerec.validator.analysis.searcher import SearchSettings
    from gamerec.validator.search.core import Limits

    if time is not None and playouts is not None:
        fail("give --time or --playouts, not both")
    if playouts is not None and playouts < 1:
        fail(f"--playouts {playouts}: give at least 1")
    if playouts is not None:
        return SearchSettings(Limits(playouts=playouts), seed=seed)
    seconds = DEFAULT_SECONDS if time is None else seconds_of(time)
    return SearchSettings(Limits(time=seconds), seed=seed)
