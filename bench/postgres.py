"""A throwaway PostgreSQL server for the tests and the bench, from a wheel's binaries.

The ``pgserver`` wheel (the dev extra) ships PostgreSQL's programs; this module runs them
itself: ``initdb`` into a fresh folder, then ``postgres`` on 127.0.0.1 and a free port,
until :meth:`LocalPostgres.stop`. Nothing is needed from the system.

PostgreSQL refuses to run as root. As root (CI runs so), the programs are copied into a
folder every user may read, and run as the unprivileged ``nobody`` user, which owns the
data folder; otherwise they run as the current user from the wheel. Tests that need the
server skip with the reason printed when it cannot start (:func:`start_or_reason`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Final

#: Seconds PostgreSQL may take to start (a loaded machine is slow to fork and fsync).
START_SECONDS: Final = 90.0
#: The unprivileged user the server runs as under root.
UNPRIVILEGED: Final = "nobody"


class PostgresUnavailableError(Exception):
    """PostgreSQL cannot be started here (the reason is the message)."""


def _wheel_programs() -> Path:
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        raise PostgresUnavailableError("the pgserver wheel is not installed (the dev extra)")
    install = Path(next(iter(spec.submodule_search_locations))) / "pginstall"
    if not (install / "bin" / "postgres").exists():
        raise PostgresUnavailableError(f"no PostgreSQL programs in {install}")
    return install


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalPostgres:
    """A PostgreSQL server in a folder of its own (see the module docstring).

    Args:
        fsync: whether commits reach the disk (the bench measures with it; tests without).
    """

    def __init__(self, *, fsync: bool = False) -> None:
        """Make the data folder and start the server.

        Raises:
            PostgresUnavailableError: it cannot be made or started.
        """
        install = _wheel_programs()
        self.folder = Path(tempfile.mkdtemp(prefix="gamerec-postgres-"))
        self.user: str | None = None
        self.data = self.folder / "data"
        try:
            if os.geteuid() == 0:
                install = self._as_unprivileged(install)
            self.bin = install / "bin"
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust",
                      "--encoding=UTF8", "--no-sync")  # fmt: skip
            self.process, self.port = self._start(fsync)
        except BaseException:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise

    def _as_unprivileged(self, install: Path) -> Path:
        try:
            entry = pwd.getpwnam(UNPRIVILEGED)
        except KeyError:
            raise PostgresUnavailableError(
                f"running as root, and no user {UNPRIVILEGED!r} to run PostgreSQL as"
            ) from None
        self.user = UNPRIVILEGED
        self.folder.chmod(0o755)
        # The same layout as in the wheel: the programs find the wheel's libraries at
        # $ORIGIN/../../../pgserver.libs.
        copy = self.folder / "wheel" / "pgserver" / "pginstall"
        for part in ("bin", "lib", "share"):
            shutil.copytree(install / part, copy / part, symlinks=True)
        libraries = install.parent.parent / "pgserver.libs"
        if libraries.is_dir():
            shutil.copytree(libraries, copy.parent.parent / "pgserver.libs", symlinks=True)
        self.data.mkdir(mode=0o700)
        os.chown(self.data, entry.pw_uid, entry.pw_gid)
        return copy

    def _run(self, program: str, *arguments: str) -> None:
        done = subprocess.run(
            [str(self.bin / program), *arguments],
            capture_output=True,
            text=True,
            user=self.user,
            timeout=START_SECONDS,
            check=False,
        )
        if done.returncode != 0:
            raise PostgresUnavailableError(f"{program} failed: {done.stderr.strip()[-500:]}")

    def _start(self, fsync: bool) -> tuple[subprocess.Popen[bytes], int]:
        last = ""
        for _ in range(3):  # a port taken between choosing it and binding it: another one
            port = _free_port()
            log = open(self.folder / "postgres.log", "ab")  # noqa: SIM115
            process = subprocess.Popen(
                [str(self.bin / "postgres"), "-D", str(self.data), "-h", "127.0.0.1",
                 "-p", str(port), "-k", str(self.data), "-c", f"fsync={'on' if fsync else 'off'}",
                 "-c", "max_connections=300", "-c", "shared_buffers=64MB"],
                stdout=log,
                stderr=subprocess.STDOUT,
                user=self.user,
                start_new_session=True,
            )  # fmt: skip
            log.close()
            if self._wait_ready(process, port):
                return process, port
            last = (self.folder / "postgres.log").read_text(errors="replace")[-500:]
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait(timeout=30)
        raise PostgresUnavailableError(f"postgres did not start: {last.strip()}")

    def _wait_ready(self, process: subprocess.Popen[bytes], port: int) -> bool:
        end = time.monotonic() + START_SECONDS
        while time.monotonic() < end:
            if process.poll() is not None:
                return False
            ready = subprocess.run(
                [str(self.bin / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-q"],
                check=False,
                timeout=30,
            )
            if ready.returncode == 0:
                return True
            time.sleep(0.1)
        return False

    def url(self, database: str = "postgres") -> str:
        """The URL of a database of this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """Create an empty database; its URL."""
        import psycopg  # noqa: PLC0415

        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (a fast shutdown) and remove its folder."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


def start_or_reason(*, fsync: bool = False) -> LocalPostgres | str:
    """A started server, or why none could start."""
    try:
        return LocalPostgres(fsync=fsync)
    except (PostgresUnavailableError, OSError, subprocess.SubprocessError) as error:
        return f"PostgreSQL cannot start here: {error}"
