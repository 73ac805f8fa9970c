"""Checking ``check``'s sources one by one, in this process or spread over worker processes.

Either way every source's report and human lines come back in the order the sources were given,
so ``-j N`` prints exactly what one process prints. A worker checks a run of files with the same
options and hands back each file's status, report entry, problems and human text; standard input
(``-``) is read here, in its place in the order.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING, Any

from hermes_decl.cli.ci_formats import Problem
from hermes_decl.cli.command import EXIT_OK, EXIT_PROBLEMS, failure_status, issue_json
from hermes_decl.cli.inputs import STDIN, StandardInput, label, load_each
from hermes_decl.cli.output import Output

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

Checked = tuple[int, dict[str, Any], list[Problem]]
"""One source's exit status, its report entry (``--json``) and its problems."""

OPTIONS = ("at", "single", "follow_symlinks", "format", "quiet", "strict")
"""The arguments that say how one source is checked: what a worker is given."""

MOST_WORKERS = 61
"""The most worker processes one check starts: Windows waits on at most 61 of them at once."""

RUN_LENGTH = 64
"""The most files one worker task checks: long enough that handing them over costs little,
short enough that the lines of the first files are printed while the last are checked."""


def check_source(
    source: str, args: argparse.Namespace, stdin: StandardInput, out: Output
) -> Checked:
    """Check one source: its exit status, its report entry and its problems, printed as human
    lines unless another format is asked for.

    Nothing else of the file outlives the call: a declaration is freed once the next one is
    parsed, and the document as the call returns, so the collector, paused around it, has
    nothing left to scan.
    """
    from hermes_decl.loader.collection import paused_collection

    where = label(source)
    found: list[str] = []
    # One file's work is bounded by the loader's MAX_BYTES: paused through reading, parsing,
    # linting and reporting, the collector never scans the file's objects while they live.
    with paused_collection():
        error, warnings = load_each(
            source,
            lambda name, _declaration: found.append(name),
            at=args.at,
            single=args.single,
            stdin=stdin,
            follow_symlinks=args.follow_symlinks,
        )
        issues = (*(error.issues if error is not None else ()), *warnings)
        status = EXIT_OK
        if error is not None:
            status = failure_status(error)
        elif warnings and args.strict:
            status = EXIT_PROBLEMS
        servers = sorted(found) if error is None else []
        entry = {
            "file": where,
            "valid": error is None,
            "servers": servers,
            "issues": [issue_json(issue, where) for issue in issues],
        }
        if args.format == "human":
            if error is not None:
                out.error(error)
            for warning in warnings:
                out.issue(warning, where)
            if error is None and not args.quiet:
                names = ", ".join(servers) or "no servers"
                out.line(f"{out.style(where, 'place')}: {out.style('ok', 'good')} ({names})")
        return status, entry, [(where, issue) for issue in issues]


def jobs_for(asked: int) -> int:
    """The worker processes ``-j`` asks for: ``0`` is one per CPU this process may use."""
    if asked > 0:
        return asked
    usable = getattr(os, "process_cpu_count", None) or os.cpu_count
    return max(1, usable() or 1)


def checked_in_order(
    sources: Sequence[str],
    args: argparse.Namespace,
    stdin: StandardInput,
    out: Output,
    *,
    jobs: int,
) -> Generator[Checked, None, None]:
    """Each source checked, in the order given, its human lines written to ``out`` as it comes;
    with ``jobs`` above one, runs of files are checked by that many worker processes (by this
    process after all when they cannot be started)."""
    files = [source for source in sources if source != STDIN]
    if jobs <= 1 or len(files) <= 1:
        yield from _checked_here(sources, args, stdin, out)
        return
    _load_checker()
    options = argparse.Namespace(**{name: getattr(args, name) for name in OPTIONS})
    runs = _runs(sources, jobs)
    workers = min(jobs, MOST_WORKERS, sum(1 for run in runs if run[0] != STDIN))
    handed_out = _handed_out(runs, workers, options, out.color)
    if handed_out is None:
        # No worker could be started (out of processes, a sandbox) and nothing is printed yet:
        # this process checks every file itself, and the output is still the same.
        yield from _checked_here(sources, args, stdin, out)
        return
    from concurrent.futures.process import BrokenProcessPool

    pool, tasks = handed_out
    try:
        for task in tasks:
            if task is None:  # standard input, read here in its place
                yield check_source(STDIN, args, stdin, out)
                continue
            try:
                results = task.result()
            except BrokenProcessPool:
                raise WorkerStopped from None
            for checked, text in results:
                out.lines_written_elsewhere(text)
                yield checked
    finally:
        # Stopped early (a closed pipe, an interrupt): the runs not yet started never will be.
        pool.shutdown(wait=True, cancel_futures=True)


def _checked_here(
    sources: Sequence[str], args: argparse.Namespace, stdin: StandardInput, out: Output
) -> Generator[Checked, None, None]:
    """Each source checked by this process, in the order given."""
    for source in sources:
        yield check_source(source, args, stdin, out)


def _handed_out(
    runs: list[list[str]], workers: int, options: argparse.Namespace, color: bool
) -> tuple[ProcessPoolExecutor, list[Future[list[tuple[Checked, str]]] | None]] | None:
    """The worker pool and each run's task (``None`` for standard input), or ``None`` when the
    workers cannot be started."""
    try:
        pool = _start_pool(workers)
    except (OSError, NotImplementedError):  # NotImplementedError: no working sem_open here
        return None
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool, [
            None if run[0] == STDIN else pool.submit(_check_run, run, options, color)
            for run in runs
        ]
    except BaseException as stopped:
        pool.shutdown(wait=True, cancel_futures=True)
        if isinstance(stopped, OSError):
            return None
        if isinstance(stopped, BrokenProcessPool):  # a worker ended while runs were handed out
            raise WorkerStopped from None
        raise


class WorkerStopped(Exception):
    """A worker process ended before it handed back its files (killed, out of memory)."""


def _start_pool(workers: int) -> ProcessPoolExecutor:
    """The worker processes; imported only here, since one process checking alone needs none of
    ``multiprocessing`` (nor ``random``, which it imports)."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(max_workers=workers)


def _load_checker() -> None:
    """Import what checking a file needs before the workers start: a worker forked from this
    process then starts with it loaded instead of each importing it again."""
    for module in ("hermes_decl.loader", "hermes_decl.lint"):
        importlib.import_module(module)


def _runs(sources: Sequence[str], jobs: int) -> list[list[str]]:
    """The sources cut into the runs one task checks: files in runs of at most ``RUN_LENGTH``
    (about four a worker, so that a slow run holds up little), each ``-`` alone."""
    file_count = sum(1 for source in sources if source != STDIN)
    length = max(1, min(RUN_LENGTH, -(-file_count // (jobs * 4))))
    runs: list[list[str]] = []
    for source in sources:
        if source == STDIN:
            runs.append([STDIN])
        elif runs and runs[-1][0] != STDIN and len(runs[-1]) < length:
            runs[-1].append(source)
        else:
            runs.append([source])
    return runs


def _check_run(
    files: list[str], options: argparse.Namespace, color: bool
) -> list[tuple[Checked, str]]:
    """A worker's task: each file checked, with the human lines it would have printed."""
    stdin = StandardInput()  # never read: standard input is checked by the parent
    results = []
    for source in files:
        text = io.StringIO()
        checked = check_source(source, options, stdin, Output(text, color=color))
        results.append((checked, text.getvalue()))
    return results
