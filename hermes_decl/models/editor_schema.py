"""The JSON Schema words every rendering shares, model or rule object: type checks worded as the
parser words them, refusals, conditions, snippets, one-or-a-list, and the private markers the
generator leaves for the document to render.
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

NULL_MEANING = "The same as leaving the key out."
"""The description of ``null`` where a value may be null (null means absent)."""

KIND_HELP = "The kind, which decides the other keys this mapping takes."

ANNOTATIONS = frozenset(
    {"description", "markdownDescription", "$comment", "examples", "default", "title"}
)
"""Keywords that only describe: they may stand beside ``$ref`` in every dialect."""

TYPED = "x-hermes-typed"
"""A private marker: a schema built here, whose first ``allOf`` entry is its type check."""
OBJECT = "x-hermes-object"
"""A private marker: a model's mapping, whose type check is added once nullability is known."""
NULLABLE = "x-hermes-nullable"
"""A private marker beside a ``$ref`` whose slot accepts null (null means absent)."""
TITLE = "x-hermes-title"
"""A private marker: the title a definition gets (the model's own class-name title is dropped)."""
HOIST = "x-hermes-def"
"""A private marker: the subschema it marks moves into ``$defs`` under the marked name."""

_CODE = re.compile(r"``(.+?)``")


def doc_of(documented: object) -> str:
    """A docstring as every Python gives it: 3.13 dedents docstrings when compiling, so dedent."""
    return inspect.cleandoc(getattr(documented, "__doc__", None) or "")


def plain_text(text: str) -> str:
    """A description for editors that show plain text: docstring ``code`` loses its markers."""
    return _CODE.sub(r"\1", text)


def type_check(types: Sequence[str], message: str) -> JsonSchemaValue:
    """A type check whose mismatch an editor reports in our words (a type list has no rewording)."""
    return {"type": list(types), "errorMessage": message}


def refusal(message: str) -> JsonSchemaValue:
    """What a broken cross-field rule's ``then`` puts on the value it reports at: only null passes.

    The ``if`` holds only when the rule is broken, so the value is never null there; editors show
    ``message`` at that value, where the parser reports the same problem.
    """
    return type_check(["null"], message)


def present_with(key: str, condition: JsonSchemaValue) -> JsonSchemaValue:
    """A condition that ``key`` is present and matches ``condition`` (null never does)."""
    return {"required": [key], "properties": {key: condition}}


def add_rule(schema: JsonSchemaValue, rule: JsonSchemaValue) -> None:
    schema.setdefault("allOf", []).append(rule)


def union_tags(schema: core_schema.CoreSchema) -> list[str]:
    """The tags of the first ``kind`` union at or below ``schema``, breadth first."""
    queue: list[Any] = [schema]
    while queue:
        node = queue.pop(0)
        if isinstance(node, dict):
            if node.get("type") == "tagged-union":
                return [str(tag) for tag in node["choices"]]
            queue.extend(node.get(key) for key in ("schema", "items_schema"))
        elif isinstance(node, list):
            queue.extend(node)
    raise LookupError("no kind union below a location check")


def kind_is(kind: str, *, default: bool = False) -> JsonSchemaValue:
    """A condition that a mapping's ``kind`` is ``kind`` (or absent, for the default kind)."""
    if default:
        return {"type": "object", "properties": {"kind": {"enum": [kind, None]}}}
    return {"type": "object", "required": ["kind"], "properties": {"kind": {"const": kind}}}


def snippet_of(label: str, description: str | None, body: object) -> JsonSchemaValue:
    snippet: JsonSchemaValue = {"label": label}
    if description:
        snippet["description"] = description
    snippet["body"] = body
    return snippet


def required_examples(model: type[BaseModel]) -> dict[str, object]:
    """The first example of each required key but ``kind``, which every such key must have."""
    example: dict[str, object] = {}
    for name, field in model.model_fields.items():
        key = field.alias or name
        if field.is_required() and key != "kind":
            examples = field.examples
            if not examples:
                raise LookupError(f"{model.__name__}.{key} needs examples for the JSON Schema")
            example[key] = examples[0]
    return example


def one_or_list(
    item: JsonSchemaValue,
    empty: str,
    *,
    hoist: str | None = None,
    unique: bool = False,
    limit: tuple[int, str] | None = None,
) -> JsonSchemaValue:
    """One value or a non-empty list of them: ``if array then items``, ``if a value then it``.

    ``item`` carries its type check first; its message is the slot's too. With ``hoist`` the item
    becomes that definition, referenced by both branches; with ``limit`` (a count and what is
    said past it) a longer list is refused.
    """
    shape = item["allOf"][0]["errorMessage"]
    one_types = list(item["allOf"][0]["type"])
    types = [*one_types, "array"]
    snippets = [
        snippet_of(snippet["label"], snippet.get("description"), [snippet["body"]])
        for snippet in item.get("defaultSnippets", ())
    ]
    if hoist is not None:
        item[HOIST] = hoist
        one: JsonSchemaValue = {"$ref": f"#/$defs/{hoist}"}
    else:
        one = copy.deepcopy(item)
    listed: JsonSchemaValue = {"items": item}
    if unique:
        listed["uniqueItems"] = True
    generated: JsonSchemaValue = {
        TYPED: True,
        "allOf": [
            type_check(types, shape),
            {"if": {"type": "array"}, "then": listed},
            {"if": {"type": one_types}, "then": one},
            {"if": {"type": "array", "maxItems": 0}, "then": refusal(empty)},
        ],
    }
    if limit is not None:
        most, too_many = limit
        generated["allOf"].append(
            {"if": {"type": "array", "minItems": most + 1}, "then": refusal(too_many)}
        )
    if snippets:
        generated["defaultSnippets"] = snippets
    return generated
