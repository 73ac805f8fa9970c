"""The editor conventions every rendering shares: what each key, value and rule of the JSON Schema
carries (type checks worded as the parser words them, null as absent, descriptions in plain text
and Markdown, snippets), and the private markers the generator leaves for the document to render.
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

from hermes_decl._text import choices
from hermes_decl.errors import _TYPE_RULES
from hermes_decl.models.app_block import (
    AppDef,
)
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import MEANINGS_KEY, OsFamily
from hermes_decl.models.install import (
    InstallHint,
)
from hermes_decl.models.kinds import KindVariant
from hermes_decl.models.locations import (
    KindLocation,
)
from hermes_decl.models.path_rules import LOCATION_PATHS
from hermes_decl.models.requires import (
    RequiresWithApp,
)
from hermes_decl.models.version import VERSION_VARIANTS

PATH_EXAMPLES: dict[OsFamily, tuple[str, ...]] = {
    "win32": ("%ProgramFiles%/Vendor/Vendor App */vendor.exe", "C:\\Vendor\\vendor.exe"),
    "darwin": ("/Applications/Vendor.app", "~/Applications/Vendor *.app"),
    "linux": ("/opt/vendor/bin/vendor", "$HOME/.local/bin/vendor"),
}


# --- string rules as ECMA-262 patterns -----------------------------------------------------------


def path_schema(os_family: OsFamily, examples: Sequence[str]) -> JsonSchemaValue:
    """A path string of one OS block (its rules are told by the key that holds it)."""
    schema: JsonSchemaValue = {"type": "string", "examples": list(examples)}
    return LOCATION_PATHS[os_family].with_patterns(schema)


# --- the editor conventions: one place for what every key, value and rule carries ----------------

MAPPING_MESSAGE = _TYPE_RULES["model_type"][1]
TYPE_MESSAGES: dict[str, str] = {
    "string": _TYPE_RULES["string_type"][1],
    "boolean": _TYPE_RULES["bool_type"][1],
    "object": MAPPING_MESSAGE,
}
"""The message each JSON type's mismatch gets in an editor: the words the parser uses."""

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

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|~])")
_CODE = re.compile(r"``(.+?)``")


def title_of(model: type[FrozenModel]) -> str:
    """Where a model's mapping sits in a declaration, as an author reads it."""
    if issubclass(model, AppDef):
        return f"app.{model.os_family}"
    if issubclass(model, KindLocation):
        return f"location of kind {model.KIND}"
    if issubclass(model, KindVariant):
        noun = "version" if model in VERSION_VARIANTS else "liveness"
        return f"{noun} of kind {model.KIND}"
    if issubclass(model, InstallHint):
        return f"install hint {model.KEY}"
    return "declaration" if issubclass(model, RequiresWithApp) else model.__name__


def doc_of(documented: object) -> str:
    """A docstring as every Python gives it: 3.13 dedents docstrings when compiling, so dedent."""
    return inspect.cleandoc(getattr(documented, "__doc__", None) or "")


def plain_text(text: str) -> str:
    """A description for editors that show plain text: docstring ``code`` loses its markers."""
    return _CODE.sub(r"\1", text)


def markdown_text(text: str) -> str:
    """The same description as Markdown: code as code spans, every other special escaped."""
    parts = _CODE.split(text)
    return "".join(
        f"`{part}`" if index % 2 else _MARKDOWN_SPECIAL.sub(r"\\\1", part)
        for index, part in enumerate(parts)
    )


def describe(node: JsonSchemaValue, key: str, markdown_key: str) -> None:
    text = node.get(key)
    if isinstance(text, str):
        node[key] = plain_text(text)
        node[markdown_key] = markdown_text(text)
    elif isinstance(text, list):
        node[key] = [plain_text(item) for item in text]
        node[markdown_key] = [markdown_text(item) for item in text]


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


def slot_of(value: Any, *, nullable: bool) -> Any:
    """One property's schema, with its type check worded as the parser words it.

    A property that is not required accepts null (null means absent). A ``$ref`` slot keeps only
    annotations beside the reference, so that editors merge it with its definition and show the
    key's own description; the definition then accepts null when every slot of it does.
    """
    if not isinstance(value, dict):
        return value
    value.pop("title", None)
    if "default" in value and (value["default"] is None or "$ref" in value):
        value.pop("default")
    if "$ref" in value:
        extra = set(value) - ANNOTATIONS - {"$ref"}
        if extra:
            raise TypeError(f"a $ref slot carries more than annotations: {sorted(extra)}")
        if nullable:
            value[NULLABLE] = True
        return value
    if TYPED in value:
        types = value["allOf"][0]["type"]
        if nullable and "null" not in types:
            types.append("null")
        return value
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in TYPE_MESSAGES:
        raise TypeError(f"no editor type check for {value!r}")
    enum = value.get("enum")
    message = f"must be {choices(enum)}" if enum else TYPE_MESSAGES[kind]
    value["type"] = [kind, "null"] if nullable else [kind]
    value.setdefault("errorMessage", message)
    if nullable and "enum" in value:
        value["enum"] = [*value["enum"], None]
        if MEANINGS_KEY in value:
            value[MEANINGS_KEY] = [*value[MEANINGS_KEY], NULL_MEANING]
    return value


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


def variant_example(model: type[KindVariant]) -> dict[str, object]:
    """A mapping of one ``kind``: the kind, then the first example of each required key."""
    return {"kind": model.KIND, **required_examples(model)}


def one_or_list(
    item: JsonSchemaValue, empty: str, *, hoist: str | None = None, unique: bool = False
) -> JsonSchemaValue:
    """One value or a non-empty list of them: ``if array then items``, ``if a value then it``.

    ``item`` carries its type check first; its message is the slot's too. With ``hoist`` the item
    becomes that definition, referenced by both branches.
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
    if snippets:
        generated["defaultSnippets"] = snippets
    return generated
