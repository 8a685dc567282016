"""The built-in policies as engines of the engine protocol (``gamerec engine --policy P``).

:class:`PolicyEngine` is the engine side of docs/engine-protocol.md: it reads a host's lines
and answers them, playing every game of the registry with one of the choosers of
``generation`` (``random``: any legal decision; ``greedy``: the best lead one decision
ahead), or by ``search`` (``validator.players.search_player``: MCTS, alpha-beta, paranoid or
max-n within a time, node or playout limit and the clocks). :func:`serve` runs it over a
pair of text streams.

Its choice depends only on the seed, the game, the variant and the moves so far: the
generator of each move is seeded with the seed, the ply and the position's digest, and
``greedy`` avoids every position the game has already reached. A restarted engine, or
another process with the same seed, answers the same position the same way.
``position`` is read incrementally when it extends the last one (an engine is asked once per
ply and the game grows by a ply or two), so a game costs the engine one replay, not one per
move. ``greedy`` reports its search in an ``info`` line: the lead it expects (in hundredths of
a score point), depth 1, the decisions it weighed, and the move as its principal variation.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable
from typing import Any, Final

from gamerec.recorder.errors import GamerecError, excerpt
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.games import engine, game_names
from gamerec.validator.games.protocol import Engine, GameState
from gamerec.validator.games.registry import entry_named
from gamerec.validator.generation import (
    POLICIES,
    Choose,
    lead_of,
    policy_chooser,
    variant_options,
)
from gamerec.validator.players.bounds import MAX_HOST_LINE_BYTES, Unreadable
from gamerec.validator.players.lines import (
    PROTOCOL_VERSION,
    EngineError,
    GameOver,
    Go,
    Hello,
    HelloDone,
    HostCommand,
    HostError,
    Identity,
    Info,
    MoveAnswer,
    NewGame,
    Ping,
    Plays,
    Pong,
    Position,
    ProtocolError,
    Quit,
    Ready,
    is_blank,
    parse_host_line,
)
from gamerec.validator.players.search_info import Score, SearchInfo
from gamerec.validator.players.search_player import ply_seconds, search_ply, settings_limits

#: The policy that searches (``validator.search``), beside generation's random and greedy.
SEARCH: Final = "search"
#: The ``id author`` of the built-in engines.
AUTHOR: Final = "the gamerec authors"


class _Game:
    """One game as the engine follows it: the engine, the variant, its seat, the moves so far."""

    def __init__(self, command: NewGame) -> None:
        self.rules: Engine[Any, Any] = engine(command.game)
        self.variant = self.rules.variant_from_tags(
            variant_options(self.rules.name, command.variant)
        )
        self.state: GameState[Any] = self.rules.new_game(self.variant)
        if command.seat > self.state.seats:
            raise GamerecError(f"seat {command.seat} is not a seat of this game")
        self.seat = command.seat
        self.tokens: list[str] = []
        self.reached: list[str] = [self.state.digest()]

    def follow(self, moves: tuple[str, ...]) -> None:
        """Bring the position to ``moves``, from the last one when they extend it.

        Raises:
            GamerecError: a move that is not a token of the game, or illegal where it stands.
        """
        if tuple(self.tokens) != moves[: len(self.tokens)]:
            self.state = self.rules.new_game(self.variant)
            self.tokens, self.reached = [], [self.state.digest()]
        for ply, token in enumerate(moves[len(self.tokens) :], start=len(self.tokens) + 1):
            try:
                self.state.play(self.rules.parse_move(self.variant, token))
            except GamerecError as error:
                raise GamerecError(f"position: ply {ply} {excerpt(token)}: {error}") from None
            self.tokens.append(token)
            self.reached.append(self.state.digest())


class PolicyEngine:
    """An engine that plays by a built-in policy; feed it lines with :meth:`answer`.

    Args:
        policy: ``random`` or ``greedy``.
        seed: the seed of every choice (see the module docstring).

    Raises:
        ValueError: an unknown policy.
    """

    def __init__(self, policy: str, seed: int = 1, search: SearchSettings | None = None) -> None:
        """An engine that has not shaken hands yet."""
        if policy not in (*POLICIES, SEARCH):
            choices = ", ".join((*POLICIES, SEARCH))
            raise ValueError(f"unknown policy {policy!r}; choose one of {choices}")
        self.policy = policy
        self.seed = seed
        self.search = search or SearchSettings(settings_limits(None, None, None))
        self.finished = False
        self._game: _Game | None = None
        self._position_error = ""

    @property
    def name(self) -> str:
        """The ``id name`` it gives: ``gamerec greedy (seed 1)``."""
        return f"gamerec {self.policy} (seed {self.seed})"

    def answer(self, line: str) -> list[str]:
        """The lines to write in answer to one line from the host (often none).

        After ``quit`` :attr:`finished` is true. A line that is not a command is answered
        with ``error`` naming the problem, and the engine goes on.
        """
        if is_blank(line):
            return []
        if _longer_than_allowed(line):
            size = len(line.encode("utf-8", "surrogatepass"))
            return [
                EngineError(f"a line of {size:,} bytes, longer than {MAX_HOST_LINE_BYTES:,}").line()
            ]
        try:
            command = parse_host_line(line)
        except ProtocolError as error:
            return [EngineError(str(error)).line()]
        return [message.line() for message in self._answers(command)]

    def _answers(self, command: HostCommand) -> list[Any]:
        if isinstance(command, Hello):
            return self._hello()
        if isinstance(command, NewGame):
            return [self._new_game(command)]
        if isinstance(command, Position):
            return self._position(command)
        if isinstance(command, Go):
            return self._go(command)
        if isinstance(command, Ping):
            return [Pong(command.token)]
        if isinstance(command, Quit):
            self.finished = True
        assert isinstance(command, HostError | GameOver | Quit)
        return []

    def _hello(self) -> list[Any]:
        identity = [
            Identity("name", self.name),
            Identity("author", AUTHOR),
            Identity("version", _version()),
        ]
        return [*identity, *(Plays(name) for name in game_names()), HelloDone(PROTOCOL_VERSION)]

    def _new_game(self, command: NewGame) -> Ready | EngineError:
        self._game, self._position_error = None, ""
        try:
            self._game = _Game(command)
        except GamerecError as error:
            return EngineError(f"newgame: {error}")
        return Ready()

    def _position(self, command: Position) -> list[EngineError]:
        if self._game is None:
            return [EngineError("position before newgame")]
        try:
            self._game.follow(command.moves)
        except GamerecError as error:
            self._game.tokens, self._position_error = [], str(error)
            return [EngineError(str(error))]
        self._position_error = ""
        return []

    def _go(self, command: Go) -> list[Any]:
        game = self._game
        if game is None:
            return [EngineError("go before newgame")]
        if self._position_error:
            return [EngineError(f"go without a valid position ({self._position_error})")]
        state = game.state
        if state.is_over:
            return [EngineError("go after the end of the game")]
        if state.to_move != game.seat:
            return [EngineError(f"go, but seat {state.to_move} is to move, not seat {game.seat}")]
        if self.policy == SEARCH:
            return self._searched(game, command)
        return self._choice(game)

    def _searched(self, game: _Game, command: Go) -> list[Any]:
        state = game.state
        settings = dataclasses.replace(
            self.search, seed=f"{self.seed}:{len(game.tokens) + 1}:{state.digest()}"
        )
        seconds = ply_seconds(settings, command.clock, state.to_move)
        entry = entry_named(game.rules.name)
        ply = search_ply(
            entry, game.variant, state, settings, seconds=seconds, reached=frozenset(game.reached)
        )
        return [Info(ply.info), MoveAnswer(ply.token)]

    def _choice(self, game: _Game) -> list[Any]:
        mover = game.state.to_move
        rng = random.Random(f"{self.seed}:{len(game.tokens) + 1}:{game.state.digest()}")
        weighed = [0]
        chooser = _counting(policy_chooser(self.policy, rng, set(game.reached)), weighed)
        after = game.state.copy()
        move = game.rules.play_chosen(after, chooser)
        token = game.rules.format_move(game.variant, move)
        answers: list[Any] = []
        if self.policy == "greedy":
            lead = 100 * lead_of(after, mover)[0]
            info = SearchInfo(score=Score("value", lead), depth=1, nodes=weighed[0], pv=(token,))
            answers.append(Info(info))
        return [*answers, MoveAnswer(token)]


def _longer_than_allowed(line: str) -> bool:
    """Whether a line is over the host's bound (its bytes counted only when they may be)."""
    if len(line) * 4 <= MAX_HOST_LINE_BYTES:  # UTF-8 takes at most 4 bytes a character
        return False
    return (
        len(line) > MAX_HOST_LINE_BYTES
        or len(line.encode("utf-8", "surrogatepass")) > MAX_HOST_LINE_BYTES
    )


def _counting(choose: Choose, weighed: list[int]) -> Choose:
    """``choose``, counting the decisions it is offered into ``weighed[0]``."""

    def counted(state: GameState[Any], options: list[Any]) -> Any:
        weighed[0] += len(options)
        return choose(state, options)

    return counted


def _version() -> str:
    from gamerec import __version__  # noqa: PLC0415 (the front door imports this package lazily)

    return __version__


def serve(
    policy: str,
    seed: int,
    lines: Iterable[str | Unreadable],
    write: Callable[[str], None],
    search: SearchSettings | None = None,
) -> None:
    """Answer a host's ``lines`` with ``write`` until ``quit`` or the end of the input.

    ``lines`` come from :func:`~gamerec.validator.players.bounds.read_lines` (a line it could
    not take is answered with ``error``, and the engine goes on), or any iterable of text.
    ``write`` gets the answer to each line (its lines, each with its newline) and must flush it.
    """
    player = PolicyEngine(policy, seed, search)
    for line in lines:
        if isinstance(line, Unreadable):
            write(f"{EngineError(line.reason).line()}\n")
            continue
        answers = player.answer(line.rstrip("\r\n"))
        if answers:
            write("".join(f"{answer}\n" for answer in answers))
        if player.finished:
            return
