"""Processes the tests start, started again when the start itself fails.

Under Wine, starting a process now and then fails with ``OSError`` (WinError 1359, an internal
error) before the program runs at all; that says nothing about the program, so the start is tried
again. A program that ran and failed is never run again: its result is the test's to judge.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Sequence
from typing import Any

STARTS = 3
"""How many times a start that fails with ``OSError`` is tried."""


def run_started(command: Sequence[str], **options: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(command, **options)``, its start tried again when it fails to start."""
    for start in range(1, STARTS + 1):
        try:
            return subprocess.run(command, **options)
        except OSError:
            if start == STARTS:
                raise
            time.sleep(0.5)
    raise AssertionError("unreachable: the last failed start raised")
