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
from hermes_decl.models.fast_rules import rules_hold
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

_validate_fast_declaration = validators.FAST_DECLARATION.validate_python
_validate_fast_blocks = validators.FAST_REQUIRES_WITH_APP.validate_python

_UNREADABLE = Issue("", "unreadable", "could not be read: a value failed while being read")


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
    if raw_app is not None and raw_requires is not None:
        given: dict[str, object] = {"name": name, "app": raw_app, "requires": raw_requires}
    else:  # null means absent
        given = {"name": name}
        if raw_app is not None:
            given["app"] = raw_app
        if raw_requires is not None:
            given["requires"] = raw_requires
    try:
        declaration: Declaration = _validate_fast_declaration(given)
    except Exception:  # refused, or a value failed while read: the explaining schema tells
        pass
    else:
        if rules_hold(declaration, raw_app, name):  # which also gives each new block the name
            return declaration
    data = {"name": name, "app": raw_app, "requires": raw_requires}
    explained: Declaration = _explain(
        validators.DECLARATION, data, name=name if isinstance(name, str) else "", where=where
    )
    return explained


def _blocks(app: object, raw_requires: object, *, name: str, where: str) -> RequiresWithApp:
    """Validate ``{app, requires}``, fast first, then explained when refused."""
    given = {
        key: value for key, value in (("app", app), ("requires", raw_requires)) if value is not None
    }
    try:
        blocks: RequiresWithApp = _validate_fast_blocks(given)
    except Exception:  # refused, or a value failed while read: the explaining schema tells
        pass
    else:
        if rules_hold(blocks, app, name):  # which also gives each new block the name
            return blocks
    data = {"app": app, "requires": raw_requires}
    explained: RequiresWithApp = _explain(
        validators.REQUIRES_WITH_APP, data, name=name, where=where
    )
    return explained


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
