"""``gamerec find PATH... [criteria]``: the records that meet every criterion, as pgn-extract.

Criteria combine with AND; a criterion given several times is met by any of its values.
Without ``-o`` each record found is listed (``--json``: one ``FoundRecord`` per line); with
``-o OUT`` they are written there in any encoding. Exit code 0 when some record is found, 1
when none is, 2 when something could not be read (the rest is still searched).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of
from gamerec.cli.collected import (
    Counted,
    Failures,
    OutputOption,
    ToOption,
    WorkersOption,
    output_encoding,
    written_note,
)
from gamerec.cli.edge import EXIT_FINDINGS, EXIT_OK, fail, reported_errors
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gamerec.v1 import record_pb2 as pb
    from gamerec.validator.collection.find import Criteria, Found

Texts = list[str] | None


def _many(name: str, metavar: str, what: str) -> Any:
    return typer.Option(name, metavar=metavar, help=f"{what} (repeatable: any of them).")


GameOption = Annotated[Texts, _many("--game", "GAME", "The game, in any spelling")]
VariantOption = Annotated[
    Texts, _many("--variant", "TAG=VALUE", "A variant tag as the record writes it, Players=3")
]
PlayerOption = Annotated[
    Texts, _many("--player", "NAME", "A seat's name or player id (* and ? match anything)")
]
EventOption = Annotated[Texts, _many("--event", "TEXT", "The event (* and ? wildcards)")]
SiteOption = Annotated[Texts, _many("--site", "TEXT", "The site (* and ? wildcards)")]
RoundOption = Annotated[Texts, _many("--round", "TEXT", "The round (* and ? wildcards)")]
TerminationOption = Annotated[
    Texts, _many("--termination", "WORD", "The claimed termination: normal, resignation, ...")
]
WinnerOption = Annotated[
    Texts, _many("--winner", "SEAT|NAME", "A claimed winner: a seat number, name or id")
]
PliesOption = Annotated[Texts, _many("--plies", "N|N..M", "Plies of the main line: 40, 40..60")]
FindingOption = Annotated[Texts, _many("--finding", "CODE", "A finding code of the referee")]
DigestOption = Annotated[
    Texts, _many("--digest", "HEX", "The final position's digest (Verdict.final_digest)")
]
PositionOption = Annotated[
    Texts,
    _many("--position", "FILE", "A position the record reaches, drawn as gamerec replay draws it"),
]
DateFromOption = Annotated[
    str, typer.Option("--date-from", metavar="DATE", help="On or after this date (2026-11).")
]
DateToOption = Annotated[
    str, typer.Option("--date-to", metavar="DATE", help="On or before this date (2026-11-30).")
]


def find(
    paths: PathsArgument,
    *,
    game: GameOption = None,
    variant: VariantOption = None,
    player: PlayerOption = None,
    event: EventOption = None,
    site: SiteOption = None,
    round_: RoundOption = None,
    date_from: DateFromOption = "",
    date_to: DateToOption = "",
    termination: TerminationOption = None,
    winner: WinnerOption = None,
    plies: PliesOption = None,
    valid: Annotated[bool, typer.Option("--valid", help="Valid records only.")] = False,
    invalid: Annotated[bool, typer.Option("--invalid", help="Invalid records only.")] = False,
    finding: FindingOption = None,
    result_mismatch: Annotated[
        bool, typer.Option("--result-mismatch", help="Records whose claim differs from the rules.")
    ] = False,
    digest: DigestOption = None,
    position: PositionOption = None,
    count: Annotated[bool, typer.Option("--count", help="Print only how many match.")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="List each record found as a FoundRecord (ProtoJSON).")
    ] = False,
    output: OutputOption = None,
    to: ToOption = None,
    from_: FromOption = None,
    workers: WorkersOption = 0,
    limit: LimitOption = None,
) -> None:
    """Select the records that meet every criterion (game, players, event, verdict, position).

    Criteria combine with AND; one given several times is met by any of its values. The
    criteria on the record are tried first, so only the records they leave are replayed.
    Exit code 0 when some record is found, 1 when none is, 2 when an input cannot be read.
    """
    from gamerec.validator.collection.find import CriteriaError, criteria

    if valid and invalid:
        fail("--valid and --invalid exclude each other; leave both out for every record")
    try:
        wanted = criteria(
            games=game or (),
            variants=variant or (),
            players=player or (),
            events=event or (),
            sites=site or (),
            rounds=round_ or (),
            date_from=date_from,
            date_to=date_to,
            terminations=termination or (),
            winners=winner or (),
            plies=plies or (),
            valid=True if valid else (False if invalid else None),
            findings=finding or (),
            result_mismatch=result_mismatch,
            digests=digest or (),
            positions=[_drawing(path) for path in position or ()],
        )
    except CriteriaError as error:
        fail(str(error))
    options = _Options(output, to, count, as_json, from_, workers, limits_of(limit))
    _run(paths, wanted, options)


class _Options(NamedTuple):
    """How to read, and what to do with what is found."""

    output: str | None
    to: Encoding | None
    count_only: bool
    as_json: bool
    encoding: Encoding | None
    workers: int
    limits: Limits


def _drawing(path: str) -> str:
    """The text of a ``--position`` file (exit 2 when it cannot be read)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        fail(f"--position {path}: {error}")


def _run(paths: list[str], wanted: Criteria, options: _Options) -> None:
    """Search, then list, count or write what is found."""
    from gamerec.recorder.codecs import write_records
    from gamerec.validator.collection.find import find as find_records

    failures = Failures()
    found = find_records(
        paths,
        wanted,
        encoding=options.encoding,
        limits=options.limits,
        workers=options.workers,
    )
    listed = not options.count_only and options.output is None
    records = Counted(_shown(found, failures, listed=listed, as_json=options.as_json))
    if options.output is None:
        for _ in records:
            pass
    else:
        encoding = output_encoding(options.output, options.to)
        with reported_errors():
            write_records(records, options.output, encoding)
        written_note(records.count, options.output, encoding)
    if options.count_only:
        typer.echo(str(records.count))
    raise typer.Exit(failures.exit_code(EXIT_OK if records.count else EXIT_FINDINGS))


def _shown(
    found: Iterator[Found | InputFailure], failures: Failures, *, listed: bool, as_json: bool
) -> Iterator[pb.GameRecord]:
    """The records found, each listed when asked; failures reported on the way."""
    for item in found:
        if isinstance(item, InputFailure):
            failures.report(item)
            continue
        if listed:
            typer.echo(_line(item, as_json))
        yield item.record


def _line(found: Found, as_json: bool) -> str:
    """One record found: its FoundRecord as JSON, or ``source #n: ONE  event ...  Ana - Ben``."""
    from gamerec.cli.verdicts import message_json
    from gamerec.recorder.notation import game_label

    if as_json:
        return message_json(found.message())
    record = found.record
    metadata = record.metadata
    parts = [f"{found.entry.label()}: {game_label(record.rules.game)}"]
    parts += [f"{name} {value}" for name, value in _written(metadata) if value]
    parts.append(" - ".join(seat.name or seat.player_id or "?" for seat in record.seats))
    parts.append(f"{len(record.moves)} plies")
    if found.match.position_ply is not None:
        parts.append(f"position after ply {found.match.position_ply}")
    if found.match.verdict is not None:
        verdict = found.match.verdict
        codes = ",".join(dict.fromkeys(error.code for error in verdict.errors))
        parts.append("valid" if verdict.valid else f"INVALID {codes}")
    return "  ".join(part for part in parts if part)


def _written(metadata: pb.Metadata) -> list[tuple[str, str]]:
    """The metadata a line of ``find`` shows, quoted when it holds spaces."""
    values = [("event", metadata.event), ("round", metadata.round), ("date", metadata.date)]
    return [(name, f'"{value}"' if " " in value else value) for name, value in values]
