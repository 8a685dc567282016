"""One Abstract Play record's parsed JSON read into a record, naming the place of every fault.

May import the standard library, ``gamerec.v1`` and ``gamerec.recorder`` (``errors``,
``foreign.keeping``, ``grn_tags``, ``grn_values``, ``syntax``, ``foreign.abstractplay.form``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Final, NamedTuple

import orjson

from gamerec.recorder.errors import NotationError, RecordMalformedError, excerpt
from gamerec.recorder.foreign.abstractplay.form import (
    _SAME,
    DATE_END_TAG,
    DATE_GENERATED_TAG,
    ENDINGS,
    GAME_ID_TAG,
    NO_START,
    SCORES_TAG,
    UNRATED_TAG,
    _is_number,
    _joined,
    game_names,
)
from gamerec.recorder.foreign.keeping import (
    FORMAT_VERSION,
)
from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.grn_values import parse_timestamp
from gamerec.recorder.syntax import GAMES, GameSyntax
from gamerec.recorder.syntax.base import name_key
from gamerec.recorder.syntax.foreign import AbstractPlayForm
from gamerec.v1 import record_pb2 as pb


class _Game(NamedTuple):
    """The game of a record being read: its syntax and form, variant tags, and pie swap."""

    syntax: GameSyntax
    form: AbstractPlayForm
    tags: dict[str, str]
    pied: bool


class _Reader:
    """Builds a record from one Abstract Play record, naming the place of every fault."""

    def __init__(self, source: str, where: str) -> None:
        self.source = source
        self.where = where
        self.tokens: list[str] = []  # each ply's GRN token, as read

    def place(self, path: str) -> str:
        return _joined(self.where, path)

    def fault(self, path: str, reason: str) -> RecordMalformedError:
        return RecordMalformedError(reason, source=self.source, where=self.place(path))

    def object(self, parent: Any, key: str, path: str = "") -> dict[str, Any]:
        found = parent.get(key) if isinstance(parent, dict) else None
        if not isinstance(found, dict):
            raise self.fault(path or key, f"expected an object, found {_kind(found)}")
        return found

    def text(self, parent: dict[str, Any], key: str, path: str) -> str | None:
        found = parent.get(key)
        if found is None:
            return None
        if not isinstance(found, str):
            raise self.fault(path, f"expected a string, found {_kind(found)}")
        return found

    def record(self, value: dict[str, Any]) -> pb.GameRecord:
        header = self.object(value, "header")
        syntax, form = self.game(header)
        players = header.get("players")
        if not isinstance(players, list) or not players:
            raise self.fault("header.players", f"expected players, found {_kind(players)}")
        pied = header.get("pie-invoked") is True or header.get("pied") is True
        if pied and len(players) != 2:
            raise self.fault("header.pie-invoked", "the pie rule needs two players")
        tags = self.variant(header, form, pied)
        record = pb.GameRecord(format_version=FORMAT_VERSION)
        read_tag(record, "Game", syntax.name)
        for tag, text in tags.items():
            read_tag(record, tag, text)
        self.metadata(record, header)
        order = [1, 0] if pied else list(range(len(players)))
        for index in order:
            self.seat(record, players[index], f"header.players[{index}]")
        self.scores(record, players, order)
        moves = value.get("moves")
        if not isinstance(moves, list):
            raise self.fault("moves", f"expected an array of rounds, found {_kind(moves)}")
        ending = self.plies(record, _Game(syntax, form, tags, pied), moves)
        self.result(record, players, order, form, ending)
        return record

    def game(self, header: dict[str, Any]) -> tuple[GameSyntax, AbstractPlayForm]:
        game = self.object(header, "game", "header.game")
        name = self.text(game, "name", "header.game.name")
        for syntax in GAMES:
            form = syntax.abstract_play
            if form is not None and name is not None and name_key(name) == name_key(form.name):
                return syntax, form
        raise self.fault(
            "header.game.name",
            f"the game {excerpt(str(name))} is not one gamerec reads from Abstract Play "
            f"({game_names()})",
        )

    def variant(self, header: dict[str, Any], form: AbstractPlayForm, pied: bool) -> dict[str, str]:
        variants = header["game"].get("variants") or []
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            raise self.fault("header.game.variants", "expected an array of strings")
        try:
            return form.tags_for(variants, pied)
        except ValueError as error:
            raise self.fault("header.game.variants", f"{form.name}: {error}") from None

    def metadata(self, record: pb.GameRecord, header: dict[str, Any]) -> None:
        metadata = record.metadata
        metadata.SetInParent()
        for key in ("event", "round"):
            if (text := self.text(header, key, f"header.{key}")) is not None:
                setattr(metadata, key, text)
        site = self.object(header, "site", "header.site")
        metadata.site = self.text(site, "name", "header.site.name") or ""
        if isinstance(game_id := site.get("gameid"), str | int) and not isinstance(game_id, bool):
            metadata.extra_tags[GAME_ID_TAG] = str(game_id)
        start = header.get("date-start")
        if isinstance(start, str) and start != NO_START:
            with contextlib.suppress(RecordMalformedError):  # else the patch keeps it
                metadata.start_time.CopyFrom(parse_timestamp(start))
        self.dates(record, header, start)
        if isinstance(unrated := header.get("unrated"), bool):
            metadata.extra_tags[UNRATED_TAG] = "true" if unrated else "false"

    def dates(self, record: pb.GameRecord, header: dict[str, Any], start: Any) -> None:
        end = header.get("date-end")
        tags = record.metadata.extra_tags
        if isinstance(end, str) and end != start:
            tags[DATE_END_TAG] = end
        generated = header.get("date-generated")
        if isinstance(generated, str) and generated != end:
            tags[DATE_GENERATED_TAG] = generated

    def seat(self, record: pb.GameRecord, player: Any, path: str) -> None:
        if not isinstance(player, dict):
            raise self.fault(path, f"expected a player object, found {_kind(player)}")
        seat = record.seats.add()
        seat.name = self.text(player, "name", f"{path}.name") or ""
        seat.player_id = self.text(player, "userid", f"{path}.userid") or ""

    def scores(self, record: pb.GameRecord, players: list[Any], order: list[int]) -> None:
        scores = [players[index].get("score") for index in order]
        if all(_is_number(score) for score in scores):
            text = ",".join(orjson.dumps(score).decode() for score in scores)
            record.metadata.extra_tags[SCORES_TAG] = text

    def plies(
        self, record: pb.GameRecord, game: _Game, moves: list[Any]
    ) -> pb.Termination.ValueType:
        """Add the plies; return the termination a last ``timeout`` or the like says (or 0)."""
        syntax, form, tags, pied = game
        entries = list(self.entries(moves))
        ending: pb.Termination.ValueType = pb.TERMINATION_UNSPECIFIED
        plies: list[dict[str, Any]] = []
        for number, (path, slot, text) in enumerate(entries, start=1):
            if text in ENDINGS:
                if number != len(entries):
                    raise self.fault(path, f"{text!r} ends a game, but moves follow it")
                ending = ENDINGS[text]
                continue
            token = text if text in _SAME else self.token(form, tags, text, path)
            self.tokens.append(token)
            try:
                action = _action(syntax, token)
            except NotationError as error:
                raise self.fault(path, f"{excerpt(text)}: {error.reason}") from None
            plies.append({"seat": _seat_of(slot, number, pied), **action})  # a new mapping
            if pied and number == 1:
                plies.append({"seat": 2, "swap": {}})
                self.tokens.append("swap")
        record.MergeFrom(pb.GameRecord(moves=plies))  # type: ignore[arg-type]  # one C call
        return ending

    def entries(self, moves: list[Any]) -> Iterator[tuple[str, int, str]]:
        """``(path, slot, text)`` of every move entry in order, text lower case and unspaced."""
        for number, round_ in enumerate(moves):
            if not isinstance(round_, list):
                raise self.fault(f"moves[{number}]", f"expected a round, found {_kind(round_)}")
            slots = []
            for slot, entry in enumerate(round_):
                path = f"moves[{number}][{slot}]"
                if entry is None:
                    continue
                text = entry.get("move") if isinstance(entry, dict) else entry
                if not isinstance(text, str):
                    raise self.fault(path, f"expected a move string, found {_kind(entry)}")
                order = entry.get("sequence") if isinstance(entry, dict) else None
                slots.append((order if type(order) is int else slot, slot, path, text))
            for _, slot, path, text in sorted(slots, key=lambda each: each[0]):
                yield path, slot, "".join(text.split()).lower()

    def token(self, form: AbstractPlayForm, tags: dict[str, str], text: str, path: str) -> str:
        try:
            return form.move_to_grn(text, tags)
        except ValueError as error:
            raise self.fault(path, f"{excerpt(text)}: {error}") from None

    def result(
        self,
        record: pb.GameRecord,
        players: list[Any],
        order: list[int],
        form: AbstractPlayForm,
        ending: pb.Termination.ValueType,
    ) -> None:
        results = [_result_of(players[index]) for index in order]
        claim = record.result
        ranks = [value if value is not None else -1 for value in results]
        best = max(ranks)
        # A draw (gameslib's last move "draw", an agreement) is shared first place, as a
        # live match's agreed draw is (docs/live.md): every player with the best result wins.
        if any(rank < best for rank in ranks) or ending == pb.TERMINATION_AGREEMENT:
            claim.winners.extend(seat for seat, rank in enumerate(ranks, 1) if rank == best)
        if form.results_are_scores and all(value is not None and value >= 0 for value in results):
            claim.scores.values.extend(ranks)
        last = record.moves[-1].WhichOneof("action") if record.moves else None
        resigned = pb.TERMINATION_RESIGNATION if last == "resign" else pb.TERMINATION_NORMAL
        claim.termination = ending or resigned


def _action(syntax: GameSyntax, token: str) -> dict[str, Any]:
    """A ply's action as the Move constructor takes it (what ``parse_action`` builds).

    The same few hundred tokens come back game after game, so each is parsed once (the
    constructor copies what it is given: the cached mapping is never changed).

    Raises:
        NotationError: the token is not one of the game's.
    """
    key = (syntax.action, token)
    action = _ACTIONS.get(key)
    if action is None:
        if token in _SAME:
            action = {token: {}}
        else:
            action = {syntax.action: syntax.message_of(syntax.parse_move(token))}
        if len(_ACTIONS) < _MAX_CACHED_ACTIONS:
            _ACTIONS[key] = action
    return action


#: Parsed actions by (game action field, token), see :func:`_action`.
_ACTIONS: dict[tuple[str, str], dict[str, Any]] = {}
_MAX_CACHED_ACTIONS: Final = 65_536


def _seat_of(slot: int, number: int, pied: bool) -> int:
    """The seat of the ``number``-th entry, in slot ``slot`` of its round.

    After a pie swap the seats are those before it: the first entry is seat 1's, and then
    slot 1 (the second player as of the end) is seat 1 and slot 0 seat 2.
    """
    if not pied or number == 1:
        return slot + 1
    return 2 - slot


def _result_of(player: Any) -> int | None:
    result = player.get("result") if isinstance(player, dict) else None
    return result if type(result) is int else None


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )
