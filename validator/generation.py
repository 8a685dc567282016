"""Complete legal games as records, for fixtures, demos and benchmarks (``gamerec generate``).

Every game is played by the engine from its start position to its end, so every generated
record is legal and claims the rules' result. The same seed always gives the same records:
record ``i`` of a run uses its own generator seeded with ``"<seed>:<i>"``.

Policies:

- ``random``: every legal decision equally likely (the engines' own ``random_game``);
- ``greedy``: the decision that leaves the mover best off one decision ahead: the largest
  lead in score over the best other seat, then the largest lead in places held on the board
  (stones, owned fields, stones in own pits), ties broken at random, never back into a
  position already reached while a decision leads elsewhere (so greedy play cannot cycle).
  Cheap, and it plays more purposeful games (captures are taken, fields are completed) than
  ``random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.notation import game_from_name, parse_action
from gamerec.recorder.syntax import syntax_named
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import engine
from gamerec.validator.games.protocol import Engine, GameState, VariantError

POLICIES = ("random", "greedy")
SEAT_NAMES = ("Ana", "Ben", "Chi", "Dev", "Eli", "Fay")

Choose = Callable[[GameState[Any], list[Any]], Any]


def generate(
    game: str,
    tags: Mapping[str, str],
    count: int,
    seed: int,
    policy: str = "random",
) -> Iterator[pb.GameRecord]:
    """Yield ``count`` complete legal games of ``game`` under the variant ``tags``.

    Args:
        game: the GRN game name (``ONE``, ``Aronda``, ``Oust``, ``Oh-Wah-Ree``).
        tags: GRN variant tags (``{"Players": "3", "Board": "10,10,20"}``).
        count: how many records.
        seed: the run's seed; the same seed gives the same records.
        policy: ``random`` or ``greedy`` (see the module docstring).

    Raises:
        VariantError: an unknown game, a tag that is not one of the game's variant options,
            or an impossible variant.
        ValueError: an unknown policy.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")
    found = engine(game)
    tags = variant_options(found.name, tags)
    variant = found.variant_from_tags(dict(tags))
    for index in range(1, count + 1):
        rng = random.Random(f"{seed}:{index}")
        choose = greedy_chooser(rng) if policy == "greedy" else None
        moves = found.random_game(variant, rng, choose)
        yield _record(found, variant, tags, moves, seed=seed, index=index, policy=policy)


def variant_options(game: str, tags: Mapping[str, str]) -> dict[str, str]:
    """The variant tags with their names as GRN writes them (``players`` -> ``Players``).

    Raises:
        VariantError: a tag that is not a variant option of ``game``.
    """
    syntax = syntax_named(game)
    assert syntax is not None
    names = {option.tag.lower(): option.tag for option in syntax.options}
    options = {}
    for tag, value in tags.items():
        name = names.get(tag.lower())
        if name is None:
            known = ", ".join(names.values())
            raise VariantError(f"{game} has no variant option {tag!r}; its options: {known}")
        options[name] = value
    return options


def _record(
    found: Engine[Any, Any],
    variant: Any,
    tags: Mapping[str, str],
    moves: list[Any],
    *,
    seed: int,
    index: int,
    policy: str,
) -> pb.GameRecord:
    """The record of one generated game, claiming the rules' result."""
    record = pb.GameRecord(format_version=1)
    read_tag(record, "Game", found.name)
    for tag, value in tags.items():
        read_tag(record, tag, value)
    state = found.new_game(variant)
    game = game_from_name(found.name)
    assert game is not None
    for engine_move in moves:
        move = parse_action(game, found.format_move(variant, engine_move))
        move.seat = state.to_move
        state.play(engine_move)
        record.moves.append(move)
    record.seats.extend(pb.Seat(name=SEAT_NAMES[seat % 6]) for seat in range(state.seats))
    record.metadata.event = "gamerec generate"
    record.metadata.round = str(index)
    record.metadata.client = f"gamerec generate --seed {seed} --policy {policy}"
    if state.is_over:
        record.result.scores.values.extend(state.scores())
        record.result.winners.extend(state.winners())
        record.result.termination = pb.TERMINATION_NORMAL
    else:
        # Some variants can cycle for ever (Oh-Wah-Ree, 4 seats, Direction ccw: forced moves
        # repeat with no repetition rule); the engine stops such a game, which stays open.
        record.result.unfinished.SetInParent()
        record.comment = "Stopped: the position repeats for ever under forced moves."
    return record


def policy_chooser(policy: str, rng: random.Random, seen: set[str] | None = None) -> Choose:
    """The chooser of a policy (``random`` or ``greedy``, see the module docstring).

    Args:
        policy: ``random`` or ``greedy``.
        rng: the generator that breaks ties (and makes every ``random`` choice).
        seen: digests of the positions the game has already reached (``greedy`` avoids
            them); the chooser adds each position it is asked about.

    Raises:
        ValueError: an unknown policy.
    """
    if policy == "greedy":
        return greedy_chooser(rng, seen)
    if policy == "random":

        def choose_any(state: GameState[Any], options: list[Any]) -> Any:
            return rng.choice(options)

        return choose_any
    raise ValueError(f"unknown policy {policy!r}; choose one of {', '.join(POLICIES)}")


def greedy_chooser(rng: random.Random, seen: set[str] | None = None) -> Choose:
    """A chooser that takes the decision with the best lead one decision ahead.

    It never walks into a position the game has already reached (``seen``, and every
    position it was asked about) while another decision leads somewhere new: greedy play
    alone can cycle for ever (Oh-Wah-Ree with 4 seats repeats a position every 4 plies when
    each seat takes its best sowing back and forth). When every decision leads to a position
    seen before, it chooses at random, and random play leaves any cycle that has a way out.
    """
    reached: set[str] = set() if seen is None else seen

    def choose(state: GameState[Any], options: list[Any]) -> Any:
        mover = state.to_move
        reached.add(state.digest())
        best: list[Any] = []
        best_value: tuple[int, int] | None = None
        for option in options:
            child = state.copy()
            child.decide(option)
            if child.digest() in reached:
                continue
            value = lead_of(child, mover)
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        return rng.choice(best or options)

    return choose


def lead_of(state: GameState[Any], seat: int) -> tuple[int, int]:
    """``seat``'s (score lead over the best other seat, lead in places held on the board)."""
    scores = state.scores()
    others = [score for other, score in enumerate(scores, start=1) if other != seat]
    held = [0] * (len(scores) + 1)
    for site in state.position().sites:
        held[site.owner] += site.pieces[0] if len(site.pieces) == 1 else 1
    held_others = [held[other] for other in range(1, len(scores) + 1) if other != seat]
    return scores[seat - 1] - max(others, default=0), held[seat] - max(held_others, default=0)
