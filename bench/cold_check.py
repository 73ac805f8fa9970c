"""A cold ``hermes-decl check`` of one example against cold Pythons that use pydantic.

All are fresh processes, run alternately so that all see the same load; the medians are
compared. One baseline imports pydantic, builds one trivial model and validates one value: the
least any pydantic-based checker pays before reading a file. The other only imports pydantic.
"""

from __future__ import annotations

import sys
from pathlib import Path

from bench.imports import TRIVIAL, medians

MISSED = {
    "cold hermes-decl check": (
        "a cold check is first use (see its row and floor) plus the command line, the YAML "
        "loader and PyYAML, reading the file and printing the verdict; the first-use floor "
        "applies, and the rest adds, in CPU time: PyYAML's import about 11 ms (its package "
        "imports the dumper, the emitter and the pure-Python loader beside the C parser, and its "
        "reader compiles, with Python's re, a class of every printable character; nothing short "
        "of another YAML parser avoids it: the C parser's module lives in the package, whose "
        "import loads the rest), the loader about 4 ms, the command line about 6 ms (argparse, "
        "its message catalogue lookups, and shutil, which its help formatter imports), and the "
        "check itself about 2 ms. The program collects young objects once per 50,000 rather "
        "than 700 while it runs, and sets what it built aside from the collector before it "
        "exits (gc.freeze), which spares the interpreter's exit a full collection."
    ),
}
"""What each missed target's floor is, and why (``python -m bench`` writes it to RESULTS.md)."""

RUNS = 15
TARGET = 1.3
"""A cold check may take at most this many times the trivial-model baseline."""
EXAMPLE = Path(__file__).parent.parent / "examples" / "vendor-studio.yaml"


def _commands() -> dict[str, list[str]]:
    script = Path(sys.executable).with_name("hermes-decl")
    check = [str(script)] if script.exists() else [sys.executable, "-m", "hermes_decl"]
    return {
        "check": [*check, "check", str(EXAMPLE)],
        "baseline": [sys.executable, "-c", TRIVIAL],
        "pydantic": [sys.executable, "-c", "import pydantic"],
    }


def measure(runs: int = RUNS) -> tuple[float, float]:
    """The median seconds of a cold check and of the trivial-model baseline."""
    median = medians(_commands(), runs)
    return median["check"], median["baseline"]


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    median = medians(_commands(), RUNS)
    ratio = median["check"] / median["baseline"]
    bare = median["check"] / median["pydantic"]
    return [
        (
            f"cold hermes-decl check of one example vs cold pydantic with one model "
            f"(fresh processes, median of {RUNS})",
            f"{median['check'] * 1000:.0f} ms vs {median['baseline'] * 1000:.0f} ms ({ratio:.2f}x)",
            f"target ≤ {TARGET}x",
            "met" if ratio <= TARGET else "MISSED",
        ),
        (
            "cold hermes-decl check of one example vs python -c 'import pydantic'",
            f"{median['check'] * 1000:.0f} ms vs {median['pydantic'] * 1000:.0f} ms ({bare:.2f}x)",
            "no target: what checking adds to loading pydantic",
            "ratio",
        ),
    ]
