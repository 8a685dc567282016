"""Connect stream frames: written and read back, and what a broken stream gets."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from gamerec.validator.web.frames import END_STREAM, FrameError, envelope, read_frames


def test_frames_are_read_back_as_written() -> None:
    stream = envelope(b'{"number": 1}') + envelope(b"{}", END_STREAM)
    frames = list(read_frames(io.BytesIO(stream)))
    assert [(frame.data, frame.ends) for frame in frames] == [
        (b'{"number": 1}', False),
        (b"{}", True),
    ]


@pytest.mark.parametrize(
    ("stream", "problem"),
    [
        (b"\x00\x00\x00", "byte 0: a frame's head is cut short"),
        (envelope(b"{}") + b"\x00\x00\x00\x00\x09{}", "byte 7: a frame of 9 bytes is cut short"),
        (b"\x00\xff\xff\xff\xff", "byte 0: a frame of 4,294,967,295 bytes is too long"),
    ],
)
def test_a_broken_stream_is_refused_saying_where(stream: bytes, problem: str) -> None:
    with pytest.raises(FrameError) as refused:
        list(read_frames(io.BytesIO(stream)))
    assert str(refused.value) == problem


def _frames(arguments: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "gamerec.validator.web.frames", *arguments],
        input=stdin,
        capture_output=True,
        check=False,
        timeout=60,
    )


def test_the_program_wraps_a_request_and_prints_a_stream_as_json_lines() -> None:
    wrapped = _frames(["wrap", '{"matchId": "m"}'], b"")
    assert (wrapped.returncode, wrapped.stdout) == (0, envelope(b'{"matchId": "m"}'))
    stream = envelope(b'{"number": 1,\n "x": [1]}') + envelope(b"{}", END_STREAM)
    shown = _frames([], stream)
    assert (shown.returncode, shown.stdout) == (0, b'{"number":1,"x":[1]}\n{"end":{}}\n')
    failed = _frames([], envelope(b'{"error": {"code": "not_found"}}', END_STREAM))
    assert (failed.returncode, failed.stdout) == (1, b'{"end":{"error":{"code":"not_found"}}}\n')
    broken = _frames([], envelope(b"{}", 1))
    assert broken.returncode == 2
    assert broken.stderr == b"frames: a compressed frame (send no connect-accept-encoding)\n"
