"""Checking 1 MiB declarations files against pure-Python PyYAML merely loading the same text.

The check is everything ``load_declarations_text`` does: reading with positions and bounds, then
parsing every server. The baseline is ``yaml.load(text, Loader=yaml.SafeLoader)``, PyYAML's
pure-Python safe loader, in the same process and, as the loader reads, with the cyclic garbage
collector paused. Both are timed on the CPU clock in pairs (a load, then a check), and the median
of each side is kept: other work on the machine stretches the wall clock of whichever side it
lands on, not the CPU time. Five files just under the size bound: copies of a large example
server (few large servers), many small servers of four shapes, those small servers with one tab
in a comment (a tab libyaml and PyYAML read alike, so the file stays with libyaml), with two
servers that share a block through an anchor and an alias (whose place is read off the text, so
the file stays with the C composer), and with empty values in flow mappings and at the end of the
text (each given the place PyYAML gives it, so the file stays with the C composer too).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

import yaml

from hermes_decl.loader import MAX_BYTES, load_declarations_text
from hermes_decl.loader.collection import paused_collection

RUNS = 5
TARGET = 0.3
"""A check may take at most this fraction of the pure-Python load."""
EXAMPLE = Path(__file__).parent.parent / "examples" / "vendor-studio.yaml"
SIZE = MAX_BYTES - 4096
SMALL_SHAPES = (
    "s{i}:\n  app:\n    linux: {{presence: executable, location: [/opt/t{i}]}}\n",
    "s{i}:\n  app:\n    darwin:\n      presence: bundle\n      location: [/Applications/T.app]\n",
    "s{i}:\n  app: {{win32: {{presence: executable, location: ['C:/t/{i}.exe']}}}}\n",
    "s{i}:\n  requires: {{gpu: nvidia}}\n",
)
"""Four small servers, cycled: 10,000 of them fit in a file the loader reads."""
TAB_COMMENT = "# servers\tof four shapes\n"
ANCHORED = "gpu-a: &gpu\n  requires: {gpu: nvidia}\ngpu-b: *gpu\n"
EMPTY_VALUES = "e{i}:\n  requires: {{gpu: nvidia, arch: }}\n"
"""A fifth small server, whose flow mapping holds an empty value (null: the key is absent)."""
LAST_EMPTY = "last:\n  requires:\n    gpu: nvidia\n    arch:"
"""A server ending the text in an empty value, with no line break after it."""


def big_text(size: int = SIZE) -> str:
    """Copies of the vendor-studio example under distinct server names, about ``size`` long."""
    block = EXAMPLE.read_text(encoding="utf-8").split("\n", 2)[2]
    parts: list[str] = []
    length = 0
    while length + len(block) + 16 < size:
        parts.append(block.replace("vendor-studio:", f"vendor-studio-{len(parts)}:", 1))
        length += len(parts[-1])
    return "".join(parts)


def small_servers_text(count: int) -> str:
    """``count`` small servers, the four shapes in turn."""
    return "".join(SMALL_SHAPES[i % len(SMALL_SHAPES)].format(i=i) for i in range(count))


def many_small_text(size: int = SIZE) -> str:
    """As many small servers as fit in about ``size`` characters."""
    parts: list[str] = []
    length = 0
    while True:
        part = SMALL_SHAPES[len(parts) % len(SMALL_SHAPES)].format(i=len(parts))
        if length + len(part) > size:
            return "".join(parts)
        parts.append(part)
        length += len(part)


def tabbed_text(size: int = SIZE) -> str:
    """The many small servers after one comment holding a tab."""
    return TAB_COMMENT + many_small_text(size - len(TAB_COMMENT))


def anchored_text(size: int = SIZE) -> str:
    """The many small servers after two that share one block through an anchor and an alias."""
    return ANCHORED + many_small_text(size - len(ANCHORED))


def empty_values_text(size: int = SIZE) -> str:
    """The small servers with a fifth shape holding an empty flow value, the text ending in an
    empty value: libyaml places both elsewhere than PyYAML, so each is given PyYAML's place."""
    shapes = (*SMALL_SHAPES, EMPTY_VALUES)
    parts: list[str] = []
    length = len(LAST_EMPTY)
    while True:
        part = shapes[len(parts) % len(shapes)].format(i=len(parts))
        if length + len(part) > size:
            return "".join(parts) + LAST_EMPTY
        parts.append(part)
        length += len(part)


def _seconds(action: Callable[[], object]) -> float:
    """CPU seconds ``action`` takes."""
    started = time.process_time()
    action()
    return time.process_time() - started


def _load_without_collection(text: str) -> object:
    """PyYAML's own load, with the collector paused as the loader pauses it: the same conditions."""
    with paused_collection():
        return yaml.load(text, Loader=yaml.SafeLoader)


FILES: tuple[tuple[str, Callable[[], str]], ...] = (
    ("few large servers", big_text),
    ("many small servers", many_small_text),
    ("many small servers, a tab in a comment", tabbed_text),
    ("many small servers, an anchor and its alias", anchored_text),
    ("many small servers, empty values in flow mappings and at the end", empty_values_text),
)


def _row(name: str, text: str, libyaml: str) -> tuple[str, str, str, str]:
    checks, loads = [], []
    for _ in range(RUNS):
        loads.append(_seconds(lambda: _load_without_collection(text)))
        checks.append(_seconds(lambda: load_declarations_text(text)))
    check, load = statistics.median(checks), statistics.median(loads)
    ratio = check / load
    servers = len(load_declarations_text(text))
    return (
        f"check a {len(text) // 1024} KiB declarations file ({name}, {servers} servers) "
        f"vs pure-Python PyYAML load (CPU, median of {RUNS}, libyaml {libyaml})",
        f"{check:.2f} s vs {load:.2f} s ({ratio:.2f}x)",
        f"target <= {TARGET}x",
        "met" if ratio <= TARGET else "MISSED",
    )


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    libyaml = "present" if yaml.__with_libyaml__ else "absent"
    return [_row(name, make(), libyaml) for name, make in FILES]
