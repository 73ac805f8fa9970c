"""``hermes-decl check -j N``: files checked by worker processes, printed as one process prints."""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from hermes_decl import cli
from hermes_decl.cli import check_sources
from hermes_decl.cli.check_sources import _runs, jobs_for
from hermes_decl.cli.inputs import StandardInput
from hermes_decl.cli.output import Output
from tests.test_cli_check import run

ROOT = Path(__file__).parent.parent
SOURCES = (
    "examples/vendor-studio.yaml",
    "examples/broken.yaml",
    "examples/linux-tool.yaml",
    "-",
    "examples/gpu-renderer.yaml",
    "examples/no-such-file.yaml",
    "examples/broken.yaml",
    "examples/linux-tool.yaml",
    "examples/vendor-studio.yaml",
)
"""Valid files, one with warnings, one with errors, a missing one and standard input between
them: more runs than two workers, so the order the lines come back in is put to the test."""
STDIN_TEXT = (ROOT / "examples" / "gpu-renderer.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "options",
    [
        ("--color", "never"),
        ("--color", "always"),
        ("--format", "json"),
        ("--format", "sarif"),
        ("--format", "github"),
        ("--quiet", "--strict", "--color", "never"),
    ],
    ids=["human", "coloured", "json", "sarif", "github", "quiet-strict"],
)
def test_workers_print_exactly_what_one_process_prints(options: tuple[str, ...]) -> None:
    alone = run("check", *options, *SOURCES, stdin=STDIN_TEXT)
    spread = run("check", *options, "-j", "2", *SOURCES, stdin=STDIN_TEXT)
    assert (spread.returncode, spread.stdout, spread.stderr) == (
        alone.returncode,
        alone.stdout,
        alone.stderr,
    )
    assert alone.returncode == 2  # the missing file
    if options == ("--color", "never"):
        places = [line.split(":")[0] for line in alone.stdout.splitlines()]
        firsts = list(dict.fromkeys(places))
        assert firsts[:4] == [
            "examples/vendor-studio.yaml",
            "examples/broken.yaml",
            "examples/linux-tool.yaml",
            "<stdin>",
        ]


def test_files_from_standard_input_are_spread_too() -> None:
    listing = "".join(f"{source}\n" for source in SOURCES if source != "-")
    alone = run("check", "--color", "never", "--files-from", "-", stdin=listing)
    spread = run("check", "--color", "never", "-j", "3", "--files-from", "-", stdin=listing)
    assert (spread.returncode, spread.stdout) == (alone.returncode, alone.stdout)
    assert alone.stdout.count("examples/linux-tool.yaml: ok (inkwell-mcp)") == 2


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", "argument -j/--jobs: must be 0 (one per CPU) or more: -1"),
        ("two", "argument -j/--jobs: not a whole number: 'two'"),
        ("1.5", "argument -j/--jobs: not a whole number: '1.5'"),
    ],
)
def test_a_job_count_that_is_no_whole_number_of_zero_or_more_is_a_usage_error(
    value: str, message: str
) -> None:
    result = run("check", "-j", value, "examples/linux-tool.yaml")
    assert result.returncode == 2
    assert f"hermes-decl check: error: {message}" in result.stderr


def test_zero_jobs_is_one_per_cpu_and_a_count_is_taken_as_it_is() -> None:
    usable = getattr(os, "process_cpu_count", None) or os.cpu_count
    assert jobs_for(0) == (usable() or 1)
    assert (jobs_for(1), jobs_for(3)) == (1, 3)


@pytest.mark.parametrize(
    ("sources", "jobs", "lengths"),
    [
        (["a", "b", "-", "c"], 2, [1, 1, 1, 1]),
        (["a", "-", "-", "b", "c"], 1, [1, 1, 1, 1, 1]),
        ([f"f{number}" for number in range(100)], 2, [13] * 7 + [9]),
        ([f"f{number}" for number in range(2000)], 2, [64] * 31 + [16]),
        ([*(f"f{number}" for number in range(20)), "-", "g"], 1, [6, 6, 6, 2, 1, 1]),
    ],
    ids=["one-a-run", "stdin-alone", "four-runs-a-worker", "runs-bounded", "stdin-ends-a-run"],
)
def test_sources_are_cut_into_runs_in_their_order(
    sources: list[str], jobs: int, lengths: list[int]
) -> None:
    runs = _runs(sources, jobs)
    assert [len(each) for each in runs] == lengths
    assert [source for each in runs for source in each] == sources
    assert all(each == ["-"] for each in runs if "-" in each)


def _stop_at_once(*_: object) -> object:
    os._exit(3)


@pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork",
    reason="a stand-in worker reaches the workers only when they are forked from this process",
)
def test_a_worker_that_dies_is_said_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(check_sources, "_check_run", _stop_at_once)
    assert _two_files_on_two_workers(monkeypatch, capsys) == (2, WORKER_STOPPED)


WORKER_STOPPED = "hermes-decl check: a worker process stopped before it finished (run without -j)\n"


def _two_files_on_two_workers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    """The exit status and standard error of checking two examples with ``-j 2``."""
    monkeypatch.chdir(ROOT)
    status = cli.main(
        ["check", "--color", "never", "-j", "2", "examples/broken.yaml", "examples/linux-tool.yaml"]
    )
    return status, capsys.readouterr().err


def _broken_pool(workers: int) -> ProcessPoolExecutor:
    """A pool whose one worker has already ended, as one may while runs are still handed out."""
    pool = ProcessPoolExecutor(max_workers=1)
    with contextlib.suppress(BrokenProcessPool):
        pool.submit(os._exit, 3).result()
    return pool


def test_a_worker_that_dies_while_runs_are_handed_out_is_said_and_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(check_sources, "_start_pool", _broken_pool)
    assert _two_files_on_two_workers(monkeypatch, capsys) == (2, WORKER_STOPPED)


def test_one_file_or_one_job_is_checked_in_this_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(check_sources, "_start_pool", None)  # any use would fail
    assert cli.main(["check", "--color", "never", "-j", "4", "examples/linux-tool.yaml"]) == 0
    assert (
        cli.main(["check", "--color", "never", "examples/linux-tool.yaml", "examples/broken.yaml"])
        == 1
    )
    assert capsys.readouterr().out.startswith("examples/linux-tool.yaml: ok (inkwell-mcp)\n")


def test_more_jobs_than_windows_can_wait_on_start_no_more_workers_than_it_can(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[int] = []

    def counting(workers: int) -> ProcessPoolExecutor:
        started.append(workers)
        return ProcessPoolExecutor(max_workers=2)

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(check_sources, "_start_pool", counting)
    sources = ["examples/linux-tool.yaml"] * 300
    assert cli.main(["check", "--quiet", "-j", "100", *sources]) == 0
    assert started == [61]
    assert capsys.readouterr().out == ""


def test_a_check_stopped_early_starts_no_more_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """A closed pipe or an interrupt stops the command: the runs not yet begun are cancelled."""
    submitted: list[Future[object]] = []

    class Recording(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            future = super().submit(*args, **kwargs)
            submitted.append(future)
            return future

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(check_sources, "_start_pool", Recording)
    options = argparse.Namespace(
        at=None, single=False, follow_symlinks=False, format="human", quiet=True, strict=False
    )
    sources = ["examples/linux-tool.yaml"] * 2000
    checked = check_sources.checked_in_order(
        sources, options, StandardInput(), Output(io.StringIO(), color=False), jobs=2
    )
    assert next(checked)[0] == 0
    checked.close()
    assert len(submitted) == 32
    assert any(future.cancelled() for future in submitted)
    assert all(future.done() for future in submitted)


class _AsciiOnly(io.StringIO):
    """A stream that cannot carry what ASCII cannot and cannot be told otherwise."""

    def write(self, text: str) -> int:
        text.encode("ascii")
        return super().write(text)


def test_a_workers_lines_reach_a_stream_that_cannot_carry_them_escaped() -> None:
    stream = _AsciiOnly()
    Output(stream, color=False).lines_written_elsewhere("caf\u00e9: ok\n")
    assert stream.getvalue() == "caf\\xe9: ok\n"


class _NoMoreProcesses(ProcessPoolExecutor):
    """A pool whose workers cannot start after the first run is handed out (the process table
    full, a sandbox): the second ``submit`` fails as starting a process fails."""

    def __init__(self, max_workers: int) -> None:
        super().__init__(max_workers=1)
        self.started_one = False

    def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.started_one:
            raise OSError(11, "Resource temporarily unavailable")
        self.started_one = True
        return super().submit(*args, **kwargs)


def _cannot_start(workers: int) -> ProcessPoolExecutor:
    raise OSError(24, "Too many open files")


def _no_semaphores(workers: int) -> ProcessPoolExecutor:
    """What ``ProcessPoolExecutor`` raises where the system has no working ``sem_open``."""
    raise NotImplementedError("This Python has no working sem_open")


@pytest.mark.parametrize(
    "start_pool",
    [_cannot_start, _no_semaphores, _NoMoreProcesses],
    ids=["no-pool", "no-semaphores", "no-second-worker"],
)
def test_workers_that_cannot_start_leave_the_files_to_this_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], start_pool: Any
) -> None:
    monkeypatch.chdir(ROOT)
    files = [source for source in SOURCES if source != "-"]
    assert cli.main(["check", "--color", "never", *files]) == 2
    alone = capsys.readouterr()
    monkeypatch.setattr(check_sources, "_start_pool", start_pool)
    assert cli.main(["check", "--color", "never", "-j", "2", *files]) == 2
    assert capsys.readouterr() == alone
