"""The editor conventions every rendering shares: what each key, value and rule of the JSON Schema
carries (type checks worded as the parser words them, null as absent, descriptions in plain text
and Markdown, snippets), and the private markers the generator leaves for the document to render.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic.json_schema import JsonSchemaValue

from hermes_decl._text import choices
from hermes_decl.errors import _TYPE_RULES
from hermes_decl.models.app_block import (
    AppDef,
)
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import MEANINGS_KEY, OsFamily
from hermes_decl.models.editor_schema import (
    _CODE,
    ANNOTATIONS,
    HOIST,
    KIND_HELP,
    NULL_MEANING,
    NULLABLE,
    OBJECT,
    TITLE,
    TYPED,
    add_rule,
    doc_of,
    kind_is,
    one_or_list,
    plain_text,
    present_with,
    refusal,
    required_examples,
    snippet_of,
    type_check,
    union_tags,
)
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

__all__ = [
    "ANNOTATIONS",
    "HOIST",
    "KIND_HELP",
    "MAPPING_MESSAGE",
    "NULLABLE",
    "NULL_MEANING",
    "OBJECT",
    "PATH_EXAMPLES",
    "TITLE",
    "TYPED",
    "TYPE_MESSAGES",
    "add_rule",
    "describe",
    "doc_of",
    "kind_is",
    "markdown_text",
    "one_or_list",
    "path_schema",
    "plain_text",
    "present_with",
    "refusal",
    "required_examples",
    "slot_of",
    "snippet_of",
    "title_of",
    "type_check",
    "union_tags",
]
"""The conventions, those written in ``models.editor_schema`` (the words rule objects render with)
included."""

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

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|~])")


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
