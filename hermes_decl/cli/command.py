"""What every subcommand shares: its description as a ``Command``, the exit statuses, and the
steps that read declarations files and report their problems."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hermes_decl.cli.output import Output

if TYPE_CHECKING:
    from hermes_decl.errors import DeclarationError, Issue

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INVALID = 0, 1, 2, 3
OS_FAMILIES = ("win32", "darwin", "linux")
"""The ``--os`` choices: ``hermes_decl.models.OS_FAMILIES`` (a test keeps them equal)."""
UNREADABLE_CODES = frozenset({"unreadable_file", "not_a_regular_file", "symlink_outside_folder"})
"""Issue codes that mean the input could not be read at all: exit status 2, as usage errors."""

Run = Callable[[argparse.Namespace, Output, Output], int]


@dataclass(frozen=True)
class Command:
    """One subcommand: its name, one-line help, longer description, arguments and runner."""

    name: str
    help: str
    description: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Run
    exit_statuses: str
    """What each exit status means for this command, as ``--help`` ends."""


def end_of(issue: Issue) -> tuple[int | None, int | None]:
    """Where an issue's text ends: the loader knows where a token starts, not where it ends, so
    the end is one column past the start, on the same line (unknown when the start is)."""
    if issue.line is None or issue.column is None:
        return None, None
    return issue.line, issue.column + 1


def issue_json(issue: Issue, where: str) -> dict[str, Any]:
    """One problem as JSON data, named by the file it is in."""
    end_line, end_column = end_of(issue)
    return {
        "file": where,
        "line": issue.line,
        "column": issue.column,
        "end_line": end_line,
        "end_column": end_column,
        "loc": issue.loc,
        "code": issue.code,
        "severity": issue.severity,
        "message": issue.message,
        "hint": issue.hint,
    }


def failure_status(error: DeclarationError) -> int:
    """The exit status of input with problems: 2 when it could not be read at all, else 1."""
    unreadable = any(issue.code in UNREADABLE_CODES for issue in error.issues)
    return EXIT_USAGE if unreadable else EXIT_PROBLEMS


def add_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """``--at`` and ``--single``, which say what in each file ``check`` and ``explain`` read."""
    parser.add_argument("--at", metavar="A.B", help="the dotted key of the declarations mapping")
    parser.add_argument(
        "--single",
        action="store_true",
        help="each file holds one {app, requires} declaration, named by the file's stem",
    )
