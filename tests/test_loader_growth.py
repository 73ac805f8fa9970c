"""Loading stays linear in the file's size: the cyclic collector is paused while a file is read,
parsed and turned into declarations, and enabled again exactly as it was found.

``hermes-decl check`` pauses it through each file's whole check (reading, parsing, linting and
reporting) and lets the file's objects go before it resumes, so checking 10,000 servers makes
the collector scan no more than checking 1,000 does. ``python -m bench`` (``bench/growth.py``)
times that same check of the same files; here its work is counted, which no load on the machine
changes: the objects each collection scans and the function calls made, 1,000 servers against
10,000, at most N^1.05 apart.
"""

from __future__ import annotations

import cProfile
import dataclasses
import gc
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from pathlib import Path

import pytest

from bench.big_file import small_servers_text
from bench.growth import GROWTH_BOUND
from hermes_decl import cli
from hermes_decl.declaration import DeclarationError, Issue
from hermes_decl.loader import (
    MAX_BYTES,
    load_declarations_file,
    load_declarations_text,
    load_plugin_manifest,
)
from hermes_decl.loader.declarations import servers_in
from hermes_decl.loader.yaml_reader import _read_yaml


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


def _check_work(path: Path) -> tuple[list[tuple[int, int]], int]:
    """One ``hermes-decl check`` of the file: each collection's generation and the objects it
    scans (those of its generation and the younger ones), and the function calls made."""
    scans: list[tuple[int, int]] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generation = info["generation"]
            scanned = sum(len(gc.get_objects(young)) for young in range(generation + 1))
            scans.append((generation, scanned))

    out = io.StringIO()
    profile = cProfile.Profile()
    gc.collect()
    gc.callbacks.append(record)
    try:
        with redirect_stdout(out):
            status = profile.runcall(cli.main, ["check", "--color", "never", str(path)])
    finally:
        gc.callbacks.remove(record)
    assert (status, out.getvalue().startswith(f"{path}: ok (s0, s1, s10,")) == (0, True)
    return scans, sum(entry.callcount for entry in profile.getstats())


def test_checking_10000_servers_does_at_most_n_to_1_05_the_work_of_1000(tmp_path: Path) -> None:
    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    small.write_text(small_servers_text(1_000), encoding="utf-8")
    large.write_text(small_servers_text(10_000), encoding="utf-8")
    assert large.stat().st_size <= MAX_BYTES
    _check_work(small)  # the first check imports what checking needs
    small_scans, small_calls = _check_work(small)
    large_scans, large_calls = _check_work(large)
    # At most the one collection the check deferred, over what outlives the file's check.
    assert len(large_scans) <= 1 and len(small_scans) <= 1, (small_scans, large_scans)
    scanned = (sum(n for _, n in small_scans), sum(n for _, n in large_scans))
    most = 10**GROWTH_BOUND
    assert scanned[1] <= most * max(scanned[0], 1), f"objects scanned {scanned}"
    assert large_calls <= most * small_calls, f"calls {small_calls} → {large_calls}"


TABBED_TEXTS: dict[str, Callable[[int], str]] = {
    "a long line of quoted hashes, then tabs in a comment": lambda n: (
        "x: [" + "'#', " * n + "] #" + "\t" * n + "\n"
    ),
    "a tab in a comment on every line": lambda n: "".join(f"k{i}: 1 # c\tc\n" for i in range(n)),
    "tabs in quoted scalars on every line": lambda n: "".join(f"k{i}: '#\t#'\n" for i in range(n)),
}
"""Text whose tabs both parsers read alike, so the rule that says so reads all of it."""


def _reading_calls(text: str) -> int:
    """The function calls one reading of ``text`` makes, with the tab rule (libyaml's path)."""
    profile = cProfile.Profile()
    profile.runcall(_read_yaml, text, "t.yaml")
    return sum(entry.callcount for entry in profile.getstats())


@pytest.mark.parametrize("make", list(TABBED_TEXTS.values()), ids=list(TABBED_TEXTS))
def test_the_tab_rule_reads_each_line_once(make: Callable[[int], str]) -> None:
    small, large = make(1_000), make(10_000)
    assert len(large.encode("utf-8")) <= MAX_BYTES
    _reading_calls(small)
    assert _reading_calls(large) <= 10**GROWTH_BOUND * _reading_calls(small)


class _CountedIssues(tuple[Issue, ...]):
    """A document's reading issues that count how often they are read through."""

    reads = 0

    def __iter__(self) -> Iterator[Issue]:
        type(self).reads += 1
        return super().__iter__()


def test_the_reading_issues_are_read_through_a_bounded_number_of_times_per_document() -> None:
    text = "z: [" + ", ".join(["!x a"] * 50) + "]\n"
    text += "".join(f"s{i}: {{app: 5}}\n" for i in range(200))
    read = _read_yaml(text, "t.yaml")
    counted = dataclasses.replace(read, issues=_CountedIssues(read.issues))
    with pytest.raises(DeclarationError) as caught:
        servers_in(counted, ())
    assert len(caught.value.issues) == 251  # z is no server, 50 custom tags, 200 bad apps
    assert _CountedIssues.reads <= 3  # not once per server that fails
