"""The public functions that take a record refuse anything else with a TypeError that says how
to get one (issue 34, item 9): a path names ``read_records``, bytes name ``decode_record``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import gamerec

ROOT = Path(__file__).resolve().parents[1]
KEY = Ed25519PrivateKey.generate()

CALLS: dict[str, Callable[[Any], object]] = {
    "validate": gamerec.validate,
    "score": gamerec.score,
    "adjudicate": gamerec.adjudicate,
    "verify": gamerec.verify,
    "replay": gamerec.replay,
    "auto_annotate": gamerec.auto_annotate,
    "edit_ply": lambda record: gamerec.edit_ply(record, 1, comment="x"),
    "render_svg": gamerec.render_svg,
    "render_text": gamerec.render_text,
    "render_html": gamerec.render_html,
    "seal_record": gamerec.seal_record,
    "sign_record": lambda record: gamerec.sign_record(record, KEY),
    "encode_record": lambda record: gamerec.encode_record(record, gamerec.Encoding.GRN),
    "compare_records": lambda record: gamerec.compare_records(record, record),
}


@pytest.mark.parametrize("name", CALLS)
def test_a_path_names_read_records(name: str) -> None:
    with pytest.raises(TypeError) as raised:
        CALLS[name]("fixtures/games/oust-side7.grn")
    assert str(raised.value) == (
        f"gamerec.{name} takes a GameRecord, not str: to read records from the file "
        "'fixtures/games/oust-side7.grn', use gamerec.read_records(path)"
    )


@pytest.mark.parametrize("name", CALLS)
def test_bytes_name_decode_record(name: str) -> None:
    data = (ROOT / "fixtures/valid/oust-e1-pie.pb").read_bytes()
    start = rf"^gamerec\.{name} takes a GameRecord, not bytes: "
    with pytest.raises(TypeError, match=start) as raised:
        CALLS[name](data)
    assert f"to decode {len(data):,} bytes of one record, use gamerec.decode_record(data)" in str(
        raised.value
    )


@pytest.mark.parametrize("name", CALLS)
def test_a_path_object_and_none_are_refused_too(name: str) -> None:
    with pytest.raises(TypeError, match=r"not PosixPath: .*read_records"):
        CALLS[name](Path("game.grn"))
    with pytest.raises(TypeError, match=r"not NoneType: .*read_records.*decode_record"):
        CALLS[name](None)


def test_a_long_path_is_quoted_short() -> None:
    with pytest.raises(TypeError) as raised:
        gamerec.validate("x" * 10_000)  # type: ignore[arg-type]
    assert len(str(raised.value)) < 200


def test_a_record_read_the_suggested_way_is_judged() -> None:
    path = ROOT / "fixtures/valid/oust-e1-pie.pb"
    (record,) = gamerec.read_records(path)
    assert gamerec.validate(record).valid
    assert gamerec.validate(gamerec.decode_record(path.read_bytes(), gamerec.Encoding.PB)).valid


def test_a_record_builder_is_told_to_give_its_record() -> None:
    builder = gamerec.RecordBuilder("ONE", {"Players": 2})
    with pytest.raises(TypeError) as raised:
        gamerec.validate(builder)  # type: ignore[arg-type]
    assert str(raised.value) == (
        "gamerec.validate takes a GameRecord, not RecordBuilder: pass its .record"
    )
    assert gamerec.validate(builder.record).valid


def test_write_records_refuses_a_path_a_lone_record_and_what_is_no_record(tmp_path: Path) -> None:
    out = tmp_path / "out.grn"
    with pytest.raises(
        TypeError,
        match=r"^gamerec\.write_records takes an iterable of records, not str: "
        r"gamerec\.read_records\(path\)",
    ):
        gamerec.write_records("game.grn", out)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"give \[record\]$"):
        gamerec.write_records(gamerec.GameRecord(), out)  # type: ignore[arg-type]
    (record,) = gamerec.read_records(ROOT / "fixtures/valid/oust-e1-pie.pb")
    with pytest.raises(
        TypeError, match=r"^gamerec\.write_records takes a GameRecord, not str: .*read_records"
    ):
        gamerec.write_records([record, "game.grn"], out)  # type: ignore[list-item]
    assert list(tmp_path.iterdir()) == []  # nothing half-written
    assert gamerec.write_records([record], out) == 1
