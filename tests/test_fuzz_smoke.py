"""CI's short fuzz run: each harness in fuzz/ over its seeds and a few thousand random inputs.

The long runs (200,000 executions per target, with atheris) are recorded in fuzz/README.md; this
keeps the harnesses working and catches a regression of any crash they found, without atheris.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time

import pytest

from fuzz import driver

RANDOM_INPUTS = {
    "parser": 4000,
    "loader": 3000,
    "version": 5000,
    "plist": 5000,
    "pe": 5000,
    "resolver": 2000,
    "wire": 1500,
    "runtime": 3000,
}
"""Inputs per target after the seeds: well under a second each."""
MAX_CORPUS_BYTES = 2 * 1024 * 1024


def _report(result: driver.Result) -> str:
    return "\n".join(
        f"{crash.signature} on {crash.data!r}\n{crash.report}" for crash in result.crashes.values()
    )


def test_every_target_has_a_harness_and_seeds() -> None:
    assert set(RANDOM_INPUTS) == set(driver.TARGETS)
    for target in driver.TARGETS:
        assert (driver.HERE / f"fuzz_{target}.py").is_file()
        assert callable(driver.harness(target))
        assert driver.seeds([driver.CORPUS / target]), target


def test_seed_corpora_stay_small() -> None:
    total = sum(path.stat().st_size for path in driver.CORPUS.rglob("*") if path.is_file())
    assert total < MAX_CORPUS_BYTES


@pytest.mark.parametrize("target", driver.TARGETS)
def test_seeds(target: str) -> None:
    corpus = driver.seeds([driver.CORPUS / target])
    result = driver.run(target, corpus, timeout=10)
    assert result.executions == len(corpus)
    assert not result.crashes, _report(result)


@pytest.mark.parametrize("target", driver.TARGETS)
def test_random_inputs(target: str) -> None:
    rng = random.Random(driver.TARGETS.index(target) + 1)
    corpus = driver.seeds([driver.CORPUS / target])
    inputs = driver.inputs(rng, corpus, RANDOM_INPUTS[target], driver.TOKENS[target])
    result = driver.run(target, inputs, timeout=10)
    assert result.executions == RANDOM_INPUTS[target]
    assert not result.crashes, _report(result)


def test_the_driver_collects_each_distinct_crash() -> None:
    def fragile(data: bytes) -> None:
        if data.startswith(b"k"):
            raise KeyError(data)
        if data.startswith(b"v"):
            raise ValueError(data)

    result = driver.run("parser", [b"ok", b"kk", b"k", b"v", b"x"], test_one_input=fragile)
    assert result.executions == 5
    assert sorted(crash.signature.split()[0] for crash in result.crashes.values()) == [
        "KeyError",
        "ValueError",
    ]
    assert min(c.data for c in result.crashes.values() if c.signature.startswith("Key")) == b"k"


@pytest.mark.skipif(sys.platform == "win32", reason="the per-input time limit needs SIGALRM")
def test_the_driver_reports_a_hang() -> None:
    def hangs(data: bytes) -> None:
        # A target's own broad handler must not hide the time limit.
        with contextlib.suppress(Exception):
            time.sleep(5)

    result = driver.run("parser", [b"x"], timeout=0.05, test_one_input=hangs)
    assert [crash.signature.split()[0] for crash in result.crashes.values()] == ["Timeout"]


def test_libfuzzer_flags_translate_for_the_plain_driver() -> None:
    arguments = ["-atheris_runs=500", "-timeout=3", "-max_len=99", "work/pe", "fuzz/corpus/pe"]
    assert driver.from_libfuzzer_args(arguments) == [
        "--runs",
        "500",
        "--timeout",
        "3",
        "--corpus",
        "work/pe",
        "--corpus",
        "fuzz/corpus/pe",
    ]
