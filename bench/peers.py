"""The peers gamerec is measured against, timed on the same run and the same machine.

- OpenSpiel's Oware (``open_spiel``, C++ behind pybind11), the closest relative of
  Oh-Wah-Ree: 2,000 seeded random games replayed with a legality check per move
  (``action in state.legal_actions()``, then ``apply_action``).
- python-chess (``chess``) reading and replaying PGN: seeded random legal games are made with
  python-chess and written as one PGN text (not timed); the figure is ``chess.pgn.read_game``
  over all of it (which parses and checks every SAN move) plus replaying each game's main
  line on a board, in plies per second.
- sgfmill replaying 9x9 Go: seeded random legal games (no suicide, no simple ko), replayed
  with ``Board.play`` per move and the same two checks, in plies per second.

The peers live in the optional ``bench`` extra (``pip install -e '.[bench]'``; ``make
bench`` installs it). A peer that cannot be imported is reported and left out, never faked.
Generated PGN and Go games are cached in ``bench/.data`` (seeded: the same every time).
"""

from __future__ import annotations

import importlib
import io
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bench.figures import DATA

#: Random Go games stop here if both players have not passed before (random play on 9x9
#: otherwise fills and refills the board for hundreds of plies).
GO_MOST_PLIES = 160
#: Random chess games stop here (a random chess game otherwise runs to the 75-move rule).
CHESS_MOST_PLIES = 200
GO_SIDE = 9

GoMove = tuple[str, int, int] | None


class PeerMissingError(Exception):
    """A peer library is not installed (the ``bench`` extra)."""


@dataclass(frozen=True, slots=True)
class PeerRun:
    """A peer ready to be timed in turn with what it is compared with.

    Attributes:
        name: the peer and what it does.
        games: how many games each run replays.
        plies: plies in all of them (each run's work).
        run: one run over all the games.
    """

    name: str
    games: int
    plies: int
    run: Callable[[], object]


def oware_run(count: int, seed: int = 20261129) -> PeerRun:
    """OpenSpiel Oware's checked replay of ``count`` random games, ready to time."""
    game, games = oware_games(_import("pyspiel"), count, seed)
    plies = sum(map(len, games))
    return PeerRun(
        "OpenSpiel Oware: checked replay", count, plies, lambda: oware_replay_all(game, games)
    )


def chess_run(count: int, seed: int = 20261129) -> PeerRun:
    """python-chess reading and replaying ``count`` random PGN games, ready to time."""
    pgn = _import("chess.pgn")
    text = chess_pgn(count, seed)
    plies = chess_read_and_replay(pgn, text)
    return PeerRun(
        "python-chess: read and replay PGN", count, plies, lambda: chess_read_and_replay(pgn, text)
    )


def go_run(count: int, seed: int = 20261129) -> PeerRun:
    """Sgfmill's 9x9 Go replay of ``count`` random games, ready to time."""
    boards = _import("sgfmill.boards")
    games = go_games(count, seed)
    plies = sum(map(len, games))
    return PeerRun("sgfmill: 9x9 Go replay", count, plies, lambda: go_replay_all(boards, games))


def _import(name: str) -> Any:
    """A peer's module, or PeerMissingError naming the extra to install."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise PeerMissingError(
            f"{name} is not importable ({error}); install the bench extra: "
            f"pip install -e '.[bench]'"
        ) from None


# -- OpenSpiel Oware -----------------------------------------------------------------------------


def oware_games(pyspiel: Any, count: int, seed: int) -> tuple[Any, list[list[int]]]:
    """OpenSpiel's Oware and ``count`` random games of it (one generator), as action lists."""
    game = pyspiel.load_game("oware")
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state = game.new_initial_state()
        actions = []
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(action)
        games.append(actions)
    return game, games


def oware_replay_all(game: Any, games: list[list[int]]) -> None:
    """Replay every Oware game, checking each action against the legal actions."""
    for actions in games:
        state = game.new_initial_state()
        for action in actions:
            if action not in state.legal_actions():
                raise AssertionError("a generated Oware game does not replay")
            state.apply_action(action)


# -- python-chess --------------------------------------------------------------------------------


def chess_pgn(count: int, seed: int) -> str:
    """``count`` random legal chess games as one PGN text (game i from ``Random(seed + i)``)."""
    chess = _import("chess")
    pgn = _import("chess.pgn")
    path = DATA / f"chess-{count}-{seed}-{chess.__version__}.pgn"
    if path.exists():
        return path.read_text()
    texts = []
    for number in range(count):
        rng = random.Random(seed + number)
        board = chess.Board()
        game = pgn.Game()
        game.headers["Round"] = str(number + 1)
        node = game
        while not board.is_game_over() and board.ply() < CHESS_MOST_PLIES:
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result()
        texts.append(str(game))
    text = "\n\n".join(texts) + "\n"
    DATA.mkdir(exist_ok=True)
    path.write_text(text)
    return text


def chess_read_and_replay(pgn: Any, text: str) -> int:
    """Read every game of ``text`` and replay its main line; the plies replayed."""
    plies = 0
    stream = io.StringIO(text)
    while (game := pgn.read_game(stream)) is not None:
        if game.errors:
            raise AssertionError(f"python-chess rejected a generated game: {game.errors[0]}")
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
    return plies


# -- sgfmill Go ----------------------------------------------------------------------------------


def go_game(boards: Any, rng: random.Random) -> list[GoMove]:
    """One random legal 9x9 game: black first, no suicide, no simple ko; None is a pass."""
    board = boards.Board(GO_SIDE)
    colour, ko, passes = "b", None, 0
    moves: list[GoMove] = []
    while passes < 2 and len(moves) < GO_MOST_PLIES:
        points = [(row, col) for row in range(GO_SIDE) for col in range(GO_SIDE)]
        rng.shuffle(points)
        played: GoMove = None
        for row, col in points:
            if board.get(row, col) is not None or (row, col) == ko:
                continue
            trial = board.copy()
            new_ko = trial.play(row, col, colour)
            if trial.get(row, col) is None:  # suicide
                continue
            board, ko, played = trial, new_ko, (colour, row, col)
            break
        passes = passes + 1 if played is None else 0
        if played is None:
            ko = None
        moves.append(played)
        colour = "w" if colour == "b" else "b"
    return moves


def go_games(count: int, seed: int) -> list[list[GoMove]]:
    """``count`` random 9x9 games (game i from ``Random(seed + i)``), cached as JSON."""
    boards = _import("sgfmill.boards")
    path = DATA / f"go9-{count}-{seed}-{GO_MOST_PLIES}.json"
    if path.exists():
        stored = json.loads(path.read_text())
        return [[tuple(move) if move else None for move in game] for game in stored]
    games = [go_game(boards, random.Random(seed + number)) for number in range(count)]
    DATA.mkdir(exist_ok=True)
    path.write_text(json.dumps(games))
    return games


def go_replay_all(boards: Any, games: list[list[GoMove]]) -> None:
    """Replay every game with ``Board.play``, checking occupation, suicide and simple ko."""
    for moves in games:
        board = boards.Board(GO_SIDE)
        ko = None
        for move in moves:
            if move is None:
                ko = None
                continue
            colour, row, col = move
            if (row, col) == ko:
                raise AssertionError("a generated Go game retakes a ko")
            ko = board.play(row, col, colour)  # raises ValueError on an occupied point
            if board.get(row, col) is None:
                raise AssertionError("a generated Go game commits suicide")
