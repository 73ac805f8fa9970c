"""The committed schema files: their text, writing them, checking them, and the command line of
``python -m hermes_decl.schema``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from hermes_decl.schema.declaration_schema import json_schema
from hermes_decl.schema.files import DIALECTS, SCHEMA_FILES, Dialect

REGENERATE = "python -m hermes_decl.schema --write hermes_decl/schemas --write schema"
"""The command that rewrites the committed copies: the package's, and the repository's."""


def schema_text(dialect: Dialect = "2020-12", *, single: bool = False) -> str:
    """The schema as committed: two-space indented JSON in a stable key order, newline-ended."""
    schema = json_schema(dialect, single=single)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write_schemas(directory: Path) -> list[Path]:
    """Write every file of ``SCHEMA_FILES`` into ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, dialect, single in SCHEMA_FILES:
        path = directory / name
        path.write_text(schema_text(dialect, single=single), encoding="utf-8", newline="\n")
        written.append(path)
    return written


def stale_schemas(directory: Path) -> list[str]:
    """The names of ``SCHEMA_FILES`` that are missing from ``directory`` or differ from now."""
    stale: list[str] = []
    for name, dialect, single in SCHEMA_FILES:
        path = directory / name
        current = path.read_bytes().decode("utf-8") if path.is_file() else None
        if current != schema_text(dialect, single=single):
            stale.append(name)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Print one schema, or write or check the committed copies; 1 when a copy is stale."""
    parser = argparse.ArgumentParser(prog="python -m hermes_decl.schema", description=__doc__)
    parser.add_argument("--dialect", choices=DIALECTS, default="2020-12")
    parser.add_argument("--single", action="store_true", help="one {app, requires} declaration")
    action = parser.add_mutually_exclusive_group()
    action.add_argument(
        "--write", metavar="DIR", type=Path, action="append", help="write every schema file"
    )
    action.add_argument(
        "--check", metavar="DIR", type=Path, action="append", help="check the committed files"
    )
    args = parser.parse_args(argv)
    if args.write:
        for directory in args.write:
            for path in write_schemas(directory):
                print(path)
        return 0
    if args.check:
        stale = [directory / name for directory in args.check for name in stale_schemas(directory)]
        for path in stale:
            print(f"{path}: out of date; run {REGENERATE}")
        return 1 if stale else 0
    sys.stdout.write(schema_text(args.dialect, single=args.single))
    return 0
