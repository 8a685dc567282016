"""``gamerec generate --game G --count K --seed S -o OUT``: complete legal games as records.

Over :func:`gamerec.validator.generation.generate`: the same game, variant, count, seed and policy
always give the same records (and, in a binary or text encoding, the same bytes).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Annotated

import typer

from gamerec.cli.arguments import (
    PlayersOption,
    Policy,
    PolicyOption,
    VariantOption,
    naming_players,
    variant_tags,
)
from gamerec.cli.collected import ToOption, output_encoding
from gamerec.cli.edge import reported_errors
from gamerec.cli.progress import Meter
from gamerec.recorder.codecs import write_records
from gamerec.recorder.syntax.registered import known_games
from gamerec.recorder.words import plural
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate as generate_records


class _Counted:
    """Records passed through, with their plies counted for the summary and the meter."""

    def __init__(self, records: Iterable[pb.GameRecord], meter: Meter) -> None:
        self.records = records
        self.meter = meter
        self.plies = 0

    def __iter__(self) -> Iterator[pb.GameRecord]:
        for record in self.records:
            self.plies += len(record.moves)
            self.meter.advance()
            yield record


def generate(
    game: Annotated[
        str,
        typer.Option(
            "--game",
            help=f"{known_games(' or ')}, in any spelling (case, - and _ do not matter).",
        ),
    ],
    dest: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="OUT",
            help="Where to write: a file (encoding from its extension), or - for standard output.",
        ),
    ],
    *,
    count: Annotated[int, typer.Option("--count", min=0, help="How many games.")] = 1,
    seed: Annotated[
        int, typer.Option("--seed", help="The seed; the same seed, the same games.")
    ] = 1,
    players: PlayersOption = None,
    variant: VariantOption = None,
    policy: PolicyOption = Policy.RANDOM,
    to: ToOption = None,
) -> None:
    """Generate complete legal games for fixtures, demos and benchmarks.

    Every game is played by the rules engine from the start to its end, so every record
    validates and claims the rules' result. Record i uses its own generator seeded from the
    seed and i, so the same arguments always give the same records.
    """
    encoding = output_encoding(dest, to)
    tags = variant_tags(variant or [])
    if players is not None:
        tags["Players"] = str(players)
    asked_for_no_players = players is None and "Players" not in tags
    with (
        reported_errors(),
        naming_players(asked_for_no_players),
        Meter("generate", count, "games", output=dest) as meter,
    ):
        records = _Counted(generate_records(game, tags, count, seed, policy.value), meter)
        written = write_records(records, dest, encoding)
    if dest != "-":
        typer.echo(
            f"gamerec: {plural(written, 'game')} written to {dest} ({encoding.value}), "
            f"{plural(records.plies, 'ply')}, seed {seed}, policy {policy.value}",
            err=True,
        )
