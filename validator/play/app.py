"""The Textual application of ``gamerec play``: the screen of :mod:`.screen`, the input line.

It follows the match's events (reconnecting after a lost connection, from the next event),
asks for the match's state after each batch of them, shows it, counts the running clock down
every tenth of a second, and carries out what the person types (:mod:`.commands`). Tab
completes a move, and the input suggests the rest of a legal move as it is typed.
:attr:`PlayApp.state` is the match as last read; the app returns it when the person quits.
Under the status come the notes (what the match did: draw offers, outages), then the
answers to what the person typed (an illegal move, the help listing, the ``?`` listing of
:attr:`PlayApp.hint`), which stay only until the next ply is played or the game ends; the end
itself is the status line's (``render.ending``), said once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import ClassVar, Final

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.suggester import Suggester
from textual.widgets import Input, Static

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.games.registry import entry_of
from gamerec.validator.play.commands import (
    Action,
    Command,
    common_completion,
    completions,
    help_lines,
    hint_lines,
    read_command,
)
from gamerec.validator.play.screen import (
    board_picture,
    ply_lines,
    seat_lines,
    status_line,
    title_line,
)
from gamerec.validator.play.table import Table, TableLostError, TableRefusedError

#: Seconds between redraws of the clocks.
TICK_SECONDS: Final = 0.1
#: Notes kept on screen (the newest last).
NOTES_KEPT: Final = 8
#: Seconds between tries to reach a server that went away, at first and at most.
FIRST_PAUSE: Final = 0.2
LONGEST_PAUSE: Final = 5.0


class LegalMoveSuggester(Suggester):
    """Suggests the first legal move (or command word) that completes what is typed."""

    def __init__(self, legal: Callable[[], Sequence[str]]) -> None:
        """Suggest from ``legal()``, the moves legal now."""
        super().__init__(use_cache=False, case_sensitive=True)
        self._legal = legal

    async def get_suggestion(self, value: str) -> str | None:
        """The first completion of ``value``, if any."""
        if not value:
            return None
        found = completions(value, self._legal())
        return found[0] if found else None


class MoveInput(Input):
    """The input line; Tab completes as far as the legal moves agree."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "complete", "complete the move", show=False, priority=True)
    ]

    def __init__(self, legal: Callable[[], Sequence[str]]) -> None:
        """An input whose completions come from ``legal()``."""
        super().__init__(
            placeholder="a move, ? for the legal ones, help for the commands",
            suggester=LegalMoveSuggester(legal),
            id="move",
        )
        self._legal = legal

    def action_complete(self) -> None:
        """Complete what is typed as far as every completion agrees."""
        self.value = common_completion(self.value, self._legal())
        self.cursor_position = len(self.value)


class PlayApp(App[mpb.MatchState | None]):
    """``gamerec play``'s screen for one seat at a table (see the module docstring).

    Args:
        table: the seat's table.
        clock: the monotonic clock the countdown is measured on (seconds).
    """

    CSS: ClassVar[str] = """
    #title { text-style: bold; height: 1; }
    #main { height: auto; }
    #board { width: auto; height: auto; padding: 1 3 1 0; }
    #side { width: 1fr; height: auto; padding: 1 0; }
    #seats { height: auto; margin-bottom: 1; }
    #plies { height: auto; }
    #status { text-style: bold; height: auto; margin-top: 1; }
    #notes { height: auto; }
    """
    TITLE = "gamerec play"

    def __init__(self, table: Table, clock: Callable[[], float] = time.monotonic) -> None:
        """The screen of ``table``'s seat."""
        super().__init__()
        self.table = table
        self.clock = clock
        self.state: mpb.MatchState | None = None
        self.read_at = 0.0
        self.flipped = False
        self.decided: tuple[str, ...] = ()
        self.notes: list[str] = []
        self.answers: list[str] = []
        self.hint: list[str] = []
        self.last_event = 0
        self._dirty = asyncio.Event()

    # -- the screen -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Title, board beside seats and plies, status, notes, the input line."""
        yield Static("connecting...", id="title")
        with Horizontal(id="main"):
            yield Static("", id="board")
            with Vertical(id="side"):
                yield Static("", id="seats")
                yield Static("", id="plies")
        yield Static("", id="status")
        yield Static("", id="notes")
        yield MoveInput(self.legal_now)

    def on_mount(self) -> None:
        """Start following the match and the clock."""
        self.query_one(MoveInput).focus()
        self.follow_events()
        self.keep_state()
        self.set_interval(TICK_SECONDS, self.draw_seats)

    def legal_now(self) -> Sequence[str]:
        """The legal moves (next decisions) of the seat to move, as last read."""
        return list(self.state.legal_moves) if self.state is not None else []

    @property
    def my_turn(self) -> bool:
        """Whether the person's seat is to move."""
        return self.state is not None and self.state.to_move == self.table.seat

    def elapsed_ms(self) -> int:
        """Milliseconds since the state was read."""
        return int((self.clock() - self.read_at) * 1000)

    def draw(self) -> None:
        """Redraw everything from the state (nothing once the screen is gone)."""
        state = self.state
        if state is None or not self.is_running:
            return
        self.query_one("#title", Static).update(title_line(state))
        self.query_one("#board", Static).update(board_picture(state.record, self.flipped))
        self.draw_seats()
        self.query_one("#plies", Static).update("\n".join(ply_lines(state.record, 12)) or "")
        self.query_one("#status", Static).update(status_line(state, self.table.seat, self.decided))
        shown = [*self.notes[-NOTES_KEPT:], *self.answers, *self.hint]
        self.query_one("#notes", Static).update(Text("\n".join(shown)))

    def draw_seats(self) -> None:
        """Redraw the seats and their clocks (every tick)."""
        if self.state is not None and self.is_running:
            lines = seat_lines(self.state, self.table.seat, self.elapsed_ms())
            self.query_one("#seats", Static).update(Text("\n".join(lines)))

    def note(self, *lines: str) -> None:
        """Add lines to the notes under the status (what the match did: they stay)."""
        self.notes.extend(lines)
        del self.notes[:-NOTES_KEPT]
        self.draw()

    def answer(self, *lines: str) -> None:
        """Show the answer to what the person typed (an illegal move, the help listing...).

        Answers stay under the notes until the next ply is played or the game ends.
        """
        self.answers = list(lines)
        self.draw()

    # -- following the match --------------------------------------------------------------------

    @work(exclusive=False, group="follow")
    async def follow_events(self) -> None:
        """Every event from the next one on; after a lost connection, again from there."""
        pause = FIRST_PAUSE
        while True:
            try:
                async for event in self.table.events(self.last_event + 1):
                    self.last_event = event.number
                    self._take(event)
                    pause = FIRST_PAUSE
                self._dirty.set()
                return
            except TableLostError as lost:
                self.note(f"{lost}; trying again")
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
            except TableRefusedError as refused:
                self.note(f"cannot watch the match: {refused}")
                return

    def _take(self, event: mpb.MatchEvent) -> None:
        """Note what an event says that the board does not show; ask for the state."""
        line = event_note(event, self.table.seat)
        if line:
            self.note(line)
        if event.WhichOneof("kind") in ("move", "ended"):
            # The listing, the help and the refusals were of the position before.
            self.decided, self.hint, self.answers = (), [], []
        self._dirty.set()

    @work(exclusive=False, group="state")
    async def keep_state(self) -> None:
        """Read the state each time events came (once per batch), and show it."""
        pause = FIRST_PAUSE
        while True:
            await self._dirty.wait()
            self._dirty.clear()
            try:
                await self.read_state()
                pause = FIRST_PAUSE
            except TableLostError:
                self._dirty.set()
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)

    async def read_state(self) -> None:
        """Read the match now (with this turn's placements so far) and redraw."""
        decided = self.decided if self._turn_is_mine_still() else ()
        try:
            state = await self.table.state(decided)
        except TableRefusedError:
            self.decided = ()
            state = await self.table.state()
        self.state, self.read_at = state, self.clock()
        self.draw()

    def _turn_is_mine_still(self) -> bool:
        return bool(self.decided) and self.my_turn

    # -- what the person types ------------------------------------------------------------------

    async def on_input_submitted(self, submitted: Input.Submitted) -> None:
        """Carry out a typed line."""
        submitted.input.value = ""
        command = read_command(submitted.value)
        try:
            await self.carry_out(command)
        except TableRefusedError as refused:
            self.answer(f"refused: {refused}")
        except TableLostError as lost:
            self.answer(f"{lost}; type it again")

    async def carry_out(self, command: Command) -> None:
        """Do what a command asks.

        Raises:
            TableRefusedError: the match refused it.
            TableLostError: the server cannot be reached.
        """
        action = command.action
        if action is Action.QUIT:
            self.exit(self.state)
        elif action is Action.FLIP:
            self.flipped = not self.flipped
            self.draw()
        elif action is Action.HELP:
            self.answer(*help_lines(self.moves_help()))
        elif action is Action.HINT:
            self._hint()
        elif action is Action.MOVE:
            await self.move(command.decisions)
        elif action is not Action.NOTHING:
            await self._seat_command(action)

    def moves_help(self) -> str:
        """How a move of the game being played is typed (its registry entry's words)."""
        entry = entry_of(self.state.record.rules.game) if self.state is not None else None
        return entry.wording.moves if entry is not None else "a move in the game's notation"

    def _hint(self) -> None:
        state = self.state
        if state is None or not state.to_move:
            self.answer("no one is to move")
            return
        lines = hint_lines(state.legal_moves, self.decided)
        if state.to_move != self.table.seat:
            lines[0] = f"seat {state.to_move} to move; {lines[0]}"
        self.hint = lines
        self.draw()

    async def _seat_command(self, action: Action) -> None:
        done = {
            Action.RESIGN: (self.table.resign, "you resigned"),
            Action.DRAW: (self.table.offer_draw, "draw offered (or accepted)"),
            Action.DECLINE: (lambda: self.table.answer_draw(False), "draw declined"),
            Action.ABORT: (self.table.abort, "you called the match off"),
        }
        call, said = done[action]
        await call()
        self.note(said)

    async def move(self, decisions: Sequence[str]) -> None:
        """Play a move (or the next placements of a turn); an illegal one is explained.

        Raises:
            TableRefusedError: the match refused the call (not the seat's turn, the match over).
            TableLostError: the server cannot be reached.
        """
        state = self.state
        if state is None or not state.to_move:
            self.answer("the match is not being played")
            return
        if not self.my_turn:
            self.answer(f"it is seat {state.to_move}'s turn, not yours")
            return
        decided = (*self.decided, *decisions)
        try:
            checked = await self.table.state(decided)
        except TableRefusedError as refused:
            if state.illegal_move_policy == mpb.ILLEGAL_MOVE_POLICY_FORFEIT:
                self.decided = ()
                self.answer(f"not sent (an illegal move forfeits this match): {refused}")
                return
            checked = None
        self.hint = []
        if checked is not None and not checked.turn_complete:
            self.decided = decided
            self.state, self.read_at = checked, self.clock()
            self.answer(f"placed {','.join(decided)}: place again (? lists the placements)")
            return
        self.decided = ()
        answer = await self.table.play(state.plies + 1, ",".join(decided))
        if answer.illegal is not None:
            self.answer(f"illegal: {answer.illegal.code}: {answer.illegal.message}; try again")
            self._dirty.set()


def event_note(event: mpb.MatchEvent, me: int) -> str:
    """The line an event adds to the notes ("" for a move or a signature: the board shows it)."""
    describe = _EVENT_NOTES.get(str(event.WhichOneof("kind")))
    return describe(event, lambda seat: "you" if seat == me else f"seat {seat}") if describe else ""


#: What each kind of event says (given the event, and who a seat is to the person).
_EVENT_NOTES: Final[dict[str, Callable[[mpb.MatchEvent, Callable[[int], str]], str]]] = {
    "draw_offered": lambda event, who: f"{who(event.draw_offered.seat)} offered a draw",
    "draw_answered": lambda event, who: (
        f"{who(event.draw_answered.seat)} "
        f"{'accepted' if event.draw_answered.accept else 'declined'} the draw"
    ),
    "draw_offer_lapsed": lambda event, who: (
        f"the draw offer of {who(event.draw_offer_lapsed.seat)} lapsed"
    ),
    "resignation_pending": lambda event, who: (
        f"{who(event.resignation_pending.seat)} will resign at its turn"
    ),
    "outage": lambda event, who: (
        f"the server was down during ply {event.outage.ply}; that time is charged to no one"
    ),
}
