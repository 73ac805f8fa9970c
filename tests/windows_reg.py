"""Windows' own ``reg`` tool for the live Windows tests, started again when the start itself fails.

Under Wine, starting a process now and then fails with ``OSError`` (WinError 1359, an internal
error) before ``reg`` runs at all; that says nothing about the registry, so the start is tried
again. A ``reg`` that ran and failed still fails the test.
"""

from __future__ import annotations

import subprocess
import time

STARTS = 3
"""How many times a start that fails with ``OSError`` is tried."""


def reg(*arguments: str) -> str:
    """Runs ``reg`` with ``arguments`` and returns its output; the test fails when ``reg`` fails."""
    for start in range(1, STARTS + 1):
        try:
            done = subprocess.run(
                ["reg", *arguments], check=True, capture_output=True, text=True, timeout=60
            )
        except OSError:
            if start == STARTS:
                raise
            time.sleep(0.5)
        else:
            return done.stdout
    raise AssertionError("unreachable: the last failed start raised")
