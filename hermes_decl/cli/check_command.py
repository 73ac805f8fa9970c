"""``hermes-decl check FILE…``: validate declarations files, every problem at file:line:column."""

from __future__ import annotations

import argparse
from typing import Any

from hermes_decl.cli.command import EXIT_OK, Command, failure_status, issue_json, load
from hermes_decl.cli.output import Output


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="a YAML or JSON declarations file")
    parser.add_argument("--at", metavar="A.B", help="the dotted key of the declarations mapping")
    parser.add_argument("--json", action="store_true", help="print a machine-readable report")


def _check(args: argparse.Namespace, out: Output, err: Output) -> int:
    status = EXIT_OK
    report: list[dict[str, Any]] = []
    for path in args.files:
        declarations, error = load(path, args.at)
        if error is not None:
            status = max(status, failure_status(error))
        report.append(
            {
                "file": path,
                "valid": error is None,
                "servers": sorted(declarations),
                "issues": [issue_json(issue, path) for issue in (error.issues if error else ())],
            }
        )
        if args.json:
            continue
        if error is not None:
            out.error(error)
        else:
            names = ", ".join(sorted(declarations)) or "no servers"
            out.line(f"{out.style(path, 'place')}: {out.style('ok', 'good')} ({names})")
    if args.json:
        out.data({"valid": status == EXIT_OK, "files": report})
    return status


CHECK = Command(
    "check",
    "validate declaration files and print every problem with file:line:column",
    "Validate declaration files and print every problem with file:line:column.",
    _add_arguments,
    _check,
    "exit status: 0 when every file is valid; 1 when a file has problems; 2 for a usage "
    "error or input that cannot be read, such as a missing file.",
)
