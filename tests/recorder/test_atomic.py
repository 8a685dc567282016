"""Outputs are written whole or not at all (recorder.atomic), even when a signal strikes."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamerec.recorder.atomic import atomic_output


def test_the_bytes_appear_under_the_name_only_at_the_end(tmp_path: Path) -> None:
    target = tmp_path / "out.pbs"
    with atomic_output(target) as stream:
        stream.write(b"abc")
        assert not target.exists()
        [temporary] = tmp_path.iterdir()
        assert temporary.name.startswith(".out.pbs.") and temporary.name.endswith(".tmp")
    assert target.read_bytes() == b"abc"
    assert [path.name for path in tmp_path.iterdir()] == ["out.pbs"]


def test_an_error_in_the_block_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "out.pbs"
    target.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), atomic_output(target) as stream:
        stream.write(b"new, half")
        raise KeyboardInterrupt
    assert target.read_bytes() == b"old"
    assert [path.name for path in tmp_path.iterdir()] == ["out.pbs"]


def test_a_signal_just_after_the_file_is_created_still_removes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The moment tempfile.mkstemp cannot cover: the file exists, its name not yet returned.
    real_open = os.open

    def open_then_interrupted(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        os.close(real_open(path, flags, mode))
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "open", open_then_interrupted)
    with pytest.raises(KeyboardInterrupt), atomic_output(tmp_path / "out.pbs"):
        pass
    assert list(tmp_path.iterdir()) == []


def test_another_writers_temporary_file_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tokens: Iterator[bytes] = iter([b"\x01\x02\x03\x04", b"\x01\x02\x03\x04", b"\x0a\x0b\x0c\x0d"])
    monkeypatch.setattr(os, "urandom", lambda size: next(tokens))
    theirs = tmp_path / ".out.pbs.01020304.tmp"
    theirs.write_bytes(b"another writer's")
    with atomic_output(tmp_path / "out.pbs") as stream:
        stream.write(b"mine")
    assert theirs.read_bytes() == b"another writer's"
    assert (tmp_path / "out.pbs").read_bytes() == b"mine"
    assert sorted(path.name for path in tmp_path.iterdir()) == [".out.pbs.01020304.tmp", "out.pbs"]


def test_a_new_file_gets_the_umask_mode_and_a_private_one_its_own(tmp_path: Path) -> None:
    previous = os.umask(0o027)
    try:
        with atomic_output(tmp_path / "shared") as stream:
            stream.write(b"x")
        with atomic_output(tmp_path / "secret", permissions=0o600) as stream:
            stream.write(b"x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "shared").stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "secret").stat().st_mode) == 0o600


def test_the_temporary_file_is_owner_only_while_it_is_written(tmp_path: Path) -> None:
    with atomic_output(tmp_path / "key") as stream:
        [temporary] = tmp_path.iterdir()
        assert stat.S_IMODE(temporary.stat().st_mode) == 0o600
        stream.write(b"private")


def test_without_overwrite_an_existing_file_is_kept_and_nothing_is_left(tmp_path: Path) -> None:
    target = tmp_path / "id_ed25519"
    target.write_bytes(b"the old key")
    with pytest.raises(FileExistsError), atomic_output(target, overwrite=False) as stream:
        stream.write(b"a new key")
    assert target.read_bytes() == b"the old key"
    assert [path.name for path in tmp_path.iterdir()] == ["id_ed25519"]


def test_a_missing_folder_is_an_os_error_naming_the_temporary_beside_the_target(
    tmp_path: Path,
) -> None:
    with pytest.raises(FileNotFoundError) as caught, atomic_output(tmp_path / "no" / "out.grn"):
        pass
    assert Path(os.fsdecode(caught.value.filename)).parent == tmp_path / "no"
