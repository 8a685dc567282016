"""``gamerec validate`` of a year of Abstract Play Oust games: its JSON array beside ``.jsonl``.

A user with a year of Abstract Play's Oust records feeds them in as Abstract Play publishes
them: one JSON array of game records. The same seeded games, written once as that array (as
gameslib writes them: site, players with ids, dates; no embedded copy) and once as the
``.jsonl`` of the very records gamerec reads from it (cached in ``bench/.data``), are
validated by the real command with one worker and with every core, in turns; the figure is
the array's plies/s against the ``.jsonl``'s at the same worker count.

Run: ``.venv/bin/python -m bench.bench_foreign [--records 2000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.bench_encodings import EncodingRun, measure_files, print_runs
from bench.figures import DATA
from gamerec.recorder.codecs import Encoding, read_records, write_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate

#: About a year of one busy game on Abstract Play.
RECORDS = 2_000
FORMATS = ("abstractplay", "jsonl")
#: 2024-06-01, the first game's start; one game a few hours after the other.
FIRST_START = 1_717_200_000
GAP_SECONDS = 4 * 3600


def as_abstract_play_writes(record: pb.GameRecord, number: int) -> pb.GameRecord:
    """A generated game with what an Abstract Play record holds: site, ids, a start time."""
    record.metadata.Clear()
    record.metadata.site = "Abstract Play"
    record.metadata.start_time.FromSeconds(FIRST_START + number * GAP_SECONDS)
    for seat, name in zip(record.seats, ("Ana", "Ben"), strict=True):
        seat.name, seat.player_id = name, f"user-{name.lower()}"
    record.metadata.extra_tags["AbstractPlayGameId"] = f"game-{number}"
    return record


def archive(count: int) -> dict[str, Path]:
    """The cached array of ``count`` Abstract Play records, and the ``.jsonl`` read from it."""
    paths = {
        "abstractplay": DATA / f"abstractplay-oust-{count}.json",
        "jsonl": DATA / f"abstractplay-oust-{count}.jsonl",
    }
    if not paths["abstractplay"].exists():
        DATA.mkdir(exist_ok=True)
        games = generate("Oust", {"Pie": "off"}, count, seed=29)
        records = (as_abstract_play_writes(record, n) for n, record in enumerate(games))
        write_records(records, paths["abstractplay"], Encoding.ABSTRACT_PLAY)
    if not paths["jsonl"].exists():
        write_records(read_records(paths["abstractplay"]), paths["jsonl"])
    return paths


def measure(count: int = RECORDS, repetitions: int = 3) -> list[EncodingRun]:
    """Both files with one worker and with all cores, in turns (one of each, then again)."""
    return measure_files(archive(count), repetitions)


def main() -> None:
    """Print records/s and plies/s per file and worker count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=RECORDS)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    title = f"gamerec validate, {options.records:,} Oust games, median of {options.repeat}"
    print_runs(title, measure(options.records, options.repeat))


if __name__ == "__main__":
    main()
