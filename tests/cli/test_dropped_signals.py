"""A stop that comes inside a callback ends the command all the same.

Python runs a signal's handler between any two bytecodes of the main thread, also inside a
weak reference's callback (the import system's module locks have one), where the exception
the handler raises is printed as "Exception ignored" and dropped. A fresh clone's CI saw it:
a SIGHUP sent during an import let ``gamerec convert`` run to its end and exit 0. Each test
sends the signal from inside such a callback, in a real process, deterministically.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Sends the signal inside a weak reference's callback, then runs for up to a minute.
PROGRAM = """
import os, signal, sys, time, weakref
from gamerec.cli.entry import stop_on_hangup_and_term

stop_on_hangup_and_term()

class Thing:
    pass

def callback(_):
    os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    for _ in range(1000):
        pass

thing = Thing()
reference = weakref.ref(thing, callback)
try:
    del thing
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        pass
    print("ran to its end")
except KeyboardInterrupt:
    sys.exit(130)
finally:
    print("finally ran")
"""


@pytest.mark.parametrize(
    ("signal_name", "exit_code"), [("SIGTERM", 143), ("SIGHUP", 129), ("SIGINT", 130)]
)
def test_a_signal_inside_a_callback_is_sent_again(signal_name: str, exit_code: int) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, signal_name],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (exit_code, "finally ran\n"), done.stderr[-2000:]
    assert "Exception ignored" not in done.stderr


def test_any_other_dropped_exception_is_printed_as_python_prints_it() -> None:
    program = (
        "import weakref\nfrom gamerec.cli.entry import stop_on_hangup_and_term\n"
        "stop_on_hangup_and_term()\n"
        "class Thing:\n    pass\n"
        "def callback(_):\n    raise ValueError('seen')\n"
        "thing = Thing()\nreference = weakref.ref(thing, callback)\ndel thing\nprint('went on')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], check=False, capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, "went on\n")
    assert "Exception ignored in: <function callback" in done.stderr
    assert "ValueError: seen" in done.stderr


def test_a_program_s_own_sigint_handler_is_left_as_python_leaves_it() -> None:
    own_handler = (
        "def own(number, frame):\n    raise KeyboardInterrupt\nsignal.signal(signal.SIGINT, own)"
    )
    program = PROGRAM.replace(
        "stop_on_hangup_and_term()\n", f"stop_on_hangup_and_term()\n{own_handler}\n"
    ).replace("time.monotonic() + 60", "time.monotonic() + 1")
    done = subprocess.run(
        [sys.executable, "-c", program, "SIGINT"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout) == (0, "ran to its end\nfinally ran\n"), done.stderr
    assert "Exception ignored in: <function callback" in done.stderr
