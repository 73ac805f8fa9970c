"""Rule objects: each check of the models, with what JSON Schema and the fast validator say of it.

A rule object is the metadata of a field (in its ``Annotated[...]``, where it builds its validator
with ``__get_pydantic_core_schema__``) or the rule a model validator names with ``renders``. It
runs its check, renders its JSON Schema when the generator meets its validator function (the
generator hands itself over as a ``Renderer``), and gives its fast form to the fast derivation (a
``Derivation``). Both ask the object found at the function, and each refuses a validator without
one, so that neither can silently fall behind the parser.

The JSON Schema is asked for at the function rather than by ``__get_pydantic_json_schema__``:
pydantic chains every metadata object's JSON Schema function of a field on the field's outermost
schema, so a rule rendering there in place of the handler would drop the renderings of the rules
inside it (a ``TextRules`` pattern under ``min_version``'s check, for one).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    GetCoreSchemaHandler,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from hermes_decl._record import FieldwiseRecord

Node = dict[str, Any]
"""A core schema node as the renderings read it."""


class Renderer(Protocol):
    """What a rule object's JSON Schema rendering asks of the generator."""

    def generate_inner(self, schema: Any) -> JsonSchemaValue: ...

    def model_frame(self) -> tuple[type[BaseModel], list[JsonSchemaValue]]:
        """The model whose mapping is being rendered, and the rules pending on that mapping."""
        ...

    def mapping_schema(self, schema: Node, model: type[BaseModel]) -> JsonSchemaValue:
        """A model's mapping, as every model's is rendered."""
        ...


class Derivation(Protocol):
    """What a rule object's fast form asks of the fast derivation."""

    def node(self, schema: Any, presence: str | None = None) -> Any: ...

    def checked_after(self) -> None:
        """The shape being derived is one whose Python rules the parser checks after the fast
        validator has built it."""
        ...


class RuleObject(FieldwiseRecord, ABC):
    """A check of the models that says itself what JSON Schema and the fast schema make of it."""

    MODE: ClassVar[Literal["before", "after"]] = "before"
    """Whether the check runs before or after the inner schema, as a field's metadata."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        """The inner schema with this rule's ``check`` (a field's rule has one) around it."""
        check: Callable[..., Any] | None = getattr(self, "check", None)
        if check is None:
            raise TypeError(f"{type(self).__name__} is a model's rule, not a field's")
        wrap = BeforeValidator if self.MODE == "before" else AfterValidator
        return wrap(check).__get_pydantic_core_schema__(source, handler)

    @abstractmethod
    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        """The JSON Schema of the validator function ``schema`` that runs this rule."""

    @abstractmethod
    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """What the fast schema runs in place of the validator function ``schema``."""


class InnerRule(RuleObject):
    """A check whose rule the inner schema already says (a ``Literal``, ``extra='forbid'``)."""

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        return renderer.generate_inner(schema["schema"])

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        return derivation.node(schema["schema"], presence)


class KeptRule(RuleObject):
    """A rule only Python can say (a cross-field one): kept in the fast schema, once per value."""

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        return {**schema, "schema": derivation.node(schema["schema"], presence)}


class TopRule(RuleObject):
    """A rule only Python can say, which the fast path checks once per shape, with the
    cross-field rules, after the fast validator has built it (``fast_rules.rules_hold``),
    rather than where the explaining schema checks it: no Python call inside pydantic-core."""

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        return derivation.node(schema["schema"], presence)


_RULE_ATTRIBUTE = "rule_object"

Function = TypeVar("Function", bound=Callable[..., Any])


def renders(rule: RuleObject) -> Callable[[Function], Function]:
    """Name the rule object of a model validator: what it checks, rendered by ``rule``."""

    def named(function: Function) -> Function:
        setattr(function, _RULE_ATTRIBUTE, rule)
        return function

    return named


def rule_of(function: object) -> RuleObject | None:
    """The rule object of a core schema's validator function; None when it has none."""
    owner = getattr(function, "__self__", None)
    if isinstance(owner, RuleObject):
        return owner
    rule = getattr(function, _RULE_ATTRIBUTE, None)
    return rule if isinstance(rule, RuleObject) else None


def os_family_of(renderer: Renderer, what: str) -> str:
    """The OS family of the ``AppDef`` whose mapping is being rendered (``what`` sits in it)."""
    model = renderer.model_frame()[0]
    os_family = getattr(model, "os_family", None)
    if not isinstance(os_family, str):
        raise TypeError(f"a {what} outside an AppDef: {model.__name__}")
    return os_family


def one_or_list(value: Any) -> Any:
    """A list or tuple as it is; anything else as a list of one (the core schema says the rest)."""
    return value if type(value) is list or type(value) is tuple else (value,)


def fast_one_or_list(items: Any, *, max_items: int | None = None) -> CoreSchema:
    """One value or a non-empty list of them (at most ``max_items``), as a tuple, in the fast
    schema."""
    if items.get("type") != "tuple":
        raise TypeError(f"a list check over {items.get('type')}")
    listed = {**items, "strict": False, "min_length": 1}  # lax: a list becomes a tuple
    if max_items is not None:
        listed["max_length"] = max_items
    return core_schema.no_info_before_validator_function(one_or_list, listed)


def keyed_by(key: str, choices: dict[str, Any], *, mappings_only: bool = False) -> CoreSchema:
    """A union keyed by the value at ``key``; a value that is no tag is refused without being
    shown (pydantic-core would print it, which a hostile object may not allow). With
    ``mappings_only``, an object (a model already built) is refused too, where pydantic-core
    would read the key as its attribute."""
    return core_schema.tagged_union_schema(
        choices,
        discriminator=key,
        custom_error_type="fast_refused",
        custom_error_message=f"{key} names no variant",
        from_attributes=not mappings_only,
    )
