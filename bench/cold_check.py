"""A cold ``hermes-decl check`` of one example against a cold Python that uses pydantic once.

Both are fresh processes, run alternately so that both see the same load; the medians are
compared. The baseline imports pydantic, builds one trivial model and validates one value:
the least any pydantic-based checker pays before reading a file.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 15
TARGET = 1.3
"""A cold check may take at most this many times the baseline."""
EXAMPLE = Path(__file__).parent.parent / "examples" / "vendor-studio.yaml"
BASELINE = "from pydantic import BaseModel\nclass Point(BaseModel):\n    x: int\nPoint(x=1)\n"


def _commands() -> dict[str, list[str]]:
    script = Path(sys.executable).with_name("hermes-decl")
    check = [str(script)] if script.exists() else [sys.executable, "-m", "hermes_decl"]
    return {
        "check": [*check, "check", str(EXAMPLE)],
        "baseline": [sys.executable, "-c", BASELINE],
    }


def _once(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def measure(runs: int = RUNS) -> tuple[float, float]:
    """The median seconds of a cold check and of the baseline."""
    commands = _commands()
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for number in range(runs):
        order = list(commands) if number % 2 == 0 else list(reversed(commands))
        for name in order:
            samples[name].append(_once(commands[name]))
    return statistics.median(samples["check"]), statistics.median(samples["baseline"])


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    check, baseline = measure()
    ratio = check / baseline
    return [
        (
            f"cold hermes-decl check of one example vs cold pydantic with one model "
            f"(fresh processes, median of {RUNS})",
            f"{check * 1000:.0f} ms vs {baseline * 1000:.0f} ms ({ratio:.2f}x)",
            f"target <= {TARGET}x",
            "met" if ratio <= TARGET else "MISSED",
        )
    ]
