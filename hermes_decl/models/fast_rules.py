"""The rules only Python can say, as the fast schema runs them: once per declaration, in one call.

The explaining schema checks each rule where it belongs (``AppBlock``: at least one OS block;
``min_version``: needs ``app: true``; ``RequiresWithApp``: ``requires`` against ``app``), so
that its errors sit at the right place. The fast schema only has to refuse what any of them
refuses (the explaining schema then says why), so it checks them all at the top of each shape,
where one Python call sees the whole value. A whole declaration's check also gives each OS
block built by this validation the declaration's name, which the explaining schema passes
through its validation context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from hermes_decl.models.version import NoVersion

_NO_VERSION = NoVersion.KIND
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
"""Sets a model's private state: only on an OS block this validation has just built."""


def _refused() -> PydanticCustomError:
    return PydanticCustomError(
        "fast_refused", "a rule refuses it; the explaining schema says which"
    )


def _rules(*, named: bool) -> Callable[[Any], Any]:
    """The check of ``{app, requires}`` (``named``: of a whole declaration, which then gives each
    OS block built by this validation its name; one given already built keeps its own)."""

    def check(value: Any) -> Any:
        app, requires = value.app, value.requires
        if app is None:
            # requires.app without an app block; min_version without app: true, or without app
            if requires.app or requires.min_version is not None:
                raise _refused()
            return value
        win32, darwin, linux = app.win32, app.darwin, app.linux
        if requires.min_version is not None:
            # min_version needs app: true, and a version source in every block that can have
            # one (Linux has none, so a linux-only app, like one without blocks, is refused)
            if (
                not requires.app
                or (win32 is None and darwin is None)
                or (win32 is not None and win32.version.kind == _NO_VERSION)
                or (darwin is not None and darwin.version.kind == _NO_VERSION)
            ):
                raise _refused()
        elif win32 is None and darwin is None and linux is None:
            raise _refused()
        if named:
            carried = {"app_id": value.name}
            if win32 is not None and win32.__pydantic_private__ is None:
                _set_private(win32, carried)
            if darwin is not None and darwin.__pydantic_private__ is None:
                _set_private(darwin, carried)
            if linux is not None and linux.__pydantic_private__ is None:
                _set_private(linux, carried)
        return value

    return check


_BLOCKS_RULES = _rules(named=False)
_DECLARATION_RULES = _rules(named=True)

TOP_RULES = frozenset({"_AtLeastOneOs", "_MinimumNeedsApp"})
"""The ``TopRule`` classes whose rule the check says: the fast derivation refuses any other."""


def is_check(schema: object) -> bool:
    """Whether a fast schema node is the check of a shape's top (``fast_rules``)."""
    if not isinstance(schema, dict) or schema.get("type") != "function-after":
        return False
    return schema["function"]["function"] in (_BLOCKS_RULES, _DECLARATION_RULES)


def fast_rules(model: CoreSchema, *, named: bool) -> CoreSchema:
    """``model`` (``{app, requires}``, with ``name`` when ``named``), the rules checked after."""
    rules = _DECLARATION_RULES if named else _BLOCKS_RULES
    return core_schema.no_info_after_validator_function(rules, model)
