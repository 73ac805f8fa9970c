"""The benchmarks' floor is plain models of hermes_decl's very shapes (ratios are for ``bench``)."""

from __future__ import annotations

from bench.floor import floor_models, floor_source
from bench.parse import FULL, NAME, WHERE
from hermes_decl.declaration import parse_declaration


def test_the_floor_holds_what_hermes_decl_holds_for_the_full_declaration() -> None:
    floor = floor_models().FloorDeclaration
    app, requires = FULL
    plain = floor.model_validate({"name": NAME, "app": app, "requires": requires})
    assert plain.model_dump() == parse_declaration(NAME, app, requires, where=WHERE).model_dump()


def test_the_floor_has_no_rule() -> None:
    source = floor_source()
    assert "Validator" not in source and "hermes_decl" not in source
    assert source.count("class Floor") >= 30


def _schema_types(schema: object) -> list[str]:
    """Every ``type`` in a pydantic-core schema, depth first."""
    if isinstance(schema, dict):
        found = [schema["type"]] if isinstance(schema.get("type"), str) else []
        return found + [kind for value in schema.values() for kind in _schema_types(value)]
    if isinstance(schema, list):
        return [kind for value in schema for kind in _schema_types(value)]
    return []


def test_the_floor_s_unions_are_tagged_as_hermes_decl_s_are() -> None:
    """A floor of smart-mode unions would try each member in turn, a cost hermes_decl never pays."""
    source = floor_source()
    floor = floor_models().FloorDeclaration
    tagged = _schema_types(floor.__pydantic_core_schema__).count("tagged-union")
    assert tagged == source.count("Discriminator(kind_tag(") + source.count(
        "Discriminator(key_tag("
    )
    assert tagged >= 6
