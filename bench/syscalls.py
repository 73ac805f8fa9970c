"""System calls per evaluation on the live host, counted with strace, against the candidate paths.

A child Python evaluates one declaration against a temporary tree: a command looked for on a PATH
of two folders (absent from both) and then in the known bin folders, then three path locations of
which only the third is present; with the user overrides file looked for, every one of those
places must be checked once. The child runs under ``strace -f -c`` twice, evaluating
``EVALUATIONS`` times and zero times after the same warm-up; the difference divided by
``EVALUATIONS`` is what one evaluation costs, free of interpreter start-up and imports.
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
folders = [c for c in result.trace if c.via == "known_folder" and c.path is not None]
print(json.dumps({
    "state": str(result.state), "path": result.path, "paths": len(paths), "folders": len(folders)
}))
"""


def _tree(root: Path) -> None:
    for folder in ("bin1", "bin2", "opt/a", "opt/b", "opt/c"):
        (root / folder).mkdir(parents=True)
    present = root / "opt/c/vendor"
    present.write_bytes(b"#!/bin/sh\n")
    present.chmod(0o755)


def _counts(summary: str) -> dict[str, int]:
    """Calls per system call from ``strace -c`` output."""
    counts: dict[str, int] = {}
    for line in summary.splitlines():
        fields = line.split()
        if len(fields) < 5 or fields[-1] == "total" or not fields[3].isdigit():
            continue
        counts[fields[-1]] = int(fields[3])
    return counts


def _traced(strace: str, root: Path, count: int) -> tuple[dict[str, int], dict[str, object]]:
    out = root / f"strace-{count}.txt"
    env = {**os.environ, "PATH": f"{root / 'bin1'}{os.pathsep}{root / 'bin2'}"}
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


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    label = "system calls per evaluation, live host (strace)"
    strace = shutil.which("strace")
    if strace is None or platform.system() != "Linux":  # strace exists on Linux only
        return [(label, "skipped: strace not installed", "target ≤ candidates + 2", "skipped")]
    with tempfile.TemporaryDirectory(prefix="hermes-bench-") as folder:
        root = Path(folder)
        _tree(root)
        try:
            idle, _ = _traced(strace, root, 0)
            busy, report = _traced(strace, root, EVALUATIONS)
        except (subprocess.SubprocessError, OSError, ValueError) as error:
            reason = f"skipped: strace could not trace ({type(error).__name__})"
            return [(label, reason, "target ≤ candidates + 2", "skipped")]
    extra = {
        name: busy.get(name, 0) - idle.get(name, 0)
        for name in busy.keys() | idle.keys()
        if busy.get(name, 0) != idle.get(name, 0)
    }
    per_call = sum(extra.values()) / EVALUATIONS
    path_entries = 2
    paths, folders = report["paths"], report["folders"]
    places = (paths if isinstance(paths, int) else 0) + (folders if isinstance(folders, int) else 0)
    candidates = path_entries + places + 1  # and the overrides file
    found = str(report["state"]) == "available" and str(report["path"]).endswith("/opt/c/vendor")
    which = ", ".join(
        f"{name} {calls / EVALUATIONS:g}" for name, calls in sorted(extra.items(), key=str)
    )
    met = found and per_call <= candidates + SLACK
    return [
        (
            label,
            f"{per_call:.2f} ({which or 'none'})",
            f"target ≤ {candidates} candidates + {SLACK} = {candidates + SLACK} "
            f"({path_entries} PATH entries, {paths} paths, {folders} known folders, "
            "1 overrides file)",
            "met" if met else "MISSED",
        )
    ]
