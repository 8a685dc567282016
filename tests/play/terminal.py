"""The real ``gamerec play`` process on a pseudo-terminal: keys typed in, the screen read out."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
import threading
import time

from tests.play.driving import PATIENCE
from tests.service.conftest import GAMEREC

#: Escape sequences (CSI and OSC) and other control bytes, removed from what the screen shows.
_CONTROLS = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]"
)


class Terminal:
    """``gamerec play ARGS`` on a pseudo-terminal of ``columns`` x ``rows``."""

    def __init__(self, *arguments: str, columns: int = 130, rows: int = 45) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environment = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns)}
        environment.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [GAMEREC, "play", *arguments],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=environment,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        self._output = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the process closed the terminal
                return
            if not chunk:
                return
            with self._lock:
                self._output.extend(chunk)

    @property
    def raw(self) -> str:
        """Everything written to the terminal so far."""
        with self._lock:
            return self._output.decode("utf-8", "replace")

    @property
    def text(self) -> str:
        """What was written, without escape sequences."""
        return _CONTROLS.sub("", self.raw)

    def type(self, line: str) -> None:
        """Type ``line`` and Enter."""
        os.write(self.master, line.encode() + b"\r")

    def wait_for(self, pattern: str, after: int = 0) -> int:
        """Until ``pattern`` (a regular expression) shows after offset ``after`` of :attr:`text`.

        Returns where it ends (the next wait can start there).
        """
        give_up = time.monotonic() + PATIENCE
        while time.monotonic() < give_up:
            found = re.compile(pattern).search(self.text, after)
            if found:
                return found.end()
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"the screen never showed {pattern!r}; it ends: {self.text[-1500:]!r}")

    def wait(self) -> int:
        """The exit code, once the process ends (the reader has read everything)."""
        code = self.process.wait(timeout=PATIENCE)
        self._reader.join(timeout=PATIENCE)
        return code

    def close(self) -> None:
        """Kill the process if it still runs; close the terminal."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=PATIENCE)
        os.close(self.master)
