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
from hermes_decl.schema.files import DIALECTS, MANIFEST_SCHEMA_FILES, SCHEMA_FILES, Dialect
from hermes_decl.schema.manifest_document import manifest_schema

REGENERATE = "python -m hermes_decl.schema --write hermes_decl/schemas --write schema"
"""The command that rewrites the committed copies: the package's, and the repository's."""


def schema_text(
    dialect: Dialect = "2020-12", *, single: bool = False, manifest: bool = False
) -> str:
    """The schema as committed: two-space indented JSON in a stable key order, newline-ended.

    A declarations file's, one declaration's (``single``) or a plugin manifest's (``manifest``).
    """
    schema = manifest_schema(dialect) if manifest else json_schema(dialect, single=single)
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def _committed() -> list[tuple[str, str]]:
    """Every committed file's name and text."""
    files = [(name, schema_text(dialect, single=single)) for name, dialect, single in SCHEMA_FILES]
    files += [
        (name, schema_text(dialect, manifest=True)) for name, dialect in MANIFEST_SCHEMA_FILES
    ]
    return files


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema file into ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, text in _committed():
        path = directory / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


def stale_schemas(directory: Path) -> list[str]:
    """The names of the schema files that are missing from ``directory`` or differ from now."""
    stale: list[str] = []
    for name, text in _committed():
        path = directory / name
        current = path.read_bytes().decode("utf-8") if path.is_file() else None
        if current != text:
            stale.append(name)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Print one schema, or write or check the committed copies; 1 when a copy is stale."""
    parser = argparse.ArgumentParser(prog="python -m hermes_decl.schema", description=__doc__)
    parser.add_argument("--dialect", choices=DIALECTS, default="2020-12")
    parser.add_argument("--single", action="store_true", help="one {app, requires} declaration")
    parser.add_argument(
        "--manifest", action="store_true", help="a plugin manifest's servers (language 1.2)"
    )
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
    sys.stdout.write(schema_text(args.dialect, single=args.single, manifest=args.manifest))
    return 0
