"""gamerec's search against OpenSpiel's MCTS bot on Oware, where the two rule sets coincide.

Two-seat Oh-Wah-Ree and OpenSpiel's Oware share the board, the sowing and the capture but not
the ends (docs/analysis.md, "Oh-Wah-Ree and Oware"). So the games are played in lockstep
(:class:`Lockstep`): every move goes to gamerec's Oh-Wah-Ree engine and to ``pyspiel``'s Oware
state, and after every move the two positions (pits, stores, seat to move) are compared. Pit
``p`` of Oh-Wah-Ree is Oware's house ``p - 1``; seat 1 is Oware's player 0 (pits 1-6), seat 2
its player 1 (pits 7-12, actions 0-5). The first move where the rule sets part stops the game,
with the ply and the reason (:data:`REASONS`):

- ``feeding``: the move is legal in Oh-Wah-Ree but Oware obliges the mover to give stones to
  an opponent that has none, and this move does not;
- ``grand slam``: the move captures every stone of the opponent's row; Oware captures nothing;
- ``more than half``: a store holds more than 24 of the 48 stones, which ends Oware;
- ``repetition``: a position repeats since the last capture, which ends Oware;
- ``positions differ``: anything else that makes the positions differ (never seen).

No game can end at the same ply under both rule sets (docs/analysis.md, "Against OpenSpiel's
MCTS on Oware", says why). A game *finishes* under both where no move feeds an opponent with
no stone (``no feeding move``): Oware ends, each side taking its own row, and Oh-Wah-Ree ends
one ply later with the same scores whatever is sown (:meth:`Lockstep.final_scores` checks each
move). A game stopped by ``more than half`` is *decided*: that store's seat wins under both.
Every other stopped game counts in no result; it is adjudicated on the last position both rule
sets share: the exact margin of the Oh-Wah-Ree endgame table (``--tables``) where it has one,
else the stores' difference.

Equal time: each side gets ``--time-ms`` of wall time a move on its own clock. gamerec's side
is ``validator.analysis.searcher.search`` with the engine's settings and seeds (``gamerec
engine --policy search`` calls it for each decision) and ``Limits(time=T)``, checked inside
the search. OpenSpiel's side is ``MCTSBot`` as ``bench_search`` builds it (UCT constant 2, one
random rollout, ``solve`` off), its tree policy wrapped so that the first simulation started
after T is the last. Each move is timed around the whole choice on both sides.

Run: ``.venv/bin/python -m bench.strength_oware --games 10 --time-ms 1000 [--tables FILE]``
(needs the ``bench`` extra for ``open_spiel``).
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from gamerec.validator.analysis.searcher import SearchSettings, exact_for, search
from gamerec.validator.games.ohwahree import OhWahReeState, OhWahReeVariant, Sow
from gamerec.validator.games.registry import entry_named
from gamerec.validator.players.elo import elo_estimate
from gamerec.validator.search.core import Exact, Limits
from gamerec.validator.tables.probing import TABLES_VARIABLE, Table, default_table

#: Stones on the board at the start; a store above half of them ends Oware.
STONES: Final = 48
#: Pits (Oware's houses) of each seat.
ROW: Final = 6
#: More simulations than any move makes: the time limit stops OpenSpiel's bot.
MOST_SIMULATIONS: Final = 10**9
#: OpenSpiel's UCT exploration constant, as ``bench.bench_search`` sets it.
UCT_C: Final = 2.0

FEEDING: Final = "feeding"
GRAND_SLAM: Final = "grand slam"
MORE_THAN_HALF: Final = "more than half"
NO_FEEDING_MOVE: Final = "no feeding move"
REPETITION: Final = "repetition"
POSITIONS_DIFFER: Final = "positions differ"
#: Why a game stopped, with what the rule sets do there (``no feeding move`` is a finish).
REASONS: Final[dict[str, str]] = {
    FEEDING: "Oware obliges the mover to feed an opponent with no stone; the move does not",
    GRAND_SLAM: "the move takes every stone of the opponent's row; Oware captures nothing",
    MORE_THAN_HALF: "a store holds more than half the stones: Oware ends, Oh-Wah-Ree goes on",
    REPETITION: "a position repeats since the last capture: Oware ends",
    POSITIONS_DIFFER: "the positions after the move differ",
}


def oware_action(seat: int, pit: int) -> int:
    """Oware's action for Oh-Wah-Ree's sowing of ``pit`` (1-12) by ``seat`` (1 or 2)."""
    return pit - 1 - ROW * (seat - 1)


def oware_pit(seat: int, action: int) -> int:
    """Oh-Wah-Ree's pit for Oware's ``action`` (0-5) of ``seat`` (1 or 2)."""
    return action + 1 + ROW * (seat - 1)


def oware_board(state: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """An Oware state's houses (Oh-Wah-Ree's pits 1-12) and its two scores.

    Read from its observation string, ``"<player> | <score 0> <score 1> | <12 houses>"``.
    """
    _, scores, houses = state.observation_string(0).split("|")
    return tuple(map(int, houses.split())), tuple(map(int, scores.split()))


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where and why the rule sets parted.

    Attributes:
        ply: the ply of the move at which they parted (1 is the game's first move).
        seat: the seat that made that move.
        reason: one of :data:`REASONS`.
        common: the last position both rule sets share, as an Oh-Wah-Ree state (before the
            move when the move itself parted them, after it when Oware ended there).
    """

    ply: int
    seat: int
    reason: str
    common: OhWahReeState


class Lockstep:
    """One game played on gamerec's Oh-Wah-Ree engine and OpenSpiel's Oware at once.

    Args:
        pyspiel: the ``pyspiel`` module.
    """

    def __init__(self, pyspiel: Any) -> None:
        """Both games at their start."""
        self.ohwahree = OhWahReeState(OhWahReeVariant(2))
        self.oware = pyspiel.load_game("oware").new_initial_state()
        self.ply = 0
        self._mover = 1
        self.divergence: Divergence | None = None
        #: :data:`NO_FEEDING_MOVE` when Oware ended there and Oh-Wah-Ree's end is forced.
        self.ending: str | None = None
        self.reached = [self.ohwahree.digest()]
        self._since_capture = {self._key(self.ohwahree, 1)}

    @property
    def over(self) -> bool:
        """Whether the game has stopped (parted) or finished under both rule sets."""
        return self.divergence is not None or self.finished

    @property
    def finished(self) -> bool:
        """Whether the game ended with both rule sets giving the same scores (see the module)."""
        return self.divergence is None and (self.ohwahree.is_over or self.ending is not None)

    def legal_pits(self) -> list[int]:
        """The pits Oh-Wah-Ree allows the seat to move to sow."""
        return [move.pit for move in self.ohwahree.legal_moves() if isinstance(move, Sow)]

    def both_legal(self) -> list[int]:
        """The pits both rule sets allow the seat to move to sow."""
        seat = self.ohwahree.to_move
        oware = set(self.oware.legal_actions())
        return [pit for pit in self.legal_pits() if oware_action(seat, pit) in oware]

    def play(self, pit: int) -> Divergence | None:
        """Sow ``pit`` under both rule sets; the divergence if they part here, else None.

        Raises:
            ValueError: the game is over, or neither rule set allows the move.
        """
        if self.over:
            raise ValueError("the game is over")
        state = self.ohwahree
        seat = self._mover = state.to_move
        action = oware_action(seat, pit)
        in_ohwahree = pit in self.legal_pits()
        in_oware = action in self.oware.legal_actions()
        self.ply += 1
        if not in_ohwahree and not in_oware:
            raise ValueError(f"ply {self.ply}: seat {seat} may not sow pit {pit} in either game")
        before = state.copy()
        if in_ohwahree != in_oware:
            fed = self._row_stones(state, 3 - seat) == 0 and in_ohwahree
            return self._part(FEEDING if fed else POSITIONS_DIFFER, before)
        events = state.play(Sow(pit))
        self.oware.apply_action(action)
        self.reached.append(state.digest())
        captured = any(event.kind == "capture" for event in events)
        if captured:
            self._since_capture.clear()
        key = self._key(state, 3 - seat)
        repeated = key in self._since_capture
        self._since_capture.add(key)
        slam = captured and self._row_stones(state, 3 - seat) == 0
        return self._compare(before, slam, repeated)

    def final_scores(self) -> tuple[int, int]:
        """Each seat's score of a finished game, the same under both rule sets.

        Raises:
            AssertionError: the rule sets score the game differently (a referee fault).
            ValueError: the game has not finished with the rule sets coinciding.
        """
        if not self.finished:
            raise ValueError("the game has not finished under both rule sets")
        pits, oware_scores = oware_board(self.oware)
        assert self.oware.is_terminal() and not any(pits), "Oware has not ended"
        ends = [self.ohwahree]
        if self.ending is not None:  # Oh-Wah-Ree ends after any move of the seat to move
            ends = [self._after(move) for move in self.ohwahree.legal_moves()]
        for state in ends:
            assert state.is_over and state.scores() == oware_scores, (state, oware_scores)
        scores, winners = ends[0].scores(), ends[0].winners()
        returns = self.oware.returns()
        assert (returns[0] > 0, returns[1] > 0) == (winners == (1,), winners == (2,)), returns
        return scores[0], scores[1]

    def decided_winner(self) -> int | None:
        """The seat both rule sets say wins (0 for a draw), or None when they do not both say.

        A finished game: by its scores. A game stopped by :data:`MORE_THAN_HALF`: the seat
        whose store holds more than half the stones (Oware's result is checked to agree).
        """
        if self.finished:
            first, second = self.final_scores()
            return 0 if first == second else 1 if first > second else 2
        found = self.divergence
        if found is None or found.reason != MORE_THAN_HALF:
            return None
        stores = found.common.stores
        winner = 1 if stores[0] > stores[1] else 2
        assert self.oware.returns()[winner - 1] > 0, self.oware.returns()
        return winner

    def _compare(self, before: OhWahReeState, slam: bool, repeated: bool) -> Divergence | None:
        """The divergence of the move just played on both, or None while they coincide."""
        state = self.ohwahree
        if slam:
            return self._part(GRAND_SLAM, before)
        oware_over = self.oware.is_terminal()
        pits, stores = oware_board(self.oware)
        if state.is_over and oware_over:
            same = not any(pits) and stores == state.scores()
            return None if same else self._part(POSITIONS_DIFFER, before)
        if not state.is_over and not oware_over:
            same = (pits, stores) == (state.pits, state.stores)
            same = same and self.oware.current_player() == state.to_move - 1
            return None if same else self._part(POSITIONS_DIFFER, before)
        if state.is_over:
            return self._part(POSITIONS_DIFFER, before)
        return self._oware_ended(before, repeated)

    def _oware_ended(self, before: OhWahReeState, repeated: bool) -> Divergence | None:
        """Why Oware ended after the move while Oh-Wah-Ree goes on (None: a finish, see above)."""
        state = self.ohwahree
        if repeated:
            return self._part(REPETITION, state.copy())
        if max(state.stores) > STONES // 2:
            return self._part(MORE_THAN_HALF, state.copy())
        if self._row_stones(state, 3 - state.to_move) == 0:
            self.ending = NO_FEEDING_MOVE
            return None
        return self._part(POSITIONS_DIFFER, before)

    def _after(self, move: Any) -> OhWahReeState:
        after = self.ohwahree.copy()
        after.play(move)
        return after

    def _part(self, reason: str, common: OhWahReeState) -> Divergence:
        self.divergence = Divergence(self.ply, self._mover, reason, common)
        return self.divergence

    @staticmethod
    def _row_stones(state: OhWahReeState, seat: int) -> int:
        first = ROW * (seat - 1)
        return sum(state.pits[first : first + ROW])

    @staticmethod
    def _key(state: OhWahReeState, to_move: int) -> tuple[Any, ...]:
        return (state.pits, state.stores, to_move)


@dataclass(frozen=True, slots=True)
class Choice:
    """A side's move and what it cost.

    Attributes:
        pit: the pit sown.
        seconds: the wall time the choice took.
        work: the search's work (gamerec: nodes; OpenSpiel: simulations).
    """

    pit: int
    seconds: float
    work: int


class Side(Protocol):
    """A player of the match."""

    name: str
    unit: str

    def choose(self, game: Lockstep) -> Choice:
        """The move for the seat to move of ``game`` (not changed)."""


class GamerecSide:
    """gamerec's search, as ``gamerec engine --policy search`` runs it, ``seconds`` a move."""

    name = "gamerec search"
    unit = "nodes"

    def __init__(self, seconds: float, seed: int = 1) -> None:
        """Search ``seconds`` a move, seeded as the engine seeds its searches."""
        self.entry = entry_named("Oh-Wah-Ree")
        self.variant = OhWahReeVariant(2)
        self.limits = Limits(time=seconds)
        self.seed = seed
        self.exact: Exact | None = exact_for(self.entry, self.variant)

    def choose(self, game: Lockstep) -> Choice:
        """Search the Oh-Wah-Ree position of ``game``."""
        started = time.perf_counter()
        state = game.ohwahree
        seed = f"{self.seed}:{game.ply + 1}:{state.digest()}"
        found = search(
            self.entry,
            self.variant,
            state,
            SearchSettings(self.limits, seed=seed),
            exact=self.exact,
            avoid=frozenset(game.reached),
        )
        assert isinstance(found.move, Sow)
        return Choice(found.move.pit, time.perf_counter() - started, found.nodes)


class OpenSpielSide:
    """OpenSpiel's ``MCTSBot`` on Oware (random rollouts), stopped by its own clock."""

    name = "OpenSpiel MCTS"
    unit = "simulations"

    def __init__(self, seconds: float, seed: int = 1) -> None:
        """The bot as ``bench.bench_search`` builds it, ``seconds`` a move."""
        np = importlib.import_module("numpy")
        spiel_mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        game = importlib.import_module("pyspiel").load_game("oware")
        evaluator = spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        random_state = np.random.RandomState(seed)
        self.bot = spiel_mcts.MCTSBot(
            game, UCT_C, MOST_SIMULATIONS, evaluator, solve=False, random_state=random_state
        )
        self.seconds = seconds
        self.deadline = 0.0
        self.simulations = 0
        self.bot._apply_tree_policy = self._timed(self.bot._apply_tree_policy)

    def _timed(self, tree_policy: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        """The bot's tree policy, ending the search with the first simulation after the time.

        ``mcts_search`` ends its loop once the root has an outcome (with ``solve`` off nothing
        else gives the root one, and the choice reads only the children). The root has children
        from the second simulation on, so a move makes at least two.
        """

        def timed(root: Any, state: Any) -> Any:
            self.simulations += 1
            found = tree_policy(root, state)
            if root.children and time.perf_counter() >= self.deadline:
                root.outcome = [0.0, 0.0]
            return found

        return timed

    def choose(self, game: Lockstep) -> Choice:
        """Search the Oware position of ``game``."""
        started = time.perf_counter()
        self.deadline = started + self.seconds
        self.simulations = 0
        action = self.bot.step(game.oware)
        pit = oware_pit(game.ohwahree.to_move, action)
        return Choice(pit, time.perf_counter() - started, self.simulations)


@dataclass(slots=True)
class GameRecord:
    """One game of the match.

    Attributes:
        number: the game's number (from 1).
        gamerec_seat: the seat gamerec's search played.
        opening: the plies of the random opening.
        plies: the moves played (the opening's included).
        divergence: where the rule sets parted, or None for a finished game.
        scores: a finished game's scores, seat order (the same under both rule sets).
        winner: the seat both rule sets say wins, 0 for a draw, None when undecided.
        choices: each side's choices (by side name).
    """

    number: int
    gamerec_seat: int
    opening: int = 0
    plies: int = 0
    divergence: Divergence | None = None
    scores: tuple[int, int] | None = None
    winner: int | None = None
    choices: dict[str, list[Choice]] = field(default_factory=dict)


def play_game(
    pyspiel: Any, sides: dict[int, Side], opening: list[int], number: int = 1
) -> GameRecord:
    """Play a game: the ``opening`` moves, then the sides by seat (a side's seat is its key)."""
    game = Lockstep(pyspiel)
    gamerec_seat = next(seat for seat, side in sides.items() if isinstance(side, GamerecSide))
    record = GameRecord(
        number, gamerec_seat, len(opening), choices={side.name: [] for side in sides.values()}
    )
    for pit in opening:
        if not game.over:
            game.play(pit)
    while not game.over:
        side = sides[game.ohwahree.to_move]
        choice = side.choose(game)
        record.choices[side.name].append(choice)
        game.play(choice.pit)
    record.plies = game.ply
    record.divergence = game.divergence
    record.scores = game.final_scores() if game.finished else None
    record.winner = game.decided_winner()
    return record


def random_opening(pyspiel: Any, plies: int, seed: int) -> list[int]:
    """A seeded opening of ``plies`` random moves legal under both rule sets."""
    rng = random.Random(seed)
    game = Lockstep(pyspiel)
    moves: list[int] = []
    while len(moves) < plies and not game.over:
        moves.append(rng.choice(game.both_legal()))
        game.play(moves[-1])
    return moves


def adjudicate(
    common: OhWahReeState, exact: Exact | None, table: Table | None = None
) -> tuple[str, int]:
    """The margin (seat 1's minus seat 2's) of a stopped game's last common position.

    ``("exact", m)``: the endgame table's final margin under perfect Oh-Wah-Ree play;
    ``("stores", d)``: the stores' difference, when the table has no exact value there; the
    kind says so when ``table`` covers the position and perfect play from it never ends.
    """
    margin = None if exact is None or common.is_over else exact(common)
    if margin is not None:
        return "exact", margin
    kind = "stores"
    if table is not None and not common.is_over and table.probe(common).never_ends:
        kind = "stores; the table: perfect play never ends there"
    return kind, common.stores[0] - common.stores[1]


def match(games: int, seconds: float, opening_plies: int, seed: int) -> list[GameRecord]:
    """Play ``games`` games, each opening twice with the seats swapped."""
    pyspiel = importlib.import_module("pyspiel")
    records = []
    for number in range(1, games + 1):
        pair = (number - 1) // 2
        gamerec_seat = 1 if number % 2 else 2
        gamerec = GamerecSide(seconds, seed)
        openspiel = OpenSpielSide(seconds, seed + number)
        sides: dict[int, Side] = {gamerec_seat: gamerec, 3 - gamerec_seat: openspiel}
        opening = random_opening(pyspiel, opening_plies, seed * 1000 + pair)
        records.append(play_game(pyspiel, sides, opening, number))
        print(game_line(records[-1], gamerec.exact), flush=True)
    return records


def game_line(record: GameRecord, exact: Exact | None) -> str:
    """One line for a game: its result or where and why it stopped."""
    head = f"game {record.number}: gamerec seat {record.gamerec_seat}, {record.plies} plies, "
    if record.scores is not None:
        return head + f"finished {record.scores[0]}-{record.scores[1]}"
    assert record.divergence is not None
    found = record.divergence
    kind, margin = adjudicate(found.common, exact, default_table())
    stores = "-".join(map(str, found.common.stores))
    return (
        head + f"stopped at ply {found.ply} ({found.reason}, moved by {_side(record, found)}),"
        f" stores {stores}, {kind} margin {margin:+d} for seat 1"
    )


def _side(record: GameRecord, found: Divergence) -> str:
    """Which side made the move where the rule sets parted (the opening's plies: nobody's)."""
    if found.ply <= record.opening:
        return "the opening"
    return GamerecSide.name if found.seat == record.gamerec_seat else OpenSpielSide.name


def report(records: list[GameRecord], exact: Exact | None) -> str:
    """The match's figures: finished and decided games with Elo, stopped games, moves and time."""
    finished = [record for record in records if record.scores is not None]
    decided = [record for record in records if record.winner is not None]
    lines = [
        f"finished under both rule sets (the same scores): {len(finished)} of {len(records)}"
        f" games; {_tally(finished)}",
        f"decided under both rule sets (the same winner; finished or more than half):"
        f" {len(decided)} games; {_tally(decided)}",
    ]
    if decided:
        wins, draws, losses = _results(decided)
        estimate = elo_estimate(wins, draws, losses)
        lines.append(f"  gamerec search against OpenSpiel MCTS, decided games: {estimate.line()}")
    lines.extend(_stopped_lines(records, exact))
    lines.extend(_effort_lines(records))
    return "\n".join(lines)


def _results(records: list[GameRecord]) -> tuple[int, int, int]:
    """The wins, draws and losses of gamerec's search among decided games."""
    counted = Counter(
        "draw" if record.winner == 0 else "win" if record.winner == record.gamerec_seat else "loss"
        for record in records
    )
    return counted["win"], counted["draw"], counted["loss"]


def _tally(records: list[GameRecord]) -> str:
    wins, draws, losses = _results(records)
    return (
        f"gamerec search {wins + draws / 2:g}, OpenSpiel MCTS {losses + draws / 2:g} points"
        f" (gamerec +{wins} ={draws} -{losses})"
    )


def _stopped_lines(records: list[GameRecord], exact: Exact | None) -> list[str]:
    stopped = [record for record in records if record.divergence is not None]
    reasons = Counter(record.divergence.reason for record in stopped if record.divergence)
    movers = Counter(
        (record.divergence.reason, _side(record, record.divergence))
        for record in stopped
        if record.divergence
    )
    lines = [f"stopped where the rule sets part: {len(stopped)} games"]
    for reason, count in sorted(reasons.items()):
        by = ", ".join(
            f"{movers[reason, side]} moved by {side}" for side in _SIDES if movers[reason, side]
        )
        lines.append(f"  {reason}: {count}, {by} ({REASONS[reason]})")
    for record in stopped:
        assert record.divergence is not None
        kind, margin = adjudicate(record.divergence.common, exact, default_table())
        ours = margin if record.gamerec_seat == 1 else -margin
        lines.append(
            f"  game {record.number}: ply {record.divergence.ply}, {record.divergence.reason}"
            f" by {_side(record, record.divergence)}, "
            f"stores {'-'.join(map(str, record.divergence.common.stores))}, "
            f"gamerec {ours:+d} ({kind})"
        )
    return lines


_SIDES: Final = (GamerecSide.name, OpenSpielSide.name, "the opening")


def _effort_lines(records: list[GameRecord]) -> list[str]:
    lines = []
    for name, unit in (
        (GamerecSide.name, GamerecSide.unit),
        (OpenSpielSide.name, OpenSpielSide.unit),
    ):
        choices = [choice for record in records for choice in record.choices.get(name, [])]
        if not choices:
            continue
        seconds = [choice.seconds for choice in choices]
        lines.append(
            f"{name}: {len(choices)} moves, {sum(seconds):.1f} s, "
            f"mean {statistics.mean(seconds):.3f} s, max {max(seconds):.3f} s a move, "
            f"mean {statistics.mean(choice.work for choice in choices):,.0f} {unit} a move"
        )
    return lines


def main() -> None:
    """Play the match and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games (pairs of seat orders)")
    parser.add_argument("--time-ms", type=int, default=1000, help="wall time a move, each side")
    parser.add_argument("--opening-plies", type=int, default=4, help="random plies to start")
    parser.add_argument("--seed", type=int, default=1, help="the seed of openings and searches")
    parser.add_argument("--tables", help="an Oh-Wah-Ree endgame table file (gamerec tables build)")
    options = parser.parse_args()
    if options.tables:
        os.environ[TABLES_VARIABLE] = options.tables
    records = match(options.games, options.time_ms / 1000, options.opening_plies, options.seed)
    print(report(records, exact_for(entry_named("Oh-Wah-Ree"), OhWahReeVariant(2))))


if __name__ == "__main__":
    main()
