"""Hypothesis strategies for game records of all four games (shared by every fuzzer).

``records()`` draws any record that every encoding can hold: every field of the schema,
arbitrary Unicode text (control characters included), nested variations, extra tags, ratings,
clocks with nanoseconds, timestamps across the whole allowed range, and the "present but
empty" sub-messages that only an exact codec keeps apart from absent ones. Moves are
syntactically valid tokens of the record's game, not legal moves: the recorder knows no rules.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from google.protobuf import duration_pb2, timestamp_pb2
from hypothesis import strategies as st

from gamerec.recorder.grn_seal import is_seal_tag
from gamerec.recorder.grn_tags import KNOWN_TAGS, MAX_SEATS
from gamerec.recorder.grn_values import (
    DURATION_MAX_SECONDS,
    INT32_MAX,
    INT32_MIN,
    TIMESTAMP_MAX_SECONDS,
    TIMESTAMP_MIN_SECONDS,
    UINT32_MAX,
)
from gamerec.recorder.notation import GameValue
from gamerec.v1 import record_pb2 as pb

GAMES = (pb.GAME_ONE, pb.GAME_ARONDA, pb.GAME_OUST, pb.GAME_OH_WAH_REE)
SPECIAL_ACTIONS = ("resign", "pass", "swap")

uint32s = st.one_of(st.integers(0, 12), st.integers(0, UINT32_MAX))
#: 1-based numbers: mostly board-sized, sometimes anything a uint32 holds.
places = st.one_of(st.integers(1, 25), st.integers(1, UINT32_MAX))
texts = st.text(max_size=40)
nanos = st.one_of(
    st.just(0), st.sampled_from([1_000_000, 250_000_000]), st.integers(0, 999_999_999)
)


def _special(name: str) -> pb.Move:
    move = pb.Move()
    getattr(move, name).SetInParent()
    return move


one_moves = st.lists(
    st.builds(pb.OnePoint, ring=st.integers(1, 26), index=places), min_size=1, max_size=4
).map(lambda path: pb.Move(one=pb.OneMove(path=path)))

aronda_fields = st.one_of(
    st.just(pb.ArondaField(ring=pb.ARONDA_RING_CENTRE, index=0)),
    st.builds(
        pb.ArondaField,
        ring=st.sampled_from([pb.ARONDA_RING_INNER, pb.ARONDA_RING_MIDDLE, pb.ARONDA_RING_OUTER]),
        index=places,
    ),
)
aronda_moves = st.lists(aronda_fields, min_size=1, max_size=3).map(
    lambda fields: pb.Move(aronda=pb.ArondaTurn(placements=fields))
)

oust_moves = st.lists(
    st.builds(pb.OustCell, column=st.integers(1, 26), row=places), min_size=1, max_size=4
).map(lambda cells: pb.Move(oust=pb.OustTurn(placements=cells)))

oh_wah_ree_moves = st.builds(
    pb.OhWahReeMove,
    pit=places,
    direction=st.sampled_from(
        [pb.SOW_DIRECTION_UNSPECIFIED, pb.SOW_DIRECTION_CCW, pb.SOW_DIRECTION_CW]
    ),
).map(lambda move: pb.Move(oh_wah_ree=move))

GAME_MOVES: dict[GameValue, st.SearchStrategy[pb.Move]] = {
    pb.GAME_ONE: one_moves,
    pb.GAME_ARONDA: aronda_moves,
    pb.GAME_OUST: oust_moves,
    pb.GAME_OH_WAH_REE: oh_wah_ree_moves,
}


@functools.cache
def actions(game: GameValue) -> st.SearchStrategy[pb.Move]:
    """A move of ``game`` with only its action set (mostly the game's own moves)."""
    specials = st.sampled_from(SPECIAL_ACTIONS).map(_special)
    return st.one_of(GAME_MOVES[game], GAME_MOVES[game], specials)


@st.composite
def durations(draw: st.DrawFn) -> duration_pb2.Duration:
    """Any valid google.protobuf.Duration (seconds and nanos of one sign)."""
    seconds = draw(
        st.one_of(st.integers(0, 7200), st.integers(-DURATION_MAX_SECONDS, DURATION_MAX_SECONDS))
    )
    fraction = draw(nanos)
    if seconds < 0 or (seconds == 0 and draw(st.booleans())):
        fraction = -fraction
    return duration_pb2.Duration(seconds=seconds, nanos=fraction)


_durations = durations()
timestamps = st.builds(
    timestamp_pb2.Timestamp,
    seconds=st.integers(TIMESTAMP_MIN_SECONDS, TIMESTAMP_MAX_SECONDS),
    nanos=nanos,
)


@functools.cache
def moves(game: GameValue, depth: int) -> st.SearchStrategy[pb.Move]:
    """One ply with any annotations, and variations nested up to ``depth`` levels.

    Strategies are built once per (game, depth): building them is what costs in Hypothesis.
    """
    return _moves(game, depth)


@functools.cache
def _variation_lines(game: GameValue, depth: int) -> st.SearchStrategy[list[list[pb.Move]]]:
    return st.lists(st.lists(moves(game, depth), max_size=3), max_size=2)


_seat_numbers = st.one_of(st.just(0), st.integers(1, 6), uint32s)
_comments = st.one_of(st.just(""), texts)
_glyphs = st.sampled_from(list(pb.Glyph.values()))


@st.composite
def _moves(draw: st.DrawFn, game: GameValue, depth: int) -> pb.Move:
    move = draw(actions(game))
    move.seat = draw(_seat_numbers)
    move.comment = draw(_comments)
    move.glyph = draw(_glyphs)
    if draw(st.booleans()):
        move.clock.CopyFrom(draw(_durations))
    if draw(st.booleans()):
        move.timestamp.CopyFrom(draw(timestamps))
    if depth > 0:
        for line in draw(_variation_lines(game, depth - 1)):
            move.variations.add().moves.extend(line)
    return move


def _variant_setters(game: GameValue) -> Callable[[st.DrawFn, pb.Rules], None]:
    def one(draw: st.DrawFn, rules: pb.Rules) -> None:
        rules.one.players = draw(uint32s)
        rules.one.ring_sizes.extend(draw(st.lists(uint32s, max_size=5)))
        rules.one.mirror = draw(st.sampled_from(list(pb.OneMirror.values())))
        rules.one.tiebreak = draw(st.sampled_from(list(pb.OneTiebreak.values())))

    def aronda(draw: st.DrawFn, rules: pb.Rules) -> None:
        rules.aronda.players = draw(uint32s)
        rules.aronda.supply = draw(st.sampled_from(list(pb.ArondaSupply.values())))
        rules.aronda.second_piece = draw(st.sampled_from(list(pb.ArondaSecondPiece.values())))

    def oust(draw: st.DrawFn, rules: pb.Rules) -> None:
        rules.oust.players = draw(uint32s)
        rules.oust.board_side = draw(uint32s)
        rules.oust.pie = draw(st.sampled_from(list(pb.OustPie.values())))

    def oh_wah_ree(draw: st.DrawFn, rules: pb.Rules) -> None:
        rules.oh_wah_ree.players = draw(uint32s)
        rules.oh_wah_ree.stones_per_pit = draw(uint32s)
        rules.oh_wah_ree.direction = draw(st.sampled_from(list(pb.OhWahReeDirection.values())))

    return {
        pb.GAME_ONE: one,
        pb.GAME_ARONDA: aronda,
        pb.GAME_OUST: oust,
        pb.GAME_OH_WAH_REE: oh_wah_ree,
    }[game]


VARIANT_FIELDS = {
    pb.GAME_ONE: "one",
    pb.GAME_ARONDA: "aronda",
    pb.GAME_OUST: "oust",
    pb.GAME_OH_WAH_REE: "oh_wah_ree",
}


@st.composite
def rules(draw: st.DrawFn, game: GameValue) -> pb.Rules:
    """The rules of ``game``: no variant, an empty one, or one with any option values."""
    drawn = pb.Rules(game=game, rules_version=draw(st.one_of(st.just(""), texts)))
    kind = draw(st.sampled_from(["absent", "empty", "options"]))
    if kind == "empty":
        getattr(drawn, VARIANT_FIELDS[game]).SetInParent()
    elif kind == "options":
        _variant_setters(game)(draw, drawn)
    return drawn


seats = st.builds(
    pb.Seat,
    name=texts,
    player_id=st.one_of(st.just(""), texts),
    rating=st.one_of(st.none(), st.integers(INT32_MIN, INT32_MAX)),
    colour=st.one_of(st.just(""), texts),
)


def _free_tag_name(name: str) -> bool:
    lower = name.lower()
    if lower in KNOWN_TAGS or is_seal_tag(name):
        return False
    rest = lower.removeprefix("seat")
    return not (rest != lower and rest[:1].isdigit() and rest[:1] != "0")


extra_tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,11}", fullmatch=True).filter(
    _free_tag_name
)


@st.composite
def metadata(draw: st.DrawFn) -> pb.Metadata:
    """Metadata with any of its fields (possibly none)."""
    drawn = pb.Metadata()
    for field in ("event", "site", "round", "date", "time_control", "client"):
        setattr(drawn, field, draw(st.one_of(st.just(""), texts)))
    if draw(st.booleans()):
        drawn.start_time.CopyFrom(draw(timestamps))
    extra = draw(st.dictionaries(extra_tag_names, texts, max_size=3))
    seen: set[str] = set()
    for name, value in extra.items():
        if name.lower() not in seen:
            seen.add(name.lower())
            drawn.extra_tags[name] = value
    return drawn


@st.composite
def claimed_results(draw: st.DrawFn) -> pb.ClaimedResult:
    """A claimed result: scores or unfinished or neither, winners, termination."""
    drawn = pb.ClaimedResult()
    claim = draw(st.sampled_from(["none", "unfinished", "scores"]))
    if claim == "unfinished":
        drawn.unfinished.SetInParent()
    elif claim == "scores":
        drawn.scores.SetInParent()
        drawn.scores.values.extend(draw(st.lists(uint32s, max_size=6)))
    drawn.winners.extend(draw(st.lists(st.integers(1, 6), max_size=3)))
    drawn.termination = draw(st.sampled_from(list(pb.Termination.values())))
    return drawn


@functools.cache
def _main_lines(game: GameValue, depth: int) -> st.SearchStrategy[list[pb.Move]]:
    return st.lists(moves(game, depth), max_size=6)


@st.composite
def records(draw: st.DrawFn, games: tuple[GameValue, ...] = GAMES, depth: int = 2) -> pb.GameRecord:
    """A whole record of one of ``games`` that every encoding can hold."""
    game = draw(st.sampled_from(games))
    record = pb.GameRecord(format_version=draw(st.one_of(st.just(0), uint32s)))
    record.rules.CopyFrom(draw(rules(game)))
    record.seats.extend(draw(st.lists(seats, max_size=min(6, MAX_SEATS))))
    if draw(st.booleans()):
        record.metadata.CopyFrom(draw(metadata()))
        record.metadata.SetInParent()
    record.moves.extend(draw(_main_lines(game, depth)))
    if draw(st.booleans()):
        record.result.CopyFrom(draw(claimed_results()))
        record.result.SetInParent()
    record.comment = draw(st.one_of(st.just(""), texts))
    return record


record_lists = st.lists(records(depth=1), max_size=3)
