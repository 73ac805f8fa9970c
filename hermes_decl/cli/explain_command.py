"""``hermes-decl explain FILE…``: evaluate each server on this machine or a host snapshot, and
say the state, the sentence and every place looked at (with ``--live``, the runtime status)."""

from __future__ import annotations

import argparse
from dataclasses import asdict, fields, is_dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from hermes_decl.cli.command import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    OS_FAMILIES,
    UNREADABLE_CODES,
    Command,
    add_selection_arguments,
    issue_json,
)
from hermes_decl.cli.inputs import StandardInput, load
from hermes_decl.cli.output import Output

if TYPE_CHECKING:
    from hermes_decl.errors import DeclarationError
    from hermes_decl.hosts.protocol import Host
    from hermes_decl.models import Declaration, OsFamily
    from hermes_decl.resolver.availability import Availability
    from hermes_decl.resolver.overrides import UserOverrides
    from hermes_decl.runtime.status import Status


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="a YAML or JSON declarations file")
    parser.add_argument("--server", metavar="NAME", help="explain only this server")
    parser.add_argument(
        "--os", choices=OS_FAMILIES, help="evaluate as if on this OS family (default: the host's)"
    )
    parser.add_argument(
        "--host", metavar="SNAPSHOT", help="evaluate on the machine a host snapshot file describes"
    )
    add_selection_arguments(parser)
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


_JSON_ORDER = (
    "display_name",
    "os_family",
    "os_version",
    "min_os_version",
    "gpu",
    "machine",
    "arch",
    "install",
    "version",
    "min_version",
    "version_checked",
    "path",
    "overrides_file",
    "trace",
    "untraced",
)
"""The order of an ``Availability``'s fields in ``--json``, close to the explanation's; a field not
named here comes after them, in the order the class declares it."""
_NOT_IN_JSON = frozenset({"state", "name"})
"""Fields ``--json`` writes itself: the state before ``offerable``, the name as ``server``."""


def _json_value(value: object) -> object:
    """A field's value as JSON data: an enum's value, a model's or dataclass's fields, a list."""
    from pydantic import BaseModel

    if isinstance(value, Enum):
        return value.value
    if isinstance(value, BaseModel):
        return value.model_dump()
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    return value


def _availability_json(server: str, path: str, result: Availability) -> dict[str, Any]:
    names = [field.name for field in fields(result) if field.name not in _NOT_IN_JSON]
    names.sort(key=lambda name: _JSON_ORDER.index(name) if name in _JSON_ORDER else len(names))
    return {
        "file": path,
        "server": server,
        "state": result.state.value,
        "offerable": result.offerable,
        "sentence": result.sentence(),
        **{name: _json_value(getattr(result, name)) for name in names},
    }


def _print_explanation(server: str, path: str, result: Availability, out: Output) -> None:
    from hermes_decl.cli.trace_text import trace_lines

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
    elif result.min_version and result.state.value == "available" and not result.version_checked:
        out.line(f"  version:  not checked on {result.os_family} (it has no version source)")
    if result.path is not None:
        out.line(f"  path:     {result.path}")
    if result.overrides_file is not None:
        out.line(f"  overrides: {result.overrides_file} (tried first)")
    if result.trace:
        out.line("  looked at:")
    for line in trace_lines(result.trace):
        out.line(f"    {line}")
    if result.untraced:
        out.line(f"    and {result.untraced:,} more places, left out of the trace")


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
    issues = [issue_json(issue, error.where) for issue in error.issues] if error else []
    return {"file": overrides.path, "valid": error is None, "issues": issues}


def _input_status(errors: list[DeclarationError]) -> int:
    """2 when some input could not be read at all (a missing file), else 3: a file is invalid."""
    unreadable = any(i.code in UNREADABLE_CODES for error in errors for i in error.issues)
    return EXIT_USAGE if unreadable else EXIT_INVALID


def _explain(args: argparse.Namespace, out: Output, err: Output) -> int:
    from hermes_decl.errors import DeclarationError
    from hermes_decl.hosts.snapshot import load_snapshot_file
    from hermes_decl.resolver.availability import availability_of_all

    loaded: list[tuple[str, dict[str, Declaration]]] = []
    failures: list[DeclarationError] = []
    stdin = StandardInput()
    for path in args.files:
        declarations, error = load(path, at=args.at, single=args.single, stdin=stdin)
        if error is not None:
            failures.append(error)
        loaded.append((path, declarations))
    if failures:
        if args.json:
            issues = [issue_json(i, error.where) for error in failures for i in error.issues]
            out.data({"valid": False, "issues": issues})
        for error in failures if not args.json else ():
            err.error(error)
        return _input_status(failures)
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
        return EXIT_USAGE
    overrides = _explain_overrides(host, args.os)
    chosen = [
        (path, name, decl)
        for path, found in loaded
        for name, decl in sorted(found.items())
        if args.server in (None, name)
    ]
    verdicts = availability_of_all((decl for _, _, decl in chosen), host=host, os_family=args.os)
    results = [
        (path, name, verdict) for (path, name, _), verdict in zip(chosen, verdicts, strict=True)
    ]
    live: list[Status | None] = [None] * len(chosen)
    if args.live or args.probe:
        from hermes_decl.cli.live_status import live_json, print_live
        from hermes_decl.runtime.status import status

        live = [status(decl, host=host, probe=args.probe) for _, _, decl in chosen]
    if args.json:
        payload = [_availability_json(name, path, result) for path, name, result in results]
        for entry, runtime in zip(payload, live, strict=True):
            entry["overrides"] = _overrides_json(overrides)
            if runtime is not None:
                entry["live"] = live_json(runtime)
        out.data(payload)
    else:
        if overrides is not None and overrides.error is not None:
            out.line(f"{overrides.path}: ignored, the overrides file is invalid:")
            out.error(overrides.error)
            out.line()
        for index, ((path, name, result), runtime) in enumerate(zip(results, live, strict=True)):
            if index:
                out.line()
            _print_explanation(name, path, result, out)
            if runtime is not None:
                print_live(runtime, out)
    return EXIT_OK if all(result.offerable for _, _, result in results) else EXIT_PROBLEMS


EXPLAIN = Command(
    "explain",
    "evaluate each server on this machine (or a host snapshot) and say why",
    "Evaluate declarations: the state, the sentence and every place looked at.",
    _add_arguments,
    _explain,
    "exit status: 0 when every server is offered; 1 when a server is not offered; 2 for a "
    "usage error or input that cannot be read, such as a missing file or a bad snapshot; 3 "
    "when a file is invalid (has a declaration error).",
)
