"""A Ludii trial's lines read into a record, naming the line of every fault.

May import the standard library and ``gamerec.recorder`` (``errors``, ``foreign.keeping``,
``grn_tags``, ``notation``, ``syntax``, ``foreign.ludii.form``), and ``gamerec.v1``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from gamerec.recorder.errors import RecordMalformedError, excerpt
from gamerec.recorder.foreign.keeping import (
    FORMAT_VERSION,
    store_json,
)
from gamerec.recorder.foreign.ludii.form import (
    MOVES_TAG,
    RNG_TAG,
    VERSION_TAG,
    _canonical,
    _Decision,
    _plies,
    game_names,
)
from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.notation import parse_action
from gamerec.recorder.syntax import GAMES, GameSyntax
from gamerec.recorder.syntax.base import name_key
from gamerec.recorder.syntax.foreign import LudiiForm
from gamerec.v1 import record_pb2 as pb

_MOVE_LINE: Final = re.compile(r"Move=\[Move:mover=(\d{1,9})(.*)\]")
_TO: Final = re.compile(r"(?:^|,)to=(\d{1,9})(?:,|$)")
_WHAT: Final = re.compile(r"(?:^|,)what=(\d{1,9})(?:,|$)")
_MAX_SITE: Final = 10**6


class _Reader:
    """Builds a record from a trial's lines, naming the line of every fault."""

    def __init__(self, lines: list[str], source: str) -> None:
        self.lines = [line.removesuffix("\r") for line in lines]
        self.source = source

    def fault(self, number: int, reason: str) -> RecordMalformedError:
        return RecordMalformedError(reason, source=self.source, where=f"line {number + 1}")

    def record(self) -> pb.GameRecord:
        first = self.lines[0] if self.lines else ""
        if not first.startswith("game="):
            raise self.fault(0, f"a Ludii trial starts with game=, found {excerpt(first)}")
        syntax, form = self.game(first.removeprefix("game="))
        tags = self.options(form)
        record = pb.GameRecord(format_version=FORMAT_VERSION)
        read_tag(record, "Game", syntax.name)
        for tag, value in tags.items():
            read_tag(record, tag, value)
        extra = record.metadata.extra_tags
        fields = self.fields()
        if "RNG internal state" in fields:
            extra[RNG_TAG] = fields["RNG internal state"][1]
        if "LUDII_VERSION" in fields:
            extra[VERSION_TAG] = fields["LUDII_VERSION"][1]
        sites = form.cells(tags)
        decisions, texts = self.moves(sites, form.players)
        plies = _plies(decisions, form.chains)
        seats = form.players
        record.seats.extend(pb.Seat() for _ in range(seats))
        for seat, places in plies:
            token = ",".join(sites[site] for site in places) if places else "pass"
            move = parse_action(syntax.game, token)
            move.seat = seat
            record.moves.append(move)
        if decisions:
            kept = [[*decision, *text] for decision, text in zip(decisions, texts, strict=True)]
            store_json(record, MOVES_TAG, kept)
        self.set_up(fields)
        self.result(record, fields, form, seats)
        return record

    def set_up(self, fields: dict[str, tuple[int, str]]) -> None:
        number, count = fields.get("numInitialPlacementMoves", (0, "0"))
        if count != "0":
            raise self.fault(number, f"{count} set-up moves have no gamerec form")

    def game(self, path: str) -> tuple[GameSyntax, LudiiForm]:
        stem = path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".lud")
        for syntax in GAMES:
            form = syntax.ludii
            if form is not None and name_key(stem) == name_key(form.stem):
                return syntax, form
        raise self.fault(
            0,
            f"the game {excerpt(path)} is not one gamerec reads from Ludii ({game_names()})",
        )

    def options(self, form: LudiiForm) -> dict[str, str]:
        start = self._index("START GAME OPTIONS")
        end = self._index("END GAME OPTIONS")
        options: list[str] = []
        if start is not None:
            if end is None or end < start:
                raise self.fault(start, "START GAME OPTIONS without END GAME OPTIONS")
            options = self.lines[start + 1 : end]
            self.once(range(start + 1, end), lambda line: line.rpartition("/")[0] or line)
        try:
            return form.tags_for(options)
        except ValueError as error:
            raise self.fault(start or 0, str(error)) from None

    def _index(self, line: str) -> int | None:
        found = [n for n, each in enumerate(self.lines) if each == line]
        if len(found) > 1:
            raise self.fault(found[1], f"{line} is given twice (first on line {found[0] + 1})")
        return found[0] if found else None

    def once(self, numbers: Iterable[int], name_of: Callable[[str], str]) -> None:
        """Refuse a line whose name (``name_of`` it) an earlier line of ``numbers`` has.

        A trial's reader would keep one of the two; which one differs between readers.
        """
        first: dict[str, int] = {}
        for number in numbers:
            name = name_of(self.lines[number])
            if name in first:
                raise self.fault(
                    number, f"{excerpt(name)} is given twice (first on line {first[name] + 1})"
                )
            first[name] = number

    def fields(self) -> dict[str, tuple[int, str]]:
        """The ``name=value`` lines that are not moves: ``{name: (line index, value)}``.

        Raises:
            RecordMalformedError: a name given twice, naming the second line.
        """
        found: dict[str, tuple[int, str]] = {}
        numbers = []
        for number, line in enumerate(self.lines):
            name, equals, value = line.partition("=")
            if equals and name != "Move":
                numbers.append(number)
                found.setdefault(name, (number, value))
        if len(numbers) != len(found):
            self.once(numbers, lambda line: line.partition("=")[0] + "=")
        return found

    def moves(
        self, sites: Sequence[str], players: int
    ) -> tuple[list[_Decision], list[tuple[str, ...]]]:
        """Every move line's decision, and its text around the decision action.

        The text is empty when the line is the one Ludii writes for the decision alone.
        """
        decisions: list[_Decision] = []
        texts: list[tuple[str, ...]] = []
        for number, line in enumerate(self.lines):
            if line.startswith("Move="):
                decision, around = self.move(number, line, len(sites), players)
                decisions.append(decision)
                texts.append(() if around == _canonical(decision) else around)
        return decisions, texts

    def move(
        self, number: int, line: str, cells: int, players: int
    ) -> tuple[_Decision, tuple[str, str]]:
        """A move line's decision, and the line's text before and after the decision action."""
        found = _MOVE_LINE.fullmatch(line)
        if found is None:
            raise self.fault(number, f"expected Move=[Move:mover=N,...], found {excerpt(line)}")
        mover = int(found.group(1))
        if not 1 <= mover <= players:
            raise self.fault(number, f"mover {mover} is no seat of this game (1 to {players})")
        head, _, actions = found.group(2).partition(",actions=")
        for start, end in _actions(actions):
            action = actions[start:end]
            if "decision=true" not in action:
                continue
            decision = self.decision(number, mover, action, cells)
            before = f"[Move:mover={mover}{head},actions={actions[:start]}"
            return decision, (before, f"{actions[end:]}]")
        raise self.fault(number, "a Ludii move without a decision action (decision=true)")

    def decision(self, number: int, mover: int, action: str, cells: int) -> _Decision:
        if action.startswith("[Pass:"):
            return _Decision(mover, -1)
        to = _TO.search(action[1:-1])
        if not action.startswith("[Add:") or to is None:
            raise self.fault(
                number,
                f"the decision {excerpt(action)} has no gamerec form (a placement or a pass)",
            )
        site = int(to.group(1))
        if site >= cells:
            raise self.fault(
                number, f"site {site} is not a cell of this board (sites 0 to {cells - 1})"
            )
        return _Decision(mover, site)

    def result(
        self,
        record: pb.GameRecord,
        fields: dict[str, tuple[int, str]],
        form: LudiiForm,
        seats: int,
    ) -> None:
        claim = record.result
        if "winner" not in fields:
            claim.unfinished.SetInParent()
            return
        number, text = fields["winner"]
        if not text.isdigit() or int(text) > seats:
            raise self.fault(number, f"winner={excerpt(text)} names no seat")
        winner = int(text)
        if winner:
            claim.winners.append(winner)
        if form.results_are_scores:
            claim.scores.values.extend(int(seat == winner) for seat in range(1, seats + 1))
        natural = fields.get("endtype", (0, "NaturalEnd"))[1] == "NaturalEnd"
        claim.termination = pb.TERMINATION_NORMAL if natural else pb.TERMINATION_ADJUDICATED


def _actions(text: str) -> list[tuple[int, int]]:
    """The ``[...]`` actions of an actions list, as (start, end) spans (brackets matched)."""
    spans = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char == "[":
            if depth == 0:
                start = index
            depth += 1
        elif char == "]" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, index + 1))
    return spans
