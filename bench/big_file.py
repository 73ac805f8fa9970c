"""Checking a 1 MiB declarations file against pure-Python PyYAML merely loading the same text.

The check is everything ``load_declarations_text`` does: reading with positions and bounds, then
parsing every server. The baseline is ``yaml.load(text, Loader=yaml.SafeLoader)``, PyYAML's
pure-Python safe loader, in the same process and, as the loader reads, with the cyclic garbage
collector paused.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from hermes_decl.loader import MAX_BYTES, load_declarations_text
from hermes_decl.loader.collection import paused_collection

RUNS = 3
TARGET = 0.4
"""A check may take at most this fraction of the pure-Python load."""
EXAMPLE = Path(__file__).parent.parent / "examples" / "vendor-studio.yaml"


def big_text(size: int = MAX_BYTES - 4096) -> str:
    """Copies of the vendor-studio example under distinct server names, about ``size`` long."""
    block = EXAMPLE.read_text(encoding="utf-8").split("\n", 2)[2]
    parts: list[str] = []
    length = 0
    while length + len(block) + 16 < size:
        parts.append(block.replace("vendor-studio:", f"vendor-studio-{len(parts)}:", 1))
        length += len(parts[-1])
    return "".join(parts)


def _seconds(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _load_without_collection(text: str) -> object:
    """PyYAML's own load, with the collector paused as the loader pauses it: the same conditions."""
    with paused_collection():
        return yaml.load(text, Loader=yaml.SafeLoader)


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    text = big_text()
    checks, loads = [], []
    for _ in range(RUNS):
        loads.append(_seconds(lambda: _load_without_collection(text)))
        checks.append(_seconds(lambda: load_declarations_text(text)))
    check, load = statistics.median(checks), statistics.median(loads)
    ratio = check / load
    return [
        (
            f"check a {len(text) // 1024} KiB declarations file vs pure-Python PyYAML load "
            f"(median of {RUNS}, libyaml {'present' if yaml.__with_libyaml__ else 'absent'})",
            f"{check:.2f} s vs {load:.2f} s ({ratio:.2f}x)",
            f"target <= {TARGET}x",
            "met" if ratio <= TARGET else "MISSED",
        )
    ]
