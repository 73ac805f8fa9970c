"""The fast validator: the models' own core schema, with each explaining check replaced by what
pydantic-core can say itself.

A valid declaration is validated by pydantic-core alone, but for a lone value read as a list of
one. The few rules nothing else can say (at least one OS block, the cross-field rules of
``requires``) are left to the parser, which checks them once per declaration on what the fast
validator built (``fast_rules.rules_hold``). The rest is said in the core schema: a string rule
by its ``TextRules.accept`` pattern, a choice by its ``Literal``, an unknown key by
``extra='forbid'`` (in every mapping but the outer one, which the parser builds itself), a
``kind`` by a tagged union keyed by the ``kind`` key, and the kinds a block's ``presence``
allows by one variant of the block per presence.

The fast schema is derived from the explaining one (each validator function the models use is
replaced by the fast form its rule object gives, ``hermes_decl.models.rule_object``), so the two
cannot describe different declarations; a function without a rule object is refused when the
schema is built. It may
refuse a valid declaration (a null, which means "absent"; a mapping without ``kind`` for the
default kind; what a string rule ``leaves``): the parser then validates again with the
explaining schema, which says what is wrong or accepts it. It never accepts what the explaining
schema refuses, and builds the same models, with the same keys set; the tests compare the two on
every test declaration and fuzz seed.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import CoreSchema

from hermes_decl.models import fast_rules
from hermes_decl.models.app_block import AppDef
from hermes_decl.models.common import PRESENCES
from hermes_decl.models.rule_object import Node, TopRule, keyed_by, rule_of
from hermes_decl.models.rule_object import one_or_list as one_or_list


class _Derivation:
    """One walk over an explaining core schema, building its fast twin."""

    def __init__(self) -> None:
        self.deferred = False
        """Whether a rule was left to the check of the built shape (a ``TopRule``)."""
        self.checked = False
        """Whether the shape is one the parser checks after it validates (``fast_rules``)."""

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
            built = self.members(schema, presence)
        if "ref" in schema and built.get("ref") != schema["ref"]:
            if "ref" in built:
                raise TypeError(f"two definitions in one place: {schema['ref']}, {built['ref']}")
            built = {**built, "ref": schema["ref"]}
        return built

    def members(self, schema: Node, presence: str | None) -> Node:
        """A node's members, each derived; its metadata, which pydantic-core never reads (only
        JSON Schema does), is shared as it is."""
        return {
            key: value if key == "metadata" else self.node(value, presence)
            for key, value in schema.items()
        }

    def function(self, schema: Node, presence: str | None) -> Any:
        """What the validator function's rule object runs in its place."""
        function = schema["function"]["function"]
        rule = rule_of(function)
        if rule is None:
            name = getattr(function, "__qualname__", repr(function))
            raise TypeError(
                f"no fast rule for validator {name}: give it a rule object "
                "(hermes_decl.models.rule_object)"
            )
        if isinstance(rule, TopRule):
            if type(rule).__name__ not in fast_rules.TOP_RULES:
                raise TypeError(f"{type(rule).__name__} is not checked by fast_rules: add it there")
            self.deferred = True
        return rule.fast_form(schema, self, presence)

    def checked_after(self) -> None:
        """The shape being derived is one whose Python rules the parser checks after the fast
        validator has built it (``fast_rules.rules_hold``)."""
        self.checked = True

    def model(self, schema: Node, presence: str | None) -> Any:
        model = schema["cls"]
        if issubclass(model, AppDef):
            return self.block(schema)
        return self.members(schema, presence)

    def block(self, schema: Node) -> Any:
        """An OS block, one variant per ``presence``; the parser carries the name (``app_id``)
        that the explaining schema passes through the validation context. Only a mapping is
        read: a block given already built keeps its own name, and goes to the explaining
        schema, so that every block the fast validator returns in a new ``app`` is new."""
        variants: dict[str, Any] = {}
        for presence in PRESENCES:
            variant = self.members(schema, presence)
            variant.pop("post_init", None)
            variant.pop("ref", None)  # the union of the variants takes the block's place
            variants[presence] = variant
        return keyed_by("presence", variants, mappings_only=True)


def fast_schema(explaining: CoreSchema) -> CoreSchema:
    """The fast twin of an explaining core schema (built: a deferred one is a placeholder)."""
    if not isinstance(explaining, dict):
        raise TypeError(f"not a built core schema: {type(explaining).__name__}")
    derivation = _Derivation()
    derived: CoreSchema = derivation.node(explaining)
    if derivation.deferred and not derivation.checked:
        raise TypeError("a rule left to the check of the built shape, which fast_rules never runs")
    return derived
