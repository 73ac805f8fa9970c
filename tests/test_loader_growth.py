"""Loading stays linear in the file's size: the cyclic collector is paused while a file is read,
parsed and turned into declarations, and enabled again exactly as it was found."""

from __future__ import annotations

import gc
import io
import math
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

import pytest

from bench.big_file import small_servers_text
from hermes_decl import cli
from hermes_decl.declaration import DeclarationError
from hermes_decl.loader import (
    MAX_BYTES,
    load_declarations_file,
    load_declarations_text,
    load_plugin_manifest,
)

GROWTH_BOUND = 1.05
"""Checking N servers may grow at most as N to this power, from 1,000 servers to 10,000."""
ROUNDS = 10
"""The most rounds of measurements before the growth is judged."""


if sys.platform == "win32":
    _user_seconds = time.process_time
else:
    import resource

    def _user_seconds() -> float:
        """CPU time spent in this process's own code, to the microsecond.

        The kernel's share is left out: it is mostly first touches of fresh memory, which a
        larger check pays in a process where a smaller one reuses what the last check freed.
        """
        return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def _check_seconds(path: Path | str) -> float:
    """The CPU time of one ``hermes-decl check`` of the file, from a fresh collector state.

    The collector's counts start at zero, so each check pays for its own collections only; the
    collection the check defers runs inside it, at the first allocation after re-enabling.
    """
    gc.collect()
    out = io.StringIO()
    started = _user_seconds()
    with redirect_stdout(out):
        status = cli.main(["check", "--color", "never", str(path)])
    seconds = _user_seconds() - started
    assert (status, out.getvalue().startswith(f"{path}: ok (s0, s1, s10,")) == (0, True)
    return seconds


def growth(small: Path | str, large: Path | str) -> tuple[float, float]:
    """The least CPU time a check of each file took, in rounds until the growth is within bound.

    The best of each, taken alternately, is the check the machine's load disturbed least; a
    loaded machine takes more rounds to show it, a quiet one stops after a few.
    """
    _check_seconds(small)  # the first check imports what checking needs
    best_small, best_large = math.inf, math.inf
    for _ in range(ROUNDS):
        best_small = min(best_small, *(_check_seconds(small) for _ in range(3)))
        best_large = min(best_large, _check_seconds(large))
        if math.log10(best_large / best_small) <= GROWTH_BOUND:
            break
    return best_small, best_large


MEASURE = """
import sys
from tests.test_loader_growth import growth
print(*growth(*sys.argv[1:]))
"""


def test_checking_grows_linearly_from_1000_to_10000_servers(tmp_path: Path) -> None:
    """Measured in a fresh interpreter: what earlier tests left in memory does not weigh in."""
    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    small.write_text(small_servers_text(1_000), encoding="utf-8")
    large.write_text(small_servers_text(10_000), encoding="utf-8")
    assert large.stat().st_size <= MAX_BYTES
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(small), str(large)],
        cwd=Path(__file__).parent.parent,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    best_small, best_large = map(float, result.stdout.split())
    exponent = math.log10(best_large / best_small)
    assert exponent <= GROWTH_BOUND, f"{best_small:.3f} s → {best_large:.3f} s: N^{exponent:.2f}"


@contextmanager
def _collections() -> Iterator[list[int]]:
    """The generation of each collection that starts while the block runs."""
    started: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(info["generation"])

    gc.collect()
    gc.callbacks.append(record)
    try:
        yield started
    finally:
        gc.callbacks.remove(record)


LOADS: dict[str, Callable[[Path], object]] = {
    "text": lambda path: load_declarations_text(path.read_text(encoding="utf-8")),
    "file": load_declarations_file,
    "manifest": load_plugin_manifest,
}


def _manifest_text(count: int) -> str:
    body = "".join("      " + line + "\n" for line in small_servers_text(count).splitlines())
    return f"extensions:\n  com.nousresearch.hermes:\n    servers:\n{body}"


@pytest.mark.parametrize("load", sorted(LOADS))
def test_a_load_runs_only_the_one_collection_it_deferred(tmp_path: Path, load: str) -> None:
    path = tmp_path / "plugin.yaml"
    path.write_text(_manifest_text(2_000) if load == "manifest" else small_servers_text(2_000))
    with _collections() as started:
        declarations = LOADS[load](path)
    assert (len(declarations), started) == (2_000, [0])  # type: ignore[arg-type]
    assert gc.isenabled()


def test_a_paused_collector_stays_paused_and_an_error_restores_it() -> None:
    gc.disable()
    try:
        assert list(load_declarations_text(small_servers_text(3))) == ["s0", "s1", "s2"]
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text("s0:\n  app: [\n")
    assert caught.value.issues[0].code == "yaml_syntax"
    assert gc.isenabled()
