"""A long ``*`` pattern over a big folder, against the least work any matcher must do per entry.

The baseline lowercases each listed name once and checks it against the pattern's literal prefix
(what matching a Windows name needs at the very least), in the same process. Preparing the
pattern once per search keeps the ratio small however long the pattern is; preparing it per
entry made it grow with the pattern's length.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from hermes_decl.resolver.matching import search_pattern
from hermes_decl.testing import FakeHost

ENTRIES = 20_000
SEGMENT = "Vendor App *" + "x*" * 1000 + ".exe"
TARGET_RATIO = 10.0


def _best_of(repeats: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    host = FakeHost("win32")
    for number in range(ENTRIES):
        host.add_dir(f"C:\\Apps\\Vendor Tool {number}")
    pattern = f"C:\\Apps\\{SEGMENT}\\v.exe"
    names = host.list_dir("C:\\Apps")
    prefix = "vendor app "

    def search() -> None:
        search_pattern(pattern, "win32", host)

    def lower_each_name_once() -> None:
        for name in host.list_dir("C:\\Apps"):
            name.lower().startswith(prefix)

    assert len(names) == ENTRIES
    elapsed = _best_of(5, search)
    baseline = _best_of(5, lower_each_name_once)
    ratio = elapsed / baseline
    return [
        (
            f"a {len(SEGMENT):,}-character '*' segment over {ENTRIES:,} entries",
            f"{elapsed * 1000:.1f} ms ({ratio:.1f}x)",
            f"baseline {baseline * 1000:.1f} ms; target ratio ≤ {TARGET_RATIO:.0f}",
            "met" if ratio <= TARGET_RATIO else "MISSED",
        )
    ]
