"""Debian's headless Chromium, driven through Playwright's own driver (`make browser`).

The viewer's tests and the documentation site's tests launch it the same way: the browser
installed by `make browser` (or `GAMEREC_CHROMIUM`), never one Playwright downloads.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright import sync_api

CHROMIUM = os.environ.get("GAMEREC_CHROMIUM") or shutil.which("chromium") or ""


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """A headless Chromium for the block; the test fails when there is none."""
    if not CHROMIUM:
        pytest.fail("no chromium on PATH: `make browser` installs Debian's chromium")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()
