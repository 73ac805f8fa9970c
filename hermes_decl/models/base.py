"""The frozen, strict base of every declaration model.

It gives each mapping in a declaration the same treatment: keys must be strings, ``null`` means
a known key is absent, and an unknown key is reported at the key itself with the closest valid key
as a suggestion.
"""

from collections.abc import Mapping
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    ModelWrapValidatorHandler,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import InitErrorDetails

from hermes_decl._text import choices, did_you_mean
from hermes_decl.models.common import carried, fail, problem
from hermes_decl.models.rule_object import InnerRule, Node, Renderer, renders


class _MappingRule(InnerRule):
    """``FrozenModel``'s mapping check: a model's mapping, as the generator renders every model's;
    the fast schema says it by ``extra='forbid'``."""

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        return renderer.mapping_schema(schema, schema["function"]["function"].__self__)


_ACCEPTED_KEYS: dict[type[BaseModel], tuple[str, ...]] = {}
"""Each model class's accepted keys, filled on first use (the fields are final by then)."""


class FrozenModel(BaseModel):
    """A strict, frozen model whose input is a mapping with string keys."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", strict=True, validate_default=False, defer_build=True
    )

    @classmethod
    def accepted_keys(cls) -> tuple[str, ...]:
        """The keys a declaration may write for this model, in declaration order.

        Worked out once per model class: every mapping validated asks for them.
        """
        keys = _ACCEPTED_KEYS.get(cls)
        if keys is None:
            keys = tuple(field.alias or name for name, field in cls.model_fields.items())
            _ACCEPTED_KEYS[cls] = keys
        return keys

    @classmethod
    def _prepare_input(cls, data: object) -> object:
        """Turn accepted shorthand input into a mapping; the base accepts mappings only."""
        return data

    @model_validator(mode="wrap")
    @classmethod
    @renders(_MappingRule())
    def _validate_mapping(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        # ``type(...) is dict`` first: the usual input, and far cheaper than the ABC checks.
        if type(data) is not dict:
            if isinstance(data, BaseModel):
                return handler(data)
            data = cls._prepare_input(data)
            if type(data) is not dict and not isinstance(data, Mapping):
                fail("wrong_type", "must be a mapping", data)
        accepted = cls.accepted_keys()
        present: dict[str, Any] = {}
        unknown: list[InitErrorDetails] = []
        for key, value in data.items():
            if type(key) is not str and not isinstance(key, str):
                fail("non_string_key", "keys must be strings", key)
            if key not in accepted:
                unknown.append(_unknown_key(key, value, accepted))
            elif value is not None:  # null means absent for a key the model knows
                present[key] = value
        if not unknown:
            return handler(present)  # errors below pass through untouched
        try:
            handler(present)
        except ValidationError as error:
            raise ValidationError.from_exception_data(
                error.title, [*map(carried, error.errors()), *unknown]
            ) from None
        raise ValidationError.from_exception_data(cls.__name__, unknown)


def _unknown_key(key: str, value: object, accepted: tuple[str, ...]) -> InitErrorDetails:
    """An unknown key, reported at the key itself, with the closest valid key as a suggestion."""
    suggestion = did_you_mean(key, accepted)
    hint = f"did you mean {suggestion!r}?" if suggestion else f"expected {choices(accepted)}"
    if key == "requires" and ("presence" in accepted or "win32" in accepted):
        hint = f"{hint}; 'requires' belongs beside 'app', under the server name"
    return InitErrorDetails(
        type=problem("unknown_key", "unknown key", hint=hint), loc=(key,), input=value
    )


__all__ = ["FrozenModel"]
