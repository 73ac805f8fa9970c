"""Processes the tests start, started again when the start itself fails.

Under Wine, starting a process now and then fails with ``OSError`` (WinError 1359, an internal
error) before the program runs at all; that says nothing about the program, so the start is tried
again. A program that is missing or may not be run is an answer, not a fumble, and is not tried
again; nor is a program that ran and failed: its result is the test's to judge. Every process a
test starts goes through here, so no test is flaky for a start Wine fumbled.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

STARTS = 3
"""How many times a start that fails with ``OSError`` is tried."""
PAUSE_S = 0.5
"""How long to wait before trying a failed start again."""

Started = TypeVar("Started")


def tried_again(start_once: Callable[[], Started], *, pause_s: float = PAUSE_S) -> Started:
    """What ``start_once()`` returns, tried up to ``STARTS`` times while it raises ``OSError``
    (a missing or forbidden program aside)."""
    for start in range(1, STARTS + 1):
        try:
            return start_once()
        except (FileNotFoundError, PermissionError):
            raise
        except OSError:
            if start == STARTS:
                raise
            time.sleep(pause_s)
    raise AssertionError("unreachable: the last failed start raised")


def run_started(command: Sequence[str], **options: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(command, **options)``, its start tried again when it fails to start."""
    return tried_again(lambda: subprocess.run(command, **options))


def popen_started(command: Sequence[str], **options: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(command, **options)``, its start tried again when it fails to start."""
    return tried_again(lambda: subprocess.Popen(command, **options))


def output_of(command: Sequence[str], **options: Any) -> str:
    """What ``command`` printed, stripped; it must exit 0 within a minute."""
    done = run_started(command, capture_output=True, text=True, check=True, timeout=60, **options)
    printed: str = done.stdout
    return printed.strip()
