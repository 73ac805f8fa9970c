"""The fast validator: the models' own core schema, with each explaining check replaced by what
pydantic-core can say itself.

A valid declaration is validated by pydantic-core alone, but for the few rules nothing else can
say, once per declaration: a lone value read as a list of one, at least one OS block, and the
cross-field rules of ``requires``. The rest is said in the core schema: a string rule by its
``TextRules.accept`` pattern, a choice by its ``Literal``, an unknown key by ``extra='forbid'``,
a ``kind`` by a tagged union keyed by the ``kind`` key, and the kinds a block's ``presence``
allows by one variant of the block per presence.

The fast schema is derived from the explaining one (a string rule's check is replaced by the fast
form its ``TextRules`` gives; each other validator function the models use maps to a rule here),
so the two cannot describe different declarations; a function without a rule is refused when the
schema is built. It may
refuse a valid declaration (a null, which means "absent"; a mapping without ``kind`` for the
default kind; what a string rule ``leaves``): the parser then validates again with the
explaining schema, which says what is wrong or accepts it. It never accepts what the explaining
schema refuses, and builds the same models, with the same keys set; the tests compare the two on
every test declaration and fuzz seed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from types import CodeType
from typing import Any

from pydantic_core import CoreSchema, core_schema

from hermes_decl.models.app_block import AppBlock, AppDef, _no_os_version_on_linux, one_of
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import PRESENCES
from hermes_decl.models.install import as_hint_list, hint_item
from hermes_decl.models.kinds import KindUnion
from hermes_decl.models.locations import KindLocation, _check_presence, as_location_list
from hermes_decl.models.named_declaration import Declaration
from hermes_decl.models.requires import (
    ARCHES,
    RequiresWithApp,
    _minimum_needs_app,
    as_arch_list,
)
from hermes_decl.models.validator_code import code_of, nested_code


def one_or_list(value: Any) -> Any:
    """A list or tuple as it is; anything else as a list of one (the core schema says the rest)."""
    return value if type(value) is list or type(value) is tuple else (value,)


Node = dict[str, Any]


class _Derivation:
    """One walk over an explaining core schema, building its fast twin."""

    def node(self, schema: Any, presence: str | None = None) -> Any:
        if isinstance(schema, list):
            return [self.node(item, presence) for item in schema]
        if not isinstance(schema, dict):
            return schema
        kind = schema.get("type")
        if kind in ("function-before", "function-after", "function-wrap", "function-plain"):
            built = self.function(schema, presence)
        elif kind == "nullable":
            # null means absent: the explaining schema says so, and leaves the key unset.
            built = self.node(schema["schema"], presence)
        elif kind == "model":
            built = self.model(schema, presence)
        elif kind == "tagged-union":
            raise TypeError("a union the fast schema meets only through its explaining check")
        else:
            built = {key: self.node(value, presence) for key, value in schema.items()}
        if "ref" in schema and built.get("ref") != schema["ref"]:
            if "ref" in built:
                raise TypeError(f"two definitions in one place: {schema['ref']}, {built['ref']}")
            built = {**built, "ref": schema["ref"]}
        return built

    def function(self, schema: Node, presence: str | None) -> Any:
        function = schema["function"]["function"]
        fast = getattr(getattr(function, "__self__", None), "fast_schema", None)
        if fast is not None:
            return fast()  # a rule object's check: the object says its own fast form
        rule = _RULES.get(code_of(function))
        if rule is None:
            name = getattr(function, "__qualname__", repr(function))
            raise TypeError(f"no fast rule for validator {name}: map it in hermes_decl.models.fast")
        return rule(self, schema, function, presence)

    def inner(self, schema: Node, function: Any, presence: str | None) -> Any:
        """A check the inner schema already says (a ``Literal``, ``extra='forbid'``)."""
        return self.node(schema["schema"], presence)

    def refused(self, schema: Node, function: Any, presence: str | None) -> Any:
        """A key that no value may have (null is absent): refused here, explained there."""
        return core_schema.str_schema(pattern="^$", min_length=1)

    def kept(self, schema: Node, function: Any, presence: str | None) -> Any:
        """A rule only Python can say (a cross-field one): kept, once per value it judges."""
        return {**schema, "schema": self.node(schema["schema"], presence)}

    def one_or_list(self, schema: Node, function: Any, presence: str | None) -> Any:
        """One value or a non-empty list of them, as a tuple."""
        items = self.node(schema["schema"], presence)
        if items.get("type") != "tuple":
            raise TypeError(f"a list check over {items.get('type')}")
        listed = {**items, "strict": False, "min_length": 1}  # lax: a list becomes a tuple
        return core_schema.no_info_before_validator_function(one_or_list, listed)

    def arch_list(self, schema: Node, function: Any, presence: str | None) -> Any:
        """One architecture or a list naming each at most once: every order of every choice."""
        shapes: list[CoreSchema | tuple[CoreSchema, str]] = [
            core_schema.tuple_schema(
                [core_schema.literal_schema([arch]) for arch in chosen], strict=False
            )
            for size in range(1, len(ARCHES) + 1)
            for chosen in itertools.permutations(ARCHES, size)
        ]
        return core_schema.no_info_before_validator_function(
            one_or_list, core_schema.union_schema(shapes, mode="left_to_right")
        )

    def kind_union(self, schema: Node, union: KindUnion, presence: str | None) -> Any:
        """A ``kind`` union: the tagged union keyed by the ``kind`` key (a mapping without one is
        left to the explaining schema), a plain string tried as the path it stands for."""
        inner = schema["schema"]
        if inner["type"] != "tagged-union":
            return self.node(inner, presence)  # one variant under this OS block
        choices = dict(inner["choices"])
        if presence is not None and union.string_variant is not None:
            elsewhere = {
                variant.KIND
                for variant in union.every_variant
                if issubclass(variant, KindLocation) and presence != variant.PRESENCE
            }
            choices = {tag: choice for tag, choice in choices.items() if tag not in elsewhere}
        path = choices.pop(union.string_variant.KIND) if union.string_variant else None
        tagged = _keyed_by("kind", {tag: self.node(c, presence) for tag, c in choices.items()})
        if path is None:
            return tagged
        return core_schema.union_schema([self.node(path, presence), tagged], mode="left_to_right")

    def presence(self, schema: Node, function: Any, presence: str | None) -> Any:
        """A location kind must find the block's presence: said by the block's variant for that
        presence, whose location union holds only the kinds that find it."""
        if presence is None:
            raise TypeError("a presence check outside a block split by presence")
        return self.node(schema["schema"], presence)

    def hints(self, schema: Node, function: Any, presence: str | None) -> Any:
        """An install hint: the variant whose key it names; each variant forbids the others'."""
        union = schema["schema"]
        variants = [self.node(choice, presence) for choice in dict(union["choices"]).values()]
        return core_schema.union_schema(variants, mode="left_to_right")

    def model(self, schema: Node, presence: str | None) -> Any:
        model = schema["cls"]
        if issubclass(model, AppDef):
            return self.block(schema)
        return {key: self.node(value, presence) for key, value in schema.items()}

    def block(self, schema: Node) -> Any:
        """An OS block, one variant per ``presence``; the parser carries the name (``app_id``)
        that the explaining schema passes through the validation context."""
        variants: dict[str, Any] = {}
        for presence in PRESENCES:
            variant = {key: self.node(value, presence) for key, value in schema.items()}
            variant.pop("post_init", None)
            variant.pop("ref", None)  # the union of the variants takes the block's place
            variants[presence] = variant
        return _keyed_by("presence", variants)


def _keyed_by(key: str, choices: dict[str, Any]) -> CoreSchema:
    """A union keyed by the value at ``key``; a value that is no tag is refused without being
    shown (pydantic-core would print it, which a hostile object may not allow)."""
    return core_schema.tagged_union_schema(
        choices,
        discriminator=key,
        custom_error_type="fast_refused",
        custom_error_message=f"{key} names no variant",
    )


_Rule = Callable[[_Derivation, Node, Any, "str | None"], Any]

_RULES: dict[CodeType, _Rule] = {
    code_of(FrozenModel._validate_mapping): _Derivation.inner,
    code_of(Declaration._carry_name): _Derivation.inner,
    nested_code(one_of, "check"): _Derivation.inner,
    code_of(_no_os_version_on_linux): _Derivation.refused,
    code_of(KindUnion.__call__): _Derivation.kind_union,
    code_of(_check_presence): _Derivation.presence,
    nested_code(hint_item, "check_hint"): _Derivation.hints,
    code_of(as_location_list): _Derivation.one_or_list,
    code_of(as_hint_list): _Derivation.one_or_list,
    code_of(as_arch_list): _Derivation.arch_list,
    code_of(AppBlock._at_least_one): _Derivation.kept,
    code_of(_minimum_needs_app): _Derivation.kept,
    code_of(RequiresWithApp._cross_check): _Derivation.kept,
}


def fast_schema(explaining: CoreSchema) -> CoreSchema:
    """The fast twin of an explaining core schema (built: a deferred one is a placeholder)."""
    if not isinstance(explaining, dict):
        raise TypeError(f"not a built core schema: {type(explaining).__name__}")
    derived: CoreSchema = _Derivation().node(explaining)
    return derived
