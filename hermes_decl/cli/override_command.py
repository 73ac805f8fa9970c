"""``hermes-decl override SERVER PATH [--os OS]``: its arguments and help; ``write_overrides``
does the work, imported only when the command runs."""

from __future__ import annotations

import argparse

from hermes_decl.cli.command import OS_FAMILIES, Command
from hermes_decl.cli.output import Output

OVERRIDES_ENV = "HERMES_DECL_OVERRIDES"
"""``hermes_decl.resolver.overrides.OVERRIDES_ENV``, named in help without importing it."""


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("server", metavar="SERVER", help="the configured server name")
    parser.add_argument(
        "path", metavar="PATH", help="where the application is (may use ~, $VAR, *)"
    )
    parser.add_argument(
        "--os", choices=OS_FAMILIES, help="the OS family the place is for (default: this one)"
    )


def _override(args: argparse.Namespace, out: Output, err: Output) -> int:
    from hermes_decl.cli.write_overrides import run_override

    return run_override(args, out.stream, err.stream)


OVERRIDE = Command(
    "override",
    "add a place where a server's application is, to the user's overrides file",
    "Add PATH first among SERVER's extra places for one OS, in the user's overrides file "
    f"(or the file {OVERRIDES_ENV} names). Overrides are tried before the declaration's "
    "own locations; PATH follows the rules of a declaration's location.",
    _add_arguments,
    _override,
    "exit status: 0 when the place was added or is already listed; 1 when the overrides "
    "file has problems, cannot be found or cannot be written; 2 for a usage error, such as "
    "a PATH that breaks the rules of a location.",
)
