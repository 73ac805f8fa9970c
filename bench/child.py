"""Running a measurement in a fresh interpreter, so that what earlier suites left in memory does
not weigh in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).parent.parent


def python_child(code: str, *arguments: str, timeout: float = 300) -> str:
    """What ``python -c code arguments…`` prints, run from the repository's root (where
    ``bench`` imports); a failing child raises ``CalledProcessError``."""
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=True,
    )
    return done.stdout
