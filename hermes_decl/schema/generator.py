"""The JSON Schema generator: pydantic's, with each validator function of the models mapped to
what JSON Schema can say about it, and a validator it does not know refused, so that the schema
cannot silently fall behind the parser. A string rule renders itself (``TextRules`` carries its
patterns as ``__get_pydantic_json_schema__``); the generator only lets its check through.
"""

from __future__ import annotations

import copy
import inspect
import itertools
from collections.abc import Callable
from types import CodeType
from typing import Any, cast

from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from hermes_decl._text import choices
from hermes_decl.models.app_block import (
    MIN_OS_VERSION_LINUX,
    NO_OS_BLOCK,
    AppBlock,
    AppDef,
    _no_os_version_on_linux,
    one_of,
)
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import MEANINGS_KEY, OS_FAMILIES, PRESENCES, OsFamily
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
    PathLocation,
    _check_presence,
    as_location_list,
    presence_mismatch_message,
)
from hermes_decl.models.named_declaration import Declaration
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
from hermes_decl.models.validator_code import code_of, nested_code
from hermes_decl.models.version import VERSION_VARIANTS, NoVersion
from hermes_decl.schema.conventions import (
    KIND_HELP,
    MAPPING_MESSAGE,
    NULL_MEANING,
    OBJECT,
    PATH_EXAMPLES,
    TITLE,
    TYPED,
    add_rule,
    doc_of,
    kind_is,
    one_or_list,
    path_schema,
    plain_text,
    present_with,
    refusal,
    required_examples,
    slot_of,
    snippet_of,
    title_of,
    type_check,
    union_tags,
    variant_example,
)

# --- the generator: one rule per validator function of the models --------------------------------

FunctionSchema = (
    core_schema.BeforeValidatorFunctionSchema
    | core_schema.AfterValidatorFunctionSchema
    | core_schema.WrapValidatorFunctionSchema
)
_Rule = Callable[["Generator", FunctionSchema, Any], JsonSchemaValue]


class Generator(GenerateJsonSchema):
    """Pydantic's generator, with each validator of the models mapped to its JSON Schema rule."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._frames: list[tuple[type[FrozenModel], list[JsonSchemaValue]]] = []

    def sort(self, value: JsonSchemaValue, parent_key: str | None = None) -> JsonSchemaValue:
        """Keep the generated order: ``ordered`` sorts keywords, and examples stay as written."""
        return value

    def handle_ref_overrides(self, json_schema: JsonSchemaValue) -> JsonSchemaValue:
        """Keep a key's description beside its ``$ref`` even when the definition says the same."""
        return json_schema

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        """A path location is a bare string: the path rules of its OS block, with examples."""
        model = schema["cls"]
        if issubclass(model, PathLocation):
            os_family = model.OS_FAMILY
            path = path_schema(os_family, examples=PATH_EXAMPLES[os_family])
            path["$comment"] = plain_text(f"{doc_of(model)} {doc_of(PathLocation)}")
            return path
        return super().model_schema(schema)

    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        """``X | None``: the schema of X; every optional key accepts null, see ``slot_of``."""
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

    def _validator(self, schema: FunctionSchema) -> JsonSchemaValue:
        function = schema["function"]["function"]
        owner = getattr(function, "__self__", None)
        if not isinstance(owner, type) and hasattr(owner, "__get_pydantic_json_schema__"):
            # A rule object's check (not a model's): the object renders itself, as metadata.
            return self._inner(schema)
        rule = _RULES.get(code_of(function))
        if rule is None:
            name = getattr(function, "__qualname__", repr(function))
            raise TypeError(
                f"no JSON Schema rule for validator {name}: map it in "
                "hermes_decl.schema.generator, or list what it checks in SCHEMA_LIMITS"
            )
        return rule(self, schema, function)

    def _inner(self, schema: FunctionSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def _same(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """A check whose rule the inner schema already states (a ``Literal``)."""
        return self._inner(schema)

    def _mapping(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``FrozenModel``'s mapping check: optional keys accept null; a path is a bare string."""
        model = cast("type[FrozenModel]", function.__self__)
        self._frames.append((model, []))
        generated = self._inner(schema)
        _, pending = self._frames.pop()
        required = set(generated.get("required", ()))
        properties: dict[str, Any] = generated.get("properties", {})
        for key, value in properties.items():
            properties[key] = slot_of(value, nullable=key not in required)
        if issubclass(model, KindVariant):
            # The union states the kind; the variant only admits the key (see _kind_union).
            properties["kind"] = True
            generated["required"] = [key for key in generated.get("required", ()) if key != "kind"]
            if not generated["required"]:
                del generated["required"]
            generated["$comment"] = plain_text(doc_of(model))
            generated.pop("description", None)
        if issubclass(model, InstallHint):  # a variant: the union's slot describes it
            generated["$comment"] = plain_text(doc_of(model))
            generated.pop("description", None)
        if generated.get("required"):
            # Editors label the skeleton of a mapping's required keys with its title.
            generated[TITLE] = title_of(model)
        generated[OBJECT] = MAPPING_MESSAGE
        generated.pop("type", None)
        for rule in pending:
            add_rule(generated, rule)
        return generated

    def _kind_union(self, schema: FunctionSchema, union: KindUnion) -> JsonSchemaValue:
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
            {"if": {"const": variant.KIND}, "then": refusal(union.wrong_os_message(variant))}
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
        rules: list[JsonSchemaValue] = [type_check(types, f"must be {union.shape}")]
        snippets: list[JsonSchemaValue] = []
        if union.string_variant is not None:
            path = self.generate_inner(choices_by_tag[union.string_variant.KIND])
            rules.append({"if": {"type": "string"}, "then": path})
        for variant in union.variants:
            body = self.generate_inner(choices_by_tag[variant.KIND])
            default = union.default_kind == variant.KIND
            rules.append({"if": kind_is(variant.KIND, default=default), "then": body})
            example = variant_example(variant)
            if len(example) > 1:
                snippets.append(snippet_of(variant.KIND, doc_of(variant), example))
        generated: JsonSchemaValue = {
            TYPED: True,
            "allOf": rules,
            "properties": {"kind": kind},
        }
        if union.default_kind is None:
            generated["required"] = ["kind"]
        if snippets:
            generated["defaultSnippets"] = snippets
        return generated

    def _location_list(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_location_list``: one place, or a non-empty list of places."""
        os_family = self._app_def("location list").os_family
        item = self._inner(schema)["items"]
        item[TITLE] = f"app.{os_family}.location"
        item["$comment"] = f"One place to look under app.{os_family}."
        return one_or_list(item, EMPTY_LOCATION, hoist=f"{os_family.capitalize()}Location")

    def _hint_list(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_hint_list``: one install hint, or a non-empty list of hints."""
        os_family = self._app_def("install list").os_family
        item = self._inner(schema)["items"]
        item[TITLE] = f"app.{os_family}.install"
        item["$comment"] = f"One way to install the application under app.{os_family}."
        return one_or_list(item, EMPTY_HINTS, hoist=f"{os_family.capitalize()}InstallHint")

    def _arch_list(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``as_arch_list``: one architecture, or a non-empty list naming each at most once."""
        item = self._inner(schema)["items"]
        item["type"] = ["string"]
        item["errorMessage"] = f"must be {choices(ARCHES)}"
        item = {TYPED: True, "allOf": [type_check(["string"], item["errorMessage"]), item]}
        return one_or_list(item, EMPTY_ARCHES, unique=True)

    def _app_def(self, what: str) -> type[AppDef]:
        model = self._frames[-1][0]
        if not issubclass(model, AppDef):
            raise TypeError(f"a {what} outside an AppDef: {model.__name__}")
        return model

    def _hint_union(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``hint_item``'s check: a union keyed by the package manager a hint names.

        As a ``kind`` union: ``if key K is present then hint K``, no ``oneOf``, and a package
        manager of another OS named as such at its key.
        """
        known = inspect.getclosurevars(function).nonlocals
        os_family: OsFamily = known["os_family"]
        shape: str = known["shape"]
        choices_by_key: dict[str, core_schema.CoreSchema] = dict(schema["schema"]["choices"])
        rules: list[JsonSchemaValue] = [type_check(["object"], f"must be {shape}")]
        snippets: list[JsonSchemaValue] = []
        for hint in INSTALL_HINTS:
            names = present_with(hint.KEY, {"not": {"type": "null"}})
            if os_family not in hint.VALID_OS:
                then = {"properties": {hint.KEY: refusal(wrong_os_message(hint))}}
                rules.append({"if": {"type": "object", **names}, "then": then})
                continue
            body = self.generate_inner(choices_by_key[hint.KEY])
            rules.append({"if": {"type": "object", **names}, "then": body})
            snippets.append(snippet_of(hint.KEY, doc_of(hint), required_examples(hint)))
        nothing = {"properties": {hint.KEY: {"type": "null"} for hint in INSTALL_HINTS}}
        rules.append({"if": {"type": "object", **nothing}, "then": refusal(f"must be {shape}")})
        return {TYPED: True, "allOf": rules, "defaultSnippets": snippets}

    def _refused(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``min_os_version`` under ``linux``: accepted only as null, refused with the reason."""
        return {TYPED: True, "allOf": [refusal(MIN_OS_VERSION_LINUX)]}

    def _presence(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``_check_presence``: a location kind must find what the block's ``presence`` says."""
        generated = self._inner(schema)
        model, pending = self._frames[-1]
        field = model.model_fields["locations"]
        key = field.alias or "locations"
        tags = set(union_tags(schema["schema"]))
        for presence in PRESENCES:
            others = [v for v in KIND_LOCATIONS if v.KIND in tags and presence != v.PRESENCE]
            if not others:
                continue
            refusals = {
                "allOf": [
                    {
                        "if": kind_is(variant.KIND),
                        "then": {
                            "properties": {
                                "kind": refusal(presence_mismatch_message(variant, presence))
                            }
                        },
                    }
                    for variant in others
                ]
            }
            pending.append(
                {
                    "$comment": "presence_mismatch",
                    "if": present_with("presence", {"const": presence}),
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

    def _at_least_one_os(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``AppBlock._at_least_one``: some OS block is present and not null."""
        generated = self._inner(schema)
        # Known keys only, each OS key absent or null: the parser's verdict when the block is
        # otherwise valid (an unknown key is its own problem, and stops this check).
        known = AppBlock.accepted_keys()
        nothing = {
            "properties": {key: {"type": "null"} if key in OS_FAMILIES else True for key in known},
            "additionalProperties": False,
        }
        add_rule(
            generated, {"$comment": "no_os_block", "if": nothing, "then": refusal(NO_OS_BLOCK)}
        )
        return generated

    def _minimum_needs_app(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
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
                "then": {"properties": {"min_version": refusal(MIN_VERSION_NEEDS_APP)}},
            }
        )
        return self._inner(schema)

    def _cross_check(self, schema: FunctionSchema, function: Any) -> JsonSchemaValue:
        """``RequiresWithApp._cross_check``: ``requires`` judged against the ``app`` block.

        Each rule is ``if`` (the rule is broken) ``then`` (refuse the value the parser reports
        at), so an editor shows the parser's message at the parser's place. Conditions use no
        ``anyOf``: an editor would show its branches' (absent) descriptions on hover.
        """
        generated = self._inner(schema)

        def at_requires(key: str, message: str) -> JsonSchemaValue:
            return {"properties": {"requires": {"properties": {key: refusal(message)}}}}

        app_true = {"type": "object", **present_with("app", {"const": True})}
        add_rule(
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

        add_rule(
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
        with_source = present_with(
            "version",
            {
                "type": "object",
                **present_with("kind", {"type": "string", "not": {"const": NoVersion.KIND}}),
            },
        )

        def lacking(os_family: str) -> JsonSchemaValue:
            return present_with(os_family, {"type": "object", "not": with_source})

        for size in range(1, len(sourced) + 1):
            for blocks in itertools.combinations(sourced, size):
                conditions = [
                    lacking(os) if os in blocks else {"not": lacking(os)} for os in sourced
                ]
                add_rule(
                    generated,
                    {
                        "$comment": "min_version_no_version_source",
                        "if": when({"allOf": conditions}),
                        "then": at_requires("min_version", no_version_source_message(blocks)),
                    },
                )
        return generated


_RULES: dict[CodeType, _Rule] = {
    code_of(FrozenModel._validate_mapping): Generator._mapping,
    code_of(Declaration._carry_name): Generator._same,
    nested_code(one_of, "check"): Generator._same,
    code_of(KindUnion.__call__): Generator._kind_union,
    code_of(as_location_list): Generator._location_list,
    code_of(as_hint_list): Generator._hint_list,
    nested_code(hint_item, "check_hint"): Generator._hint_union,
    code_of(as_arch_list): Generator._arch_list,
    code_of(_no_os_version_on_linux): Generator._refused,
    code_of(_check_presence): Generator._presence,
    code_of(AppBlock._at_least_one): Generator._at_least_one_os,
    code_of(_minimum_needs_app): Generator._minimum_needs_app,
    code_of(RequiresWithApp._cross_check): Generator._cross_check,
}
