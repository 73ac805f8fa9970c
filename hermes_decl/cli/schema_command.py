"""``hermes-decl schema``: print the JSON Schema of declarations files, or where it is installed."""

from __future__ import annotations

import argparse
from typing import TextIO

from hermes_decl.cli.command import EXIT_OK, Command
from hermes_decl.cli.output import Output


def _add_arguments(parser: argparse.ArgumentParser) -> None:
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
    from hermes_decl.schema.files import schema_path

    path = schema_path(
        "draft-07" if args.draft in ("07", "draft-07") else "2020-12", single=args.single
    )
    if args.path:
        out.line(str(path))
    else:
        _write_utf8(out.stream, path.read_bytes())
    return EXIT_OK


def _write_utf8(stream: TextIO, data: bytes) -> None:
    """The file's own UTF-8 bytes, whatever the stream's encoding: JSON is UTF-8, and a console
    encoding (cp1252 on Windows) would otherwise escape the characters it cannot carry."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(data.decode("utf-8"))
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()


SCHEMA = Command(
    "schema",
    "print the JSON Schema of declarations files (or where it is installed)",
    "Print the JSON Schema, for editors and validators.",
    _add_arguments,
    _schema,
    "exit status: 0 when the schema (or its path) was printed; 2 for a usage error.",
)
