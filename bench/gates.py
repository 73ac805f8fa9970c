"""One pass of the tool gates of 200 plugins, with a warm verdict cache against none.

A host asks ``make_check_fn``'s check of every server each time it lists tools. Uncached, each
check evaluates its declaration again (here four presence checks on a FakeHost: the first two
places miss); with ``max_age`` a warm check only looks the verdict up and asks the connection.
Both passes run in this process over the same registry and host.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from hermes_decl.declaration import clear, parse_declaration, register_many
from hermes_decl.gates import make_check_fn, refresh
from hermes_decl.models import Declaration
from hermes_decl.testing import FakeHost

PLUGINS = 200
TARGET_SPEED_UP = 5.0


def _declarations() -> dict[str, Declaration]:
    decls = {}
    for number in range(PLUGINS):
        app = {
            "linux": {
                "presence": "executable",
                "location": [
                    f"/usr/lib/app{number}/app",
                    f"$HOME/.local/app{number}/app",
                    f"/opt/app{number}/bin/app",
                ],
            }
        }
        name = f"server-{number}"
        decls[name] = parse_declaration(name, app, {"app": True}, where="bench")
    return decls


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
    decls = _declarations()
    host = FakeHost("linux", env={"HOME": "/home/u"}, home="/home/u")
    for number in range(PLUGINS):
        host.add_executable(f"/opt/app{number}/bin/app")
    clear()
    for name, decl in decls.items():
        register_many({name: decl}, owner=f"plugin-{name}")
    uncached = [make_check_fn(name, lambda: True, host=host) for name in decls]
    cached = [make_check_fn(name, lambda: True, host=host, max_age=3600) for name in decls]

    def uncached_pass() -> None:
        for check in uncached:
            check()

    def cached_pass() -> None:
        for check in cached:
            check()

    try:
        refresh()
        cached_pass()  # warm the cache
        warm = _best_of(5, cached_pass)
        cold = _best_of(5, uncached_pass)
    finally:
        clear()
        refresh()
    return [
        (
            f"tool gates of {PLUGINS} plugins, warm verdict cache (max_age)",
            f"{warm * 1000:.2f} ms",
            f"uncached pass {cold * 1000:.2f} ms",
            "ratio",
        ),
        (
            "tool gates, speed-up of the warm cache over evaluating",
            f"{cold / warm:.1f}x",
            f"target ≥ {TARGET_SPEED_UP:g}x",
            "met" if cold / warm >= TARGET_SPEED_UP else "MISSED",
        ),
    ]


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
