"""The JSON Schema of declarations, for editors and hosts, generated from the models (SPEC 10).

Pydantic generates the structure (every model, field, description, default and ``kind`` union);
a generator subclass maps each validator function the models use to what JSON Schema can say
about it (a pattern per path rule, null as absent, one place or a non-empty list, the cross-field
rules as ``if``/``then``), and refuses a validator it does not know, so the schema cannot silently
fall behind the parser. What no dialect can express is listed in ``SCHEMA_LIMITS``.

Patterns are ECMA-262 (no lookbehind, only syntax characters escaped, valid with the ``u`` flag)
and avoid ``$``, which Python's ``re`` also matches before a final newline.
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType
from typing import Any, Literal, cast

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from hermes_decl.models import rules
from hermes_decl.models.app import AppBlock, AppDef, _no_os_version_on_linux, one_of
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, PRESENCES, OsFamily
from hermes_decl.models.declaration import Declaration
from hermes_decl.models.install import as_hint_list, hint_item
from hermes_decl.models.kinds import KindVariant, kind_union
from hermes_decl.models.liveness import ServerJsonLiveness
from hermes_decl.models.locations import (
    KIND_LOCATIONS,
    PathLocation,
    _check_presence,
    as_location_list,
)
from hermes_decl.models.requires import (
    RequiresWithApp,
    _min_version_form,
    _minimum_needs_app,
    as_arch_list,
)
from hermes_decl.models.text_rules import SPACE_CLASS, TextRules
from hermes_decl.models.version import VERSION_VARIANTS, NoVersion

Dialect = Literal["2020-12", "draft-07"]
DIALECTS: tuple[Dialect, ...] = ("2020-12", "draft-07")

META_SCHEMAS: dict[Dialect, str] = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
}

SCHEMA_ID_BASE = "https://hermes-decl.dev/schema/"
"""Every schema's ``$id`` is this base followed by its committed file name."""

SCHEMA_FILES: tuple[tuple[str, Dialect, bool], ...] = (
    ("declarations.schema.json", "2020-12", False),
    ("declarations.draft-07.schema.json", "draft-07", False),
    ("declaration.schema.json", "2020-12", True),
    ("declaration.draft-07.schema.json", "draft-07", True),
)
"""The committed copies under ``schema/``: (file name, dialect, single declaration)."""

REGENERATE = "python -m hermes_decl.schema --write schema/"
"""The command that rewrites the committed copies."""

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
as absent, and the cross-field rules of ``requires`` are all patterns, ``oneOf`` branches or
``if``/``then`` in both dialects.
"""

_PATH_EXAMPLES: dict[OsFamily, tuple[str, ...]] = {
    "win32": ("%ProgramFiles%/Vendor/Vendor App */vendor.exe", "C:\\Vendor\\vendor.exe"),
    "darwin": ("/Applications/Vendor.app", "~/Applications/Vendor *.app"),
    "linux": ("/opt/vendor/bin/vendor", "$HOME/.local/bin/vendor"),
}
_RUNTIME_FILE_EXAMPLES: dict[OsFamily, tuple[str, ...]] = {
    "win32": ("%LOCALAPPDATA%/Vendor/McpServer/server.json",),
    "darwin": ("~/Library/Application Support/Vendor/server.json",),
    "linux": ("$XDG_RUNTIME_DIR/vendor/server.json",),
}


# --- string rules as ECMA-262 patterns -----------------------------------------------------------


_SPACE = SPACE_CLASS
_WS = f"[{_SPACE}]*"
_NOT_BLANK = f"[^{_SPACE}]"
_ANY = r"[\s\S]*"
_END = r"(?![\s\S])"
_SEP = r"[\\/]"
_POSIX_VAR = r"\$(?:[A-Za-z_]|\{[A-Za-z_][A-Za-z0-9_]*\})"
_TILDE = r"~[^\\/]*(?:[\\/]|" + _END + ")"
_DRIVE = r"[A-Za-z]:[\\/]"
_WINDOWS_VAR = r"%[^%=/\\]+%"


@dataclass(frozen=True)
class _Pattern:
    """One string rule of the parser: its issue code, an ECMA-262 pattern, the editor message."""

    code: str
    pattern: str
    message: str

    def schema(self) -> JsonSchemaValue:
        return {"pattern": self.pattern, "patternErrorMessage": self.message}


_BLANK = _Pattern("blank", _NOT_BLANK, "must not be blank")


def _parent_segment(dots: str, *, stripped: bool) -> str:
    """A lookahead refusing a segment of ``dots`` bounded by separators or the text's ends."""
    edge = _WS if stripped else ""
    segment_end = f"(?:{_SEP}|{edge}{_END})"
    return f"^(?!{edge}{dots}{segment_end})(?!{_ANY}{_SEP}{dots}{segment_end})"


_DEVICE_NAME = (
    r"(?:[Cc][Oo][Nn](?:[Ii][Nn]\$|[Oo][Uu][Tt]\$)?|[Pp][Rr][Nn]|[Aa][Uu][Xx]|[Nn][Uu][Ll]"
    r"|(?:[Cc][Oo][Mm]|[Ll][Pp][Tt])[0-9\u00b9\u00b2\u00b3])"
)


def _device_segment(*, stripped: bool) -> _Pattern:
    """A lookahead refusing a segment Windows opens as a device (``rules.windows_device_name``)."""
    edge = _WS if stripped else ""
    segment = f"{_DEVICE_NAME} *(?:[.:]|{_SEP}|{edge}{_END})"
    return _Pattern(
        "path_device",
        f"^(?!{edge}{segment})(?!{_ANY}{_SEP}{segment})",
        rules.DEVICE_SEGMENT_MESSAGE,
    )


def _path_patterns(os_family: OsFamily, *, star: bool) -> list[_Pattern]:
    """The rules of ``rules.location_path`` for one OS, on the unstripped string."""
    if os_family == "win32":
        roots = [_DRIVE, _TILDE, _POSIX_VAR, _WINDOWS_VAR]
        rooted = "must start at a drive root (C:\\ or C:/), or with ~, %VAR% or $VAR"
        dots = r"\.\.[. ]*"
    else:
        roots = ["/", _TILDE, _POSIX_VAR]
        rooted = "must start with /, ~ or $VAR (a leading %VAR% is a Windows form)"
        dots = r"\.\."
    patterns = [
        _BLANK,
        _Pattern("path_nul", r"^[^\u0000]*" + _END, "must not contain a NUL character"),
        _Pattern(
            "path_network",
            f"^{_WS}(?![{_SPACE}]|{_SEP}{_SEP})",
            "must not start with two separators: UNC, device and network paths are not allowed",
        ),
        _Pattern(
            "path_url", f"^(?!{_ANY}[A-Za-z][A-Za-z0-9+.-]*://)", "must be a file path, not a URL"
        ),
        _Pattern(
            "path_parent",
            _parent_segment(dots, stripped=True),
            "must not contain a '..' segment",
        ),
        _Pattern(
            "path_double_star",
            rf"^(?!{_ANY}\*\*)",
            "must not contain '**'; '*' matches text within one folder",
        ),
    ]
    if not star:
        patterns.append(_Pattern("path_star", r"^[^*]*" + _END, "must not contain '*'"))
    if os_family == "win32":
        patterns.append(_device_segment(stripped=True))
    patterns.append(_Pattern("path_not_rooted", f"^{_WS}(?:{'|'.join(roots)})", rooted))
    return patterns


_SEGMENT = r"(?!\.\.[. ]*(?:[\\/]|" + _END + r"))[^\\/:\u0000]+"

_BARE_NAME = [
    _BLANK,
    _Pattern(
        "bad_name",
        r"^[^\u0000\\/:]*" + _END,
        "must be a bare name without '/', '\\' or ':', and not '..'",
    ),
    _Pattern(
        "bad_name",
        f"^(?!{_WS}\\.\\.{_WS}{_END})",
        "must be a bare name without '/', '\\' or ':', and not '..'",
    ),
]
_RELATIVE_FILE = [
    _BLANK,
    _Pattern(
        "bad_file",
        f"^{_SEGMENT}(?:{_SEP}{_SEGMENT})*{_END}",
        "must be a relative path inside the install folder: no leading separator, no ':', "
        "no empty or '..' segment",
    ),
    _device_segment(stripped=False),
]
_KEY_NAME = [
    _Pattern(
        "bad_key_name",
        "^[A-Za-z0-9_.-]+" + _END,
        "must be a simple key name of letters, digits, '_', '.' or '-'",
    )
]
_ENDPOINT_MESSAGE = (
    "must be a plain absolute path such as '/mcp': letters, digits and . _ ~ / - only, "
    "no '..' segment, query, fragment or leading '//'"
)
_ENDPOINT_PATH = [
    _Pattern("bad_endpoint_path", "^/[A-Za-z0-9._~/-]*" + _END, _ENDPOINT_MESSAGE),
    _Pattern("bad_endpoint_path", "^(?!//)", _ENDPOINT_MESSAGE),
    _Pattern("bad_endpoint_path", f"^(?!{_ANY}/\\.\\.(?:/|{_END}))", _ENDPOINT_MESSAGE),
]
_MIN_VERSION = [
    _Pattern(
        "bad_version",
        r"^[0-9]{1,9}(?:\.[0-9]{1,9})*" + _END,
        "must be a dotted numeric version such as '2.3.0', each part at most 9 digits",
    )
]
_SERVER_NAME = [_BLANK]


def _with_patterns(schema: JsonSchemaValue, patterns: Iterable[_Pattern]) -> JsonSchemaValue:
    """Add string rules to a schema: one ``allOf`` entry each, so an editor names the one broken."""
    entries = [pattern.schema() for pattern in patterns]
    schema.setdefault("allOf", []).extend(entries)
    return schema


def _path_schema(
    os_family: OsFamily, *, star: bool, description: str, examples: Sequence[str]
) -> JsonSchemaValue:
    schema: JsonSchemaValue = {
        "type": "string",
        "description": description,
        "examples": list(examples),
    }
    return _with_patterns(schema, _path_patterns(os_family, star=star))


# --- the generator: one rule per validator function of the models --------------------------------

_FunctionSchema = (
    core_schema.BeforeValidatorFunctionSchema
    | core_schema.AfterValidatorFunctionSchema
    | core_schema.WrapValidatorFunctionSchema
)
_Rule = Callable[["_Generator", _FunctionSchema, Any], JsonSchemaValue]

_HOIST = "x-hermes-def"
"""A private marker: the subschema it marks moves into ``$defs`` under the marked name."""


def _code_of(function: object) -> CodeType:
    inner = getattr(function, "__func__", function)
    code = getattr(inner, "__code__", None)
    if not isinstance(code, CodeType):
        raise TypeError(f"cannot identify validator {function!r}")
    return code


def _nested_code(outer: Callable[..., Any], name: str) -> CodeType:
    """The code of the function ``name`` defined inside ``outer`` (a closure such as a check)."""
    for constant in outer.__code__.co_consts:
        if isinstance(constant, CodeType) and constant.co_name == name:
            return constant
    raise LookupError(f"{outer.__qualname__} defines no {name}")


_HINT_KEY = _nested_code(hint_item, "key_of")
"""The discriminator of install hints, which are keyed by the package manager they name."""


def _or_null(schema: JsonSchemaValue) -> JsonSchemaValue:
    """Accept null as well (the parser reads null as absent), keeping annotations outside."""
    if schema.get("type") == "null" or {"type": "null"} in schema.get("anyOf", []):
        return schema
    annotations: JsonSchemaValue = {
        key: schema.pop(key) for key in ("description", "default", "examples") if key in schema
    }
    return {"anyOf": [schema, {"type": "null"}], **annotations}


def _add_rule(schema: JsonSchemaValue, rule: JsonSchemaValue) -> None:
    schema.setdefault("allOf", []).append(rule)


def _present(key: str, condition: JsonSchemaValue) -> JsonSchemaValue:
    """A condition that ``key`` is present and matches ``condition`` (null never does)."""
    return {"required": [key], "properties": {key: condition}}


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


class _Generator(GenerateJsonSchema):
    """Pydantic's generator, with each validator of the models mapped to its JSON Schema rule."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._frames: list[tuple[type[FrozenModel], list[JsonSchemaValue]]] = []

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        """Keep the generated order: ``_ordered`` sorts keywords, and examples stay as written."""
        return value

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
        """A union: ``oneOf`` its variants, plus ``if kind is K then variant K`` hints.

        An install hint is keyed by the package manager it names, not by ``kind``: its hint is
        ``if key K is present then variant K``.
        """
        branches: list[JsonSchemaValue] = []
        hints: list[JsonSchemaValue] = []
        keyed = callable(schema["discriminator"]) and _code_of(schema["discriminator"]) == _HINT_KEY
        for tag, choice in schema["choices"].items():
            branch = self.generate_inner(choice)
            branches.append(branch)
            if keyed:
                condition = {"type": "object", **_present(str(tag), {"type": "string"})}
                hints.append({"if": condition, "then": copy.deepcopy(branch)})
            elif tag != PathLocation.KIND:
                condition = {"type": "object", **_present("kind", {"const": tag})}
                hints.append({"if": condition, "then": copy.deepcopy(branch)})
        return {"oneOf": branches, "allOf": hints}

    def _validator(self, schema: _FunctionSchema) -> JsonSchemaValue:
        function = schema["function"]["function"]
        rule = _RULES.get(_code_of(function))
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
        """A check whose rule the inner schema already states (a ``Literal``, a ``kind`` union)."""
        return self._inner(schema)

    def _mapping(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``FrozenModel``'s mapping check: null is absent; a path location is a bare string."""
        model = cast("type[FrozenModel]", function.__self__)
        if issubclass(model, PathLocation):
            os_family = model.OS_FAMILY
            return _path_schema(
                os_family,
                star=True,
                description=f"{model.__doc__} {PathLocation.__doc__}",
                examples=_PATH_EXAMPLES[os_family],
            )
        self._frames.append((model, []))
        generated = self._inner(schema)
        _, pending = self._frames.pop()
        required = set(generated.get("required", ()))
        properties: dict[str, JsonSchemaValue] = generated.get("properties", {})
        for key, value in properties.items():
            if key not in required:
                properties[key] = _or_null(value)
        for rule in pending:
            _add_rule(generated, rule)
        if issubclass(model, KindVariant):
            generated["examples"] = [_variant_example(model, properties, required)]
        return generated

    def _location_list(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_location_list``: one place, or a non-empty list of places."""
        model = self._frames[-1][0]
        if not issubclass(model, AppDef):
            raise TypeError(f"a location list outside an AppDef: {model.__name__}")
        item = self._inner(schema)["items"]
        os_family = model.os_family
        kinds = " or ".join(
            tag for tag in _union_tags(schema["schema"]) if tag != PathLocation.KIND
        )
        item[_HOIST] = f"{os_family.capitalize()}Location"
        item["description"] = (
            f"One place to look under app.{os_family}: a path, or a mapping with kind {kinds}."
        )
        return {"anyOf": [item, {"type": "array", "minItems": 1, "items": item}]}

    def _hint_list(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_hint_list``: one install hint, or a non-empty list of hints."""
        model = self._frames[-1][0]
        if not issubclass(model, AppDef):
            raise TypeError(f"an install list outside an AppDef: {model.__name__}")
        item = self._inner(schema)["items"]
        os_family = model.os_family
        keys = " or ".join(str(tag) for tag in _union_tags(schema["schema"]))
        item[_HOIST] = f"{os_family.capitalize()}InstallHint"
        item["description"] = (
            f"One way to install the application under app.{os_family}: a mapping with {keys}."
        )
        return {"anyOf": [item, {"type": "array", "minItems": 1, "items": item}]}

    def _arch_list(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_arch_list``: one architecture, or a non-empty list naming each at most once."""
        item = self._inner(schema)["items"]
        item[_HOIST] = "Arch"
        item["description"] = "A processor architecture, as the machine natively runs it."
        listed = {"type": "array", "minItems": 1, "uniqueItems": True, "items": item}
        return {"anyOf": [item, listed]}

    def _refused(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """A key accepted only as null, whose every value the parser refuses with a reason."""
        return {"not": {}}

    def _text_rules(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``TextRules.check``: the very patterns the parser checks, in the same order."""
        text_rules = cast("TextRules", function.__self__)
        patterns = [_Pattern(rule.code, rule.pattern, rule.message) for rule in text_rules.rules]
        return _with_patterns(self._inner(schema), patterns)

    def _presence(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``_check_presence``: a location kind must find what the block's ``presence`` says."""
        generated = self._inner(schema)
        model, pending = self._frames[-1]
        field = model.model_fields["locations"]
        key = field.alias or "locations"
        presence_of = {variant.KIND: variant.PRESENCE for variant in KIND_LOCATIONS}
        tags = [tag for tag in _union_tags(schema["schema"]) if tag in presence_of]
        for presence in PRESENCES:
            others = [tag for tag in tags if presence_of[tag] != presence]
            if not others:
                continue
            mismatch = {"type": "object", **_present("kind", {"enum": others})}
            pending.append(
                {
                    "$comment": "presence_mismatch",
                    "if": _present("presence", {"const": presence}),
                    "then": {"properties": {key: {"not": mismatch, "items": {"not": mismatch}}}},
                }
            )
        return generated

    def _runtime_file(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``ServerJsonLiveness._path_rules``: a location path of the variant's OS, no ``*``."""
        model = cast("type[ServerJsonLiveness]", function.__self__)
        os_family = model.OS_FAMILY
        generated = _with_patterns(self._inner(schema), _path_patterns(os_family, star=False))
        generated["examples"] = list(_RUNTIME_FILE_EXAMPLES[os_family])
        return generated

    def _at_least_one_os(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``AppBlock._at_least_one``: some OS block is present and not null."""
        generated = self._inner(schema)
        blocks = [_present(os_family, {"type": "object"}) for os_family in OS_FAMILIES]
        _add_rule(generated, {"$comment": "no_os_block", "anyOf": blocks})
        return generated

    def _minimum_needs_app(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``min_version``'s check that ``app`` is true: a rule on the enclosing ``requires``."""
        self._frames[-1][1].append(
            {
                "$comment": "min_version_needs_app",
                "if": _present("min_version", {"type": "string"}),
                "then": _present("app", {"const": True}),
            }
        )
        return self._inner(schema)

    def _cross_check(self, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        """``RequiresWithApp._cross_check``: ``requires`` judged against the ``app`` block."""
        generated = self._inner(schema)
        _add_rule(
            generated,
            {
                "$comment": "app_block_required",
                "if": _present("requires", {"type": "object", **_present("app", {"const": True})}),
                "then": _present("app", {"type": "object"}),
            },
        )
        minimum = _present(
            "requires", {"type": "object", **_present("min_version", {"type": "string"})}
        )
        sourced = [
            os_family
            for os_family in OS_FAMILIES
            if any(
                os_family in variant.VALID_OS
                for variant in VERSION_VARIANTS
                if variant.KIND != NoVersion.KIND
            )
        ]
        _add_rule(
            generated,
            {
                "$comment": "min_version_linux_only",
                "if": minimum,
                "then": _present(
                    "app",
                    {
                        "type": "object",
                        "anyOf": [_present(os_family, {"type": "object"}) for os_family in sourced],
                    },
                ),
            },
        )
        real_kind = {"type": "string", "not": {"const": NoVersion.KIND}}
        with_source = {
            "type": "object",
            **_present("version", {"type": "object", **_present("kind", real_kind)}),
        }
        _add_rule(
            generated,
            {
                "$comment": "min_version_no_version_source",
                "if": minimum,
                "then": {
                    "properties": {
                        "app": {
                            "properties": {
                                os_family: {"anyOf": [{"type": "null"}, with_source]}
                                for os_family in sourced
                            }
                        }
                    }
                },
            },
        )
        return generated


def _strings(patterns: Sequence[_Pattern]) -> _Rule:
    """The rule of a string check: its patterns, added to the string schema."""

    def rule(generator: _Generator, schema: _FunctionSchema, function: Any) -> JsonSchemaValue:
        return _with_patterns(generator._inner(schema), patterns)

    return rule


def _variant_example(
    model: type[KindVariant], properties: dict[str, JsonSchemaValue], required: set[str]
) -> dict[str, object]:
    """A mapping of one ``kind``: the kind, then the first example of each required key."""
    example: dict[str, object] = {"kind": model.KIND}
    for key, value in properties.items():
        if key in required and key != "kind":
            examples = value.get("examples")
            if not examples:
                raise LookupError(f"{model.__name__}.{key} needs examples for the JSON Schema")
            example[key] = examples[0]
    return example


_RULES: dict[CodeType, _Rule] = {
    _code_of(FrozenModel._validate_mapping): _Generator._mapping,
    _code_of(Declaration._carry_name): _Generator._same,
    _nested_code(one_of, "check"): _Generator._same,
    _nested_code(kind_union, "check_kind"): _Generator._same,
    _code_of(as_location_list): _Generator._location_list,
    _code_of(as_hint_list): _Generator._hint_list,
    _nested_code(hint_item, "check_hint"): _Generator._same,
    _code_of(as_arch_list): _Generator._arch_list,
    _code_of(_no_os_version_on_linux): _Generator._refused,
    _code_of(TextRules.check): _Generator._text_rules,
    _code_of(_check_presence): _Generator._presence,
    _code_of(ServerJsonLiveness._path_rules): _Generator._runtime_file,
    _code_of(AppBlock._at_least_one): _Generator._at_least_one_os,
    _code_of(_minimum_needs_app): _Generator._minimum_needs_app,
    _code_of(RequiresWithApp._cross_check): _Generator._cross_check,
}
for _function, _patterns in (
    (rules.bare_name, _BARE_NAME),
    (rules.relative_file, _RELATIVE_FILE),
    (rules.non_blank, [_BLANK]),
    (rules.key_name, _KEY_NAME),
    (rules.endpoint_path, _ENDPOINT_PATH),
    (_min_version_form, _MIN_VERSION),
):
    _RULES[_code_of(_function)] = _strings(_patterns)


# --- from generated definitions to a schema document ------------------------------------------

_SCHEMA_IN_PLACE = ("items", "not", "if", "then", "else", "additionalProperties", "propertyNames")
_SCHEMA_LISTS = ("allOf", "anyOf", "oneOf")
_SCHEMA_MAPS = ("properties", "$defs", "definitions")
_FIRST_KEYS = ("$schema", "$id", "title", "description", "$comment", "$ref", "type")
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
            rebuilt[key] = {name: _transform(branch, visit) for name, branch in value.items()}
        else:
            rebuilt[key] = copy.deepcopy(value)
    return visit(rebuilt)


def _tidy(node: JsonSchemaValue) -> JsonSchemaValue:
    """Drop Pydantic's class-name titles and write docstring ``code`` as Markdown `code`."""
    node.pop("title", None)
    if isinstance(node.get("description"), str):
        node["description"] = node["description"].replace("``", "`")
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


def _for_draft_07(node: JsonSchemaValue) -> JsonSchemaValue:
    """Draft-07 form: ``definitions``, and a ``$ref`` never beside keywords it would silence."""
    if "$defs" in node:
        node["definitions"] = node.pop("$defs")
    reference = node.get("$ref")
    if isinstance(reference, str):
        node["$ref"] = reference.replace("#/$defs/", "#/definitions/", 1)
        if len(node) > 1:
            node["allOf"] = [{"$ref": node.pop("$ref")}, *node.get("allOf", [])]
    return node


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

    def rewrite(node: JsonSchemaValue) -> JsonSchemaValue:
        node = _tidy(node)
        reference = node.get("$ref")
        if isinstance(reference, str):
            node["$ref"] = "#/$defs/" + names[reference.removeprefix("#/$defs/")]
        name = node.pop(_HOIST, None)
        if name is None:
            return node
        if hoisted.setdefault(name, node) != node:
            raise ValueError(f"two different schemas named {name}")
        return {"$ref": f"#/$defs/{name}"}

    definitions = {names[name]: _transform(body, rewrite) for name, body in generated.items()}
    definitions.update(hoisted)
    definitions[DECLARATION_DEF]["description"] = (
        "One server's application declaration: where the application is on each OS (app) "
        "and what must hold before the server is offered (requires)."
    )
    return definitions


def schema_file_name(dialect: Dialect, *, single: bool) -> str:
    """The committed file name of one schema, which is also the last segment of its ``$id``."""
    for name, file_dialect, file_single in SCHEMA_FILES:
        if (file_dialect, file_single) == (dialect, single):
            return name
    raise ValueError(f"dialect must be one of {', '.join(DIALECTS)} (got {dialect!r})")


@functools.cache
def _document(dialect: Dialect, single: bool) -> JsonSchemaValue:
    reference = f"#/$defs/{DECLARATION_DEF}"
    document: JsonSchemaValue = {
        "$schema": META_SCHEMAS[dialect],
        "$id": SCHEMA_ID_BASE + schema_file_name(dialect, single=single),
    }
    if single:
        document["title"] = "hermes_decl declaration"
        document["description"] = (
            "One application declaration {app, requires} of an MCP server (hermes_decl)."
        )
        document["$ref"] = reference
    else:
        document["title"] = "hermes_decl declarations file"
        document["description"] = (
            "A declarations file: each key is a configured MCP server name, each value that "
            "server's application declaration {app, requires} (hermes_decl)."
        )
        document["type"] = "object"
        document["propertyNames"] = _with_patterns(
            {"description": "The configured server name."}, _SERVER_NAME
        )
        document["additionalProperties"] = {
            "$ref": reference,
            "description": "The server's application declaration.",
        }
    document["$defs"] = _definitions()
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
    action.add_argument("--write", metavar="DIR", type=Path, help="write every schema file")
    action.add_argument("--check", metavar="DIR", type=Path, help="check the committed files")
    args = parser.parse_args(argv)
    if args.write is not None:
        for path in write_schemas(args.write):
            print(path)
        return 0
    if args.check is not None:
        stale = stale_schemas(args.check)
        for name in stale:
            print(f"{args.check / name}: out of date; run {REGENERATE}")
        return 1 if stale else 0
    sys.stdout.write(schema_text(args.dialect, single=args.single))
    return 0


if __name__ == "__main__":
    sys.exit(main())
