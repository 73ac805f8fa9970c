"""The JSON Schema of declarations, for editors and hosts, generated from the models (SPEC 10).

Pydantic generates the structure (every model, field, description and default); a generator
subclass maps each validator function the models use to what JSON Schema can say about it (a
pattern per path rule, null as absent, one place or a non-empty list, the ``kind`` and install-hint
unions and the cross-field rules as ``if``/``then``), and refuses a validator it does not know,
so the schema cannot silently fall behind the parser. What no dialect can express is listed in
``SCHEMA_LIMITS``.

Patterns are ECMA-262 (no lookbehind, only syntax characters escaped, valid with the ``u`` flag)
and avoid ``$``, which Python's ``re`` also matches before a final newline.
"""

from __future__ import annotations

import argparse
import copy
import functools
import inspect
import itertools
import json
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import CodeType
from typing import Any, cast

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from hermes_decl._text import choices
from hermes_decl.errors import _TYPE_RULES
from hermes_decl.models.app import (
    MIN_OS_VERSION_LINUX,
    NO_OS_BLOCK,
    AppBlock,
    AppDef,
    _no_os_version_on_linux,
    one_of,
)
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import MEANINGS_KEY, OS_FAMILIES, PRESENCES, OsFamily
from hermes_decl.models.declaration import Declaration
from hermes_decl.models.install import (
    EMPTY_HINTS,
    INSTALL_HINTS,
    InstallHint,
    as_hint_list,
    hint_item,
    wrong_os_message,
)
from hermes_decl.models.kinds import KindUnion, KindVariant
from hermes_decl.models.locations import (
    EMPTY_LOCATION,
    KIND_LOCATIONS,
    KindLocation,
    PathLocation,
    _check_presence,
    as_location_list,
    presence_mismatch_message,
)
from hermes_decl.models.path_rules import LOCATION_PATHS, NON_BLANK
from hermes_decl.models.requires import (
    APP_BLOCK_REQUIRED,
    ARCHES,
    EMPTY_ARCHES,
    MIN_VERSION_LINUX_ONLY,
    MIN_VERSION_NEEDS_APP,
    RequiresWithApp,
    _minimum_needs_app,
    as_arch_list,
    no_version_source_message,
)
from hermes_decl.models.text_rules import TextRule, TextRules
from hermes_decl.models.validator_code import code_of, nested_code
from hermes_decl.models.version import VERSION_VARIANTS, NoVersion
from hermes_decl.schema_files import DIALECTS as DIALECTS
from hermes_decl.schema_files import SCHEMA_FILES as SCHEMA_FILES
from hermes_decl.schema_files import Dialect as Dialect
from hermes_decl.schema_files import schema_file_name as schema_file_name
from hermes_decl.schema_files import schema_path as schema_path

META_SCHEMAS: dict[Dialect, str] = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
}

SCHEMA_ID_BASE = "https://hermes-decl.dev/schema/"
"""Every schema's ``$id`` is this base followed by its committed file name."""

REGENERATE = "python -m hermes_decl.schema --write hermes_decl/schemas --write schema"
"""The command that rewrites the committed copies: the package's, and the repository's."""

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

_PATH_EXAMPLES: dict[OsFamily, tuple[str, ...]] = {
    "win32": ("%ProgramFiles%/Vendor/Vendor App */vendor.exe", "C:\\Vendor\\vendor.exe"),
    "darwin": ("/Applications/Vendor.app", "~/Applications/Vendor *.app"),
    "linux": ("/opt/vendor/bin/vendor", "$HOME/.local/bin/vendor"),
}


# --- string rules as ECMA-262 patterns -----------------------------------------------------------


def _pattern_schema(rule: TextRule) -> JsonSchemaValue:
    return {"pattern": rule.pattern, "patternErrorMessage": rule.message}


def _with_patterns(schema: JsonSchemaValue, patterns: Iterable[TextRule]) -> JsonSchemaValue:
    """Add string rules to a schema: one ``allOf`` entry each, so an editor names the one broken."""
    entries = [_pattern_schema(pattern) for pattern in patterns]
    schema.setdefault("allOf", []).extend(entries)
    return schema


def _path_schema(os_family: OsFamily, examples: Sequence[str]) -> JsonSchemaValue:
    """A path string of one OS block (its rules are told by the key that holds it)."""
    schema: JsonSchemaValue = {"type": "string", "examples": list(examples)}
    return _with_patterns(schema, LOCATION_PATHS[os_family].rules)


# --- the editor conventions: one place for what every key, value and rule carries ----------------

MAPPING_MESSAGE = _TYPE_RULES["model_type"][1]
_TYPE_MESSAGES: dict[str, str] = {
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

_TYPED = "x-hermes-typed"
"""A private marker: a schema built here, whose first ``allOf`` entry is its type check."""
_OBJECT = "x-hermes-object"
"""A private marker: a model's mapping, whose type check is added once nullability is known."""
_NULLABLE = "x-hermes-nullable"
"""A private marker beside a ``$ref`` whose slot accepts null (null means absent)."""
_TITLE = "x-hermes-title"
"""A private marker: the title a definition gets (the model's own class-name title is dropped)."""
_HOIST = "x-hermes-def"
"""A private marker: the subschema it marks moves into ``$defs`` under the marked name."""

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+!|~])")
_CODE = re.compile(r"``(.+?)``")


def _title(model: type[FrozenModel]) -> str:
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


def _plain(text: str) -> str:
    """A description for editors that show plain text: docstring ``code`` loses its markers."""
    return _CODE.sub(r"\1", text)


def _markdown(text: str) -> str:
    """The same description as Markdown: code as code spans, every other special escaped."""
    parts = _CODE.split(text)
    return "".join(
        f"`{part}`" if index % 2 else _MARKDOWN_SPECIAL.sub(r"\\\1", part)
        for index, part in enumerate(parts)
    )


def _described(node: JsonSchemaValue, key: str, markdown_key: str) -> None:
    text = node.get(key)
    if isinstance(text, str):
        node[key] = _plain(text)
        node[markdown_key] = _markdown(text)
    elif isinstance(text, list):
        node[key] = [_plain(item) for item in text]
        node[markdown_key] = [_markdown(item) for item in text]


def _type_check(types: Sequence[str], message: str) -> JsonSchemaValue:
    """A type check whose mismatch an editor reports in our words (a type list has no rewording)."""
    return {"type": list(types), "errorMessage": message}


def _refuse(message: str) -> JsonSchemaValue:
    """What a broken cross-field rule's ``then`` puts on the value it reports at: only null passes.

    The ``if`` holds only when the rule is broken, so the value is never null there; editors show
    ``message`` at that value, where the parser reports the same problem.
    """
    return _type_check(["null"], message)


def _present(key: str, condition: JsonSchemaValue) -> JsonSchemaValue:
    """A condition that ``key`` is present and matches ``condition`` (null never does)."""
    return {"required": [key], "properties": {key: condition}}


def _slot(value: Any, *, nullable: bool) -> Any:
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
            value[_NULLABLE] = True
        return value
    if _TYPED in value:
        types = value["allOf"][0]["type"]
        if nullable and "null" not in types:
            types.append("null")
        return value
    kind = value.get("type")
    if not isinstance(kind, str) or kind not in _TYPE_MESSAGES:
        raise TypeError(f"no editor type check for {value!r}")
    enum = value.get("enum")
    message = f"must be {choices(enum)}" if enum else _TYPE_MESSAGES[kind]
    value["type"] = [kind, "null"] if nullable else [kind]
    value.setdefault("errorMessage", message)
    if nullable and "enum" in value:
        value["enum"] = [*value["enum"], None]
        if MEANINGS_KEY in value:
            value[MEANINGS_KEY] = [*value[MEANINGS_KEY], NULL_MEANING]
    return value


# --- the generator: one rule per validator function of the models --------------------------------

_FunctionSchema = (
    core_schema.BeforeValidatorFunctionSchema
    | core_schema.AfterValidatorFunctionSchema
    | core_schema.WrapValidatorFunctionSchema
)
_Rule = Callable[["_Generator", _FunctionSchema, Any], JsonSchemaValue]


def _add_rule(schema: JsonSchemaValue, rule: JsonSchemaValue) -> None:
    schema.setdefault("allOf", []).append(rule)


def _union_tags(schema: core_schema.CoreSchema) -> list[str]:
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


def _kind_is(kind: str, *, default: bool = False) -> JsonSchemaValue:
    """A condition that a mapping's ``kind`` is ``kind`` (or absent, for the default kind)."""
    if default:
        return {"type": "object", "properties": {"kind": {"enum": [kind, None]}}}
    return {"type": "object", "required": ["kind"], "properties": {"kind": {"const": kind}}}


def _snippet(label: str, description: str | None, body: object) -> JsonSchemaValue:
    snippet: JsonSchemaValue = {"label": label}
    if description:
        snippet["description"] = description
    snippet["body"] = body
    return snippet


def _required_examples(model: type[BaseModel]) -> dict[str, object]:
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


def _variant_example(model: type[KindVariant]) -> dict[str, object]:
    """A mapping of one ``kind``: the kind, then the first example of each required key."""
    return {"kind": model.KIND, **_required_examples(model)}


def _one_or_list(
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
        _snippet(snippet["label"], snippet.get("description"), [snippet["body"]])
        for snippet in item.get("defaultSnippets", ())
    ]
    if hoist is not None:
        item[_HOIST] = hoist
        one: JsonSchemaValue = {"$ref": f"#/$defs/{hoist}"}
    else:
        one = copy.deepcopy(item)
    listed: JsonSchemaValue = {"items": item}
    if unique:
        listed["uniqueItems"] = True
    generated: JsonSchemaValue = {
        _TYPED: True,
        "allOf": [
            _type_check(types, shape),
            {"if": {"type": "array"}, "then": listed},
            {"if": {"type": one_types}, "then": one},
            {"if": {"type": "array", "maxItems": 0}, "then": _refuse(empty)},
        ],
    }
    if snippets:
        generated["defaultSnippets"] = snippets
    return generated


class _Generator(GenerateJsonSchema):
    """Pydantic's generator, with each validator of the models mapped to its JSON Schema rule."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._frames: list[tuple[type[FrozenModel], list[JsonSchemaValue]]] = []

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        """Keep the generated order: ``_ordered`` sorts keywords, and examples stay as written."""
        return value

    def handle_ref_overrides(self, json_schema: JsonSchemaValue) -> JsonSchemaValue:
        """Keep a key's description beside its ``$ref`` even when the definition says the same."""
        return json_schema

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        """A path location is a bare string: the path rules of its OS block, with examples."""
        model = schema["cls"]
        if issubclass(model, PathLocation):
            os_family = model.OS_FAMILY
            path = _path_schema(os_family, examples=_PATH_EXAMPLES[os_family])
            path["$comment"] = _plain(f"{model.__doc__} {PathLocation.__doc__}")
            return path
        return super().model_schema(schema)

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        """``X | None``: the schema of X; every optional key accepts null, see ``_slot``."""
        return self.generate_inner(schema["schema"])

    def function_before_schema(
        self, schema: core_schema.BeforeValidatorFunctionSchema
    ) -> JsonSchemaValue:
        return self._validator(schema)

    def function_after_schema(
        self, schema: core_schema.AfterValidatorFunctionSchema
    ) -> JsonSchemaValue:
        return self._validator(schema)

    def function_wrap_schema(
        self, schema: core_schema.WrapValidatorFunctionSchema
    ) -> JsonSchemaValue:
        return self._validator(schema)

    def tagged_union_schema(self, schema: core_schema.TaggedUnionSchema) -> JsonSchemaValue:
        raise TypeError("a kind union is generated from its KindUnion check, never on its own")

    def _validator(self, schema: _FunctionSchema) -> JsonSchemaValue:
        function = schema["function"]["function"]
        rule = _RULES.get(code_of(function))
        if rule is None:
            name = getattr(function, "__qualname__", repr(function))
            raise TypeError(
                f"no JSON Schema rule for validator {name}: map it in hermes_decl.schema, "
                "or list what it checks in SCHEMA_LIMITS"
            )
        return rule(self, schema, function)

    def _inner(self, schema: _FunctionSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def _same(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """A check whose rule the inner schema already states (a ``Literal``)."""
        return self._inner(schema)

    def _mapping(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``FrozenModel``'s mapping check: optional keys accept null; a path is a bare string."""
        model = cast("type[FrozenModel]", function.__self__)
        self._frames.append((model, []))
        generated = self._inner(schema)
        _, pending = self._frames.pop()
        required = set(generated.get("required", ()))
        properties: dict[str, Any] = generated.get("properties", {})
        for key, value in properties.items():
            properties[key] = _slot(value, nullable=key not in required)
        if issubclass(model, KindVariant):
            # The union states the kind; the variant only admits the key (see _kind_union).
            properties["kind"] = True
            generated["required"] = [key for key in generated.get("required", ()) if key != "kind"]
            if not generated["required"]:
                del generated["required"]
            generated["$comment"] = _plain(model.__doc__ or "")
            generated.pop("description", None)
        if issubclass(model, InstallHint):  # a variant: the union's slot describes it
            generated["$comment"] = _plain(model.__doc__ or "")
            generated.pop("description", None)
        if generated.get("required"):
            # Editors label the skeleton of a mapping's required keys with its title.
            generated[_TITLE] = _title(model)
        generated[_OBJECT] = MAPPING_MESSAGE
        generated.pop("type", None)
        for rule in pending:
            _add_rule(generated, rule)
        return generated

    def _kind_union(self, schema: _FunctionSchema, union: KindUnion) -> JsonSchemaValue:
        """A ``kind`` union: its type check, ``kind`` with every valid kind described, and one
        ``if kind is K then variant K`` per variant (no ``oneOf``, so an editor reports the
        chosen variant's own problems); a kind of another OS is named as such."""
        inner = schema["schema"]
        choices_by_tag: dict[str, core_schema.CoreSchema] = (
            dict(inner["choices"])
            if inner["type"] == "tagged-union"
            else {union.variants[0].KIND: inner}
        )
        kind: JsonSchemaValue = {
            "description": KIND_HELP,
            "type": ["string"],
            "enum": list(union.kinds),
            MEANINGS_KEY: [variant.model_fields["kind"].description for variant in union.variants],
            "errorMessage": f"must be {choices(union.kinds)}",
        }
        wrong_os = [
            {"if": {"const": variant.KIND}, "then": _refuse(union.wrong_os_message(variant))}
            for variant in union.every_variant
            if variant not in union.variants
        ]
        if wrong_os:
            kind["allOf"] = wrong_os
        if union.default_kind is not None:  # then a null kind is the default kind too
            kind["default"] = union.default_kind
            kind["type"] = ["string", "null"]
            kind["enum"] = [*kind["enum"], None]
            kind[MEANINGS_KEY] = [*kind[MEANINGS_KEY], NULL_MEANING]
        types = ["object"] if union.string_variant is None else ["string", "object"]
        rules: list[JsonSchemaValue] = [_type_check(types, f"must be {union.shape}")]
        snippets: list[JsonSchemaValue] = []
        if union.string_variant is not None:
            path = self.generate_inner(choices_by_tag[union.string_variant.KIND])
            rules.append({"if": {"type": "string"}, "then": path})
        for variant in union.variants:
            body = self.generate_inner(choices_by_tag[variant.KIND])
            default = union.default_kind == variant.KIND
            rules.append({"if": _kind_is(variant.KIND, default=default), "then": body})
            example = _variant_example(variant)
            if len(example) > 1:
                snippets.append(_snippet(variant.KIND, variant.__doc__, example))
        generated: JsonSchemaValue = {
            _TYPED: True,
            "allOf": rules,
            "properties": {"kind": kind},
        }
        if union.default_kind is None:
            generated["required"] = ["kind"]
        if snippets:
            generated["defaultSnippets"] = snippets
        return generated

    def _location_list(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_location_list``: one place, or a non-empty list of places."""
        os_family = self._app_def("location list").os_family
        item = self._inner(schema)["items"]
        item[_TITLE] = f"app.{os_family}.location"
        item["$comment"] = f"One place to look under app.{os_family}."
        return _one_or_list(item, EMPTY_LOCATION, hoist=f"{os_family.capitalize()}Location")

    def _hint_list(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_hint_list``: one install hint, or a non-empty list of hints."""
        os_family = self._app_def("install list").os_family
        item = self._inner(schema)["items"]
        item[_TITLE] = f"app.{os_family}.install"
        item["$comment"] = f"One way to install the application under app.{os_family}."
        return _one_or_list(item, EMPTY_HINTS, hoist=f"{os_family.capitalize()}InstallHint")

    def _arch_list(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_arch_list``: one architecture, or a non-empty list naming each at most once."""
        item = self._inner(schema)["items"]
        item["type"] = ["string"]
        item["errorMessage"] = f"must be {choices(ARCHES)}"
        item = {_TYPED: True, "allOf": [_type_check(["string"], item["errorMessage"]), item]}
        return _one_or_list(item, EMPTY_ARCHES, unique=True)

    def _app_def(self, what: str) -> type[AppDef]:
        model = self._frames[-1][0]
        if not issubclass(model, AppDef):
            raise TypeError(f"a {what} outside an AppDef: {model.__name__}")
        return model

    def _hint_union(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``hint_item``'s check: a union keyed by the package manager a hint names.

        As a ``kind`` union: ``if key K is present then hint K``, no ``oneOf``, and a package
        manager of another OS named as such at its key.
        """
        known = inspect.getclosurevars(function).nonlocals
        os_family: OsFamily = known["os_family"]
        shape: str = known["shape"]
        choices_by_key: dict[str, core_schema.CoreSchema] = dict(schema["schema"]["choices"])
        rules: list[JsonSchemaValue] = [_type_check(["object"], f"must be {shape}")]
        snippets: list[JsonSchemaValue] = []
        for hint in INSTALL_HINTS:
            names = _present(hint.KEY, {"not": {"type": "null"}})
            if os_family not in hint.VALID_OS:
                then = {"properties": {hint.KEY: _refuse(wrong_os_message(hint))}}
                rules.append({"if": {"type": "object", **names}, "then": then})
                continue
            body = self.generate_inner(choices_by_key[hint.KEY])
            rules.append({"if": {"type": "object", **names}, "then": body})
            snippets.append(_snippet(hint.KEY, hint.__doc__, _required_examples(hint)))
        nothing = {"properties": {hint.KEY: {"type": "null"} for hint in INSTALL_HINTS}}
        rules.append({"if": {"type": "object", **nothing}, "then": _refuse(f"must be {shape}")})
        return {_TYPED: True, "allOf": rules, "defaultSnippets": snippets}

    def _refused(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``min_os_version`` under ``linux``: accepted only as null, refused with the reason."""
        return {_TYPED: True, "allOf": [_refuse(MIN_OS_VERSION_LINUX)]}

    def _text_rules(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``TextRules.check``: the rules' patterns, in the order the parser checks them."""
        text_rules = cast("TextRules", function.__self__)
        return _with_patterns(self._inner(schema), text_rules.rules)

    def _presence(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``_check_presence``: a location kind must find what the block's ``presence`` says."""
        generated = self._inner(schema)
        model, pending = self._frames[-1]
        field = model.model_fields["locations"]
        key = field.alias or "locations"
        tags = set(_union_tags(schema["schema"]))
        for presence in PRESENCES:
            others = [v for v in KIND_LOCATIONS if v.KIND in tags and presence != v.PRESENCE]
            if not others:
                continue
            refusals = {
                "allOf": [
                    {
                        "if": _kind_is(variant.KIND),
                        "then": {
                            "properties": {
                                "kind": _refuse(presence_mismatch_message(variant, presence))
                            }
                        },
                    }
                    for variant in others
                ]
            }
            pending.append(
                {
                    "$comment": "presence_mismatch",
                    "if": _present("presence", {"const": presence}),
                    "then": {
                        "properties": {
                            key: {
                                "if": {"type": "array"},
                                "then": {"items": refusals},
                                "else": copy.deepcopy(refusals),
                            }
                        }
                    },
                }
            )
        return generated

    def _at_least_one_os(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``AppBlock._at_least_one``: some OS block is present and not null."""
        generated = self._inner(schema)
        # Known keys only, each OS key absent or null: the parser's verdict when the block is
        # otherwise valid (an unknown key is its own problem, and stops this check).
        known = AppBlock.accepted_keys()
        nothing = {
            "properties": {key: {"type": "null"} if key in OS_FAMILIES else True for key in known},
            "additionalProperties": False,
        }
        _add_rule(
            generated, {"$comment": "no_os_block", "if": nothing, "then": _refuse(NO_OS_BLOCK)}
        )
        return generated

    def _minimum_needs_app(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``min_version``'s check that ``app`` is true: a rule on the enclosing ``requires``."""
        self._frames[-1][1].append(
            {
                "$comment": "min_version_needs_app",
                "if": {
                    "required": ["min_version"],
                    "properties": {
                        "min_version": {"type": "string"},
                        "app": {"enum": [False, None]},
                    },
                },
                "then": {"properties": {"min_version": _refuse(MIN_VERSION_NEEDS_APP)}},
            }
        )
        return self._inner(schema)

    def _cross_check(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``RequiresWithApp._cross_check``: ``requires`` judged against the ``app`` block.

        Each rule is ``if`` (the rule is broken) ``then`` (refuse the value the parser reports
        at), so an editor shows the parser's message at the parser's place. Conditions use no
        ``anyOf``: an editor would show its branches' (absent) descriptions on hover.
        """
        generated = self._inner(schema)

        def at_requires(key: str, message: str) -> JsonSchemaValue:
            return {"properties": {"requires": {"properties": {key: _refuse(message)}}}}

        app_true = {"type": "object", **_present("app", {"const": True})}
        _add_rule(
            generated,
            {
                "$comment": "app_block_required",
                "if": {
                    "required": ["requires"],
                    "properties": {"requires": app_true, "app": {"type": "null"}},
                },
                "then": at_requires("app", APP_BLOCK_REQUIRED),
            },
        )
        minimum = {
            "type": "object",
            "required": ["app", "min_version"],
            "properties": {"app": {"const": True}, "min_version": {"type": "string"}},
        }
        sourced = [
            os_family
            for os_family in OS_FAMILIES
            if any(
                os_family in variant.VALID_OS
                for variant in VERSION_VARIANTS
                if variant.KIND != NoVersion.KIND
            )
        ]
        unsourced = [os_family for os_family in OS_FAMILIES if os_family not in sourced]

        def when(app: JsonSchemaValue) -> JsonSchemaValue:
            return {
                "required": ["requires", "app"],
                "properties": {"requires": minimum, "app": {"type": "object", **app}},
            }

        _add_rule(
            generated,
            {
                "$comment": "min_version_linux_only",
                "if": when(
                    {
                        "properties": {os_family: {"type": "null"} for os_family in sourced},
                        "not": {"properties": {os: {"type": "null"} for os in unsourced}},
                    }
                ),
                "then": at_requires("min_version", MIN_VERSION_LINUX_ONLY),
            },
        )
        with_source = _present(
            "version",
            {
                "type": "object",
                **_present("kind", {"type": "string", "not": {"const": NoVersion.KIND}}),
            },
        )

        def lacking(os_family: str) -> JsonSchemaValue:
            return _present(os_family, {"type": "object", "not": with_source})

        for size in range(1, len(sourced) + 1):
            for blocks in itertools.combinations(sourced, size):
                conditions = [
                    lacking(os) if os in blocks else {"not": lacking(os)} for os in sourced
                ]
                _add_rule(
                    generated,
                    {
                        "$comment": "min_version_no_version_source",
                        "if": when({"allOf": conditions}),
                        "then": at_requires("min_version", no_version_source_message(blocks)),
                    },
                )
        return generated


_RULES: dict[CodeType, _Rule] = {
    code_of(FrozenModel._validate_mapping): _Generator._mapping,
    code_of(Declaration._carry_name): _Generator._same,
    nested_code(one_of, "check"): _Generator._same,
    code_of(KindUnion.__call__): _Generator._kind_union,
    code_of(as_location_list): _Generator._location_list,
    code_of(as_hint_list): _Generator._hint_list,
    nested_code(hint_item, "check_hint"): _Generator._hint_union,
    code_of(as_arch_list): _Generator._arch_list,
    code_of(_no_os_version_on_linux): _Generator._refused,
    code_of(TextRules.check): _Generator._text_rules,
    code_of(_check_presence): _Generator._presence,
    code_of(AppBlock._at_least_one): _Generator._at_least_one_os,
    code_of(_minimum_needs_app): _Generator._minimum_needs_app,
    code_of(RequiresWithApp._cross_check): _Generator._cross_check,
}


# --- from generated definitions to a schema document ------------------------------------------

_SCHEMA_IN_PLACE = ("items", "not", "if", "then", "else", "additionalProperties", "propertyNames")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_SCHEMA_MAPS = ("properties", "$defs", "definitions")
_FIRST_KEYS = ("$schema", "$id", "title", "description", "markdownDescription", "$comment", "$ref")
_LAST_KEYS = ("$defs", "definitions")


def _transform(
    schema: JsonSchemaValue, visit: Callable[[JsonSchemaValue], JsonSchemaValue]
) -> JsonSchemaValue:
    """Rebuild a schema bottom-up through ``visit``; data such as ``default`` is copied as is."""
    rebuilt: JsonSchemaValue = {}
    for key, value in schema.items():
        if key in _SCHEMA_IN_PLACE and isinstance(value, dict):
            rebuilt[key] = _transform(value, visit)
        elif key in _SCHEMA_LISTS:
            rebuilt[key] = [_transform(branch, visit) for branch in value]
        elif key in _SCHEMA_MAPS:
            rebuilt[key] = {
                name: _transform(branch, visit) if isinstance(branch, dict) else branch
                for name, branch in value.items()
            }
        else:
            rebuilt[key] = copy.deepcopy(value)
    return visit(rebuilt)


def _finish(node: JsonSchemaValue) -> JsonSchemaValue:
    """Render the private markers: a model's type check, and each value's described meaning."""
    node.pop("title", None)
    if _TITLE in node:
        node["title"] = node.pop(_TITLE)
    nullable = node.pop(_NULLABLE, False)
    node.pop(_TYPED, None)
    message = node.pop(_OBJECT, None)
    if message is not None:
        node.setdefault("allOf", []).insert(
            0, _type_check(["object", "null"] if nullable else ["object"], message)
        )
    meanings = node.pop(MEANINGS_KEY, None)
    if meanings is not None:
        node["enumDescriptions"] = meanings
        _described(node, "enumDescriptions", "markdownEnumDescriptions")
    _described(node, "description", "markdownDescription")
    for snippet in node.get("defaultSnippets", ()):
        _described(snippet, "description", "markdownDescription")
    return node


def _ordered(node: JsonSchemaValue) -> JsonSchemaValue:
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


def _for_draft_07(node: JsonSchemaValue) -> JsonSchemaValue:
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


def _references(node: Any, found: dict[str, set[bool]]) -> None:
    """Every ``$ref`` below ``node``: whether each slot naming a definition accepts null."""
    if isinstance(node, dict):
        reference = node.get("$ref")
        if isinstance(reference, str):
            name = reference.removeprefix("#/$defs/")
            found.setdefault(name, set()).add(bool(node.get(_NULLABLE)))
        for value in node.values():
            _references(value, found)
    elif isinstance(node, list):
        for value in node:
            _references(value, found)


def _definitions() -> dict[str, JsonSchemaValue]:
    """Every definition, the declaration's ``{app, requires}`` object named ``Declaration``."""
    generator = _Generator(ref_template="#/$defs/{model}")
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
        name = node.pop(_HOIST, None)
        if name is None:
            return node
        if hoisted.setdefault(name, node) != node:
            raise ValueError(f"two different schemas named {name}")
        return {"$ref": f"#/$defs/{name}"}

    definitions = {names[name]: _transform(body, hoist) for name, body in generated.items()}
    definitions.update(hoisted)
    definitions[DECLARATION_DEF][_OBJECT] = (
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
            body[_NULLABLE] = True
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
        document.update(_type_check(["object"], TOP_LEVEL_MESSAGE))
        document["propertyNames"] = _with_patterns(
            {"description": "The configured server name."}, NON_BLANK.rules
        )
        document["additionalProperties"] = {
            "$ref": reference,
            "description": "The server's application declaration.",
        }
    document["$defs"] = _definitions()
    document = _transform(document, _finish)
    if dialect == "draft-07":
        document = _transform(document, _for_draft_07)
    return _transform(document, _ordered)


def json_schema(dialect: Dialect = "2020-12", *, single: bool = False) -> dict[str, Any]:
    """The JSON Schema of a declarations file, or with ``single`` of one ``{app, requires}``."""
    if dialect not in DIALECTS:
        raise ValueError(f"dialect must be one of {', '.join(DIALECTS)} (got {dialect!r})")
    return copy.deepcopy(_document(dialect, bool(single)))


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


if __name__ == "__main__":
    sys.exit(main())
