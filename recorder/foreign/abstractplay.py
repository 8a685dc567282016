"""Abstract Play's game records (schema gamerecord 1-0-0) as gamerec records, and back.

The format (docs/formats.md cites the schema and gameslib's generator, ``GameBase.genRecord``):
a JSON object with a ``header`` (the game's name and variants, the site and game id, three
dates, the players in seating order as of the end, each with a name, a user id, a score and a
``result``, the larger the better) and ``moves``: rounds, each an array of one entry per seat
(null, a move string, or an object with ``move``, ``sequence`` and ``result``).

How the parts map (docs/formats.md has the table):

- ``header.game``: the game (a game's :class:`~gamerec.recorder.syntax.foreign.AbstractPlayForm`
  reads its name, variants and move strings); ``event``, ``round`` and ``site.name`` are the
  record's; ``date-start`` its start time; the players are its seats (``name``, ``userid``);
  their ``result`` numbers its claimed result (the winners are the players with the largest);
- ``moves``: the entries in order are the plies; the entry's place in its round is its seat.
  ``pass`` and ``resign`` are GRN's; ``timeout``, ``draw`` and ``abandoned`` (gameslib writes
  them as the last move of a game that ended so) are the result's termination;
- ``pie-invoked`` (or ``pied``): the second seat took over the first move, so the record gets
  a ``swap`` as ply 2 and the players' seats are those before the swap (Abstract Play lists
  them as of the end);
- kept in free tags: ``site.gameid`` (``AbstractPlayGameId``), ``date-end``
  (``AbstractPlayDateEnd``, when it is not ``date-start``), ``date-generated``
  (``AbstractPlayDateGenerated``, when it is not ``date-end``), ``unrated``
  (``AbstractPlayUnrated``), the players' scores (``AbstractPlayScores``, ``12,0``) and,
  as a patch (:mod:`~gamerec.recorder.foreign.keeping`), everything else that the exporter
  would not write back the same (``AbstractPlayJSON``): unknown header keys, a ``null``
  result, a move object's ``result``, a label written otherwise.

A record whose fields Abstract Play has no place for is written with an embedded copy of the
whole record under ``header.gamerec`` (the schema lets a header hold more keys), which
Abstract Play ignores and gamerec reads back; the writer names those fields in a warning.
"""

from __future__ import annotations

import contextlib
import datetime
from collections.abc import Callable, Iterable, Iterator
from typing import Any, BinaryIO, Final, NamedTuple

import orjson

from gamerec.recorder import json_keys
from gamerec.recorder.errors import EncodingError, NotationError, RecordMalformedError, excerpt
from gamerec.recorder.foreign.keeping import (
    FORMAT_VERSION,
    apply_patch,
    json_patch,
    needs_copy,
    record_copy,
    record_of_copy,
    same_json,
    same_movers,
    store_json,
    stored_json,
    variant_tag_map,
)
from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.grn_values import format_timestamp, parse_timestamp
from gamerec.recorder.limits import Limits, check_record
from gamerec.recorder.notation import format_action
from gamerec.recorder.syntax import GAMES, GameSyntax, syntax_of
from gamerec.recorder.syntax.base import name_key
from gamerec.recorder.syntax.foreign import AbstractPlayForm
from gamerec.v1 import record_pb2 as pb

#: The header key of the embedded copy of a record.
EMBEDDED: Final = "gamerec"
#: The free tags this codec reads and writes.
GAME_ID_TAG: Final = "AbstractPlayGameId"
DATE_END_TAG: Final = "AbstractPlayDateEnd"
DATE_GENERATED_TAG: Final = "AbstractPlayDateGenerated"
UNRATED_TAG: Final = "AbstractPlayUnrated"
SCORES_TAG: Final = "AbstractPlayScores"
PATCH_TAG: Final = "AbstractPlayJSON"
#: The start time written for a record that has none (read back as none).
NO_START: Final = "1970-01-01T00:00:00.000Z"
#: Moves gameslib writes for a game that ended otherwise than by its rules.
ENDINGS: Final = {
    "timeout": pb.TERMINATION_TIMEOUT,
    "draw": pb.TERMINATION_AGREEMENT,
    "abandoned": pb.TERMINATION_ABANDONED,
}
_ENDING_OF: Final = {termination: move for move, termination in ENDINGS.items()}
#: Plies GRN and Abstract Play write alike.
_SAME: Final = ("pass", "resign")

Warn = Callable[[str], None]


def is_abstract_play(value: Any) -> bool:
    """Whether a JSON value is shaped as an Abstract Play record (an object with a header).

    No GameRecord field is called ``header``, so the test tells the two JSON formats apart.
    """
    return isinstance(value, dict) and "header" in value


def game_names() -> str:
    """The games Abstract Play's records can hold, for messages (``Oust``)."""
    return ", ".join(form.name for form in _forms())


def _forms() -> list[AbstractPlayForm]:
    return [syntax.abstract_play for syntax in GAMES if syntax.abstract_play is not None]


# -- reading -------------------------------------------------------------------------------------


def parse_abstract_play(
    data: bytes, source: str, where: str = "", *, limits: Limits | None = None
) -> pb.GameRecord:
    """One Abstract Play record from its JSON text.

    Raises:
        RecordMalformedError: not JSON, not an Abstract Play record, a game, variant or cell
            gamerec does not have (the place named).
        LimitExceededError: the record exceeds a limit.
    """
    try:
        value = json_keys.loads(data)
    except orjson.JSONDecodeError as error:
        place = f"line {error.lineno}, column {error.colno}"
        raise RecordMalformedError(
            f"not JSON: {error.msg}", source=source, where=_joined(where, place)
        ) from None
    except json_keys.DuplicateKeyError as error:
        raise RecordMalformedError(str(error), source=source, where=where) from None
    return record_of_value(value, source, where, limits=limits)


def record_of_value(
    value: Any, source: str, where: str = "", *, limits: Limits | None = None
) -> pb.GameRecord:
    """One Abstract Play record from its parsed JSON value (see :func:`parse_abstract_play`)."""
    if not is_abstract_play(value):
        found = "an object without a header" if isinstance(value, dict) else type(value).__name__
        raise RecordMalformedError(
            f"expected an Abstract Play game record (an object with a header), found {found}",
            source=source,
            where=where,
        )
    reader = _Reader(source, where)
    header = reader.object(value, "header")
    if EMBEDDED in header:
        record = _embedded_record(value, reader)
    else:
        record = reader.record(value)
        _keep_the_rest(record, value, reader.tokens)
    check_record(record, limits, source=source, where=where, serialized=record.SerializeToString())
    return record


def _keep_the_rest(record: pb.GameRecord, value: Any, tokens: list[str]) -> None:
    """Store the patch that makes the exporter write ``value`` back for ``record``.

    ``tokens`` are the plies' GRN tokens as read (what the writer would format again).
    """
    try:
        written = _plain_value(record, tokens)
    except EncodingError:
        return  # the record has no Abstract Play form at all: nothing to keep
    patch = json_patch(value, written)
    if patch:
        store_json(record, PATCH_TAG, patch)


def _embedded_record(value: dict[str, Any], reader: _Reader) -> pb.GameRecord:
    """The record embedded under ``header.gamerec``, checked against the file's own fields.

    Raises:
        RecordMalformedError: the copy is no record, or the file's Abstract Play fields are
            not what gamerec wrote for it (edited by another tool since).
    """
    header = dict(value["header"])
    copy = record_of_copy(header.pop(EMBEDDED), reader.source, reader.place(f"header.{EMBEDDED}"))
    plain = {**value, "header": header}
    own = reader.record(plain)  # the file's own fields must read
    try:
        written = _plain_value(copy)
    except EncodingError as error:
        raise reader.fault(
            f"header.{EMBEDDED}", f"the embedded record has no Abstract Play form: {error}"
        ) from None
    if not same_json(written, plain) or not same_movers(copy, own):
        raise RecordMalformedError(
            f"header.{EMBEDDED} holds a record whose Abstract Play form is not this file's "
            "(the file was changed after gamerec wrote it); remove header.gamerec to read "
            "the file's own fields",
            source=reader.source,
            where=reader.where,
        )
    return copy


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


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}.get(
        type(value), "a number"
    )


def _joined(where: str, path: str) -> str:
    return f"{where}, {path}" if where and path else where or path


# -- writing -------------------------------------------------------------------------------------


def abstract_play_value(record: pb.GameRecord, warn: Warn | None = None) -> dict[str, Any]:
    """A record as an Abstract Play record (a JSON object).

    What Abstract Play has no place for goes with the embedded copy under ``header.gamerec``;
    ``warn`` is told which fields.

    Raises:
        EncodingError: the game is not one Abstract Play's records hold, a variant or a move
            has no Abstract Play form, or the game is unfinished (the format is of ended
            games: every player needs a result).
    """
    plain = _plain_value(record)
    players = plain["header"]["players"]
    if len(players) != len({orjson.dumps(player) for player in players}):
        raise EncodingError(
            "two players would be written alike (name, id and result), which the schema "
            "forbids (players are uniqueItems)"
        )
    try:
        back = record_of_value(orjson.loads(orjson.dumps(plain)), "<export>")
    except RecordMalformedError as error:  # what the writer wrote does not read back
        raise EncodingError(f"the record has no Abstract Play form: {error.reason}") from None
    holder = "Abstract Play's record"
    if not needs_copy(record, back, warn, holder, f"header.{EMBEDDED}"):
        return plain
    plain["header"][EMBEDDED] = record_copy(record)
    return plain


def _plain_value(record: pb.GameRecord, tokens: list[str] | None = None) -> dict[str, Any]:
    """The Abstract Play form of a record, its kept patch applied, nothing embedded.

    ``tokens``, when given, are the plies' GRN tokens (the reader's, to save formatting). A
    sealed record's form is its fields' alone: the patch is a free tag, outside the seal, so
    it is not applied (docs/seals.md, "Records of other tools").
    """
    syntax = syntax_of(record.rules.game)
    form = syntax.abstract_play if syntax is not None else None
    if syntax is None or form is None:
        raise EncodingError(
            f"Abstract Play's records hold {game_names()}, not this record's game"
            + (f" ({syntax.name})" if syntax else "")
        )
    tags = variant_tag_map(record.rules)
    writer = _Writer(record, form, tags, tokens)
    value = {"header": writer.header(), "moves": writer.moves()}
    if record.HasField("seal"):
        return value
    patch = stored_json(record, PATCH_TAG, f"metadata.extra_tags[{PATCH_TAG!r}]")
    if isinstance(patch, list):
        value = apply_patch(value, patch)
    return value


class _Writer:
    """Writes one record's Abstract Play form, in the key order gameslib writes."""

    def __init__(
        self,
        record: pb.GameRecord,
        form: AbstractPlayForm,
        tags: dict[str, str],
        tokens: list[str] | None,
    ) -> None:
        self.record = record
        self.form = form
        self.tags = tags
        self.tokens = tokens
        self.extra = record.metadata.extra_tags
        moves = record.moves
        self.pied = len(moves) >= 2 and moves[1].WhichOneof("action") == "swap"

    def header(self) -> dict[str, Any]:
        metadata = self.record.metadata
        game: dict[str, Any] = {"name": self.form.name}
        try:
            variants = self.form.variants_for(self.tags)
        except ValueError as error:
            raise EncodingError(f"{self.form.name}: {error}") from None
        if variants is not None:
            game["variants"] = variants
        header: dict[str, Any] = {"game": game}
        if metadata.event:
            header["event"] = metadata.event
        if metadata.round:
            header["round"] = metadata.round
        site: dict[str, Any] = {"name": metadata.site}
        if GAME_ID_TAG in self.extra:
            site["gameid"] = self.extra[GAME_ID_TAG]
        header["site"] = site
        start = self.start()
        end = self.extra.get(DATE_END_TAG, start)
        header["date-start"] = start
        header["date-end"] = end
        header["date-generated"] = self.extra.get(DATE_GENERATED_TAG, end)
        header["players"] = self.players()
        if UNRATED_TAG in self.extra:
            header["unrated"] = self.extra[UNRATED_TAG] == "true"
        if self.pied:
            header["pie-invoked"] = True
        return header

    def start(self) -> str:
        metadata = self.record.metadata
        if metadata.HasField("start_time"):
            return _iso_with_milliseconds(metadata.start_time)
        return NO_START

    def players(self) -> list[dict[str, Any]]:
        record = self.record
        results = self.results()
        scores = self.scores()
        players = []
        for index, seat in enumerate(record.seats):
            player: dict[str, Any] = {"name": seat.name}
            if seat.player_id:
                player["userid"] = seat.player_id
            if scores is not None:
                player["score"] = scores[index]
            player["result"] = results[index]
            players.append(player)
        return players[::-1] if self.pied else players

    def results(self) -> list[int]:
        claim = self.record.result
        seats = len(self.record.seats)
        if not seats:
            raise EncodingError("an Abstract Play record needs at least one player (seat)")
        if claim.HasField("unfinished"):
            raise EncodingError(
                "an unfinished game has no Abstract Play record (its players need a result)"
            )
        scores = list(claim.scores.values)
        if self.form.results_are_scores and len(scores) == seats:
            return scores
        return [int(seat in claim.winners) for seat in range(1, seats + 1)]

    def scores(self) -> list[Any] | None:
        text = self.extra.get(SCORES_TAG)
        if text is None:
            return None
        try:
            scores = [orjson.loads(part) for part in text.split(",")]
        except orjson.JSONDecodeError:
            raise EncodingError(f"tag {SCORES_TAG} is not numbers joined by ','") from None
        if len(scores) != len(self.record.seats) or not all(map(_is_number, scores)):
            raise EncodingError(f"tag {SCORES_TAG} does not hold one number per seat")
        return scores

    def moves(self) -> list[list[str]]:
        texts = []
        tokens = self.tokens
        for number, move in enumerate(self.record.moves, start=1):
            if self.pied and number == 2:
                continue
            token = tokens[number - 1] if tokens is not None else None
            texts.append(self.move_text(move, number, token))
        ending = _ENDING_OF.get(self.record.result.termination)
        if ending is not None:
            texts.append(ending)
        width = max(len(self.record.seats), 1)
        return [texts[start : start + width] for start in range(0, len(texts), width)]

    def move_text(self, move: pb.Move, number: int, token: str | None = None) -> str:
        if token is None:
            token = format_action(move, self.record.rules.game)
        if token in _SAME:
            return token
        if token == "swap":
            raise EncodingError(
                f"ply {number}: swap has an Abstract Play form only as ply 2 (pie-invoked)"
            )
        try:
            return self.form.move_from_grn(token, self.tags)
        except ValueError as error:
            raise EncodingError(f"ply {number}: {token}: {error}") from None


def _iso_with_milliseconds(stamp: Any) -> str:
    """A time as JavaScript's ``Date.toISOString`` writes it (gameslib's dates).

    Raises:
        EncodingError: a time outside years 0001 to 9999.
    """
    format_timestamp(stamp)  # checks the range
    moment = _EPOCH + datetime.timedelta(seconds=stamp.seconds)
    day = f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
    clock = f"{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    return f"{day}T{clock}.{stamp.nanos // 1_000_000:03d}Z"


_EPOCH: Final = datetime.datetime(1970, 1, 1)


def write_abstract_play(
    records: Iterable[pb.GameRecord], stream: BinaryIO, warn: Warn | None = None
) -> int:
    """Write records as Abstract Play records: one as an object, several as an array.

    Returns:
        The number of records written.
    """
    iterator = iter(records)
    first = next(iterator, None)
    if first is None:
        raise EncodingError("an Abstract Play file holds one record or more, and there is none")
    second = next(iterator, None)
    option = orjson.OPT_INDENT_2
    if second is None:
        stream.write(orjson.dumps(abstract_play_value(first, warn), option=option))
        stream.write(b"\n")
        return 1
    stream.write(b"[\n")
    count = 0
    for record in _chain(first, second, iterator):
        if count:
            stream.write(b",\n")
        value = abstract_play_value(record, warn)
        stream.write(orjson.dumps(value, option=option))
        count += 1
    stream.write(b"\n]\n")
    return count


def _chain(
    first: pb.GameRecord, second: pb.GameRecord, rest: Iterator[pb.GameRecord]
) -> Iterator[pb.GameRecord]:
    yield first
    yield second
    yield from rest
