"""From generated definitions to a document of one dialect: the private markers rendered, a stable
key order, and draft-07's ``definitions`` and ``$ref`` rules.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from pydantic.json_schema import JsonSchemaValue

from hermes_decl.models.common import MEANINGS_KEY
from hermes_decl.models.editor_schema import ANNOTATIONS, NULLABLE, OBJECT, TITLE, TYPED, type_check
from hermes_decl.schema.conventions import describe

# --- from generated definitions to a schema document ------------------------------------------

_SCHEMA_IN_PLACE = ("items", "not", "if", "then", "else", "additionalProperties", "propertyNames")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_SCHEMA_MAPS = ("properties", "$defs", "definitions")
_FIRST_KEYS = ("$schema", "$id", "title", "description", "markdownDescription", "$comment", "$ref")
_LAST_KEYS = ("$defs", "definitions")


def transform(
    schema: JsonSchemaValue, visit: Callable[[JsonSchemaValue], JsonSchemaValue]
) -> JsonSchemaValue:
    """Rebuild a schema bottom-up through ``visit``; data such as ``default`` is copied as is."""
    rebuilt: JsonSchemaValue = {}
    for key, value in schema.items():
        if key in _SCHEMA_IN_PLACE and isinstance(value, dict):
            rebuilt[key] = transform(value, visit)
        elif key in _SCHEMA_LISTS:
            rebuilt[key] = [transform(branch, visit) for branch in value]
        elif key in _SCHEMA_MAPS:
            rebuilt[key] = {
                name: transform(branch, visit) if isinstance(branch, dict) else branch
                for name, branch in value.items()
            }
        else:
            rebuilt[key] = copy.deepcopy(value)
    return visit(rebuilt)


def finish(node: JsonSchemaValue) -> JsonSchemaValue:
    """Render the private markers: a model's type check, and each value's described meaning."""
    node.pop("title", None)
    if TITLE in node:
        node["title"] = node.pop(TITLE)
    nullable = node.pop(NULLABLE, False)
    node.pop(TYPED, None)
    message = node.pop(OBJECT, None)
    if message is not None:
        node.setdefault("allOf", []).insert(
            0, type_check(["object", "null"] if nullable else ["object"], message)
        )
    meanings = node.pop(MEANINGS_KEY, None)
    if meanings is not None:
        node["enumDescriptions"] = meanings
        describe(node, "enumDescriptions", "markdownEnumDescriptions")
    describe(node, "description", "markdownDescription")
    for snippet in node.get("defaultSnippets", ()):
        describe(snippet, "description", "markdownDescription")
    return _null_apart(node)


NULL_ONLY: JsonSchemaValue = {"not": {"not": {"type": "null"}}}
"""Exactly null, said so that no editor offers it: completion reads ``type`` and ``enum`` (and
the branches of ``allOf``, ``anyOf`` and ``oneOf``), never what ``not`` holds."""

_DESCRIBED_VALUES = ("enumDescriptions", "markdownEnumDescriptions")


def _null_apart(node: JsonSchemaValue) -> JsonSchemaValue:
    """A choice that also accepts null (null means absent), with null accepted apart: editors
    then offer and list the real values only (``true`` and ``false`` for a boolean), never
    ``null``, while a null value is still valid."""
    types = node.get("type")
    if not isinstance(types, list) or "null" not in types or len(types) != 2:
        return node
    enum = node.get("enum")
    if enum is None and types == ["boolean", "null"]:
        enum = [True, False, None]
    if not isinstance(enum, list) or None not in enum:
        return node
    choice = {key: value for key, value in node.items() if key not in ANNOTATIONS}
    choice["type"] = [kind for kind in types if kind != "null"]
    gone = enum.index(None)
    choice["enum"] = [value for index, value in enumerate(enum) if index != gone]
    for key in _DESCRIBED_VALUES:
        if isinstance(node.get(key), list):
            choice[key] = [text for index, text in enumerate(node[key]) if index != gone]
    kept = {key: value for key, value in node.items() if key in ANNOTATIONS}
    return {**kept, "anyOf": [choice, NULL_ONLY]}


def ordered(node: JsonSchemaValue) -> JsonSchemaValue:
    """A stable key order: identity and text first, definitions last, the rest by name."""

    def rank(key: str) -> tuple[int, int, str]:
        if key in _FIRST_KEYS:
            return (0, _FIRST_KEYS.index(key), key)
        return (2 if key in _LAST_KEYS else 1, 0, key)

    for key in _LAST_KEYS:
        if key in node:
            node[key] = dict(sorted(node[key].items()))
    return {key: node[key] for key in sorted(node, key=rank)}


_DOCUMENT_KEYS = frozenset({"$schema", "$id", "definitions"})


def for_draft_07(node: JsonSchemaValue) -> JsonSchemaValue:
    """Draft-07 form: ``definitions``, and a ``$ref`` beside annotations only (never rules)."""
    if "$defs" in node:
        node["definitions"] = node.pop("$defs")
    reference = node.get("$ref")
    if isinstance(reference, str):
        node["$ref"] = reference.replace("#/$defs/", "#/definitions/", 1)
        siblings = set(node) - ANNOTATIONS - {"$ref"}
        if siblings - _DOCUMENT_KEYS:
            raise TypeError(f"a $ref beside rules would be silenced in draft-07: {node}")
        if siblings:  # a document's $id would be silenced: reference from allOf instead
            node["allOf"] = [{"$ref": node.pop("$ref")}]
    return node
