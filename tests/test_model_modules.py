"""How the model modules are written, where it decides what building the models costs."""

from __future__ import annotations
import __future__

import importlib
import pkgutil
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest
from pydantic import BaseModel

import hermes_decl
import hermes_decl.models


def _defines_models(module: ModuleType) -> bool:
    return any(
        isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == module.__name__
        for value in vars(module).values()
    )


MODEL_MODULES = [
    module
    for module in (
        importlib.import_module(f"hermes_decl.models.{info.name}")
        for info in pkgutil.iter_modules(hermes_decl.models.__path__)
    )
    if _defines_models(module)
]


def test_the_model_modules_are_found() -> None:
    assert {module.__name__.rsplit(".", 1)[1] for module in MODEL_MODULES} >= {
        "app_block",
        "named_declaration",
        "locations",
        "requires",
        "version",
    }


@pytest.mark.parametrize("module", MODEL_MODULES, ids=lambda module: module.__name__)
def test_a_module_defining_models_has_no_postponed_annotations(module: ModuleType) -> None:
    # pydantic evaluates string annotations again for every subclass; see models/__init__.py.
    assert vars(module).get("annotations") is not __future__.annotations


def test_no_module_of_the_models_or_the_schema_shares_its_name_with_another() -> None:
    package = Path(hermes_decl.__file__).parent
    stems = Counter(
        path.stem for path in package.rglob("*.py") if path.stem not in ("__init__", "__main__")
    )
    own = {
        path.stem
        for folder in ("models", "schema")
        for path in (package / folder).glob("*.py")
        if path.stem not in ("__init__", "__main__")
    }
    assert len(own) > 20
    assert sorted(stem for stem in own if stems[stem] > 1) == []
