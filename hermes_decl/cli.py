"""``hermes-decl``: check declaration files, explain them on a machine, print the JSON Schema.

Every subcommand is one entry of ``COMMANDS``. Every line a person reads is escaped by
``_output.say``; ``check``, ``explain`` and ``schema`` write theirs through one ``Output``. The
library is imported by the command that needs it, so ``--help`` and ``check`` never import the
resolver.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, TextIO

from hermes_decl import __version__
from hermes_decl._output import forgiving, say

if TYPE_CHECKING:
    from hermes_decl.errors import DeclarationError, Issue
    from hermes_decl.hosts.protocol import Host
    from hermes_decl.models import Declaration, OsFamily
    from hermes_decl.resolver.availability import Availability
    from hermes_decl.resolver.overrides import UserOverrides
    from hermes_decl.resolver.status import Status

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
EXIT_STATUS_HELP = (
    "exit status: 0 when every file is valid (check), every server is offered (explain) or the "
    "place was added (override); 1 when a file has problems, a server is not offered or the "
    "overrides file cannot be changed; 2 for a usage error or input that cannot be read, such "
    "as a missing file."
)
OS_FAMILIES = ("win32", "darwin", "linux")
"""The ``--os`` choices: ``hermes_decl.models.OS_FAMILIES`` (a test keeps them equal)."""
UNREADABLE_CODES = frozenset({"unreadable_file", "not_a_regular_file"})
"""Issue codes that mean the input could not be read at all: exit status 2, as usage errors."""


# --- where human output goes -----------------------------------------------------------------

_STYLES = {"place": "1", "loc": "36", "hint": "32", "detail": "2", "bad": "31", "good": "32"}
_HINT = re.compile(r" \((?P<hint>[^()]*(?:did you mean|expected|write)[^()]*)\)$")
_MARK = "".join(chr(0xF0000 + secrets.randbelow(0xFFFE)) for _ in range(4))
"""Stands for the start of a colour sequence until a line is written: private-use characters
drawn afresh in every process, so no text from a declaration or a machine can forge one."""
_MARKED = re.compile(re.escape(_MARK) + r"([0-9]+)m")


def use_color(stream: TextIO, choice: str) -> bool:
    """Colour for ``--color=always``; for ``auto``, only on a terminal without ``NO_COLOR``."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Output:
    """One stream a person reads: every human line is written here, styled when colour is on.

    Every line has its control characters escaped (``_output``), so nothing read from a file or a
    machine can steer the terminal; only the colours this class adds reach it as sequences.
    """

    def __init__(self, stream: TextIO, *, color: bool) -> None:
        self.stream = forgiving(stream)
        self.color = color

    def style(self, text: str, role: str) -> str:
        """``text`` in the colour of ``role`` (place, loc, hint, detail, bad, good), if any."""
        if not (self.color and text):
            return text
        return f"{_MARK}{_STYLES[role]}m{text}{_MARK}0m"

    def line(self, text: str = "") -> None:
        """Write one line of human output, control characters escaped, colours kept."""
        say(self.stream, text, after_escaping=lambda safe: _MARKED.sub("\x1b[\\1m", safe))

    def issue(self, issue: Issue, where: str) -> None:
        """One problem: ``file:line:column: location: message``, place, key and hint styled."""
        place = where if issue.line is None else f"{where}:{issue.line}:{issue.column}"
        message = issue.message
        hint = _HINT.search(message)
        if hint is not None:
            message = message[: hint.start()] + " (" + self.style(hint["hint"], "hint") + ")"
        loc = f"{self.style(issue.loc, 'loc')}: " if issue.loc else ""
        self.line(f"{self.style(place, 'place')}: {loc}{message}")

    def error(self, error: DeclarationError) -> None:
        """Every problem of a ``DeclarationError``."""
        for issue in error.issues:
            self.issue(issue, error.where)

    def data(self, payload: object) -> None:
        """Machine-readable output: indented JSON, never styled."""
        import json  # only for --json: a plain check prints lines

        json.dump(payload, self.stream, indent=2)
        print(file=self.stream)


# --- shared steps ------------------------------------------------------------------------------


def _issue_json(issue: Issue, where: str) -> dict[str, Any]:
    return {
        "file": where,
        "line": issue.line,
        "column": issue.column,
        "loc": issue.loc,
        "code": issue.code,
        "message": issue.message,
    }


def _load(path: str, at: str | None) -> tuple[dict[str, Declaration], DeclarationError | None]:
    from hermes_decl.errors import DeclarationError
    from hermes_decl.loader import load_declarations_file

    try:
        return load_declarations_file(path, at=at), None
    except DeclarationError as error:
        return {}, error


def _failure_status(error: DeclarationError) -> int:
    unreadable = any(issue.code in UNREADABLE_CODES for issue in error.issues)
    return EXIT_USAGE if unreadable else EXIT_PROBLEMS


# --- check -------------------------------------------------------------------------------------


def _add_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="a YAML or JSON declarations file")
    parser.add_argument("--at", metavar="A.B", help="the dotted key of the declarations mapping")
    parser.add_argument("--json", action="store_true", help="print a machine-readable report")


def _check(args: argparse.Namespace, out: Output, err: Output) -> int:
    status = EXIT_OK
    report: list[dict[str, Any]] = []
    for path in args.files:
        declarations, error = _load(path, args.at)
        if error is not None:
            status = max(status, _failure_status(error))
        report.append(
            {
                "file": path,
                "valid": error is None,
                "servers": sorted(declarations),
                "issues": [_issue_json(issue, path) for issue in (error.issues if error else ())],
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


# --- explain -----------------------------------------------------------------------------------


def _add_explain(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="a YAML or JSON declarations file")
    parser.add_argument("--server", metavar="NAME", help="explain only this server")
    parser.add_argument(
        "--os", choices=OS_FAMILIES, help="evaluate as if on this OS family (default: the host's)"
    )
    parser.add_argument(
        "--host", metavar="SNAPSHOT", help="evaluate on the machine a host snapshot file describes"
    )
    parser.add_argument("--at", metavar="A.B", help="the dotted key of the declarations mapping")
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument(
        "--live",
        action="store_true",
        help="add the runtime status: the process check and the endpoint (never the token)",
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="with --live, send MCP initialize to the endpoint (3 seconds at most)",
    )


def _availability_json(server: str, path: str, result: Availability) -> dict[str, Any]:
    return {
        "file": path,
        "server": server,
        "state": result.state.value,
        "offerable": result.offerable,
        "sentence": result.sentence(),
        "display_name": result.display_name,
        "os_family": result.os_family,
        "os_version": result.os_version,
        "min_os_version": result.min_os_version,
        "gpu": result.gpu.value if result.gpu is not None else None,
        "machine": result.machine,
        "arch": list(result.arch) if result.arch is not None else None,
        "install": result.install.model_dump() if result.install is not None else None,
        "version": result.version,
        "min_version": result.min_version,
        "path": result.path,
        "overrides_file": result.overrides_file,
        "trace": [asdict(candidate) for candidate in result.trace],
    }


def _print_explanation(server: str, path: str, result: Availability, out: Output) -> None:
    from hermes_decl.trace_text import trace_lines

    offered = out.style("offered", "good") if result.offerable else out.style("not offered", "bad")
    out.line(f"{out.style(path, 'place')}: {out.style(server, 'loc')}")
    out.line(f"  state:    {result.state.value} ({offered})")
    out.line(f"  sentence: {result.sentence()}")
    if result.os_family is not None:
        out.line(f"  os:       {result.os_family}{_os_version_text(result)}")
    elif result.state.value == "unsupported_os":
        out.line("  os:       none of win32, darwin and linux")
    if result.gpu is not None:
        out.line(f"  gpu:      {result.gpu.value}")
    if result.arch is not None and result.machine is not None:
        needs = " or ".join(result.arch)
        out.line(f"  machine:  {result.machine} (needs {needs})")
    if result.version is not None or result.state.value == "version_too_old":
        minimum = f" (minimum {result.min_version})" if result.min_version else ""
        out.line(f"  version:  {result.version or 'unreadable'}{minimum}")
    if result.path is not None:
        out.line(f"  path:     {result.path}")
    if result.overrides_file is not None:
        out.line(f"  overrides: {result.overrides_file} (tried first)")
    if result.trace:
        out.line("  looked at:")
    for line in trace_lines(result.trace):
        out.line(f"    {line}")


def _os_version_text(result: Availability) -> str:
    """`` 12.7 (minimum 13.0)`` when the OS block sets a minimum OS version, else nothing."""
    if result.min_os_version is None:
        return ""
    return f" {result.os_version or 'version unknown'} (minimum {result.min_os_version})"


def _explain_overrides(host: Host | None, os_family: OsFamily | None) -> UserOverrides | None:
    """The user overrides explain applies, so that an invalid file can be shown.

    explain prints an invalid file's problems itself; the library's warning about it goes to the
    ``hermes_decl`` logger, which the command line leaves unconfigured (its ``NullHandler``).
    """
    from hermes_decl.hosts.default import default_host
    from hermes_decl.resolver.overrides import user_overrides

    live = host if host is not None else default_host()
    family = os_family or live.os_family
    return user_overrides(live, family) if family is not None else None


def _overrides_json(overrides: UserOverrides | None) -> dict[str, Any] | None:
    if overrides is None:
        return None
    error = overrides.error
    issues = [_issue_json(issue, error.where) for issue in error.issues] if error else []
    return {"file": overrides.path, "valid": error is None, "issues": issues}


def _explain(args: argparse.Namespace, out: Output, err: Output) -> int:
    from hermes_decl.errors import DeclarationError
    from hermes_decl.hosts.snapshot import load_snapshot_file
    from hermes_decl.resolver.availability import availability

    loaded: list[tuple[str, dict[str, Declaration]]] = []
    failures: list[DeclarationError] = []
    for path in args.files:
        declarations, error = _load(path, args.at)
        if error is not None:
            failures.append(error)
        loaded.append((path, declarations))
    if failures:
        if args.json:
            issues = [_issue_json(i, error.where) for error in failures for i in error.issues]
            out.data({"valid": False, "issues": issues})
        for error in failures if not args.json else ():
            err.error(error)
        return max(_failure_status(error) for error in failures)
    if args.server is not None and not any(args.server in found for _, found in loaded):
        known = ", ".join(sorted({name for _, found in loaded for name in found})) or "none"
        err.line(f"{' '.join(args.files)}: no server {args.server!r} (servers: {known})")
        return EXIT_USAGE
    if args.probe and args.host is not None:
        err.line("--probe contacts this machine; it cannot be used with --host")
        return EXIT_USAGE
    if (args.live or args.probe) and args.os is not None:
        err.line("--live evaluates this machine as it is; it cannot be used with --os")
        return EXIT_USAGE
    try:
        host = load_snapshot_file(args.host) if args.host is not None else None
    except DeclarationError as snapshot_error:
        err.error(snapshot_error)
        return _failure_status(snapshot_error)
    overrides = _explain_overrides(host, args.os)
    chosen = [
        (path, name, decl)
        for path, found in loaded
        for name, decl in sorted(found.items())
        if args.server in (None, name)
    ]
    results = [
        (path, name, availability(decl, host=host, os_family=args.os))
        for path, name, decl in chosen
    ]
    live: list[Status | None] = [None] * len(chosen)
    if args.live or args.probe:
        from hermes_decl.cli_live import live_json, live_status, print_live

        live = [live_status(decl, host, args.probe) for _, _, decl in chosen]
    if args.json:
        payload = [_availability_json(name, path, result) for path, name, result in results]
        for entry, status in zip(payload, live, strict=True):
            entry["overrides"] = _overrides_json(overrides)
            if status is not None:
                entry["live"] = live_json(status)
        out.data(payload)
    else:
        if overrides is not None and overrides.error is not None:
            out.line(f"{overrides.path}: ignored, the overrides file is invalid:")
            out.error(overrides.error)
            out.line()
        for index, ((path, name, result), status) in enumerate(zip(results, live, strict=True)):
            if index:
                out.line()
            _print_explanation(name, path, result, out)
            if status is not None:
                print_live(status, out.stream)
    return EXIT_OK if all(result.offerable for _, _, result in results) else EXIT_PROBLEMS


# --- schema ------------------------------------------------------------------------------------


def _add_schema(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--draft",
        choices=("2020-12", "07", "draft-07"),
        default="2020-12",
        help="the JSON Schema dialect (default 2020-12; 07 for draft-07 editors)",
    )
    parser.add_argument(
        "--single", action="store_true", help="the schema of one {app, requires} declaration"
    )
    parser.add_argument(
        "--path",
        action="store_true",
        help="print where the installed schema file is, for an editor setting, not its text",
    )


def _schema(args: argparse.Namespace, out: Output, err: Output) -> int:
    from hermes_decl.schema_files import schema_path

    path = schema_path(
        "draft-07" if args.draft in ("07", "draft-07") else "2020-12", single=args.single
    )
    if args.path:
        out.line(str(path))
    else:
        out.stream.write(path.read_text(encoding="utf-8"))
    return EXIT_OK


# --- override ----------------------------------------------------------------------------------

OVERRIDES_ENV = "HERMES_DECL_OVERRIDES"
"""``hermes_decl.resolver.overrides.OVERRIDES_ENV``, named in help without importing it."""


def _add_override(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("server", metavar="SERVER", help="the configured server name")
    parser.add_argument(
        "path", metavar="PATH", help="where the application is (may use ~, $VAR, *)"
    )
    parser.add_argument(
        "--os", choices=OS_FAMILIES, help="the OS family the place is for (default: this one)"
    )


def _override(args: argparse.Namespace, out: Output, err: Output) -> int:
    from hermes_decl.cli_override import run_override

    return run_override(args, out.stream)


# --- the command line --------------------------------------------------------------------------

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


COMMANDS: tuple[Command, ...] = (
    Command(
        "check",
        "validate declaration files and print every problem with file:line:column",
        "Validate declaration files and print every problem with file:line:column.",
        _add_check,
        _check,
        "exit status: 0 when every file is valid; 1 when a file has problems; 2 for a usage "
        "error or input that cannot be read, such as a missing file.",
    ),
    Command(
        "explain",
        "evaluate each server on this machine (or a host snapshot) and say why",
        "Evaluate declarations: the state, the sentence and every place looked at.",
        _add_explain,
        _explain,
        "exit status: 0 when every file is valid and every server is offered; 1 when a file "
        "has problems or a server is not offered; 2 for a usage error or input that cannot be "
        "read, such as a missing file or snapshot.",
    ),
    Command(
        "schema",
        "print the JSON Schema of declarations files (or where it is installed)",
        "Print the JSON Schema, for editors and validators.",
        _add_schema,
        _schema,
        "exit status: 0 when the schema (or its path) was printed; 2 for a usage error.",
    ),
    Command(
        "override",
        "add a place where a server's application is, to the user's overrides file",
        "Add PATH first among SERVER's extra places for one OS, in the user's overrides file "
        f"(or the file {OVERRIDES_ENV} names). Overrides are tried before the declaration's "
        "own locations; PATH follows the rules of a declaration's location.",
        _add_override,
        _override,
        "exit status: 0 when the place was added or is already listed; 1 when the overrides "
        "file has problems, cannot be found or cannot be written; 2 for a usage error, such as "
        "a PATH that breaks the rules of a location.",
    ),
)
"""Every subcommand, in the order ``--help`` lists them; a new command is one more entry."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors say what to type instead, and exit with 2.

    An error may quote an argument it could not use, and arguments can be file names a hook
    passes from a repository: the message is escaped like every other human line.
    """

    def error(self, message: str) -> Any:
        self.print_usage(sys.stderr)
        stderr = forgiving(sys.stderr)
        say(stderr, f"{self.prog}: error: {message}")
        say(stderr, f"Try '{self.prog} --help'.")
        self.exit(EXIT_USAGE)


def _parser(commands: Iterable[Command] = COMMANDS) -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour the output: auto (on a terminal, unless NO_COLOR is set), always or never",
    )
    parser = _Parser(
        prog="hermes-decl",
        description="Check, explain and describe hermes_decl application declarations.",
        epilog=f"Run 'hermes-decl COMMAND --help' for a command's options. {EXIT_STATUS_HELP}",
    )
    parser.add_argument("--version", action="version", version=f"hermes-decl {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for command in commands:
        sub = subparsers.add_parser(
            command.name,
            help=command.help,
            description=command.description,
            epilog=command.exit_statuses,
            parents=[common],
        )
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    out = Output(sys.stdout, color=use_color(sys.stdout, args.color))
    err = Output(sys.stderr, color=use_color(sys.stderr, args.color))
    try:
        status: int = args.run(args, out, err)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as command-line tools do.
        sys.stderr.close()
        return EXIT_PROBLEMS
    return status


if __name__ == "__main__":
    sys.exit(main())
