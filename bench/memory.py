"""Bytes per parsed declaration (the full three-OS example), hermes_decl against the baseline.

``tracemalloc`` measures what 1,000 kept parse results hold: the traced memory after parsing
minus before, with the list that keeps them allocated beforehand, after a warm-up parse so that
caches filled on first use are not counted.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable

from bench import baseline_parser
from bench.parse import FULL, NAME, WHERE
from hermes_decl.declaration import parse_declaration

COUNT = 1000


def _bytes_each(parse: Callable[[], object]) -> float:
    parse()
    kept: list[object] = [None] * COUNT
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for index in range(COUNT):
            kept[index] = parse()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert all(item is not None for item in kept)
    return (after - before) / COUNT


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    app, requires = FULL
    subject = _bytes_each(lambda: parse_declaration(NAME, app, requires, where=WHERE))
    baseline = _bytes_each(
        lambda: baseline_parser.parse_declaration(NAME, app, requires, where=WHERE)
    )
    return [
        (
            f"memory per parsed full 3-OS declaration ({COUNT:,} kept, tracemalloc)",
            f"{subject:,.0f} B ({subject / baseline:.2f}x)",
            f"baseline {baseline:,.0f} B",
            "ratio",
        )
    ]
