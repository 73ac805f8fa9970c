"""The validators the parser uses, built once, as soon as the model classes exist.

Each shape the parser validates (a whole declaration; ``{app, requires}``, one block at a time)
has two: the explaining validator of the models, whose errors say what is wrong, and its fast
twin (``hermes_decl.models.fast``). Both shapes' schemas are generated in one pass, since they
share every block. The models package imports this module first, so the validators are built
before any model class has built one of its own (the models defer that to their first use):
pydantic-core reuses a finished class's own validator wherever the class appears in a schema,
which would put the explaining checks back on the fast path.
"""

from __future__ import annotations

from typing import Any

from pydantic_core import CoreSchema, SchemaValidator, core_schema

from hermes_decl.models.fast import fast_schema
from hermes_decl.models.named_declaration import Declaration
from hermes_decl.models.requires import RequiresWithApp
from hermes_decl.models.schema_generation import generated_core_schema


def _shapes(both: CoreSchema) -> tuple[CoreSchema, CoreSchema]:
    """The two item schemas of a tuple schema, each with the definitions they share."""
    shared: list[Any] = []
    if both["type"] == "definitions":
        shared = list(both["definitions"])
        both = both["schema"]
    if both["type"] != "tuple":
        raise TypeError(f"the two shapes' schema is a {both['type']}, not a tuple")
    declaration, blocks = both["items_schema"]
    return (
        core_schema.definitions_schema(declaration, shared),
        core_schema.definitions_schema(blocks, shared),
    )


_BOTH = generated_core_schema(tuple[Declaration, RequiresWithApp])

DECLARATION_SCHEMA, REQUIRES_WITH_APP_SCHEMA = _shapes(_BOTH)
"""The models' own (explaining) core schemas of the two shapes."""


def _keys_from_the_parser(shape: CoreSchema) -> CoreSchema:
    """A shape whose mapping the parser builds itself from its own arguments, which never holds
    an unknown key: its fast twin need not look for one (every mapping inside it still does)."""
    outer = shape["schema"]
    if outer["type"] != "model":
        raise TypeError(f"a shape's outer schema is a {outer['type']}, not a model")
    fields = {**outer["schema"], "extra_behavior": "ignore"}
    return {**shape, "schema": {**outer, "schema": fields}}


_FAST_DECLARATION_SCHEMA, _FAST_REQUIRES_WITH_APP_SCHEMA = (
    _keys_from_the_parser(shape) for shape in _shapes(fast_schema(_BOTH))
)
FAST_DECLARATION = SchemaValidator(_FAST_DECLARATION_SCHEMA)
"""The fast twin of ``DECLARATION``: what it builds is valid where ``fast_rules.rules_hold``."""
FAST_REQUIRES_WITH_APP = SchemaValidator(_FAST_REQUIRES_WITH_APP_SCHEMA)
"""The fast twin of ``REQUIRES_WITH_APP``: what it builds is valid where
``fast_rules.rules_hold``."""


_EXPLAINING = {"DECLARATION": DECLARATION_SCHEMA, "REQUIRES_WITH_APP": REQUIRES_WITH_APP_SCHEMA}
"""The explaining validators' schemas by name: ``DECLARATION``, a whole declaration ``{name,
app, requires}``, and ``REQUIRES_WITH_APP``, ``{app, requires}`` one block at a time."""


def __getattr__(name: str) -> SchemaValidator:
    """``DECLARATION`` or ``REQUIRES_WITH_APP``, built when first asked for: a valid declaration
    never needs them, only one the fast twin refuses."""
    schema = _EXPLAINING.get(name)
    if schema is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    validator = globals()[name] = SchemaValidator(schema)
    return validator
