"""Files written whole or not at all: a temporary file beside the target, renamed over it.

Every output gamerec writes to a path (records, pictures, pages, sidecar indexes, shard
verdicts, key files) goes through :func:`atomic_output`. The temporary file is
``.<name>.<8 random characters>.tmp`` beside the target, so the rename stays on one file
system; whatever stops the write (an error, Ctrl-C, SIGTERM turned into ``SystemExit``) removes
it, and the target is either untouched or whole.

The temporary name is chosen before the file is created and the creation happens inside the
block that removes it, so a signal that arrives just as the file comes into existence (the
moment ``tempfile.mkstemp`` cannot cover: it has created the file but not yet returned its
name) still finds the name to remove.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

#: Tries at a fresh temporary name before giving up (a clash needs 32 random bits to repeat).
_ATTEMPTS = 100


@contextlib.contextmanager
def atomic_output(
    path: str | os.PathLike[str],
    *,
    permissions: int | None = None,
    overwrite: bool = True,
    durable: bool = True,
) -> Iterator[BinaryIO]:
    """A binary stream whose bytes become ``path`` only when the block ends without error.

    Args:
        path: the file to write.
        permissions: its mode bits; by default what ``open()`` would give a new file
            (0666 less the umask).
        overwrite: replace an existing ``path``; when False, an existing ``path`` raises
            ``FileExistsError`` at the end and is left as it was (a key is never overwritten).
        durable: flush the bytes to the disk before the rename (``fsync``), so that a crash
            of the machine cannot leave a renamed but empty file.

    Raises:
        OSError: the temporary file cannot be made or written, or the rename fails.
    """
    target = Path(path)
    for _ in range(_ATTEMPTS):
        temporary = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp")
        mine = True
        try:
            try:
                # Owner-only until the end, as mkstemp does: a private key is never readable.
                descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            except FileExistsError:
                mine = False  # another writer's file: leave it, take another name
                continue
            with os.fdopen(descriptor, "wb") as stream:
                yield stream
                stream.flush()
                if durable:
                    os.fsync(stream.fileno())
            os.chmod(temporary, _mode(permissions))
            _publish(temporary, target, overwrite)
            return
        except BaseException:
            if mine:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temporary)
            raise
    raise FileExistsError(f"{target}: no free temporary name beside it after {_ATTEMPTS} tries")


def _publish(temporary: Path, target: Path, overwrite: bool) -> None:
    """Give the written temporary file the target's name."""
    if overwrite:
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target)  # fails when the target exists, unlike a rename
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise FileExistsError(errno.EEXIST, "exists already", str(target)) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


def _mode(permissions: int | None) -> int:
    """The mode bits to give the output."""
    if permissions is not None:
        return permissions
    # The umask can only be read by setting it.
    current = os.umask(0o022)
    os.umask(current)
    return 0o666 & ~current
