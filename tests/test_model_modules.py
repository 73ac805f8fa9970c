"""How the model modules are written, where it decides what building the models costs."""

from __future__ import annotations
import __future__

import importlib
import pkgutil
from types import ModuleType

import pytest
from pydantic import BaseModel

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
        "app",
        "declaration",
        "locations",
        "requires",
        "version",
    }


@pytest.mark.parametrize("module", MODEL_MODULES, ids=lambda module: module.__name__)
def test_a_module_defining_models_has_no_postponed_annotations(module: ModuleType) -> None:
    # pydantic evaluates string annotations again for every subclass; see models/__init__.py.
    assert vars(module).get("annotations") is not __future__.annotations
