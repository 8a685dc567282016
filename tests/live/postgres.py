"""The PostgreSQL server the PostgreSQL store's tests share (started once per session).

Every test module that uses it is in the xdist group ``postgres``, so one pytest worker
runs them all and starts the server once; each test takes a database of its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from bench.postgres import LocalPostgres, start_or_reason

_NUMBERS = itertools.count(1)

#: Put a module's tests in the one worker that runs the server.
GROUP = pytest.mark.xdist_group("postgres")


@pytest.fixture(scope="session")
def postgres() -> Iterator[LocalPostgres]:
    """The session's PostgreSQL server, or a skip that says why none could start."""
    started = start_or_reason()
    if isinstance(started, str):
        pytest.skip(started)
    yield started
    started.stop()


@pytest.fixture
def database(postgres: LocalPostgres) -> str:
    """The URL of a new, empty database."""
    return postgres.new_database(f"test_{next(_NUMBERS)}")
