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
