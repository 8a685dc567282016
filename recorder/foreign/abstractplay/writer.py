"""A record's Abstract Play form, in the key order gameslib writes, its kept patch applied.

May import the standard library, ``gamerec.v1`` and ``gamerec.recorder`` (``errors``,
``foreign.keeping``, ``grn_values``, ``notation``, ``syntax``, ``foreign.abstractplay.form``).
"""

from __future__ import annotations

import datetime
from typing import Any, Final

import orjson

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.foreign.abstractplay.form import (
    _ENDING_OF,
    _SAME,
    DATE_END_TAG,
    DATE_GENERATED_TAG,
    GAME_ID_TAG,
    NO_START,
    PATCH_TAG,
    SCORES_TAG,
    UNRATED_TAG,
    _is_number,
    game_names,
)
from gamerec.recorder.foreign.keeping import (
    apply_patch,
    stored_json,
    variant_tag_map,
)
from gamerec.recorder.grn_values import format_timestamp
from gamerec.recorder.notation import format_action
from gamerec.recorder.syntax import syntax_of
from gamerec.recorder.syntax.foreign import AbstractPlayForm
from gamerec.v1 import record_pb2 as pb


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
