"""Run every benchmark and print one Markdown table (``python -m bench``)."""

from __future__ import annotations

import sys

from bench import availability

SUITES = [availability]


def main() -> int:
    rows = [row for suite in SUITES for row in suite.run()]
    header = ("benchmark", "measured", "against", "verdict")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(4)]
    for index, row in enumerate([header, *rows]):
        print("| " + " | ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)) + " |")
        if index == 0:
            print("|" + "|".join("-" * (width + 2) for width in widths) + "|")
    return 0 if all(row[3] != "MISSED" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
