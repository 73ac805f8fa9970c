"""``hermes-decl check FILE…``: validate declarations files, every problem at file:line:column.

Every file is checked in one command: folders (their declarations files, recursively), ``-``
(standard input) and ``--files-from`` lists make a catalog of any size one run, in this process
or, with ``-j N``, spread over N worker processes (``check_sources``).
"""

from __future__ import annotations

import argparse
from typing import Any

from hermes_decl.cli.check_sources import WorkerStopped, checked_in_order, jobs_for
from hermes_decl.cli.ci_formats import Problem
from hermes_decl.cli.command import EXIT_OK, EXIT_USAGE, Command, add_selection_arguments
from hermes_decl.cli.inputs import (
    DECLARATIONS_FILES,
    SINGLE_DECLARATION_FILES,
    STDIN,
    StandardInput,
    expand,
)
from hermes_decl.cli.output import Output

FORMATS = ("human", "json", "github", "sarif")


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="a YAML or JSON declarations file, a folder of them, or - for standard input",
    )
    parser.add_argument(
        "--files-from",
        metavar="LIST",
        help="also check the files listed in LIST, one path a line (- reads the list from stdin)",
    )
    add_selection_arguments(parser)
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="human",
        help="human lines (default), json, github (workflow annotations) or sarif (2.1.0)",
    )
    parser.add_argument(
        "--json",
        action="store_const",
        const="json",
        dest="format",
        help="the same as --format json",
    )
    parser.add_argument(
        "--follow-symlinks",
        action="store_true",
        help="read a FILE that is a symbolic link to a file outside its folder (by default such "
        "a link is refused unread)",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print only problems, no line per valid file"
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on warnings too (a valid but doubtful declaration)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_job_count,
        default=1,
        metavar="N",
        help="check the files in N worker processes (0: one per CPU); the output is the same, "
        "in the same order (default 1: this process alone)",
    )


def _job_count(text: str) -> int:
    """``-j``'s value: a whole number of worker processes, 0 for one per CPU."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if count < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU) or more: {count}")
    return count


def _sources(args: argparse.Namespace, stdin: StandardInput, err: Output) -> list[str] | None:
    """Every source to check, in order, or None (said on ``err``) when they cannot be listed."""
    sources = list(args.files)
    if args.files_from is not None:
        if args.files_from == STDIN:
            if STDIN in sources:
                err.line("- cannot be both a file to check and the list of files (--files-from -)")
                return None
            sources.extend(stdin.lines())
        else:
            try:
                with open(args.files_from, encoding="utf-8", errors="surrogateescape") as listing:
                    sources.extend(line.rstrip("\r\n") for line in listing if line.strip())
            except OSError as error:
                err.line(f"{args.files_from}: cannot be read ({error.strerror or error})")
                return None
    if not sources:
        err.line(
            "hermes-decl check: error: the following arguments are required: FILE "
            "(a file, a folder or -), or --files-from LIST"
        )
        err.line("Try 'hermes-decl check --help'.")
        return None
    pattern = SINGLE_DECLARATION_FILES if args.single else DECLARATIONS_FILES
    return list(expand(sources, pattern))


def _check(args: argparse.Namespace, out: Output, err: Output) -> int:
    stdin = StandardInput()
    sources = _sources(args, stdin, err)
    if sources is None:
        return EXIT_USAGE
    status = EXIT_OK
    report: list[dict[str, Any]] = []
    problems: list[Problem] = []
    try:
        for checked, entry, found in checked_in_order(
            sources, args, stdin, out, jobs=jobs_for(args.jobs)
        ):
            status = max(status, checked)
            report.append(entry)
            problems.extend(found)
    except WorkerStopped:
        err.line("hermes-decl check: a worker process stopped before it finished (run without -j)")
        return EXIT_USAGE
    if args.format == "json":
        out.data({"valid": status == EXIT_OK, "files": report})
    elif args.format == "sarif":
        from hermes_decl.cli.ci_formats import sarif_log

        out.data(sarif_log(problems))
    elif args.format == "github":
        from hermes_decl.cli.ci_formats import github_annotation

        for where, issue in problems:
            out.machine_line(github_annotation(where, issue))
    return status


CHECK = Command(
    "check",
    "validate declaration files and print every problem with file:line:column",
    "Validate declaration files and print every problem with file:line:column. A folder is "
    "searched for declarations files (hermes*.yaml, *declarations.yaml, plugin.yaml and their "
    ".yml and .json twins; plugin-app.* with --single); plugin.json and plugin.yaml are read as "
    "plugin manifests.",
    _add_arguments,
    _check,
    "exit status: 0 when every file is valid (warnings included, unless --strict); 1 when a "
    "file has problems, or warnings with --strict; 2 for a usage error, input that cannot be "
    "read (such as a missing file), or a -j worker process that stopped before it finished.",
)
