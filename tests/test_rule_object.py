"""Rule objects: the generator and the fast derivation ask a validator's rule object, only it."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import AfterValidator, TypeAdapter, ValidationError, model_validator
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import SchemaValidator, core_schema

from hermes_decl.models.base import FrozenModel
from hermes_decl.models.fast import fast_schema
from hermes_decl.models.rule_object import (
    Derivation,
    KeptRule,
    Node,
    Renderer,
    RuleObject,
    TopRule,
    renders,
    rule_of,
)
from hermes_decl.schema.generator import Generator


class _Shouted(RuleObject):
    """A test rule: a string in capitals, said as a pattern to editors and to pydantic-core."""

    def check(self, value: str) -> str:
        if value != value.upper():
            raise ValueError("must be in capitals")
        return value

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        return {**renderer.generate_inner(schema["schema"]), "pattern": "^[^a-z]*$"}

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        return core_schema.str_schema(pattern="^[^a-z]*$", strict=True)


class _NotEmpty(KeptRule):
    """A test model rule: the text is not empty, said to editors as ``minLength`` on it."""

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        generated = renderer.generate_inner(schema["schema"])
        generated["properties"]["text"]["minLength"] = 1
        return generated


class _Ruled(FrozenModel):
    """A model whose field and model checks each have a rule object."""

    text: Annotated[str, _Shouted()]

    @model_validator(mode="after")
    @renders(_NotEmpty())
    def _not_empty(self) -> _Ruled:
        if not self.text:
            raise ValueError("must not be empty")
        return self


def test_the_generator_renders_what_each_rule_object_says() -> None:
    generated = TypeAdapter(_Ruled).json_schema(schema_generator=Generator)
    assert generated["properties"]["text"] == {
        "type": ["string"],
        "pattern": "^[^a-z]*$",
        "minLength": 1,
        "errorMessage": "must be a string",
    }
    assert generated["required"] == ["text"]


def test_the_fast_schema_runs_each_rule_objects_fast_form() -> None:
    adapter = TypeAdapter(_Ruled)
    adapter.rebuild(force=True)
    fast = SchemaValidator(fast_schema(adapter.core_schema))
    assert fast.validate_python({"text": "LOUD"}).text == "LOUD"
    with pytest.raises(ValidationError) as refused:
        fast.validate_python({"text": "quiet"})
    assert [error["type"] for error in refused.value.errors()] == ["string_pattern_mismatch"]
    with pytest.raises(ValidationError) as empty:
        fast.validate_python({"text": ""})  # the kept model rule still runs
    assert [error["msg"] for error in empty.value.errors()] == ["Value error, must not be empty"]


def test_a_validator_names_its_rule_object_or_none() -> None:
    field_rule = _Shouted()
    assert rule_of(field_rule.check) is field_rule
    model_rule = rule_of(_Ruled._not_empty)
    assert isinstance(model_rule, _NotEmpty)
    assert rule_of(str.upper) is None
    assert rule_of(AfterValidator(str.upper).func) is None


def test_a_model_rule_is_no_field_metadata() -> None:
    class _Misplaced(FrozenModel):
        text: Annotated[str, _NotEmpty()]

    with pytest.raises(TypeError, match=r"^_NotEmpty is a model's rule, not a field's$"):
        TypeAdapter(_Misplaced).rebuild(force=True)


class _Unchecked(TopRule):
    """A test model rule left to the check of the built shape, which fast_rules does not say."""

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        return renderer.generate_inner(schema["schema"])


class _AtLeastOneOs(_Unchecked):
    """A test rule by the name of one fast_rules checks, in a shape without that check."""


def _top_ruled(rule: TopRule) -> Any:
    class _TopRuled(FrozenModel):
        text: str

        @model_validator(mode="after")
        @renders(rule)
        def _ruled(self) -> Any:
            return self

    adapter = TypeAdapter(_TopRuled)
    adapter.rebuild(force=True)
    return adapter.core_schema


def test_a_rule_left_to_the_built_shape_must_be_one_fast_rules_checks() -> None:
    with pytest.raises(TypeError, match=r"^_Unchecked is not checked by fast_rules: add it there$"):
        fast_schema(_top_ruled(_Unchecked()))


def test_a_rule_left_to_the_built_shape_needs_a_shape_the_parser_checks() -> None:
    message = r"^a rule left to the check of the built shape, which fast_rules never runs$"
    with pytest.raises(TypeError, match=message):
        fast_schema(_top_ruled(_AtLeastOneOs()))
