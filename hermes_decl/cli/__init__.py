"""``hermes-decl``: check declaration files, explain them on a machine, print the JSON Schema.

Every subcommand is one ``Command`` in its own module (``check_command``, ``explain_command``,
``schema_command``, ``override_command``, ``init_command``), listed once in ``COMMANDS``. Every
line a person reads is written through ``output``, which escapes it; ``check``, ``explain`` and
``schema`` style theirs through one ``Output``. The library is imported by the command that
needs it, so ``--help`` and ``check`` never import the resolver.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Iterable, Sequence
from typing import Any

from hermes_decl import __version__
from hermes_decl.cli.check_command import CHECK
from hermes_decl.cli.command import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_PROBLEMS,
    EXIT_USAGE,
    OS_FAMILIES,
    UNREADABLE_CODES,
    Command,
    Run,
)
from hermes_decl.cli.explain_command import EXPLAIN
from hermes_decl.cli.init_command import INIT
from hermes_decl.cli.output import Output, forgiving, say, use_color
from hermes_decl.cli.override_command import OVERRIDE, OVERRIDES_ENV
from hermes_decl.cli.schema_command import SCHEMA

__all__ = [
    "COMMANDS",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_PROBLEMS",
    "EXIT_STATUS_HELP",
    "EXIT_USAGE",
    "OS_FAMILIES",
    "OVERRIDES_ENV",
    "UNREADABLE_CODES",
    "Command",
    "Output",
    "Run",
    "main",
    "program",
    "use_color",
]

EXIT_STATUS_HELP = (
    "exit status: 0 when every file is valid (check), every server is offered (explain), the "
    "place was added (override) or the file was written (init); 1 when a file has problems, a "
    "server is not offered, the overrides file cannot be changed or init's file exists; 2 for a "
    "usage error or input that cannot be read, such as a missing file; 3 when explain is given "
    "an invalid file."
)

COMMANDS: tuple[Command, ...] = (CHECK, EXPLAIN, SCHEMA, OVERRIDE, INIT)
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


def _commands_for(arguments: Sequence[str]) -> tuple[Command, ...]:
    """The commands whose options the parser needs: only the one named first, when one is (its
    own parser reads every argument after its name), else all of them (for ``--help`` and the
    errors that list them)."""
    if arguments:
        named = tuple(command for command in COMMANDS if command.name == arguments[0])
        if named:
            return named
    return COMMANDS


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = _parser(_commands_for(arguments)).parse_args(arguments)
    out = Output(sys.stdout, color=use_color(sys.stdout, args.color))
    err = Output(sys.stderr, color=use_color(sys.stderr, args.color))
    try:
        status: int = args.run(args, out, err)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as command-line tools do.
        sys.stderr.close()
        return EXIT_PROBLEMS
    return status


YOUNG_OBJECTS_PER_COLLECTION = 50_000
"""The collector's first threshold while the program runs (CPython's default is 700)."""


def program() -> int:
    """The ``hermes-decl`` program: ``main`` on the command line's arguments, its exit status
    returned for the process to end with.

    While it runs, the cyclic collector looks at new objects once per
    ``YOUNG_OBJECTS_PER_COLLECTION`` of them: building pydantic's and the models' classes makes
    hundreds of thousands of objects that live as long as the process, and looking at them every
    700 cost about a tenth of a cold check. Before the process ends, every object it built is set
    aside from the collector (``gc.freeze``): the interpreter's exit would otherwise run it over
    all of them, most of the time a pydantic program takes to exit, to free what the process's
    end frees anyway. Garbage is still collected, output is flushed and ``atexit`` work runs.
    """
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *thresholds[1:])
    try:
        status = main()
    finally:
        gc.set_threshold(*thresholds)
    gc.freeze()
    return status
