"""Build the fixtures of the validator: complete games and one invalid record per finding code.

Usage: ``python scripts/make_verdict_fixtures.py`` writes ``fixtures/games/*.grn`` and
``fixtures/invalid/*``; ``--check`` rebuilds them in memory and exits 1 when the committed files
differ. Everything is deterministic (seeded), so the files are reproducible.

- ``fixtures/games/``: real-looking complete games of every game and player count (played
  by the greedy policy), and games that end by resignation, timeout, agreement or
  abandonment, each claiming its result as a tournament client would write it.
- ``fixtures/invalid/``: for every reason code a record whose first finding is that code.
  Each carries the tags ``ExpectedCode`` and ``ExpectedPly`` (0 for a finding about the
  whole record), which the tests compare with the verdict. Engine codes are found by a
  search: seeded random games are replayed and, ply by ply, candidate tokens are checked
  until one is rejected with the wanted code. The codes that no game can reach are listed in
  UNREACHABLE with the reason (the engines' own tests cover them with set-up positions).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gamerec.recorder.codecs import Encoding, encode_record, write_records
from gamerec.recorder.grn_tags import read_tag, variant_tags
from gamerec.recorder.notation import format_action, game_from_name, parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import engine, game_names
from gamerec.validator.games.protocol import Engine
from gamerec.validator.generation import generate

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid"

#: Engine reason codes that no sequence of legal plies can provoke, and why.
UNREACHABLE = {
    ("ONE", "NO_STONES_LEFT"): "the seat to move always holds a stone (docs/rules/one.md §4.3)",
}

#: (file stem, game, variant tags, policy) of the complete games.
COMPLETE_GAMES = [
    ("one-2p", "ONE", {"Players": "2"}),
    ("one-3p", "ONE", {"Players": "3"}),
    ("one-4p", "ONE", {"Players": "4"}),
    ("one-5p-mirror-every", "ONE", {"Players": "5", "Mirror": "every"}),
    ("one-6p-three-rings", "ONE", {"Players": "6", "Board": "10,10,20"}),
    ("aronda", "Aronda", {}),
    ("aronda-supply-pass", "Aronda", {"Supply": "pass"}),
    ("oust-side7", "Oust", {}),
    ("oust-side5-pie-off", "Oust", {"Board": "5", "Pie": "off"}),
    ("ohwahree-2p", "Oh-Wah-Ree", {"Players": "2"}),
    ("ohwahree-3p", "Oh-Wah-Ree", {"Players": "3"}),
    ("ohwahree-4p", "Oh-Wah-Ree", {"Players": "4"}),
    ("ohwahree-4p-ccw", "Oh-Wah-Ree", {"Players": "4", "Direction": "ccw"}),
]


@dataclass(frozen=True)
class Fixture:
    """A fixture file to write: its name and its records."""

    name: str
    records: list[pb.GameRecord]

    def encoding(self) -> Encoding:
        """The file's encoding, from its name."""
        return Encoding.PB if self.name.endswith(".pb") else Encoding.GRN


def complete_games() -> Iterator[Fixture]:
    """The complete games, and games that stop for reasons outside the rules."""
    for seed, (stem, game, tags) in enumerate(COMPLETE_GAMES, start=2026):
        record = next(generate(game, tags, 1, seed=seed, policy="greedy"))
        record.metadata.event = "gamerec fixtures"
        yield Fixture(f"{stem}.grn", [record])
    yield Fixture("one-2p-resignation.grn", [_stopped("ONE", {"Players": "2"}, 30, "resign")])
    yield Fixture("one-4p-resignation.grn", [_resign_and_play_on("ONE", {"Players": "4"}, 21)])
    yield Fixture("aronda-timeout.grn", [_stopped("Aronda", {}, 15, "timeout")])
    yield Fixture("oust-agreement.grn", [_stopped("Oust", {}, 20, "agreement")])
    yield Fixture(
        "ohwahree-3p-abandoned.grn", [_stopped("Oh-Wah-Ree", {"Players": "3"}, 40, "abandoned")]
    )


def _stopped(game: str, tags: dict[str, str], plies: int, how: str) -> pb.GameRecord:
    """A generated game cut after ``plies`` and ended by ``how`` as a client would write it."""
    record = next(generate(game, tags, 1, seed=77, policy="greedy"))
    del record.moves[plies:]
    found = engine(game)
    state = _state_after(found, record)
    result = record.result
    result.Clear()
    if how == "resign":
        move = record.moves.add(seat=state.to_move)
        move.resign.SetInParent()
        state.play(found.parse_move(state_variant(found, record), "resign"))
        result.termination = pb.TERMINATION_RESIGNATION
        if state.is_over:
            result.scores.values.extend(state.scores())
            result.winners.extend(state.winners())
        else:
            result.unfinished.SetInParent()
    elif how == "timeout":
        result.termination = pb.TERMINATION_TIMEOUT
        result.winners.append(state.to_move % state.seats + 1)
    elif how == "agreement":
        result.termination = pb.TERMINATION_AGREEMENT
        result.scores.values.extend([0, 0])
    else:
        result.termination = pb.TERMINATION_ABANDONED
        result.unfinished.SetInParent()
    record.comment = f"The game stops after ply {len(record.moves)}: {how}."
    return record


def _resign_and_play_on(game: str, tags: dict[str, str], ply: int) -> pb.GameRecord:
    """A game of 3+ seats in which the seat to move at ``ply`` resigns and the rest play on."""
    found = engine(game)
    record = next(generate(game, tags, 1, seed=77, policy="greedy"))
    del record.moves[ply - 1 :]
    variant = state_variant(found, record)
    state = _state_after(found, record)
    rng = random.Random(ply)
    resign = found.parse_move(variant, "resign")
    number = game_from_name(game)
    assert number is not None
    while not state.is_over:
        engine_move = resign if state.ply == ply - 1 else rng.choice(state.legal_moves())
        move = parse_action(number, found.format_move(variant, engine_move))
        move.seat = state.to_move
        record.moves.append(move)
        state.play(engine_move)
    record.result.Clear()
    record.result.scores.values.extend(state.scores())
    record.result.winners.extend(state.winners())
    record.result.termination = pb.TERMINATION_NORMAL
    record.comment = f"Seat {record.moves[ply - 1].seat} resigns at ply {ply}; the others play on."
    return record


def state_variant(found: Engine[Any, Any], record: pb.GameRecord) -> Any:
    """The engine variant of a record built by this script."""
    return found.variant_from_tags(_tags(record))


def _tags(record: pb.GameRecord) -> dict[str, str]:
    return {tag: value for tag, value in variant_tags(record.rules) if value != "0"}


def _state_after(found: Engine[Any, Any], record: pb.GameRecord) -> Any:
    """The engine state after every ply of ``record``."""
    variant = state_variant(found, record)
    state = found.new_game(variant)
    for move in record.moves:
        state.play(found.parse_move(variant, format_action(move)))
    return state


# -- invalid records: engine codes found by search ----------------------------------------


def candidate_tokens(game: str, variant_tags: dict[str, str]) -> list[str]:
    """Tokens worth trying at any ply of ``game`` (legal or not)."""
    if game == "ONE":
        points = [
            f"{ring}{index}"
            for ring, size in zip("abcd", (10, 10, 20, 20), strict=True)
            for index in range(1, size + 1)
        ]
        return [*points, "e1", *(f"{p}x{q}" for p in points for q in points if p != q)]
    if game == "Aronda":
        fields = ["c", *(f"{r}{i}" for r in "imo" for i in range(1, 9))]
        return [*fields, "i9", "pass", *(f"{a},{b}" for a in fields for b in fields), "o1,o2,o3"]
    if game == "Oust":
        side = int(variant_tags.get("Board", "7"))
        cells = [f"{chr(97 + u)}{v + 1}" for v in range(2 * side - 1) for u in range(2 * side - 1)]
        singles = [*cells, "z99", "pass", "swap"]
        return [*singles, *(f"{a},{b}" for a in cells[:40] for b in cells[:40] if a != b)]
    pits = range(0, 14)
    return [f"{pit}{suffix}" for pit in pits for suffix in ("", "ccw", "cw")]


#: Where to search for each game's codes: (variant tags, seeds).
SEARCH = {
    "ONE": ({"Players": "3"}, range(5)),
    "Aronda": ({}, range(5)),
    "Oust": ({"Board": "5"}, range(8)),
    "Oh-Wah-Ree": ({"Players": "4"}, range(5)),
}
#: Codes searched under another variant (a rule option must be on for them to occur).
SEARCH_OVERRIDES = {
    ("Oh-Wah-Ree", "DIRECTION_NOT_ALLOWED"): {"Players": "2"},
    ("Oust", "SWAP_NOT_ALLOWED"): {"Board": "5", "Pie": "off"},
}
#: Codes about the seat or the end, built rather than searched.
BUILT_CODES = ("NOT_YOUR_TURN", "GAME_ALREADY_OVER")


def engine_code_fixtures() -> Iterator[Fixture]:
    """For every reachable engine code, a record whose first finding is that code."""
    for game in game_names():
        found = engine(game)
        for code in sorted(found.reason_codes):
            if (game, code) in UNREACHABLE:
                continue
            record = _built(found, code) if code in BUILT_CODES else _searched(found, code)
            if record is None:
                sys.exit(f"no fixture found for {game} {code}; extend the search")
            stem = f"{_slug(game)}-{code.lower().replace('_', '-')}"
            yield Fixture(f"{stem}.grn", [record])


def _slug(game: str) -> str:
    return game.lower().replace("-", "")


def _searched(found: Engine[Any, Any], code: str) -> pb.GameRecord | None:
    """Search seeded random games for a ply where some candidate token fails with ``code``."""
    tags, seeds = SEARCH[found.name]
    tags = SEARCH_OVERRIDES.get((found.name, code), tags)
    variant = found.variant_from_tags(dict(tags))
    candidates = candidate_tokens(found.name, tags)
    for seed in seeds:
        moves = found.random_game(variant, random.Random(seed))
        states = [found.new_game(variant)]
        for move in moves:
            states.append(states[-1].copy())
            states[-1].play(move)
        # Mid-game plies first (mistakes look real there), then the opening.
        start = len(moves) // 3
        for ply in [*range(start + 1, len(moves) + 1), *range(1, start + 1)]:
            token = _first_token_failing(found, variant, states[ply - 1], candidates, code)
            if token is not None:
                prefix = [found.format_move(variant, m) for m in moves[: ply - 1]]
                return _invalid_record(found, tags, [*prefix, token], ply, code)
    return None


def _first_token_failing(
    found: Engine[Any, Any], variant: Any, state: Any, candidates: list[str], code: str
) -> str | None:
    game = game_from_name(found.name)
    assert game is not None
    for token in candidates:
        try:
            parse_action(game, token)  # the record's syntax must hold the token too
            move = found.parse_move(variant, token)
        except ValueError:
            continue
        illegal = state.check(move)
        if illegal is not None and illegal.code == code:
            return token
    return None


def _built(found: Engine[Any, Any], code: str) -> pb.GameRecord:
    """NOT_YOUR_TURN (a legal ply claimed by the wrong seat) and GAME_ALREADY_OVER."""
    tags = SEARCH[found.name][0]
    variant = found.variant_from_tags(dict(tags))
    moves = [found.format_move(variant, m) for m in found.random_game(variant, random.Random(3))]
    if code == "NOT_YOUR_TURN":
        ply = min(6, len(moves))
        record = _invalid_record(found, tags, moves[:ply], ply, code)
        stated = record.moves[ply - 1]
        stated.seat = (
            _state_after(found, _without_last(record)).to_move % _seats(found, variant) + 1
        )
        return record
    return _invalid_record(found, tags, [*moves, moves[-1]], len(moves) + 1, code)


def _without_last(record: pb.GameRecord) -> pb.GameRecord:
    copy = pb.GameRecord()
    copy.CopyFrom(record)
    del copy.moves[-1]
    return copy


def _seats(found: Engine[Any, Any], variant: Any) -> int:
    seats: int = found.new_game(variant).seats
    return seats


def _invalid_record(
    found: Engine[Any, Any], tags: dict[str, str], tokens: list[str], ply: int, code: str
) -> pb.GameRecord:
    """A record of ``tokens`` expecting ``code`` at ``ply``."""
    record = _blank(found.name, tags)
    game = game_from_name(found.name)
    assert game is not None
    for token in tokens:
        record.moves.append(parse_action(game, token))
    _expect(record, code, ply)
    return record


def _blank(game: str, tags: dict[str, str]) -> pb.GameRecord:
    record = pb.GameRecord(format_version=1)
    read_tag(record, "Game", game)
    for tag, value in tags.items():
        read_tag(record, tag, value)
    record.metadata.event = "gamerec invalid fixtures"
    return record


def _expect(record: pb.GameRecord, code: str, ply: int) -> None:
    record.metadata.extra_tags["ExpectedCode"] = code
    record.metadata.extra_tags["ExpectedPly"] = str(ply)
    where = f"ply {ply}" if ply else "the record as a whole"
    record.comment = f"Invalid on purpose: {code} at {where}."


# -- invalid records: the validator's own codes -------------------------------------------


def validator_code_fixtures() -> Iterator[Fixture]:
    """A record for each finding the validator makes beyond the engines' codes."""
    one = {"Players": "2"}
    game = _complete("ONE", one)

    variant = _blank("Oh-Wah-Ree", {"Players": "5"})
    _expect(variant, "IMPOSSIBLE_VARIANT", 0)
    yield Fixture("impossible-variant.grn", [variant])

    seats = _complete("ONE", {"Players": "3"})
    del seats.seats[2:]
    _expect(seats, "SEAT_COUNT_MISMATCH", 0)
    yield Fixture("seat-count-mismatch.grn", [seats])

    unknown = _complete("ONE", one)
    unknown.rules.game = pb.GAME_UNSPECIFIED
    unknown.rules.ClearField("variant")
    _expect(unknown, "UNKNOWN_GAME", 0)
    yield Fixture("unknown-game.pb", [unknown])

    empty = _copy(game)
    empty.moves[4].ClearField("one")
    _expect(empty, "EMPTY_MOVE", 5)
    yield Fixture("empty-move.pb", [empty])

    other = _copy(game)
    other.moves[4].ClearField("one")
    other.moves[4].aronda.placements.add(ring=pb.ARONDA_RING_OUTER, index=1)
    _expect(other, "MOVE_OF_OTHER_GAME", 5)
    yield Fixture("move-of-other-game.pb", [other])

    malformed = _copy(game)
    malformed.moves[4].ClearField("one")
    getattr(malformed.moves[4], "pass").SetInParent()
    _expect(malformed, "MALFORMED_MOVE", 5)
    yield Fixture("malformed-move.grn", [malformed])

    early = _copy(game)
    del early.moves[20:]
    _expect(early, "RECORD_ENDS_EARLY", 0)
    yield Fixture("record-ends-early.grn", [early])

    scores = _copy(game)
    scores.result.scores.values[0] += 1
    _expect(scores, "RESULT_MISMATCH", 0)
    yield Fixture("result-mismatch.grn", [scores])

    winner = _copy(game)
    del winner.result.winners[:]
    winner.result.winners.append(3 - game.result.winners[0] if game.result.winners else 1)
    _expect(winner, "WINNER_MISMATCH", 0)
    yield Fixture("winner-mismatch.grn", [winner])

    termination = _copy(game)
    termination.result.termination = pb.TERMINATION_TIMEOUT
    _expect(termination, "TERMINATION_MISMATCH", 0)
    yield Fixture("termination-mismatch.grn", [termination])


def _complete(game: str, tags: dict[str, str]) -> pb.GameRecord:
    record = next(generate(game, tags, 1, seed=5, policy="random"))
    record.metadata.event = "gamerec invalid fixtures"
    return record


def _copy(record: pb.GameRecord) -> pb.GameRecord:
    copy = pb.GameRecord()
    copy.CopyFrom(record)
    return copy


# -- writing -------------------------------------------------------------------------------


def all_fixtures() -> dict[Path, bytes]:
    """Every fixture file and its bytes."""
    files: dict[Path, bytes] = {}
    groups: list[tuple[Path, Callable[[], Iterator[Fixture]]]] = [
        (GAMES, complete_games),
        (INVALID, engine_code_fixtures),
        (INVALID, validator_code_fixtures),
    ]
    for folder, make in groups:
        for fixture in make():
            files[folder / fixture.name] = _encoded(fixture)
    return files


def _encoded(fixture: Fixture) -> bytes:
    if fixture.encoding() is Encoding.PB:
        return encode_record(fixture.records[0], Encoding.PB)
    stream = io.BytesIO()
    write_records(fixture.records, stream, Encoding.GRN)
    return stream.getvalue()


def main() -> int:
    """Write the fixtures, or with --check compare them with the committed files."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when fixtures are stale")
    check = parser.parse_args().check
    files = all_fixtures()
    if check:
        stale = [
            str(path.relative_to(ROOT))
            for path, data in files.items()
            if not path.exists() or path.read_bytes() != data
        ]
        extra = {p for folder in (GAMES, INVALID) for p in folder.glob("*")} - set(files)
        stale += [str(path.relative_to(ROOT)) for path in sorted(extra)]
        if stale:
            print(
                "verdict fixtures are stale; run scripts/make_verdict_fixtures.py:",
                *stale,
                sep="\n  ",
            )
            return 1
        print(f"{len(files)} verdict fixtures are fresh")
        return 0
    for folder in (GAMES, INVALID):
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*"):
            old.unlink()
    for path, data in files.items():
        path.write_bytes(data)
    print(f"wrote {len(files)} fixtures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
