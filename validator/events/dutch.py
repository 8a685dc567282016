"""The Swiss for two seats: the FIDE (Dutch) system, C.04.3, through the py4swiss package.

gamerec does not pair a Dutch round itself: it writes the event as FIDE's TRF(x) text
(``trf.pairing_text``), hands it to py4swiss's Dutch engine (the rules of C.04.3 as they
stood until 31 January 2026, checked in its own tests against bbpPairings) and reads back
the boards and the bye. docs/events.md says why this package and what was checked.

py4swiss has a compiled core with wheels for CPython 3.11 to 3.14 on Linux x86-64 and macOS
arm64 only; where it cannot be imported, pairing a Dutch round is refused with
:class:`EngineMissingError`, a clear error (exit 2 at the command line). The TRF is read from the
text in memory (py4swiss's own reader wants a file), so this module does no I/O.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from gamerec.recorder.errors import GamerecError

#: Where py4swiss's wheels exist (its compiled core has no pure-Python fallback).
PLATFORMS = "CPython 3.11 to 3.14 on Linux x86-64 and macOS arm64"


class EngineMissingError(GamerecError):
    """py4swiss cannot be imported here: the Dutch system cannot pair."""


class NoPairingError(GamerecError):
    """No pairing of the round meets the absolute criteria (C1 to C3)."""


class TrfRefusedError(GamerecError):
    """py4swiss refused the TRF text (a line or a consistency check); names row and reason."""


Boards = list[tuple[int, int]]


def _module(name: str) -> Any:
    """A module of py4swiss (untyped: it has no ``py.typed``), or :class:`EngineMissingError`."""
    try:
        return importlib.import_module(f"py4swiss.{name}")
    except ImportError as error:
        raise EngineMissingError(
            f"the FIDE Dutch system needs the py4swiss package, which cannot be imported here "
            f"({error}); its wheels cover {PLATFORMS}"
        ) from None


def parse(text: str) -> Any:
    """py4swiss's parsed TRF(x) of ``text`` (as its ``TrfParser.parse`` reads a file)."""
    trf, codes, errors = _module("trf"), _module("trf.codes"), _module("trf.exceptions")
    sections, trf_line = _module("trf.sections"), _module("trf.trf_line")
    kinds = (codes.PlayerCode, codes.TeamCode, codes.TournamentCode, codes.XCode)
    lines: dict[type, list[Any]] = {kind: [] for kind in kinds}
    refused = (errors.ParsingError, errors.LineError, errors.ConsistencyError, ValueError)
    try:
        for index, raw in enumerate(text.splitlines()):
            if raw.strip() and not raw.strip().startswith("#"):
                line = trf_line.TrfLine(index, raw.strip())
                lines[line.code_type].append(line)
        players = [
            sections.PlayerSection.from_string(str(line)) for line in lines[codes.PlayerCode]
        ]
        parsed = trf.ParsedTrf(
            player_sections=players,
            tournament_section=sections.TournamentSection.from_lines(lines[codes.TournamentCode]),
            x_section=sections.XSection.from_lines(lines[codes.XCode]),
        )
        parsed.validate_contents()
    except refused as error:
        raise TrfRefusedError(f"the TRF text is refused by py4swiss: {error}") from None
    return parsed


def pair_trf(text: str) -> tuple[Boards, int | None]:
    """The next round of the event in TRF(x) ``text``: boards (white, black) and the bye.

    Players are the TRF's start numbers; those listed in ``XXZ`` are not paired. Raises
    :class:`EngineMissingError`, :class:`TrfRefusedError`, or :class:`NoPairingError` when
    no pairing meets the absolute criteria.
    """
    engines, common = _module("engines"), _module("engines.common")
    parsed = parse(text)
    try:
        pairings = engines.DutchEngine.generate_pairings(parsed)
    except common.PairingError as error:
        raise NoPairingError(
            f"no pairing of this round meets FIDE's absolute criteria ({error}): "
            "two players would meet twice, a player would have a second bye, or two players "
            "with the same absolute colour preference would meet"
        ) from None
    return boards_of([(p.white, p.black) for p in pairings])


def boards_of(pairs: Sequence[tuple[int, int]]) -> tuple[Boards, int | None]:
    """Boards and the bye from an engine's pairs, the bye written ``(player, 0)``."""
    boards = [(white, black) for white, black in pairs if white and black]
    byes = [white or black for white, black in pairs if not (white and black)]
    return boards, (byes[0] if byes else None)
