"""Linear everything: each list field of a declaration and each section of a host snapshot costs
time linear in its length, and a snapshot past a bound is refused before it is built.

The growth test measures one run's own ratio: the best of a few rounds at 4N against the best at
N, in the CPU time of the process's own code (a process waiting for a core is not charged).
Linear work gives about 4; the quadratic scans this replaced gave 16 and more.
"""

from __future__ import annotations

import gc
import math
import os
import sys
import time
from collections.abc import Callable

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.errors import DeclarationError
from hermes_decl.hosts.snapshot import (
    MAX_DEVICES,
    MAX_FILES,
    MAX_PATH_CHARS,
    MAX_PATH_DEPTH,
    MAX_VARIABLES,
)
from hermes_decl.overrides_text import parse_overrides
from hermes_decl.snapshot import host_from_snapshot
from hermes_decl.testing import FakeHost

ROUNDS = 5
MOST_RATIO = 6.0
MEASUREMENTS = 3

if sys.platform == "win32":
    ROUND_S = 0.25
    """The least time one round at N takes: small work is repeated within a round to reach it.
    Windows counts CPU time in 15.6 ms ticks, so a round must be many ticks long."""

    def _user_seconds() -> float:
        """CPU time spent in this process's own code, in Windows' ticks."""
        return os.times().user

else:
    import resource

    ROUND_S = 0.1
    """The least time one round at N takes: small work is repeated within a round to reach it."""

    def _user_seconds() -> float:
        """CPU time spent in this process's own code, to the microsecond."""
        return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def _round(work: Callable[[int], object], count: int, loops: int) -> float:
    """The CPU time of ``loops`` runs of the work, the kernel's share left out: that is mostly
    first touches of fresh memory, which the larger work pays where the smaller reuses freed
    pages (under Wine every large allocation is fresh memory)."""
    started = _user_seconds()
    for _ in range(loops):
        work(count)
    return _user_seconds() - started


def _wall_once(work: Callable[[int], object], count: int) -> float:
    """One run's wall time: a CPU clock with coarse ticks may read a short run as zero."""
    started = time.perf_counter()
    work(count)
    return time.perf_counter() - started


def _growth(work: Callable[[int], object], size: int) -> tuple[float, float]:
    """The best time of a round at ``size`` and at four times it, the collector paused; the
    rounds alternate, so a busy moment of the machine slows both sizes alike."""
    work(size)  # warm: first-use imports and validator builds are not the work measured
    once = min(_wall_once(work, size) for _ in range(3))
    loops = max(1, math.ceil(ROUND_S / max(once, 1e-6)))
    small, large = float("inf"), float("inf")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(ROUNDS):
            small = min(small, _round(work, size, loops))
            large = min(large, _round(work, 4 * size, loops))
    finally:
        if enabled:
            gc.enable()
    return small, large


def _declared(requires: dict[str, object], block: dict[str, object] | None = None) -> object:
    app = {"linux": {"presence": "executable", "location": "/opt/x/bin/x", **(block or {})}}
    try:
        return parse_declaration("studio", app, {"app": True, **requires}, where="t")
    except DeclarationError as error:
        return error


def _overrides(count: int) -> object:
    places = "".join("    - /opt/x/bin/x\n" for _ in range(count))
    try:
        return parse_overrides(f"studio:\n  linux:\n{places}".encode(), where="o.yaml")
    except DeclarationError as error:
        return error


def _snapshot(os_family: str, **sections: object) -> object:
    return host_from_snapshot({"os_family": os_family, **sections}, where="s.yaml")


def _deep_fake_host(depth: int) -> object:
    path = "/" + "/".join(["a"] * depth)
    host = FakeHost("linux").add_file(path)
    assert host.is_file(path)
    return host


WORK: dict[str, tuple[int, Callable[[int], object]]] = {
    "requires.arch": (5_000, lambda n: _declared({"arch": ["x86_64"] * n})),
    "app.linux.install": (
        1_000,
        lambda n: _declared({}, {"install": [{"url": "https://vendor.example/"}] * n}),
    ),
    "app.linux.location (refused past the cap)": (
        20_000,
        lambda n: _declared({}, {"location": ["/opt/x/bin/x"] * n}),
    ),
    "overrides location (refused past the cap)": (5_000, _overrides),
    "snapshot files": (2_000, lambda n: _snapshot("linux", files=[f"/f/{i}" for i in range(n)])),
    "snapshot dirs": (2_000, lambda n: _snapshot("linux", dirs=[f"/d/{i}" for i in range(n)])),
    "snapshot bundles": (
        500,
        lambda n: _snapshot("darwin", bundles=[{"path": f"/A/{i}.app"} for i in range(n)]),
    ),
    "snapshot uninstall_entries": (
        2_000,
        lambda n: _snapshot("win32", uninstall_entries=[{"display_name": "x"}] * n),
    ),
    "snapshot display_devices": (
        2_000,
        lambda n: _snapshot("win32", display_devices=["PCI\\VEN_10DE&DEV_2684"] * n),
    ),
    "snapshot pci_devices": (
        1_000,
        lambda n: _snapshot("linux", pci_devices=[{"vendor": "0x10de"}] * n),
    ),
    "snapshot processes": (2_000, lambda n: _snapshot("linux", processes=list(range(1, n + 1)))),
    "snapshot env (win32)": (
        2_000,
        lambda n: _snapshot("win32", env={f"VARIABLE_{i}": "x" for i in range(n)}),
    ),
    "snapshot env (linux)": (
        2_000,
        lambda n: _snapshot("linux", env={f"VARIABLE_{i}": "x" for i in range(n)}),
    ),
    "a deep FakeHost path": (10_000, _deep_fake_host),
}


@pytest.mark.parametrize(("size", "work"), WORK.values(), ids=list(WORK))
def test_four_times_the_items_cost_at_most_six_times_the_time(
    size: int, work: Callable[[int], object]
) -> None:
    # A busy moment can slow one measurement; quadratic work fails every one of them.
    measured = []
    for _ in range(MEASUREMENTS):
        small, large = _growth(work, size)
        measured.append((small, large))
        if large <= MOST_RATIO * small:
            return
    pytest.fail(f"4N/N CPU time above {MOST_RATIO} in each of {MEASUREMENTS} runs: {measured}")


def _issues(data: dict[str, object]) -> list[tuple[str, str, str]]:
    with pytest.raises(DeclarationError) as caught:
        host_from_snapshot(data, where="s.yaml")
    return [(issue.loc, issue.code, issue.message) for issue in caught.value.issues]


SNAPSHOT_BOUNDS: dict[str, tuple[dict[str, object], list[tuple[str, str, str]]]] = {
    "a-150000-name-path": (
        {"os_family": "linux", "files": ["/a" * 150_000]},
        [
            (
                "files[0].path",
                "path_too_long",
                "must be at most 4096 characters long (got 300,000 characters)",
            )
        ],
    ),
    "a-path-too-deep": (
        {"os_family": "linux", "dirs": ["/a" * (MAX_PATH_DEPTH + 1)]},
        [("dirs[0]", "path_too_deep", "must have at most 256 names (got 257)")],
    ),
    "65536-pci-devices": (
        {"os_family": "linux", "pci_devices": [{"vendor": "0x10de"}] * 65_536},
        [("pci_devices", "too_many_items", "must list at most 16,384 PCI devices (got 65,536)")],
    ),
    "40000-win32-variables": (
        {"os_family": "win32", "env": {f"V{i}": "x" for i in range(40_000)}},
        [("env", "too_many_items", "must list at most 10,000 variables (got 40,000)")],
    ),
    "too-many-files": (
        {"os_family": "linux", "files": ["/f"] * (MAX_FILES + 1)},
        [("files", "too_many_items", "must list at most 50,000 files (got 50,001)")],
    ),
}


@pytest.mark.parametrize(("data", "issues"), SNAPSHOT_BOUNDS.values(), ids=list(SNAPSHOT_BOUNDS))
def test_a_snapshot_past_a_bound_is_refused_before_it_is_built(
    data: dict[str, object], issues: list[tuple[str, str, str]]
) -> None:
    assert _issues(data) == issues


def test_a_snapshot_at_its_bounds_is_built() -> None:
    host = host_from_snapshot(
        {
            "os_family": "linux",
            "files": ["/" + "a/" * (MAX_PATH_DEPTH - 1) + "f", "/" + "b" * (MAX_PATH_CHARS - 1)],
            "pci_devices": [{"vendor": "0x10de"}] * MAX_DEVICES,
            "env": {f"V{i}": "x" for i in range(MAX_VARIABLES)},
        },
        where="s.yaml",
    )
    assert len(host.list_dir("/sys/bus/pci/devices")) == MAX_DEVICES
    assert host.getenv(f"V{MAX_VARIABLES - 1}") == "x"
    assert host.is_file("/" + "a/" * (MAX_PATH_DEPTH - 1) + "f")


def test_pci_slots_never_run_out() -> None:
    host = FakeHost("linux").add_pci_device(slot="0000:01:00.0")
    host.add_pci_device().add_pci_device()
    assert tuple(host.list_dir("/sys/bus/pci/devices")) == (
        "0000:01:00.0",
        "0000:02:00.0",
        "0000:03:00.0",
    )
