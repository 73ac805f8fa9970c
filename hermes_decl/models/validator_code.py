"""Naming the validator functions of a core schema by their code, whatever object holds them.

The JSON Schema generator and the fast validator each map every validator function the models
use to a rule of their own; both look functions up by code object, so a bound method, a
classmethod, a callable object and a closure made per field are each recognised as the one
function they run.
"""

from __future__ import annotations

from collections.abc import Callable
from types import CodeType
from typing import Any


def code_of(function: object) -> CodeType:
    """The code a validator runs: a function's, a method's, or a callable object's ``__call__``."""
    inner = getattr(function, "__func__", function)
    code = getattr(inner, "__code__", None)
    if code is None and callable(inner):
        code = getattr(type(inner).__call__, "__code__", None)
    if not isinstance(code, CodeType):
        raise TypeError(f"cannot identify validator {function!r}")
    return code


def nested_code(outer: Callable[..., Any], name: str) -> CodeType:
    """The code of the function ``name`` defined inside ``outer`` (a closure such as a check)."""
    for constant in outer.__code__.co_consts:
        if isinstance(constant, CodeType) and constant.co_name == name:
            return constant
    raise LookupError(f"{outer.__qualname__} defines no {name}")
