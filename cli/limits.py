"""``gamerec limits``: the limits on what one record may hold, their defaults and meanings.

Then the match service's (``gamerec serve --matches``; docs/live.md), the limits per client
of ``gamerec serve`` (docs/operating.md), the web door's bounds (``gamerec serve --web``;
docs/web.md) and the engine protocol's bounds on a line
(docs/engine-protocol.md): every table of :func:`limit_tables`, which the docs' limits
reference prints too, so that a table added there shows in both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import typer

from gamerec.recorder.limits import DEFAULT_LIMITS, limit_name

#: What each limit bounds (``recorder/limits.py`` tells the details).
MEANINGS: Final = {
    "max_record_bytes": "bytes of one record: a .pb or .json file, a .pbs frame, a JSON line, "
    "a GRN record (in characters)",
    "max_plies": "plies of the main line",
    "max_moves": "moves of the whole record, variations included, each variation one more",
    "max_variation_depth": "variations nested in variations (48 at most: the deepest nesting "
    "protobuf reads back)",
    "max_tags": "free tags (GRN tags without a field of their own: metadata.extraTags)",
    "max_tag_chars": "characters of one tag value or text field (comments apart)",
    "max_seats": "seats of a record",
    "max_comment_chars": "characters of one comment (a move's or the game's)",
    "max_list_items": "items of one list: the places of one move, ring sizes, claimed scores, "
    "winners",
}


@dataclass(frozen=True, slots=True)
class LimitTable:
    """One table of ``gamerec limits`` (and of the docs' limits reference, made from them).

    Attributes:
        heading: its name in a few words (the docs' section heading).
        title: the line above the table (empty for the first, the records' limits).
        option: the option that changes one of its limits, as ``--limit NAME=N`` (empty: they
            are fixed).
        guide: the docs page that tells more (a path under docs/).
        rows: its rows: each limit's name, its default, what it bounds.
    """

    heading: str
    title: str
    option: str
    guide: str
    rows: Callable[[], list[tuple[str, str, str]]]


def limits() -> None:
    """List the limits on what one record may hold, with their defaults and what they bound.

    Every command that reads records takes --limit NAME=N (repeatable) to change one for
    that run, e.g. --limit plies=500000. A record over a limit is reported unreadable (exit
    code 2), and the records after it are still read. The match service's limits follow
    (gamerec serve --matches takes --match-limit NAME=N), then the limits per client of
    gamerec serve (--client-limit NAME=N): a call past one is refused with
    RESOURCE_EXHAUSTED and the delay to wait in its google.rpc.RetryInfo. Then the web
    door's bounds (gamerec serve --web). Last, the engine protocol's bounds on a line
    (docs/engine-protocol.md), which no option changes.
    """
    for number, table in enumerate(limit_tables()):
        if number:
            typer.echo("")
        if table.title:
            typer.echo(table.title)
        _table(table.rows())


def _table(rows: list[tuple[str, str, str]]) -> None:
    name_width = max(len(name) for name, _, _ in rows)
    value_width = max(len(value) for _, value, _ in rows)
    typer.echo(f"{'NAME':<{name_width}}  {'DEFAULT':>{value_width}}  WHAT IT BOUNDS")
    for name, value, meaning in rows:
        typer.echo(f"{name:<{name_width}}  {value:>{value_width}}  {meaning}")


def limit_rows() -> list[tuple[str, str, str]]:
    """Each limit as ``gamerec limits`` lists it: its name, its default, what it bounds.

    The docs' limits reference (docs/reference/limits.md) is made from these rows too.
    """
    return [
        (limit_name(field), f"{getattr(DEFAULT_LIMITS, field):,}", MEANINGS[field])
        for field in DEFAULT_LIMITS.__slots__
    ]


def match_limit_rows() -> list[tuple[str, str, str]]:
    """The match service's limits as ``gamerec limits`` lists them (``MatchLimits``)."""
    from gamerec.validator.live.referee import LIMIT_MEANINGS, MatchLimits

    defaults = MatchLimits()
    return [
        (name.replace("_", "-"), f"{getattr(defaults, name):,}", meaning)
        for name, meaning in LIMIT_MEANINGS.items()
    ]


def client_limit_rows() -> list[tuple[str, str, str]]:
    """The limits per client as ``gamerec limits`` lists them (``ClientLimits``)."""
    from gamerec.validator.service.quotas import CLIENT_LIMIT_MEANINGS, ClientLimits

    defaults = ClientLimits()
    return [
        (name.replace("_", "-"), f"{getattr(defaults, name):,}", meaning)
        for name, meaning in CLIENT_LIMIT_MEANINGS.items()
    ]


def limit_tables() -> tuple[LimitTable, ...]:
    """Every table ``gamerec limits`` prints, in its order (the docs' reference reads them all)."""
    return (
        LimitTable("Records", "", "--limit NAME=N", "robustness.md", limit_rows),
        LimitTable(
            "Match service",
            "Match service (gamerec serve --matches; change one with --match-limit NAME=N):",
            "--match-limit NAME=N",
            "live.md",
            match_limit_rows,
        ),
        LimitTable(
            "Per client",
            "Per client, per server process (gamerec serve --client-limit NAME=N):",
            "--client-limit NAME=N",
            "operating.md",
            client_limit_rows,
        ),
        LimitTable(
            "Web door",
            "Web door (gamerec serve --web; --max-message-bytes and --web-idle-timeout change "
            "two):",
            "",
            "web.md",
            web_limit_rows,
        ),
        LimitTable(
            "Engine protocol",
            "Engine protocol lines (docs/engine-protocol.md; fixed by the protocol):",
            "",
            "engine-protocol.md",
            engine_limit_rows,
        ),
    )


def web_limit_rows() -> list[tuple[str, str, str]]:
    """The web door's bounds as ``gamerec limits`` lists them."""
    from gamerec.validator.service.server import CONNECTION_STREAMS, DEFAULT_MAX_MESSAGE_BYTES
    from gamerec.validator.web.serving import DEFAULT_IDLE_SECONDS, MAX_HEADER_BYTES

    return [
        (
            "body-bytes",
            f"{DEFAULT_MAX_MESSAGE_BYTES:,}",
            "bytes of one request body, as of one gRPC message (--max-message-bytes; past "
            "it: resource_exhausted)",
        ),
        ("head-bytes", f"{MAX_HEADER_BYTES:,}", "bytes of an HTTP/1.1 request line and headers"),
        (
            "idle-seconds",
            f"{DEFAULT_IDLE_SECONDS:g}",
            "seconds a connection may carry no request before it is closed (--web-idle-timeout)",
        ),
        (
            "connection-streams",
            f"{CONNECTION_STREAMS:,}",
            "requests at once on one HTTP/2 connection (as on the gRPC port)",
        ),
    ]


def engine_limit_rows() -> list[tuple[str, str, str]]:
    """The engine protocol's bounds on a line as ``gamerec limits`` lists them."""
    from gamerec.validator.players.bounds import BOUNDS

    return [(name, f"{value:,}", meaning) for name, value, meaning in BOUNDS]
