"""The Oh-Wah-Ree table file: exact layout, refusals of damaged or foreign files, the default."""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path

import pytest

from gamerec.validator.games.ohwahree import OhWahReeState, OhWahReeVariant
from gamerec.validator.tables import TableError, lookup, open_table, probe
from gamerec.validator.tables import probing as lookup_module
from gamerec.validator.tables.build import solve
from gamerec.validator.tables.positions import index_of, table_size
from gamerec.validator.tables.tablefile import encode, write

STONES = 3


@pytest.fixture(scope="module")
def table_bytes() -> bytes:
    return encode(solve(STONES))


@pytest.fixture
def table_file(tmp_path: Path, table_bytes: bytes) -> Path:
    path = tmp_path / "t.owrt"
    path.write_bytes(table_bytes)
    return path


def test_the_header_is_as_documented(table_bytes: bytes) -> None:
    magic, version, seats, direction, stones, encoding, reserved, positions, never_ending = (
        struct.unpack_from("<8sHBBBBHQQ", table_bytes)
    )
    assert magic == b"\x89OWRTBL\n"
    assert (version, seats, direction, stones, encoding, reserved) == (1, 2, 0, STONES, 2, 0)
    assert positions == table_size(STONES) == 455
    assert len(table_bytes) == 64 + 2 * positions
    assert hashlib.sha256(table_bytes[:32] + table_bytes[64:]).digest() == table_bytes[32:64]
    pairs = list(struct.iter_unpack("<bb", table_bytes[64:]))
    assert never_ending == sum(lower != upper for lower, upper in pairs) == 139
    assert all(lower <= upper for lower, upper in pairs)
    assert {lower for lower, _ in pairs} <= {-127, *range(-STONES, STONES + 1)}
    assert {upper for _, upper in pairs} <= {127, *range(-STONES, STONES + 1)}
    # The empty board ends the game at once: margin 0, position 0.
    assert pairs[0] == (0, 0)


def test_values_read_back_by_position(table_file: Path) -> None:
    table = open_table(table_file)
    # One stone, seat 1 to move at pit 6: it goes to pit 7, seat 2 carries it to 8, and seat 1,
    # with no stone, ends the game: seat 2 keeps it. Margin -1 for seat 1.
    state = OhWahReeState.from_position(
        OhWahReeVariant(players=2), (0,) * 5 + (1,) + (0,) * 6, (24, 23), 1
    )
    assert table.lookup(state) == -1
    assert table.data.exact(index_of((0,) * 5 + (1,) + (0,) * 6)) == -1
    # Pit 5 and pit 12, seat 1 to move: +2 at least with an end, no end the opponent can force.
    endless = index_of((0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1))
    assert (table.data.exact(endless), table.data.lower_upper(endless)) == (None, (2, None))


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda data: b"PK\x03\x04" + data[4:], "not an Oh-Wah-Ree endgame table"),
        (lambda data: data[:8] + b"\x02\x00" + data[10:], "format version 2"),
        (lambda data: data[:10] + b"\x03" + data[11:], "for 3 seats"),
        (lambda data: data[:-1], "cut short or padded"),
        (lambda data: data + b"\x00", "cut short or padded"),
        (lambda data: data[:100] + bytes([data[100] ^ 1]) + data[101:], "checksum mismatch"),
        (lambda data: data[:13] + b"\x01" + data[14:], "value encoding 1"),
        (lambda data: data[:12] + b"\x04" + data[13:], "do not make a table of up to 4 stones"),
        (lambda data: data[:20], "too short for a table header"),
        (lambda data: b"", "too short for a table header"),
    ],
)
def test_a_damaged_or_foreign_file_is_refused(
    tmp_path: Path, table_bytes: bytes, damage: object, said: str
) -> None:
    path = tmp_path / "bad.owrt"
    path.write_bytes(damage(table_bytes))  # type: ignore[operator]
    with pytest.raises(TableError, match=said) as raised:
        open_table(path)
    assert str(path) in str(raised.value) and len(str(raised.value)) < 300


def test_a_missing_file_is_refused_with_its_name(tmp_path: Path) -> None:
    with pytest.raises(TableError, match="cannot read the table"):
        open_table(tmp_path / "none.owrt")


def test_writing_leaves_no_partial_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "t.owrt"
    size = write(solve(2), path)
    assert path.stat().st_size == size and [p.name for p in path.parent.iterdir()] == ["t.owrt"]


def test_the_default_table_is_found_lazily_by_the_environment(
    tmp_path: Path, table_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    variant = OhWahReeVariant(players=2)
    state = OhWahReeState.from_position(variant, (0,) * 5 + (1,) + (0,) * 6, (24, 23), 1)
    monkeypatch.setattr(lookup_module, "_opened", {})
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GAMEREC_TABLES", raising=False)
    assert lookup_module.default_table_path() == (
        tmp_path / "data" / "gamerec" / "tables" / "ohwahree-2.owrt"
    )
    assert lookup(state) is None and probe(state) is None  # no file there: not covered
    monkeypatch.setenv("GAMEREC_TABLES", str(table_file))
    assert lookup(state) == -1
    damaged = tmp_path / "damaged.owrt"
    damaged.write_bytes(table_file.read_bytes()[:-3])
    monkeypatch.setenv("GAMEREC_TABLES", str(damaged))
    with pytest.raises(TableError, match="cut short"):
        lookup(state)


def test_what_a_table_does_not_cover_is_none(table_file: Path) -> None:
    table = open_table(table_file)
    two = OhWahReeVariant(players=2)
    many = OhWahReeState.from_position(two, (1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0), (22, 22), 1)
    assert table.lookup(many) is None and not table.probe(many).covered  # 4 stones > 3
    over = OhWahReeState.from_position(two, (0,) * 11 + (1,), (24, 23), 1)
    assert over.is_over and table.lookup(over) is None
    three = OhWahReeState.from_position(
        OhWahReeVariant(players=3), (0,) * 11 + (1,), (16, 16, 15), 1
    )
    assert table.lookup(three) is None and not table.probe(three).covered
    assert table.lookup(object()) is None
