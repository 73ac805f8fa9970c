"""A catalog of 2,000 plugin manifests checked in one process, against check-jsonschema.

The documented catalog mode is one ``hermes-decl check --quiet --files-from LIST`` over every
file. Its baseline is check-jsonschema validating the same files against the shipped
``plugin-manifest.schema.json`` in one process: a schema-only checker that reads JSON, not
YAML, and applies no rule beyond the schema, so it does no more work than the job needs. A
third row runs ``hermes-decl check`` once per file on a sample, side by side, to show what the
catalog mode saves. Each command runs in fresh processes, alternately; the medians of their CPU
times are compared. A last row gives the wall-clock time of the catalog mode spread over one
worker process per CPU (``-j 0``) against the same mode in one process, also side by side.

Run it alone with ``python -m bench.catalog``; ``python -m bench`` includes it.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.imports import compiled
from hermes_decl.cli.check_sources import jobs_for

MANIFESTS = 2000
RUNS = 3
PER_FILE_SAMPLE = 20
"""Files checked one process each; the per-file row scales their median to the whole catalog."""
TARGET = 1.0
"""The catalog mode may take at most as long as check-jsonschema on the same files."""
SCHEMA = Path(__file__).parent.parent / "schema" / "plugin-manifest.schema.json"

MISSED = {
    "check a catalog": (
        "the catalog mode parses each file, applies every rule and keeps positions for its "
        "messages; check-jsonschema only validates the JSON against the schema."
    ),
}
"""What each missed target's floor is, and why (``python -m bench`` writes it to RESULTS.md)."""


def _server(index: int, shape: int) -> dict[str, object]:
    """One server's declaration in one of four shapes (one OS, three OSes, GPU, runtime file)."""
    app = f"studio{index}"
    linux: dict[str, object] = {
        "presence": "executable",
        "location": [f"/opt/{app}/bin/{app}", f"~/.local/bin/{app}"],
    }
    blocks: dict[str, object] = {"display_name": f"Studio {index}", "linux": linux}
    if shape >= 1:
        blocks["win32"] = {
            "presence": "executable",
            "location": [f"%ProgramFiles%/Vendor/{app}.exe", {"kind": "command", "name": app}],
            "version": {"kind": "pe_resource"},
        }
        blocks["darwin"] = {
            "presence": "bundle",
            "location": {"kind": "app_bundle", "name": f"Studio{index}.app"},
            "version": {"kind": "plist"},
        }
    if shape == 3:
        linux["liveness"] = {"kind": "server_json", "path": f"~/.config/{app}/server.json"}
    requires: dict[str, object] = {"app": True}
    if shape >= 1:
        requires["min_version"] = "4.2"
    if shape == 2:
        requires["gpu"] = "nvidia"
    return {"app": blocks, "requires": requires}


def write_catalog(folder: Path, count: int = MANIFESTS) -> list[Path]:
    """``count`` plugin folders, each with a ``plugin.json`` of one to three servers."""
    paths = []
    for index in range(count):
        servers = {
            f"studio{index}-{n}-mcp": _server(index, (index + n) % 4) for n in range(1 + index % 3)
        }
        manifest = {
            "schema": "plugin.v1",
            "extensions": {"com.nousresearch.hermes": {"servers": servers}},
        }
        plugin = folder / f"plugin-{index:04d}"
        plugin.mkdir()
        (plugin / "plugin.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        paths.append(plugin / "plugin.json")
    return paths


def _hermes_decl() -> list[str]:
    script = Path(sys.executable).with_name("hermes-decl")
    return [str(script)] if script.exists() else [sys.executable, "-m", "hermes_decl"]


def _check_jsonschema() -> list[str] | None:
    script = Path(sys.executable).with_name("check-jsonschema")
    found = str(script) if script.exists() else shutil.which("check-jsonschema")
    return [found] if found else None


def _cpu_seconds(command: list[str]) -> float:
    """The CPU seconds (user and system) the command's process spent: load on the machine
    slows a process's clock, not the work it does."""
    before = os.times()
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    after = os.times()
    elapsed = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed: {done.stdout[-500:]}{done.stderr[-500:]}")
    return elapsed


def _wall_seconds(command: list[str]) -> float:
    """The seconds the command took by the clock, as a person waiting for it sees them."""
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True, timeout=900)
    return time.perf_counter() - started


def measure(runs: int = RUNS) -> dict[str, float]:
    """Median seconds of the catalog mode, check-jsonschema, and the per-file loop (scaled), in
    CPU time; and of the catalog mode alone and over one worker a CPU, by the clock."""
    schema_checker = _check_jsonschema()
    if schema_checker is None:
        raise RuntimeError("check-jsonschema (a dev extra) is needed for the catalog benchmark")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        paths = write_catalog(folder)
        listing = folder / "catalog.txt"
        listing.write_text("".join(f"{path}\n" for path in paths), encoding="utf-8")
        commands = {
            "catalog": [*_hermes_decl(), "check", "--quiet", "--files-from", str(listing)],
            "check-jsonschema": [
                *schema_checker,
                "--schemafile",
                str(SCHEMA),
                *map(str, paths),
            ],
        }
        walled = {
            "wall, one process": commands["catalog"],
            "wall, one worker a CPU": [*commands["catalog"], "-j", "0"],
        }
        times: dict[str, list[float]] = {name: [] for name in [*commands, *walled]}
        per_file: list[float] = []
        compiled()
        for number in range(runs):
            order = list(commands) if number % 2 == 0 else list(reversed(commands))
            for name in order:
                times[name].append(_cpu_seconds(commands[name]))
            order = list(walled) if number % 2 == 0 else list(reversed(walled))
            for name in order:
                times[name].append(_wall_seconds(walled[name]))
        sample = paths[:: len(paths) // PER_FILE_SAMPLE][:PER_FILE_SAMPLE]
        for path in sample:
            per_file.append(_cpu_seconds([*_hermes_decl(), "check", "--quiet", str(path)]))
    median = {name: statistics.median(values) for name, values in times.items()}
    median["per-file"] = statistics.median(per_file) * len(paths)
    return median


def run() -> list[tuple[str, str, str, str]]:
    """Rows of (benchmark, measured, baseline or target, verdict)."""
    median = measure()
    ratio = median["catalog"] / median["check-jsonschema"]
    saved = median["per-file"] / median["catalog"]
    return [
        (
            f"check a catalog of {MANIFESTS:,} plugin manifests in one process "
            f"(--files-from) vs check-jsonschema on the same files (CPU time, median of {RUNS})",
            f"{median['catalog']:.2f} s vs {median['check-jsonschema']:.2f} s ({ratio:.2f}x)",
            f"target ≤ {TARGET}x",
            "met" if ratio <= TARGET else "MISSED",
        ),
        (
            f"the same catalog one hermes-decl process per file (median of {PER_FILE_SAMPLE} "
            "files, times the catalog) vs one process for all",
            f"{median['per-file']:.1f} s vs {median['catalog']:.2f} s ({saved:.0f}x)",
            "no target: what the catalog mode saves",
            "ratio",
        ),
        (
            f"the same catalog with -j 0, one worker process per CPU ({jobs_for(0)}), vs one "
            f"process (wall clock, median of {RUNS})",
            f"{median['wall, one worker a CPU']:.2f} s vs {median['wall, one process']:.2f} s "
            f"({median['wall, one worker a CPU'] / median['wall, one process']:.2f}x)",
            "no target: what spreading the catalog over the CPUs saves a person waiting",
            "ratio",
        ),
    ]


if __name__ == "__main__":
    for row in run():
        print(" | ".join(row))
