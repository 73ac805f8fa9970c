"""Discriminated unions keyed by ``kind``, checked for their OS block before Pydantic dispatches.

A union variant carries its ``kind`` and the OS families it is valid under as class data. The
check that runs before the union turns the usual per-variant noise into the one message an
author needs: the value's shape, a missing or unknown kind, or a kind that belongs to another OS.
"""

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Annotated, Any, ClassVar, Protocol, Union

from pydantic import BaseModel, Discriminator, Tag, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails, core_schema

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import (
    MEANINGS_KEY,
    OS_FAMILIES,
    OsFamily,
    carried,
    fail,
    fail_at,
    problem,
)
from hermes_decl.models.editor_schema import (
    KIND_HELP,
    NULL_MEANING,
    TYPED,
    doc_of,
    kind_is,
    refusal,
    required_examples,
    snippet_of,
    type_check,
)
from hermes_decl.models.rule_object import Derivation, Node, Renderer, RuleObject, keyed_by


class KindVariant(FrozenModel):
    """A variant of a ``kind`` union; subclasses set ``KIND`` and ``VALID_OS``."""

    KIND: ClassVar[str]
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES


class StringVariant(Protocol):
    """The union member a plain string stands for (a path location), tagged with its ``KIND``."""

    KIND: ClassVar[str]


def _valid_os_text(variant: type[KindVariant]) -> str:
    return " or ".join(f"app.{os_family}" for os_family in variant.VALID_OS)


def _own_problems(variant: type[KindVariant], value: object) -> list[InitErrorDetails]:
    """The problems ``value`` has as ``variant``, whichever OS block it was written under."""
    try:
        variant.model_validate(value)
    except ValidationError as error:
        return [carried(line) for line in error.errors()]
    return []


class KindUnion(RuleObject):
    """The check that runs before a ``kind`` union, and what JSON Schema and the fast schema make
    of the union.

    ``variants`` are the variants valid under ``os_family``; ``every_variant`` are all of them,
    so that a kind of another OS is named as such. ``default_kind`` is the kind a mapping without
    ``kind`` takes (None: ``kind`` is required); ``string_variant`` is the variant a plain string
    stands for (a path location); ``wrong_os_at_kind`` reports a kind of another OS at ``kind``
    rather than at the value.
    """

    os_family: OsFamily
    variants: tuple[type[KindVariant], ...]
    every_variant: tuple[type[KindVariant], ...]
    default_kind: str | None
    string_variant: type[StringVariant] | None
    wrong_os_at_kind: bool

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds valid under this OS block, in table order."""
        return tuple(variant.KIND for variant in self.variants)

    @property
    def shape(self) -> str:
        """What a value must be, as the messages say it."""
        if self.string_variant is not None:
            return f"a path or a mapping with kind {choices(self.kinds)}"
        return f"a mapping with kind {choices(self.kinds)}"

    @cached_property
    def by_kind(self) -> dict[str, type[KindVariant]]:
        """Every variant by its kind, those of other OS blocks included."""
        return {variant.KIND: variant for variant in self.every_variant}

    def wrong_os_message(self, variant: type[KindVariant]) -> str:
        """The message for a kind that belongs to another OS block."""
        return f"kind {variant.KIND!r} is only valid under {_valid_os_text(variant)}"

    def check(self, value: Any) -> Any:
        """The value, when its ``kind`` names a variant valid under this OS block."""
        if isinstance(value, str) and self.string_variant is not None:
            return value
        if type(value) is not dict and not isinstance(value, Mapping):
            named = isinstance(value, str) and value in self.kinds
            hint = f"write {{kind: {value}}}" if named else None
            fail("wrong_type", f"must be {self.shape}", value, hint=hint)
        kind = value.get("kind")
        if kind is None:
            if self.default_kind is not None:
                return value
            missing = problem("missing_key", f"is required: one of {choices(self.kinds)}")
            fail_at("kind", [(("kind",), missing, value)])
        by_kind = self.by_kind
        if not isinstance(kind, str) or kind not in by_kind:
            suggestion = did_you_mean(kind, self.kinds)
            hint = f"did you mean {suggestion!r}?" if suggestion else None
            code = "invalid_choice" if isinstance(kind, str) else "wrong_type"
            wrong = problem(code, f"must be {choices(self.kinds)}", kind, hint=hint)
            fail_at("kind", [(("kind",), wrong, kind)])
        variant = by_kind[kind]
        if self.os_family not in variant.VALID_OS:
            wrong_os = problem("kind_wrong_os", self.wrong_os_message(variant))
            at = ("kind",) if self.wrong_os_at_kind else ()
            # The value's own problems too, so the author fixes everything in one round.
            raise ValidationError.from_exception_data(
                "kind",
                [
                    InitErrorDetails(type=wrong_os, loc=at, input=kind),
                    *_own_problems(variant, value),
                ],
            )
        return value

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        """Its type check, ``kind`` with every valid kind described, and one ``if kind is K then
        variant K`` per variant (no ``oneOf``, so an editor reports the chosen variant's own
        problems); a kind of another OS is named as such."""
        inner = schema["schema"]
        choices_by_tag: dict[str, CoreSchema] = (
            dict(inner["choices"])
            if inner["type"] == "tagged-union"
            else {self.variants[0].KIND: inner}
        )
        kind: JsonSchemaValue = {
            "description": KIND_HELP,
            "type": ["string"],
            "enum": list(self.kinds),
            MEANINGS_KEY: [variant.model_fields["kind"].description for variant in self.variants],
            "errorMessage": f"must be {choices(self.kinds)}",
        }
        wrong_os = [
            {"if": {"const": variant.KIND}, "then": refusal(self.wrong_os_message(variant))}
            for variant in self.every_variant
            if variant not in self.variants
        ]
        if wrong_os:
            kind["allOf"] = wrong_os
        if self.default_kind is not None:  # then a null kind is the default kind too
            kind["default"] = self.default_kind
            kind["type"] = ["string", "null"]
            kind["enum"] = [*kind["enum"], None]
            kind[MEANINGS_KEY] = [*kind[MEANINGS_KEY], NULL_MEANING]
        types = ["object"] if self.string_variant is None else ["string", "object"]
        rules: list[JsonSchemaValue] = [type_check(types, f"must be {self.shape}")]
        snippets: list[JsonSchemaValue] = []
        if self.string_variant is not None:
            path = renderer.generate_inner(choices_by_tag[self.string_variant.KIND])
            rules.append({"if": {"type": "string"}, "then": path})
        for variant in self.variants:
            body = renderer.generate_inner(choices_by_tag[variant.KIND])
            default = self.default_kind == variant.KIND
            rules.append({"if": kind_is(variant.KIND, default=default), "then": body})
            example = {"kind": variant.KIND, **required_examples(variant)}
            if len(example) > 1:
                snippets.append(snippet_of(variant.KIND, doc_of(variant), example))
        generated: JsonSchemaValue = {
            TYPED: True,
            "allOf": rules,
            "properties": {"kind": kind},
        }
        if self.default_kind is None:
            generated["required"] = ["kind"]
        if snippets:
            generated["defaultSnippets"] = snippets
        return generated

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """The tagged union keyed by the ``kind`` key (a mapping without one is left to the
        explaining schema), a plain string tried as the path it stands for; under an OS block
        split by presence, only the location kinds that find that presence."""
        inner = schema["schema"]
        if inner["type"] != "tagged-union":
            return derivation.node(inner, presence)  # one variant under this OS block
        choices_by_tag = dict(inner["choices"])
        if presence is not None and self.string_variant is not None:
            elsewhere = {
                variant.KIND
                for variant in self.every_variant
                if getattr(variant, "PRESENCE", presence) != presence
            }
            choices_by_tag = {
                tag: choice for tag, choice in choices_by_tag.items() if tag not in elsewhere
            }
        path = choices_by_tag.pop(self.string_variant.KIND) if self.string_variant else None
        tagged = keyed_by(
            "kind", {tag: derivation.node(c, presence) for tag, c in choices_by_tag.items()}
        )
        if path is None:
            return tagged
        return core_schema.union_schema(
            [derivation.node(path, presence), tagged], mode="left_to_right"
        )


def tag_of(value: Any, *, default_kind: str | None, string_kind: str | None = None) -> object:
    """The tag a ``kind`` union dispatches ``value`` by: its ``kind`` (``default_kind`` when absent
    or null), ``string_kind`` for a plain string, a validated model's own ``KIND``; None for
    anything else. A ``kind`` that is no string is returned as it is and matches no variant."""
    if isinstance(value, str):
        return string_kind
    if type(value) is dict or isinstance(value, Mapping):
        kind = value.get("kind", default_kind)
        return default_kind if kind is None else kind
    if isinstance(value, BaseModel):  # serialising a validated model
        return getattr(value, "KIND", None)
    return None


def kind_union(
    os_family: OsFamily,
    variants: Sequence[type[KindVariant]],
    *,
    default_kind: str | None,
    string_variant: type[StringVariant] | None = None,
    wrong_os_at_kind: bool = False,
) -> Any:
    """The union type of ``variants`` valid under ``os_family``, with its ``KindUnion`` check."""
    here = tuple(variant for variant in variants if os_family in variant.VALID_OS)
    check = KindUnion(
        os_family, here, tuple(variants), default_kind, string_variant, wrong_os_at_kind
    )

    string_kind = string_variant.KIND if string_variant is not None else None

    def tag(value: Any) -> Any:
        return tag_of(value, default_kind=default_kind, string_kind=string_kind)

    members = tuple(Annotated[variant, Tag(variant.KIND)] for variant in here)
    if string_variant is not None:
        members = (Annotated[string_variant, Tag(string_variant.KIND)], *members)
    if len(members) == 1:
        return Annotated[here[0], check]
    union = Annotated[Union[members], Discriminator(tag)]  # type: ignore[valid-type]  # noqa: UP007
    return Annotated[union, check]
