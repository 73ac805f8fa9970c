"""Availability of 1,000 registered declarations on a FakeHost, against the host calls alone.

The baseline makes, in the same process, exactly the host calls an evaluation physically needs
(one presence check per place looked at, and finding and reading the user overrides file: two
variables, the home folder and one bounded read), so the ratio is the resolver's own overhead.
No row compares with an earlier evaluator: that code is gone, so it cannot run beside this one,
and a ratio to a figure stored from another run would mix two machines' loads; the ratio to the
host calls here and ``bench.live_availability``'s hand-written floor, each measured side by side,
say what the resolver costs. Both are measured first in their process (``python -m bench`` runs
this suite first): what other suites leave in the process slows this allocation-heavy loop by up
to a tenth.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.testing import FakeHost

COUNT = 1000


def _declarations() -> list[Declaration]:
    decls = []
    for number in range(COUNT):
        app = {
            "linux": {
                "presence": "executable",
                "location": [f"/opt/app{number}/bin/app", f"$HOME/.local/app{number}/app"],
            },
            "win32": {"presence": "executable", "location": f"C:/App{number}/app.exe"},
        }
        decls.append(parse_declaration(f"server-{number}", app, {"app": True}, where="bench"))
    return decls


def _host() -> FakeHost:
    host = FakeHost("linux", env={"HOME": "/home/u"}, home="/home/u")
    for number in range(0, COUNT, 2):  # half found at the first place, half at the second
        host.add_executable(f"/opt/app{number}/bin/app")
        host.add_executable(f"/home/u/.local/app{number + 1}/app")
    return host


def _best_of(repeats: int, run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeats):
        gc.collect()  # garbage left by earlier suites must not be collected inside the timing
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    decls, host = _declarations(), _host()

    def evaluate_all() -> None:
        for decl in decls:
            availability(decl, host=host)

    places = [
        [f"/opt/app{n}/bin/app"] + ([f"/home/u/.local/app{n}/app"] if n % 2 else [])
        for n in range(COUNT)
    ]

    overrides_file = "/home/u/.config/hermes-decl/overrides.yaml"

    def host_calls_only() -> None:
        for paths in places:
            host.getenv("HERMES_DECL_OVERRIDES")
            host.getenv("XDG_CONFIG_HOME")
            host.home()
            host.read_file(overrides_file, 1 << 20)
            for path in paths:
                host.is_file(path)
            host.getenv("HOME") if len(paths) > 1 else None

    host.reset_calls()
    evaluate_all()
    calls = sum(host.calls.values())
    overrides_lookup = 4 * len(places)
    minimum = (
        sum(len(paths) for paths in places)
        + sum(1 for paths in places if len(paths) > 1)
        + overrides_lookup
    )
    elapsed = _best_of(5, evaluate_all)
    baseline = _best_of(5, host_calls_only)
    return [
        (
            f"availability, {COUNT} declarations on FakeHost",
            f"{elapsed * 1000:.1f} ms",
            "target < 50 ms",
            "met" if elapsed < 0.050 else "MISSED",
        ),
        (
            "availability vs the bare host calls (same process)",
            f"{elapsed / baseline:.1f}x",
            f"baseline {baseline * 1000:.1f} ms",
            "ratio",
        ),
        (
            "host calls for those evaluations",
            str(calls),
            f"physical minimum {minimum}",
            "met" if calls == minimum else "MISSED",
        ),
    ]
