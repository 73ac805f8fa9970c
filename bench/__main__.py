"""Run every benchmark, print one Markdown table and write it to bench/RESULTS.md.

``python -m bench`` exits 1 when a target is missed, so the table in RESULTS.md always says which;
below the table, RESULTS.md says for each missed target what its floor is and why (each suite's
``MISSED``, keyed by the start of its rows' names).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
from pathlib import Path

from bench import (
    availability,
    big_file,
    catalog,
    cold_check,
    gates,
    growth,
    imports,
    live_availability,
    matching,
    memory,
    parse,
    syscalls,
)

SUITES = [
    availability,
    parse,
    big_file,
    growth,
    imports,
    cold_check,
    matching,
    syscalls,
    live_availability,
    memory,
    gates,
    catalog,
]
"""Availability first: it allocates the most, and what other suites leave slows it."""
RESULTS = Path(__file__).with_name("RESULTS.md")

Row = tuple[str, str, str, str]


def table(rows: list[Row]) -> list[str]:
    """The rows as Markdown table lines, columns padded to line up."""
    header = ("benchmark", "measured", "against", "verdict")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
    lines = []
    for index, row in enumerate([header, *rows]):
        lines.append("| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) + " |")
        if index == 0:
            lines.append("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return lines


def machine() -> str:
    """One line naming when and where the table was measured."""
    today = datetime.date.today().isoformat()
    return (
        f"{today}, Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"
    )


def why_missed(rows: list[Row]) -> list[str]:
    """For each row whose target was missed, what its floor is and why, as Markdown lines."""
    notes: dict[str, str] = {}
    for suite in SUITES:
        notes.update(getattr(suite, "MISSED", {}))
    lines = []
    for name, _, _, verdict in rows:
        if verdict == "MISSED":
            note = next((note for start, note in notes.items() if name.startswith(start)), None)
            lines.append(f"- **{name}**: {note or 'no explanation recorded.'}")
    return ["", "## Targets missed", "", *lines] if lines else []


def main(argv: list[str] | None = None) -> int:
    """Run every suite (the command takes no arguments: ``--help`` says so, and anything else is
    refused before a benchmark starts or RESULTS.md is touched)."""
    argparse.ArgumentParser(
        prog="python -m bench",
        description="Run every benchmark, print one Markdown table and write it to "
        f"{RESULTS.parent.name}/{RESULTS.name}; exit 1 when a target is missed.",
    ).parse_args(argv)
    rows = [row for suite in SUITES for row in suite.run()]
    lines = table(rows)
    print("\n".join(lines))
    missed = [row[0] for row in rows if row[3] == "MISSED"]
    RESULTS.write_text(
        "# Benchmark results\n\n"
        f"Measured {machine()} with `python -m bench`.\n\n"
        + "\n".join([*lines, *why_missed(rows)])
        + "\n",
        encoding="utf-8",
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
