"""Two hand-made events with known results, built from seeded games (tests and fixtures).

- :func:`round_robin`: four players, two seats, seven games: five as the rules say, one
  whose record claims the wrong winner (WINNER_MISMATCH), one with an illegal ply (OCCUPIED);
- :func:`four_seat_event`: five players, three four-seat games, every seat ranked apart.

``scripts/make_event_fixtures.py`` writes them to ``fixtures/events/`` (:func:`files`), with
the evening as a second scorer entered it (:func:`second_scorer`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from gamerec.recorder.codecs import Encoding, encode_record
from gamerec.recorder.notation import format_action, parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.judge import validate

#: Where ``scripts/make_event_fixtures.py`` writes the events.
EVENTS = Path(__file__).resolve().parents[2] / "fixtures" / "events"


@cache
def _pool(players: int) -> tuple[bytes, ...]:
    """Finished ONE games with every seat at its own rank."""
    games = generate("ONE", {"Players": str(players)}, 40, seed=players)
    return tuple(
        game.SerializeToString()
        for game in games
        if len(set(validate(game).result.ranks)) == players
    )


def ranked(order: list[str], event: str, round_: int) -> pb.GameRecord:
    """A finished game whose rules rank the players of ``order`` first to last."""
    record = pb.GameRecord.FromString(_pool(len(order))[round_ % len(_pool(len(order)))])
    ranks = list(validate(record).result.ranks)
    for seat, rank in zip(record.seats, ranks, strict=True):
        seat.name = order[rank - 1]
    record.metadata.event, record.metadata.round = event, str(round_)
    return record


def agreed_draw(first: str, second: str, event: str, round_: int) -> pb.GameRecord:
    """Six plies of a game, then a draw by agreement."""
    record = ranked([first, second], event, round_)
    del record.moves[6:]
    record.ClearField("result")
    record.result.termination = pb.TERMINATION_AGREEMENT
    record.result.winners.extend([1, 2])
    record.seats[0].name, record.seats[1].name = first, second
    return record


def round_robin() -> list[pb.GameRecord]:
    """Seven games of four players (the last two are marked)."""
    event = "Club night"
    ana_ben = ranked(["Ana", "Ben"], event, 1)
    chi_dev = agreed_draw("Chi", "Dev", event, 1)
    ana_chi = agreed_draw("Ana", "Chi", event, 2)
    ben_dev = ranked(["Ben", "Dev"], event, 2)
    ana_dev = ranked(["Ana", "Dev"], event, 3)
    chi_beats_ben = ranked(["Chi", "Ben"], event, 3)
    ben = 1 + [seat.name for seat in chi_beats_ben.seats].index("Ben")
    del chi_beats_ben.result.winners[:]
    chi_beats_ben.result.winners.append(ben)  # the record claims Ben won: WINNER_MISMATCH
    illegal = ranked(["Dev", "Chi"], event, 4)
    dev = 1 + [seat.name for seat in illegal.seats].index("Dev")
    illegal.moves.insert(1, parse_action(pb.GAME_ONE, format_action(illegal.moves[0])))
    del illegal.result.winners[:]
    illegal.result.winners.append(dev)  # claims Dev won; ply 2 is OCCUPIED
    return [ana_ben, chi_dev, ana_chi, ben_dev, ana_dev, chi_beats_ben, illegal]


def four_seat_event() -> list[pb.GameRecord]:
    event = "Four-seat open"
    return [
        ranked(["Ana", "Ben", "Chi", "Dev"], event, 1),
        ranked(["Eli", "Ana", "Dev", "Ben"], event, 2),
        ranked(["Chi", "Eli", "Ben", "Ana"], event, 3),
    ]


def second_scorer() -> list[pb.GameRecord]:
    """Round 1 entered again with more detail, and a Ben-Dev game with another end."""
    first, second, _, ben_dev, *_ = round_robin()
    for record in (first, second):
        record.metadata.site = "Club house"
        for ply, move in enumerate(record.moves, start=1):
            move.clock.seconds = 600 - 5 * ply
    del ben_dev.moves[-1]
    ben_dev.ClearField("result")
    return [first, second, ben_dev]


def files() -> dict[str, bytes]:
    """Every fixture file's bytes."""
    made = {
        "club-night.grn": (round_robin(), Encoding.GRN),
        "four-seat-open.grn": (four_seat_event(), Encoding.GRN),
        "club-night-second-scorer.jsonl": (second_scorer(), Encoding.JSONL),
    }
    return {
        name: b"".join(encode_record(record, encoding) for record in records)
        for name, (records, encoding) in made.items()
    }
