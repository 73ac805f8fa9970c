"""Loading stays linear in the file's size: the cyclic collector is paused while a file is read,
parsed and turned into declarations, and enabled again exactly as it was found.

That the time of a check grows at most as N^1.05 from 1,000 to 10,000 servers is measured by
``python -m bench`` (``bench/growth.py``), not here: a ratio of CPU times depends on what else
the machine runs (caches shared with other processes slow the larger file more), so it belongs
to a quiet benchmark run. Here, what makes it linear is pinned exactly: one collection per load.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bench.big_file import small_servers_text
from hermes_decl.declaration import DeclarationError
from hermes_decl.loader import (
    load_declarations_file,
    load_declarations_text,
    load_plugin_manifest,
)


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
