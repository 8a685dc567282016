"""A tournament's openings: none, random plies per encounter, or the first plies of a file.

:class:`Opening`, :func:`random_openings` (with ``undecided``, a decided opening is drawn
again: :func:`decided`), :func:`file_openings` and :func:`same_rules`. It imports
``recorder``, ``gamerec.v1``, ``validator.identity``, ``validator.live.players``,
``validator.games.protocol``, ``players.engine_game`` and the package's ``schedule``; the
search, only inside :func:`decided`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.notation import format_action
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import GameState
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.players.engine_game import (
    match_request,
)
from gamerec.validator.players.tournament.schedule import (
    TournamentError,
    _seats,
)

#: How many turns deep :func:`decided` searches an opening for a forced result.
DECIDED_TURNS: Final = 2
#: The most draws of one random opening, every one decided, before the tournament gives up.
MAX_DRAWS: Final = 100


@dataclass(frozen=True, slots=True)
class Opening:
    """The plies every game of an encounter starts with.

    Attributes:
        plies: the opening lines, as notation.md tokens; encounter ``k`` takes line
            ``(k - 1) mod len(plies)``. Empty: no opening.
    """

    plies: tuple[tuple[str, ...], ...] = ()

    def of(self, encounter: int) -> tuple[str, ...]:
        """The opening of encounter ``encounter`` (1-based)."""
        if not self.plies:
            return ()
        return self.plies[(encounter - 1) % len(self.plies)]


def random_openings(
    game: str,
    variant: Mapping[str, str],
    plies: int,
    count: int,
    seed: int,
    *,
    undecided: bool = False,
) -> Opening:
    """``count`` openings of ``plies`` random plies each (shorter if the game ends first).

    Opening ``i`` is drawn from the seed ``<seed>:opening:<i>``. With ``undecided``, an opening
    that is already decided (:func:`decided`) is drawn again, from ``<seed>:opening:<i>:<k>``
    for the ``k``-th draw, as engine-testing opening books leave decided openings out; an
    opening that is not decided is the same as without ``undecided``.

    Raises:
        VariantError: an unknown game or variant.
        TournamentError: ``undecided`` and :data:`MAX_DRAWS` draws of one opening all decided.
    """
    record = match_request(game, variant, ["-"] * _seats(game, variant), "-")
    start = pb.GameRecord(rules=record.rules)
    lines = []
    for index in range(1, count + 1):
        for draw in range(1, MAX_DRAWS + 1):
            suffix = f":{draw}" if draw > 1 else ""
            player = PolicyPlayer(start, "random", f"{seed}:opening:{index}{suffix}")
            line: list[str] = []
            while len(line) < plies and not player.state.is_over:
                token = player.next_ply()
                player.played(token)
                line.append(token)
            if not undecided or not decided(game, player.state):
                break
        else:
            raise TournamentError(
                f"opening {index}: {MAX_DRAWS} draws of {plies} random plies were all decided "
                "(a forced result within two turns); give fewer --opening-plies"
            )
        lines.append(tuple(line))
    return Opening(tuple(lines))


def decided(game: str, state: GameState[Any]) -> bool:
    """Whether a position is decided: over, or the seat to move forces a result at once.

    Decided: the game is over, or an alpha-beta search :data:`DECIDED_TURNS` turns deep (the
    game's own evaluation, no endgame table) proves that the seat to move wins whatever the
    others do, or, with two seats, that it loses whatever it does.
    """
    if state.is_over:
        return True
    from gamerec.validator.analysis.searcher import evaluation_of  # noqa: PLC0415 (only here)
    from gamerec.validator.games.registry import entry_named  # noqa: PLC0415
    from gamerec.validator.search.alphabeta import alphabeta  # noqa: PLC0415
    from gamerec.validator.search.core import Limits  # noqa: PLC0415

    found = alphabeta(state, Limits(depth=DECIDED_TURNS), evaluation_of(entry_named(game)))
    if found.proven is None:
        return False
    return found.proven > 0 or state.seats == 2


def file_openings(
    records: Iterable[pb.GameRecord],
    game: str,
    variant: Mapping[str, str],
    plies: int | None,
    source: str,
) -> Opening:
    """The first ``plies`` plies (None: all) of each record, checked against the game.

    Raises:
        TournamentError: a record of another game or variant, or one whose opening plies
            are not legal (the record and the ply are named); no record at all.
    """
    rules = match_request(game, variant, ["-"] * _seats(game, variant), "-").rules
    lines = []
    for number, record in enumerate(records, start=1):
        if not same_rules(record.rules, rules):
            raise TournamentError(
                f"{source}: record {number} is not a game of this tournament's game and variant"
            )
        tokens = [format_action(move, record.rules.game) for move in record.moves]
        line = tuple(tokens if plies is None else tokens[:plies])
        _check_opening(pb.GameRecord(rules=rules), line, f"{source}: record {number}")
        lines.append(line)
    if not lines:
        raise TournamentError(f"{source}: no record to take openings from")
    return Opening(tuple(lines))


def _check_opening(start: pb.GameRecord, line: Sequence[str], where: str) -> None:
    player = PolicyPlayer(start)
    for ply, token in enumerate(line, start=1):
        if player.state.is_over:
            raise TournamentError(f"{where}: the game is over before ply {ply} of its opening")
        try:
            player.played(token)
        except GamerecError as error:
            raise TournamentError(f"{where}, ply {ply} {token!r}: {error}") from None


def same_rules(first: pb.Rules, second: pb.Rules) -> bool:
    """Whether two records' rules are the same game and variant (a default tag or not)."""
    try:
        mine = identify(pb.GameRecord(rules=first))
        theirs = identify(pb.GameRecord(rules=second))
    except RulesError:
        return False
    return mine.engine.name == theirs.engine.name and mine.variant == theirs.variant
