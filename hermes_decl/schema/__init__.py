"""The JSON Schema of declarations, for editors and hosts, generated from the models (SPEC 10).

Pydantic generates the structure (every model, field, description and default); the generator
(``generator``) asks each validator function the models use for its rule object, which renders
what JSON Schema can say about it (a pattern per path rule, one place or a non-empty list, the
``kind`` and install-hint unions and the cross-field rules as ``if``/``then``); it renders null as
absent itself, and refuses a validator without a rule object, so the schema cannot silently fall
behind the parser. What no dialect can express is
listed in ``SCHEMA_LIMITS``. ``declaration_schema`` assembles a schema of either dialect
(``dialects``), ``writer`` writes and checks the committed files, and ``files`` names and finds
them.

Patterns are ECMA-262 (no lookbehind, only syntax characters escaped, valid with the ``u`` flag)
and avoid ``$``, which Python's ``re`` also matches before a final newline.

The names below are imported on first use: finding a shipped file (``files``) must not build the
generator.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hermes_decl.schema.files import (
    DIALECTS,
    MANIFEST_SCHEMA_FILES,
    SCHEMA_FILES,
    Dialect,
    manifest_file_name,
    schema_file_name,
    schema_path,
)

if TYPE_CHECKING:
    from hermes_decl.schema.conventions import (
        ANNOTATIONS,
        KIND_HELP,
        MAPPING_MESSAGE,
        NULL_MEANING,
    )
    from hermes_decl.schema.declaration_schema import (
        DECLARATION_DEF,
        META_SCHEMAS,
        SCHEMA_ID_BASE,
        SCHEMA_LIMITS,
        TOP_LEVEL_MESSAGE,
        YAML_NOTE,
        json_schema,
    )
    from hermes_decl.schema.manifest_document import manifest_schema
    from hermes_decl.schema.writer import (
        REGENERATE,
        main,
        schema_text,
        stale_schemas,
        write_schemas,
    )

_LAZY: dict[str, str] = {
    **dict.fromkeys(("ANNOTATIONS", "KIND_HELP", "MAPPING_MESSAGE", "NULL_MEANING"), "conventions"),
    **dict.fromkeys(
        (
            "DECLARATION_DEF",
            "META_SCHEMAS",
            "SCHEMA_ID_BASE",
            "SCHEMA_LIMITS",
            "TOP_LEVEL_MESSAGE",
            "YAML_NOTE",
            "json_schema",
        ),
        "declaration_schema",
    ),
    **dict.fromkeys(
        ("REGENERATE", "main", "schema_text", "stale_schemas", "write_schemas"), "writer"
    ),
    "manifest_schema": "manifest_document",
}
"""Each name this package exports from a module that builds the generator, by that module."""

__all__ = [
    "ANNOTATIONS",
    "DECLARATION_DEF",
    "DIALECTS",
    "KIND_HELP",
    "MANIFEST_SCHEMA_FILES",
    "MAPPING_MESSAGE",
    "META_SCHEMAS",
    "NULL_MEANING",
    "REGENERATE",
    "SCHEMA_FILES",
    "SCHEMA_ID_BASE",
    "SCHEMA_LIMITS",
    "TOP_LEVEL_MESSAGE",
    "YAML_NOTE",
    "Dialect",
    "json_schema",
    "main",
    "manifest_file_name",
    "manifest_schema",
    "schema_file_name",
    "schema_path",
    "schema_text",
    "stale_schemas",
    "write_schemas",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
