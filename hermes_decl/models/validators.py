"""The validators the parser uses, built once, as the models are imported.

Each shape the parser validates (a whole declaration; ``{app, requires}``, one block at a time)
has two: the explaining ``TypeAdapter`` of the models, whose errors say what is wrong, and its
fast twin (``hermes_decl.models.fast``). They are built here, at the end of the models' import,
before any model class has built a validator of its own (the models defer that to their first
use): pydantic-core reuses a finished class's own validator wherever the class appears in a
schema, which would put the explaining checks back on the fast path.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, TypeAdapter
from pydantic_core import SchemaValidator

from hermes_decl.models.declaration import Declaration
from hermes_decl.models.fast import fast_validator
from hermes_decl.models.requires import RequiresWithApp

_Model = TypeVar("_Model", bound=BaseModel)


def _explaining(model: type[_Model]) -> TypeAdapter[_Model]:
    adapter = TypeAdapter(model)
    adapter.rebuild(force=True)  # the model defers building, and its adapter with it
    return adapter


DECLARATION = _explaining(Declaration)
REQUIRES_WITH_APP = _explaining(RequiresWithApp)
FAST_DECLARATION: SchemaValidator = fast_validator(DECLARATION.core_schema)
FAST_REQUIRES_WITH_APP: SchemaValidator = fast_validator(REQUIRES_WITH_APP.core_schema)
