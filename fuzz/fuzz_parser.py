"""Fuzz the declaration parser: any input gives a ``Declaration`` or a ``DeclarationError``.

Input layout: when the first byte is below 0x08 the rest drives a generator of nested values
shaped like declarations (vocabulary keys and values, with any other value mixed in: bytes,
non-string keys, huge numbers, NaN, dates, sets, values that contain themselves). Otherwise the
whole input is JSON text ``{"name": …, "app": …, "requires": …}`` (so seeds are readable
declarations, and byte mutations of them stay close to the declaration's shape); text that is
not JSON is skipped.

Which entry point is used depends on the first byte too: ``parse_declaration``, or
``parse_app`` followed by ``parse_requires`` (given the parsed block, or the raw one when it did
not parse), as a loader would call them one block at a time.

    python fuzz/fuzz_parser.py -atheris_runs=200000 fuzz/work/parser fuzz/corpus/parser
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import cast

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader, app_value, check_error, main, requires_value, scalar_key
from hermes_decl.declaration import (
    DeclarationError,
    parse_app,
    parse_declaration,
    parse_requires,
)
from hermes_decl.models import AppBlock, Declaration

WHERES = ("plugin.yaml", "<string>", "my-plugin/plugin.yaml", "x:y")
NAMES = ("my-server", "vendor-studio", "", " ", "a.b", "名前", "x" * 200)


def _inputs(data: bytes) -> tuple[int, object, object, object] | None:
    """(mode, name, raw_app, raw_requires), or None for JSON text that does not parse."""
    if data[:1] and data[0] < 0x08:
        reader = ByteReader(data[1:])
        name: object = reader.pick(NAMES) if reader.chance(3, 4) else reader.text()
        if reader.chance(1, 64):
            name = scalar_key(reader)  # not a str: the parser still answers with an error
        raw_app = None if reader.chance(1, 8) else app_value(reader)
        raw_requires = None if reader.chance(1, 6) else requires_value(reader)
        return data[0], name, raw_app, raw_requires
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict):
        return len(data), "server", document, None
    name = document.get("name", "server")
    return len(data), name, document.get("app"), document.get("requires")


def TestOneInput(data: bytes) -> None:
    inputs = _inputs(data)
    if inputs is None:
        return
    mode, name, raw_app, raw_requires = inputs
    where = WHERES[mode % len(WHERES)]
    server = name if isinstance(name, str) else "server"
    if mode % 3 == 2:
        # One block at a time: the app block, then requires against it.
        try:
            app = parse_app(raw_app, name=server, where=where)
        except DeclarationError as error:
            check_error(error, where)
            # parse_requires also takes an app block that was never parsed (and reports it).
            app = cast(AppBlock, raw_app)
        try:
            requires = parse_requires(raw_requires, app, where=where)
        except DeclarationError as error:
            check_error(error, where)
            return
        repr(requires)
        return
    try:
        # ``name`` is not always a str: the parser must answer any input with an error.
        declaration = parse_declaration(cast(str, name), raw_app, raw_requires, where=where)
    except DeclarationError as error:
        check_error(error, where)
        return
    assert isinstance(declaration, Declaration), declaration
    repr(declaration)


if __name__ == "__main__":
    main(TestOneInput, "parser")
