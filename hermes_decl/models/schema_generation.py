"""The core schema pydantic generates for a type, without the validator pydantic would build.

A ``TypeAdapter`` builds a validator and a serializer beside the schema, and building a validator
through pydantic first loads its plugin machinery (``importlib.metadata`` and a scan of every
installed distribution's entry points): about 20 ms of a cold start, for a validator the parser
never runs, since it builds its own from the schema. So the schema is generated as the adapter
generates it, by pydantic's schema generator alone. Where that generator is not reachable as this
pydantic version spells it, the adapter gives the same schema, only slower.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from pydantic_core import CoreSchema


def _without_validator(of: Any) -> CoreSchema:
    """The schema from pydantic's generator, as a ``TypeAdapter`` of ``of`` generates and cleans
    it; raises ``ImportError``, ``AttributeError`` or ``TypeError`` where this pydantic version
    names the generator otherwise."""
    from pydantic._internal._config import ConfigWrapper
    from pydantic._internal._generate_schema import GenerateSchema
    from pydantic._internal._namespace_utils import NsResolver

    generator = GenerateSchema(ConfigWrapper(None), ns_resolver=NsResolver())
    schema: CoreSchema = generator.clean_schema(generator.generate_schema(of))
    return schema


def generated_core_schema(of: Any) -> CoreSchema:
    """The core schema pydantic generates for ``of`` (a type whose annotations resolve where it is
    defined, as model classes' do), without building a validator or a serializer for it."""
    try:
        return _without_validator(of)
    except (ImportError, AttributeError, TypeError):
        adapter = TypeAdapter(of)
        adapter.rebuild(force=True)  # a model that defers its build would give a placeholder
        return adapter.core_schema
