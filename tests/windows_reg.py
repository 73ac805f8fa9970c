"""Windows' own ``reg`` tool for the live Windows tests, started again when the start itself fails.

Under Wine, starting a process now and then fails with ``OSError`` (WinError 1359, an internal
error) before ``reg`` runs at all; that says nothing about the registry, so the start is tried
again. A ``reg`` that ran and failed still fails the test.
"""

from __future__ import annotations

from tests.process_starts import run_started


def reg(*arguments: str) -> str:
    """Runs ``reg`` with ``arguments`` and returns its output; the test fails when ``reg`` fails."""
    done = run_started(["reg", *arguments], check=True, capture_output=True, text=True, timeout=60)
    output: str = done.stdout
    return output
