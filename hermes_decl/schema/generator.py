"""The JSON Schema generator: pydantic's, asking each validator function of the models for its
rule object (``hermes_decl.models.rule_object``), which renders what it checks; a validator
without one is refused, so that the schema cannot silently fall behind the parser. The generator
renders what every model shares: a model's mapping, and a path location as a bare string.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from hermes_decl.models.base import FrozenModel
from hermes_decl.models.editor_schema import OBJECT, TITLE, add_rule, doc_of, plain_text
from hermes_decl.models.install import InstallHint
from hermes_decl.models.kinds import KindVariant
from hermes_decl.models.locations import PathLocation
from hermes_decl.models.rule_object import rule_of
from hermes_decl.schema.conventions import (
    MAPPING_MESSAGE,
    PATH_EXAMPLES,
    path_schema,
    slot_of,
    title_of,
)

FunctionSchema = (
    core_schema.BeforeValidatorFunctionSchema
    | core_schema.AfterValidatorFunctionSchema
    | core_schema.WrapValidatorFunctionSchema
)


class Generator(GenerateJsonSchema):
    """Pydantic's generator, asking each validator of the models for its rule object."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._frames: list[tuple[type[BaseModel], list[JsonSchemaValue]]] = []

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
        """What the validator's rule object renders (a field's renders itself as metadata, so
        this meets model validators and rule objects whose metadata rendering defers here)."""
        function = schema["function"]["function"]
        rule = rule_of(function)
        if rule is None:
            name = getattr(function, "__qualname__", repr(function))
            raise TypeError(
                f"no JSON Schema rule for validator {name}: give it a rule object "
                "(hermes_decl.models.rule_object), or list what it checks in SCHEMA_LIMITS"
            )
        return rule.json_schema(dict(schema), self)

    def model_frame(self) -> tuple[type[BaseModel], list[JsonSchemaValue]]:
        """The model whose mapping is being rendered, and the rules pending on that mapping."""
        return self._frames[-1]

    def mapping_schema(self, schema: Any, model: type[BaseModel]) -> JsonSchemaValue:
        """A model's mapping (``FrozenModel``'s check): optional keys accept null, a kind variant
        and an install hint leave what they are to their union, and rules pending on the mapping
        (those of its keys' checks) are added to it."""
        if not issubclass(model, FrozenModel):
            raise TypeError(f"a mapping check on {model.__name__}, not a FrozenModel")
        self._frames.append((model, []))
        generated = self.generate_inner(schema["schema"])
        _, pending = self._frames.pop()
        required = set(generated.get("required", ()))
        properties: dict[str, Any] = generated.get("properties", {})
        for key, value in properties.items():
            properties[key] = slot_of(value, nullable=key not in required)
        if issubclass(model, KindVariant):
            # The union states the kind (KindUnion.json_schema); the variant only admits the key.
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
