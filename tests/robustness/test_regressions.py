"""Every input in tests/robustness/regressions/ (see its README) decodes or fails cleanly, and
every record it holds gets a consistent verdict."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.recorder.codecs import encoding_for_path
from tests.robustness.fuzzing import REGRESSIONS, decode_checked, judge_checked

INPUTS = sorted(path for path in REGRESSIONS.iterdir() if encoding_for_path(path) is not None)


def test_the_regressions_folder_holds_inputs() -> None:
    assert INPUTS


@pytest.mark.parametrize("path", INPUTS, ids=lambda path: path.name)
def test_a_regression_input_is_handled(path: Path) -> None:
    data = path.read_bytes()
    records = decode_checked(data, encoding_for_path(path))
    assert decode_checked(data, None) == records
    for record in records:
        judge_checked(record)
