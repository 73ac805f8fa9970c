"""The schema document of a declarations file or of one declaration, in either dialect (SPEC 10),
and what the schema cannot say (``SCHEMA_LIMITS``).
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from pydantic.json_schema import JsonSchemaValue

from hermes_decl._text import choices
from hermes_decl.models.editor_schema import HOIST, NULLABLE, OBJECT, type_check
from hermes_decl.models.path_rules import PLAIN_NAME
from hermes_decl.models.requires import (
    RequiresWithApp,
)
from hermes_decl.schema.dialects import finish, for_draft_07, ordered, transform
from hermes_decl.schema.files import DIALECTS, Dialect, schema_file_name
from hermes_decl.schema.generator import Generator

META_SCHEMAS: dict[Dialect, str] = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
}

SCHEMA_ID_BASE = "https://hermes-decl.dev/schema/"
"""Every schema's ``$id`` is this base followed by its committed file name."""

YAML_NOTE = (
    "Plain YAML values are read by the YAML 1.2 core schema, as editors read them: only true "
    "and false are booleans (yes, no, on and off are text), and 0o17 is an octal number."
)
"""How a declarations file's YAML is read, told in the schema's description of the file."""

TOP_LEVEL_MESSAGE = "must be a mapping of server name to {app, requires}"
"""What a declarations file must be, as the loader says it."""

DECLARATION_DEF = "Declaration"
"""The ``$defs`` name of one declaration's ``{app, requires}`` object, for hosts to ``$ref``."""

SCHEMA_LIMITS: tuple[tuple[str, str], ...] = (
    (
        "non_string_key",
        "JSON object keys are always strings: a YAML key such as 1 or true reaches a JSON Schema "
        "validator as the text '1' or 'true', so a server named 1 passes propertyNames (inside a "
        "declaration the text is still refused as an unknown key).",
    ),
    (
        "duplicate_key",
        "the loader refuses a key written twice in one mapping, but a validator sees the decoded "
        "document, which keeps one value per key; the duplicate never reaches the schema.",
    ),
    (
        "did_you_mean",
        "not a verdict but a message: additionalProperties: false rejects an unknown key, but no "
        "JSON Schema keyword can suggest the closest valid one; editors offer the valid keys in "
        "completion instead.",
    ),
)
"""Each parser rule the schema cannot express, by issue code, with the reason (both dialects).

Every other rule is expressed: the stripping of surrounding whitespace, NUL, Windows' trimmed-dots
'..' segment, presence mismatch, kinds per OS, install hints per OS and their package names, null
as absent, and the cross-field rules of ``requires`` are all patterns or ``if``/``then`` in both
dialects.
"""


def _references(node: Any, found: dict[str, set[bool]]) -> None:
    """Every ``$ref`` below ``node``: whether each slot naming a definition accepts null."""
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str):
            name = reference.removeprefix("#/$defs/")
            found.setdefault(name, set()).add(bool(node.get(NULLABLE)))
        for value in node.values():
            _references(value, found)
    elif isinstance(node, list):
        for value in node:
            _references(value, found)


def _definitions() -> dict[str, JsonSchemaValue]:
    """Every definition, the declaration's ``{app, requires}`` object named ``Declaration``."""
    generator = Generator(ref_template="#/$defs/{model}")
    core = RequiresWithApp.__pydantic_core_schema__
    roots, generated = generator.generate_definitions([("root", "validation", core)])
    root_name = str(roots[("root", "validation")]["$ref"]).removeprefix("#/$defs/")
    names: dict[str, str] = {
        str(name): DECLARATION_DEF if name == root_name else str(name) for name in generated
    }
    hoisted: dict[str, JsonSchemaValue] = {}

    def hoist(node: JsonSchemaValue) -> JsonSchemaValue:
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.removeprefix("#/$defs/") in names:
            node["$ref"] = "#/$defs/" + names[reference.removeprefix("#/$defs/")]
        name = node.pop(HOIST, None)
        if name is None:
            return node
        if hoisted.setdefault(name, node) != node:
            raise ValueError(f"two different schemas named {name}")
        return {"$ref": f"#/$defs/{name}"}

    definitions = {names[name]: transform(body, hoist) for name, body in generated.items()}
    definitions.update(hoisted)
    definitions[DECLARATION_DEF][OBJECT] = (
        f"must be a mapping with {choices(RequiresWithApp.accepted_keys())}"
    )
    definitions[DECLARATION_DEF]["description"] = (
        "One server's application declaration: where the application is on each OS (app) "
        "and what must hold before the server is offered (requires)."
    )
    slots: dict[str, set[bool]] = {}
    _references(definitions, slots)
    for name, body in definitions.items():
        nullable = slots.get(name, {False})
        if len(nullable) > 1:
            raise TypeError(f"{name} is used both where null is accepted and where it is not")
        if True in nullable:
            body[NULLABLE] = True
    return definitions


@functools.cache
def _document(dialect: Dialect, single: bool) -> JsonSchemaValue:
    reference = f"#/$defs/{DECLARATION_DEF}"
    document: JsonSchemaValue = {
        "$schema": META_SCHEMAS[dialect],
        "$id": SCHEMA_ID_BASE + schema_file_name(dialect, single=single),
    }
    if single:
        document["description"] = (
            "One application declaration {app, requires} of an MCP server (hermes_decl). "
            + YAML_NOTE
        )
        document["$ref"] = reference
    else:
        document["description"] = (
            "A hermes_decl declarations file: each key is a configured MCP server name, each "
            "value that server's application declaration {app, requires}. " + YAML_NOTE
        )
        document.update(type_check(["object"], TOP_LEVEL_MESSAGE))
        document["propertyNames"] = PLAIN_NAME.with_patterns(
            {"description": "The configured server name."}
        )
        document["additionalProperties"] = {
            "$ref": reference,
            "description": "The server's application declaration.",
        }
    document["$defs"] = _definitions()
    document = transform(document, finish)
    if dialect == "draft-07":
        document = transform(document, for_draft_07)
    return transform(document, ordered)


def json_schema(dialect: Dialect = "2020-12", *, single: bool = False) -> dict[str, Any]:
    """The JSON Schema of a declarations file, or with ``single`` of one ``{app, requires}``."""
    if dialect not in DIALECTS:
        raise ValueError(f"dialect must be one of {', '.join(DIALECTS)} (got {dialect!r})")
    return copy.deepcopy(_document(dialect, bool(single)))
