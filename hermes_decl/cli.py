"""``hermes-decl``: check declaration files, explain them on a machine, print the JSON Schema.

``check`` validates and prints every problem as ``file:line:column: location: message``;
``explain`` evaluates each server on this machine (or on a host snapshot) and shows the state,
the sentence and every place looked at; ``schema`` prints the JSON Schema for editors;
``override`` adds a place to the user's overrides file.
Exit status: 0 on success, 1 when a file has problems, 2 for a usage error.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, TextIO

from hermes_decl._output import forgiving, say, say_problems
from hermes_decl.cli_override import add_override_command
from hermes_decl.errors import DeclarationError, Issue
from hermes_decl.loader import load_declarations_file
from hermes_decl.models import OS_FAMILIES, Declaration, OsFamily
from hermes_decl.resolver.availability import Availability, AvailabilityState, availability
from hermes_decl.resolver.host import Host
from hermes_decl.resolver.live_host import default_host
from hermes_decl.resolver.overrides import UserOverrides, user_overrides
from hermes_decl.resolver.overrides import logger as overrides_logger
from hermes_decl.trace_text import trace_lines

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors say what to type instead, and exit with 2."""

    def error(self, message: str) -> Any:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\nTry '{self.prog} --help'.\n")


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
    try:
        return load_declarations_file(path, at=at), None
    except DeclarationError as error:
        return {}, error


def _check(args: argparse.Namespace, out: TextIO) -> int:
    status = EXIT_OK
    report: list[dict[str, Any]] = []
    for path in args.files:
        declarations, error = _load(path, args.at)
        issues = error.issues if error is not None else ()
        if error is not None:
            status = EXIT_PROBLEMS
        report.append(
            {
                "file": path,
                "valid": error is None,
                "servers": sorted(declarations),
                "issues": [_issue_json(issue, path) for issue in issues],
            }
        )
        if not args.json:
            if error is not None:
                say_problems(out, error)
            else:
                names = ", ".join(sorted(declarations)) or "no servers"
                say(out, f"{path}: ok ({names})")
    if args.json:
        json.dump({"valid": status == EXIT_OK, "files": report}, out, indent=2)
        print(file=out)
    return status


def _host(args: argparse.Namespace) -> Host | None:
    if args.host is None:
        return None
    from hermes_decl.snapshot import load_snapshot_file

    return load_snapshot_file(args.host)


def _overrides_json(overrides: UserOverrides | None) -> dict[str, Any] | None:
    if overrides is None:
        return None
    error = overrides.error
    issues = [_issue_json(issue, error.where) for issue in error.issues] if error else []
    return {"file": overrides.path, "valid": error is None, "issues": issues}


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


def _print_explanation(server: str, path: str, result: Availability, out: TextIO) -> None:
    offered = "offered" if result.offerable else "not offered"
    say(out, f"{path}: {server}")
    say(out, f"  state:    {result.state.value} ({offered})")
    say(out, f"  sentence: {result.sentence()}")
    if result.os_family is not None:
        say(out, f"  os:       {result.os_family}{_os_version_text(result)}")
    elif result.state is AvailabilityState.UNSUPPORTED_OS:
        say(out, "  os:       none of win32, darwin and linux")
    if result.gpu is not None:
        say(out, f"  gpu:      {result.gpu.value}")
    if result.arch is not None and result.machine is not None:
        needs = " or ".join(result.arch)
        say(out, f"  machine:  {result.machine} (needs {needs})")
    if result.version is not None or result.state.value == "version_too_old":
        minimum = f" (minimum {result.min_version})" if result.min_version else ""
        say(out, f"  version:  {result.version or 'unreadable'}{minimum}")
    if result.path is not None:
        say(out, f"  path:     {result.path}")
    if result.overrides_file is not None:
        say(out, f"  overrides: {result.overrides_file} (tried first)")
    if result.trace:
        say(out, "  looked at:")
    for line in trace_lines(result.trace):
        say(out, f"    {line}")


def _os_version_text(result: Availability) -> str:
    """`` 12.7 (minimum 13.0)`` when the OS block sets a minimum OS version, else nothing."""
    if result.min_os_version is None:
        return ""
    return f" {result.os_version or 'version unknown'} (minimum {result.min_os_version})"


def _explain_overrides(host: Host | None, os_family: OsFamily | None) -> UserOverrides | None:
    """The user overrides explain applies, so that an invalid file can be shown.

    explain prints an invalid file's problems itself, so the library's one-time warning about it
    is not also printed on stderr.
    """
    if not overrides_logger.handlers:
        overrides_logger.addHandler(logging.NullHandler())
    live = host if host is not None else default_host()
    family = os_family or live.os_family
    return user_overrides(live, family) if family is not None else None


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    declarations, error = _load(args.file, args.at)
    if error is not None:
        if args.json:
            issues = [_issue_json(issue, args.file) for issue in error.issues]
            json.dump({"valid": False, "issues": issues}, out, indent=2)
            print(file=out)
        else:
            say_problems(sys.stderr, error)
        return EXIT_PROBLEMS
    if args.server is not None and args.server not in declarations:
        known = ", ".join(sorted(declarations)) or "none"
        say(sys.stderr, f"{args.file}: no server {args.server!r} (servers: {known})")
        return EXIT_USAGE
    if args.probe and args.host is not None:
        say(sys.stderr, "--probe contacts this machine; it cannot be used with --host")
        return EXIT_USAGE
    if (args.live or args.probe) and args.os is not None:
        say(sys.stderr, "--live evaluates this machine as it is; it cannot be used with --os")
        return EXIT_USAGE
    try:
        host = _host(args)
    except DeclarationError as snapshot_error:
        say_problems(sys.stderr, snapshot_error)
        return EXIT_PROBLEMS
    os_family: OsFamily | None = args.os
    overrides = _explain_overrides(host, os_family)
    results = [
        (name, availability(decl, host=host, os_family=os_family))
        for name, decl in sorted(declarations.items())
        if args.server in (None, name)
    ]
    live = {}
    if args.live or args.probe:
        from hermes_decl.cli_live import live_json, live_status, print_live

        live = {name: live_status(declarations[name], host, args.probe) for name, _ in results}
    if args.json:
        payload = [_availability_json(name, args.file, result) for name, result in results]
        for entry in payload:
            entry["overrides"] = _overrides_json(overrides)
            if live:
                entry["live"] = live_json(live[entry["server"]])
        json.dump(payload, out, indent=2)
        print(file=out)
    else:
        if overrides is not None and overrides.error is not None:
            say(out, f"{overrides.path}: ignored, the overrides file is invalid:")
            say_problems(out, overrides.error)
            say(out)
        for index, (name, result) in enumerate(results):
            if index:
                say(out)
            _print_explanation(name, args.file, result, out)
            if live:
                print_live(live[name], out)
    return EXIT_OK


def _schema(args: argparse.Namespace, out: TextIO) -> int:
    from hermes_decl.schema import schema_text

    draft_07 = args.draft in ("07", "draft-07")
    out.write(schema_text("draft-07" if draft_07 else "2020-12", single=args.single))
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hermes-decl",
        description="Check, explain and describe hermes_decl application declarations.",
        epilog="Run 'hermes-decl COMMAND --help' for a command's options.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    check = commands.add_parser(
        "check",
        help="validate declaration files and print every problem with file:line:column",
        description="Validate declaration files; exit 1 if any has a problem.",
    )
    check.add_argument("files", nargs="+", metavar="FILE", help="a YAML or JSON declarations file")
    check.add_argument("--at", metavar="A.B", help="the dotted key of the declarations mapping")
    check.add_argument("--json", action="store_true", help="print a machine-readable report")
    check.set_defaults(run=_check)

    explain = commands.add_parser(
        "explain",
        help="evaluate each server on this machine (or a host snapshot) and say why",
        description="Evaluate declarations: the state, the sentence and every place looked at.",
    )
    explain.add_argument("file", metavar="FILE", help="a YAML or JSON declarations file")
    explain.add_argument("--server", metavar="NAME", help="explain only this server")
    explain.add_argument(
        "--os", choices=OS_FAMILIES, help="evaluate as if on this OS family (default: the host's)"
    )
    explain.add_argument(
        "--host", metavar="SNAPSHOT", help="evaluate on the machine a host snapshot file describes"
    )
    explain.add_argument("--at", metavar="A.B", help="the dotted key of the declarations mapping")
    explain.add_argument("--json", action="store_true", help="print machine-readable results")
    explain.add_argument(
        "--live",
        action="store_true",
        help="add the runtime status: the process check and the endpoint (never the token)",
    )
    explain.add_argument(
        "--probe",
        action="store_true",
        help="with --live, send MCP initialize to the endpoint (3 seconds at most)",
    )
    explain.set_defaults(run=_explain)

    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of declarations files",
        description="Print the JSON Schema, for editors and validators.",
    )
    schema.add_argument(
        "--draft",
        choices=("2020-12", "07", "draft-07"),
        default="2020-12",
        help="the JSON Schema dialect (default 2020-12; 07 for draft-07 editors)",
    )
    schema.add_argument(
        "--single", action="store_true", help="the schema of one {app, requires} declaration"
    )
    schema.set_defaults(run=_schema)

    add_override_command(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _parser().parse_args(argv)
    forgiving(sys.stderr)
    try:
        status: int = args.run(args, forgiving(sys.stdout))
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as command-line tools do.
        sys.stderr.close()
        return EXIT_PROBLEMS
    return status


if __name__ == "__main__":
    sys.exit(main())
