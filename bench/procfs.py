"""Processes and their memory, read from /proc (Linux).

The benchmarks and the service tests measure a command or a server together with every process
it started: its worker processes, the fork server, a supervisor's server processes.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from pathlib import Path


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants (by /proc parent links), ``root`` first."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, frontier = [root], [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier]
        tree += frontier
    return tree


def rss_kib(pid: int) -> int:
    """The resident memory of one process in KiB (0 once it has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(match.group(1)) if match else 0


def tree_rss_kib(root: int) -> tuple[int, int]:
    """(resident KiB of ``root`` and all its descendants, of ``root`` alone)."""
    sizes = [rss_kib(pid) for pid in process_tree(root)]
    return sum(sizes), sizes[0]


class PeakSampler:
    """The largest memory of a running process tree, sampled every 10 ms in a thread.

    Use it around the wait for the process: ``with PeakSampler(process) as peaks:
    process.communicate()``; then ``peaks.tree_kib`` and ``peaks.main_kib``.
    """

    def __init__(self, process: subprocess.Popen[str]) -> None:
        """Sample ``process`` (and its descendants) until it ends."""
        self._process = process
        self.tree_kib = 0
        self.main_kib = 0
        self._thread = threading.Thread(target=self._sample)

    def _sample(self) -> None:
        while self._process.poll() is None:
            tree, main = tree_rss_kib(self._process.pid)
            self.tree_kib, self.main_kib = max(self.tree_kib, tree), max(self.main_kib, main)
            time.sleep(0.01)

    def __enter__(self) -> PeakSampler:
        """Start sampling."""
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Wait for the last sample."""
        self._thread.join()
