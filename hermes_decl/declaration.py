"""Parsing plain mappings into frozen declarations, and the registry (SPEC 2, 4, 5).

The parser takes decoded data (YAML, JSON, dict literals) and never touches files or the host.
Every invalid input raises ``DeclarationError`` with every problem found, and nothing else.

Each input is validated first by the fast validator (``hermes_decl.models.fast``), which
pydantic-core runs without Python but for a few cross-field rules; what it refuses is validated
again by the models' explaining schema, whose errors say what is wrong.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from pydantic_core import SchemaValidator

from hermes_decl.errors import DeclarationError, Issue, issues_from
from hermes_decl.models import AppBlock, Declaration, Requires, validators
from hermes_decl.models.app_block import APP_ID_CONTEXT_KEY
from hermes_decl.models.requires import RequiresWithApp
from hermes_decl.registry import (
    RegistrationConflict,
    RegistryChange,
    clear,
    lookup,
    owner_of,
    register,
    register_many,
    registered,
    subscribe,
    unregister,
    unregister_owner,
)

_FAST_DECLARATION = validators.FAST_DECLARATION
_FAST_REQUIRES_WITH_APP = validators.FAST_REQUIRES_WITH_APP

_set = object.__setattr__
"""Sets state on a frozen model: only on one this parse has just built."""

_UNREADABLE = Issue("", "unreadable", "could not be read: a value failed while being read")


def _carry_app_id(app: AppBlock, name: str) -> None:
    """Give each OS block of a new ``app`` block its declaration's name, in one shared mapping.

    The explaining schema passes the name in its validation context, which the fast one does
    not read.
    """
    carried = {"app_id": name}
    if (win32 := app.win32) is not None:
        _set(win32, "__pydantic_private__", carried)
    if (darwin := app.darwin) is not None:
        _set(darwin, "__pydantic_private__", carried)
    if (linux := app.linux) is not None:
        _set(linux, "__pydantic_private__", carried)


def _explain(explaining: SchemaValidator, data: dict[str, Any], *, name: str, where: str) -> Any:
    """Validate with the explaining schema; every failure, whatever the input, becomes a
    ``DeclarationError`` with every problem found."""
    try:
        return explaining.validate_python(data, context={APP_ID_CONTEXT_KEY: name})
    except ValidationError as error:
        try:
            issues = issues_from(error, data, where=where)
        except Exception:  # a hostile object failed only when its problems were located in it
            issues = (_UNREADABLE,)
        raise DeclarationError(where, issues) from None
    except RecursionError:
        issue = Issue("", "too_deep", "is nested too deeply to read")
        raise DeclarationError(where, [issue]) from None
    except Exception:  # a hostile object's own method failed while being read
        raise DeclarationError(where, [_UNREADABLE]) from None


def parse_declaration(
    name: str, raw_app: object = None, raw_requires: object = None, *, where: str
) -> Declaration:
    """Validate one declaration: the server ``name``, its ``app`` and its ``requires`` blocks."""
    given: dict[str, object] = {"name": name}  # null means absent
    if raw_app is not None:
        given["app"] = raw_app
    if raw_requires is not None:
        given["requires"] = raw_requires
    try:
        declaration: Declaration = _FAST_DECLARATION.validate_python(given)
    except Exception:  # refused, or a value failed while read: the explaining schema tells
        data = {"name": name, "app": raw_app, "requires": raw_requires}
        explained: Declaration = _explain(
            validators.DECLARATION, data, name=name if isinstance(name, str) else "", where=where
        )
        return explained
    return declaration  # the fast validator carried the name into each block it built


def _blocks(app: object, raw_requires: object, *, name: str, where: str) -> RequiresWithApp:
    """Validate ``{app, requires}``, fast first, then explained when refused."""
    given = {
        key: value for key, value in (("app", app), ("requires", raw_requires)) if value is not None
    }
    try:
        blocks: RequiresWithApp = _FAST_REQUIRES_WITH_APP.validate_python(given)
    except Exception:  # refused, or a value failed while read: the explaining schema tells
        data = {"app": app, "requires": raw_requires}
        explained: RequiresWithApp = _explain(
            validators.REQUIRES_WITH_APP, data, name=name, where=where
        )
        return explained
    if blocks.app is not None and blocks.app is not app:  # a block built here, not one given
        _carry_app_id(blocks.app, name)
    return blocks


def parse_app(raw: object, *, name: str, where: str) -> AppBlock | None:
    """Validate an ``app`` block on its own; ``None`` means there is none."""
    if raw is None:
        return None
    block = _blocks(raw, None, name=name, where=where).app
    assert block is not None
    return block


def parse_requires(raw: object, app: AppBlock | None, *, where: str) -> Requires:
    """Validate a ``requires`` block against an already parsed ``app`` block."""
    return _blocks(app, raw, name=_app_id(app), where=where).requires


def _app_id(app: object) -> str:
    """The name an already parsed ``app`` block carries; "" for anything else."""
    if isinstance(app, AppBlock):
        for os_family in app.os_families:
            app_def = app.for_os(os_family)
            if app_def is not None:
                return app_def.app_id
    return ""


__all__ = [
    "Declaration",
    "DeclarationError",
    "Issue",
    "RegistrationConflict",
    "RegistryChange",
    "clear",
    "lookup",
    "owner_of",
    "parse_app",
    "parse_declaration",
    "parse_requires",
    "register",
    "register_many",
    "registered",
    "subscribe",
    "unregister",
    "unregister_owner",
]
