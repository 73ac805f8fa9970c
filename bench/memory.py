"""Bytes per parsed declaration (the full three-OS example), hermes_decl against the floor.

The floor (``bench.floor``) is plain frozen Pydantic models of the same shapes, validating the same
input. ``tracemalloc`` measures what 1,000 kept parse results hold: the traced memory after parsing
minus before, with the list that keeps them allocated beforehand, after a warm-up parse so that
caches filled on first use are not counted.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable

from bench.floor import floor_models
from bench.parse import FULL, NAME, WHERE
from hermes_decl.declaration import parse_declaration

COUNT = 1000
TARGET = 1.1
"""hermes_decl may keep at most this many times the floor's bytes per declaration."""


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
    """Rows of (benchmark, measured, floor and target, verdict)."""
    app, requires = FULL
    floor = floor_models().FloorDeclaration
    data = {"name": NAME, "app": app, "requires": requires}
    subject = _bytes_each(lambda: parse_declaration(NAME, app, requires, where=WHERE))
    plain = _bytes_each(lambda: floor.model_validate(data))
    ratio = subject / plain
    return [
        (
            f"memory per parsed full 3-OS declaration ({COUNT:,} kept, tracemalloc)",
            f"{subject:,.0f} B ({ratio:.2f}x)",
            f"plain BaseModels of the same shapes {plain:,.0f} B; target ratio ≤ {TARGET}",
            "met" if ratio <= TARGET else "MISSED",
        )
    ]
