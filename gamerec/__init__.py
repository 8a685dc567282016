"""gamerec: game records and a referee for ONE, Aronda, Oust and Oh-Wah-Ree.

A record is a whole match: its game and variant, the seats, every ply with its comments,
clocks and variations, and the claimed result. gamerec reads and writes records in five
encodings, and judges them by the exact rules in ``docs/rules/``.

A five-minute tour
==================

Read records and judge them (``.pb``, ``.pbs``, ``.json``, ``.jsonl`` or ``.grn``)::

    import gamerec

    for record in gamerec.read_records("games.pbs"):
        verdict = gamerec.validate(record)
        print(verdict.valid, list(verdict.result.scores))
        for finding in verdict.errors:       # the first illegal ply, a wrong claim ...
            print(finding.ply, finding.seat, finding.code, finding.message)

The answers are the ``gamerec.v1`` protobuf messages the CLI's ``--json`` and the gRPC
service give: ``validate`` -> ``Verdict``, ``score`` -> ``ComputedResult``, ``adjudicate`` ->
``Ruling`` (a tournament director's decision, citing the rules), ``replay`` -> one
``ReplayFrame`` per ply, ``compare_records`` -> ``RecordDiff``.

Write a record while the game is played; every ply is checked at once::

    game = gamerec.RecordBuilder("ONE", {"Players": 3, "Board": "6,6"},
                                 seats=["Ana", "Ben", "Chi"], event="Club night")
    game.play("a1")
    game.play("a2", comment="a4 would be illegal")
    try:
        game.play("a2")
    except gamerec.IllegalPlyError as error:
        print(error.finding.code)             # OCCUPIED, as validate would say
    gamerec.write_records([game.record], "club.grn")

Once the game is over by its rules, ``game.record`` claims the rules' result. Pictures and
facts: ``render_svg(record, ply=12)``, ``render_text(record)``, ``render_html(record)`` (one
offline page to step through, with the verdict), ``auto_annotate(record)``
(engine facts and mistakes on every ply), ``edit_ply(record, 4, comment="...")``. Test data:
``generate("Oust", {"Board": "5"}, count=10, seed=1)``. The engines alone:
``engine("Oh-Wah-Ree")`` gives the rules behind one protocol (``variant``, ``new_game``,
``parse_move``, ``replay``; states with ``legal_moves``, ``check``, ``play``, ``scores``).

Whole archives on a Dask cluster (the ``cluster`` extra): ``validate_on_cluster(paths,
client, out="verdicts/")`` gives one ``Outcome`` per record, in input order, judged by the
workers of an existing ``distributed.Client``; an interrupted run resumes from ``out``.
Records that prove themselves (docs/seals.md): give the builder the players' and the
host's Ed25519 keys and every ply is sealed and signed as it is played; ``verify`` says what
the signatures prove::

    game = gamerec.RecordBuilder("Aronda", seats=["Ana", "Ben"],
                                 signing_keys={1: ana, 2: ben, 0: host})
    ...
    answer = gamerec.verify(game.record, trusted={ana_public, ben_public, host_public})
    answer.verified, [(f.code, f.ply, f.seat) for f in answer.findings]

``load_private_key``/``load_public_key`` read ``ssh-keygen`` and ``openssl`` key files,
``fingerprint`` names a key as ``ssh-keygen -l`` does; ``seal_record`` and ``sign_record``
seal and sign a finished record.
Collections, as a tournament director uses them (paths of any encoding, or records)::

    wanted = gamerec.find_criteria(games=["ONE"], players=["Ana"], valid=False)
    for found in gamerec.find(["club/"], wanted):    # Found, or InputFailure in its place
        print(found)
    gamerec.collection_stats(["club/"])              # -> CollectionStats, per game and variant
    gamerec.standings(["club/"], event="Club night")  # -> Standings: the crosstable
    copies = gamerec.dedupe(["a.pbs", "b.grn"], keep="most-complete")
    gamerec.write_records(copies.records(), "clean.pbs")   # copies.report: the pairs

Errors: everything gamerec raises on purpose is a :class:`GamerecError` (a ``ValueError``):
:class:`RecordMalformedError` for input that cannot be decoded (with its place),
:class:`LimitExceededError` past a :class:`Limits` value, :class:`VariantError` for an
impossible variant, :class:`IllegalPlyError` for a ply the rules refuse.

Names are imported on first use, so ``import gamerec`` costs almost nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamerec.recorder.codecs import (
        Encoding,
        decode_record,
        encode_record,
        read_records,
        write_records,
    )
    from gamerec.recorder.errors import (
        DeadlineExceededError,
        EncodingError,
        GamerecError,
        LimitExceededError,
        NotationError,
        RecordMalformedError,
    )
    from gamerec.recorder.limits import DEFAULT_LIMITS, Limits
    from gamerec.recorder.seal import seal_record
    from gamerec.recorder.signing import (
        fingerprint,
        load_private_key,
        load_public_key,
        sign_record,
    )
    from gamerec.v1.record_pb2 import GameRecord
    from gamerec.validator.adjudication import adjudicate
    from gamerec.validator.annotation import auto_annotate, edit_ply
    from gamerec.validator.builder import IllegalPlyError, RecordBuilder
    from gamerec.validator.cluster import validate_on_cluster
    from gamerec.validator.collection.dedupe import dedupe
    from gamerec.validator.collection.find import criteria as find_criteria
    from gamerec.validator.collection.find import find
    from gamerec.validator.collection.standings import standings
    from gamerec.validator.collection.stats import collection_stats
    from gamerec.validator.comparison import compare_collections, compare_records
    from gamerec.validator.frames import ReplayStoppedError, replay
    from gamerec.validator.games import engine, game_names
    from gamerec.validator.games.protocol import IllegalMoveError, VariantError
    from gamerec.validator.games.registry import entry_named as game_entry
    from gamerec.validator.generation import generate
    from gamerec.validator.identity import RulesError
    from gamerec.validator.judge import score, validate
    from gamerec.validator.render.pictures import render_svg, render_text
    from gamerec.validator.render.viewer import render_html
    from gamerec.validator.verification import verify

#: Every name of the front door and the module that holds it (``(module, name)`` for aliases).
_EXPORTS: dict[str, str | tuple[str, str]] = {
    "Encoding": "gamerec.recorder.codecs",
    "decode_record": "gamerec.recorder.codecs",
    "encode_record": "gamerec.recorder.codecs",
    "read_records": "gamerec.recorder.codecs",
    "write_records": "gamerec.recorder.codecs",
    "DeadlineExceededError": "gamerec.recorder.errors",
    "EncodingError": "gamerec.recorder.errors",
    "GamerecError": "gamerec.recorder.errors",
    "LimitExceededError": "gamerec.recorder.errors",
    "NotationError": "gamerec.recorder.errors",
    "RecordMalformedError": "gamerec.recorder.errors",
    "DEFAULT_LIMITS": "gamerec.recorder.limits",
    "Limits": "gamerec.recorder.limits",
    "seal_record": "gamerec.recorder.seal",
    "fingerprint": "gamerec.recorder.signing",
    "load_private_key": "gamerec.recorder.signing",
    "load_public_key": "gamerec.recorder.signing",
    "sign_record": "gamerec.recorder.signing",
    "GameRecord": "gamerec.v1.record_pb2",
    "adjudicate": "gamerec.validator.adjudication",
    "auto_annotate": "gamerec.validator.annotation",
    "edit_ply": "gamerec.validator.annotation",
    "IllegalPlyError": "gamerec.validator.builder",
    "RecordBuilder": "gamerec.validator.builder",
    "validate_on_cluster": "gamerec.validator.cluster",
    "dedupe": "gamerec.validator.collection.dedupe",
    "find": "gamerec.validator.collection.find",
    "find_criteria": ("gamerec.validator.collection.find", "criteria"),
    "standings": "gamerec.validator.collection.standings",
    "collection_stats": "gamerec.validator.collection.stats",
    "compare_collections": "gamerec.validator.comparison",
    "compare_records": "gamerec.validator.comparison",
    "ReplayStoppedError": "gamerec.validator.frames",
    "replay": "gamerec.validator.frames",
    "engine": "gamerec.validator.games",
    "game_names": "gamerec.validator.games",
    "IllegalMoveError": "gamerec.validator.games.protocol",
    "VariantError": "gamerec.validator.games.protocol",
    "game_entry": ("gamerec.validator.games.registry", "entry_named"),
    "generate": "gamerec.validator.generation",
    "RulesError": "gamerec.validator.identity",
    "score": "gamerec.validator.judge",
    "validate": "gamerec.validator.judge",
    "render_svg": "gamerec.validator.render.pictures",
    "render_text": "gamerec.validator.render.pictures",
    "verify": "gamerec.validator.verification",
    "render_html": "gamerec.validator.render.viewer",
}

__all__ = [
    "DEFAULT_LIMITS",
    "DeadlineExceededError",
    "Encoding",
    "EncodingError",
    "GameRecord",
    "GamerecError",
    "IllegalMoveError",
    "IllegalPlyError",
    "LimitExceededError",
    "Limits",
    "NotationError",
    "RecordBuilder",
    "RecordMalformedError",
    "ReplayStoppedError",
    "RulesError",
    "VariantError",
    "__version__",
    "adjudicate",
    "auto_annotate",
    "collection_stats",
    "compare_collections",
    "compare_records",
    "decode_record",
    "dedupe",
    "edit_ply",
    "encode_record",
    "engine",
    "find",
    "find_criteria",
    "fingerprint",
    "game_entry",
    "game_names",
    "generate",
    "load_private_key",
    "load_public_key",
    "read_records",
    "render_html",
    "render_svg",
    "render_text",
    "replay",
    "score",
    "seal_record",
    "sign_record",
    "standings",
    "validate",
    "validate_on_cluster",
    "verify",
    "write_records",
]

__version__: str  # read from the package metadata on first use (that costs 30 ms)


def _installed_version() -> str:
    """The installed distribution's version."""
    from importlib.metadata import PackageNotFoundError  # noqa: PLC0415 (slow to import)
    from importlib.metadata import version as _version  # noqa: PLC0415

    try:
        return _version("gamerec-toolkit")
    except PackageNotFoundError:  # pragma: no cover - a source tree that was never installed
        return "0+unknown"


def __getattr__(name: str) -> Any:
    """Import a front-door name on first use (PEP 562)."""
    if name == "__version__":
        globals()[name] = version = _installed_version()
        return version
    where = _EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module 'gamerec' has no attribute {name!r}")
    module, attribute = (where, name) if isinstance(where, str) else where
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The front door's names, so that ``dir()`` and ``help()`` show them."""
    return sorted({*globals(), *_EXPORTS})
