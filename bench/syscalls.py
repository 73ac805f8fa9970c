"""System calls per evaluation on the live host, counted with strace, against the candidate paths.

A child Python evaluates one declaration against a temporary tree: a command looked for on a PATH
of two folders (absent from both) and then in the known bin folders, then three path locations of
which only the third is present; with the user overrides file looked for, every one of those
places must be checked once. A second row puts two known folders (``/usr/local/bin``,
``/usr/bin``) on PATH: each distinct place is still checked once, not twice. The child runs
under ``strace -f -c`` twice, evaluating ``EVALUATIONS`` times and zero times after the same
warm-up; the difference divided by ``EVALUATIONS`` is what one evaluation costs, free of
interpreter start-up and imports.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

EVALUATIONS = 200
SLACK = 2
"""The target: at most one system call per candidate path, plus this many."""

_CHILD = """
import json, sys
from hermes_decl.declaration import parse_declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.live_host import LiveHost

root, count = sys.argv[1], int(sys.argv[2])
locations = [{"kind": "command", "name": "vendor-bench"}]
locations += [f"{root}/opt/{name}/vendor" for name in ("a", "b", "c")]
decl = parse_declaration(
    "bench", {"linux": {"presence": "executable", "location": locations}}, {"app": True},
    where="bench",
)
host = LiveHost("linux")
result = availability(decl, host=host)  # warm-up: lazy imports and caches, in both runs
for _ in range(count):
    availability(decl, host=host)
paths = [c for c in result.trace if c.kind == "path"]
folders = [c.path.rsplit("/", 1)[0] for c in result.trace if c.via == "known_folder" and c.path]
print(json.dumps({
    "state": str(result.state), "path": result.path, "paths": len(paths), "folders": folders
}))
"""


def _tree(root: Path) -> None:
    for folder in ("bin1", "bin2", "opt/a", "opt/b", "opt/c"):
        (root / folder).mkdir(parents=True)
    present = root / "opt/c/vendor"
    present.write_bytes(b"#!/bin/sh\n")
    present.chmod(0o755)


ALLOCATOR_CALLS = frozenset({"brk", "madvise", "mmap", "mremap", "munmap"})
"""Left out of every count: the memory allocator makes them as the heap grows over the rounds,
at no place an evaluation asks about, and a stray one would read as a call too many."""


def _counts(summary: str) -> dict[str, int]:
    """Calls per system call from ``strace -c`` output, less the allocator's."""
    counts: dict[str, int] = {}
    for line in summary.splitlines():
        fields = line.split()
        if len(fields) < 5 or fields[-1] == "total" or not fields[3].isdigit():
            continue
        if fields[-1] not in ALLOCATOR_CALLS:
            counts[fields[-1]] = int(fields[3])
    return counts


def _traced(
    strace: str, root: Path, count: int, search_path: list[str]
) -> tuple[dict[str, int], dict[str, object]]:
    out = root / f"strace-{count}.txt"
    env = {**os.environ, "PATH": os.pathsep.join(search_path)}
    done = subprocess.run(
        [strace, "-f", "-c", "-o", str(out), sys.executable, "-c", _CHILD, str(root), str(count)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return _counts(out.read_text()), report


def _per_evaluation(
    strace: str, root: Path, search_path: list[str]
) -> tuple[float, str, dict[str, object]]:
    """System calls one evaluation adds, which calls they are, and what the child reported."""
    idle, _ = _traced(strace, root, 0, search_path)
    busy, report = _traced(strace, root, EVALUATIONS, search_path)
    extra = {
        name: busy.get(name, 0) - idle.get(name, 0)
        for name in busy.keys() | idle.keys()
        if busy.get(name, 0) != idle.get(name, 0)
    }
    which = ", ".join(
        f"{name} {calls / EVALUATIONS:g}" for name, calls in sorted(extra.items(), key=str)
    )
    return sum(extra.values()) / EVALUATIONS, which or "none", report


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    label = "system calls per evaluation, live host (strace)"
    overlap_label = (
        "system calls per evaluation, PATH holding two known folders (strace) / distinct places"
    )
    strace = shutil.which("strace")
    if strace is None or platform.system() != "Linux":  # strace exists on Linux only
        return [
            (row, "skipped: strace not installed", "target ≤ candidates + 2", "skipped")
            for row in (label, overlap_label)
        ]
    with tempfile.TemporaryDirectory(prefix="hermes-bench-") as folder:
        root = Path(folder)
        _tree(root)
        apart = [str(root / "bin1"), str(root / "bin2")]
        overlapping = [str(root / "bin1"), "/usr/local/bin", "/usr/bin"]
        try:
            per_call, which, report = _per_evaluation(strace, root, apart)
            overlap_call, overlap_which, overlap_report = _per_evaluation(strace, root, overlapping)
        except (subprocess.SubprocessError, OSError, ValueError) as error:
            reason = f"skipped: strace could not trace ({type(error).__name__})"
            return [
                (row, reason, "target ≤ candidates + 2", "skipped")
                for row in (label, overlap_label)
            ]
    rows = []
    path_entries = len(apart)
    paths, folders = _places(report)
    candidates = path_entries + paths + len(folders) + 1  # and the overrides file
    met = _found(report) and per_call <= candidates + SLACK
    rows.append(
        (
            label,
            f"{per_call:.2f} ({which})",
            f"target ≤ {candidates} candidates + {SLACK} = {candidates + SLACK} "
            f"({path_entries} PATH entries, {paths} paths, {len(folders)} known folders, "
            "1 overrides file)",
            "met" if met else "MISSED",
        )
    )
    paths, folders = _places(overlap_report)
    distinct = len(set(overlapping) | set(folders)) + paths + 1
    ratio = overlap_call / distinct
    rows.append(
        (
            overlap_label,
            f"{overlap_call:.2f} ({overlap_which}; {ratio:.2f}x)",
            f"target ≤ 1.00x: {distinct} places, each once ({len(overlapping)} PATH entries, "
            f"{len(set(folders) - set(overlapping))} other known folders, {paths} paths, "
            "1 overrides file)",
            "met" if _found(overlap_report) and ratio <= 1.0 else "MISSED",
        )
    )
    return rows


def _places(report: dict[str, object]) -> tuple[int, list[str]]:
    """The path locations and the known folders (each by its folder) one evaluation traced."""
    paths, folders = report["paths"], report["folders"]
    listed = [str(folder) for folder in folders] if isinstance(folders, list) else []
    return (paths if isinstance(paths, int) else 0), listed


def _found(report: dict[str, object]) -> bool:
    return str(report["state"]) == "available" and str(report["path"]).endswith("/opt/c/vendor")
