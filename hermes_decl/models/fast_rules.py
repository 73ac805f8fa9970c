"""The rules only Python can say, as the fast path checks them: once per shape, after the fast
validator has built it.

The explaining schema checks each rule where it belongs (``AppBlock``: at least one OS block;
``min_version``: needs ``app: true``; ``RequiresWithApp``: ``requires`` against ``app``), so
that its errors sit at the right place. The fast path only has to refuse what any of them
refuses (the explaining schema then says why), so the parser checks them all on the shape the
fast validator returns, reading the built models' fields directly: no Python call inside
pydantic-core, and one attribute read per model. The same pass gives each OS block built by
this validation the declaration's name, which the explaining schema passes through its
validation context.
"""

from __future__ import annotations

from pydantic import BaseModel

from hermes_decl.models.version import NoVersion

_NO_VERSION = NoVersion.KIND
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
"""Sets a model's private state: only on an OS block this validation has just built."""

TOP_RULES = frozenset({"_AtLeastOneOs", "_MinimumNeedsApp"})
"""The ``TopRule`` classes whose rule ``rules_hold`` says: the fast derivation refuses any other."""


def rules_hold(shape: BaseModel, given_app: object, name: str) -> bool:
    """Whether a shape the fast validator built (``{name, app, requires}`` or ``{app,
    requires}``) keeps the rules only Python can say; if so, and its ``app`` block is not the
    one given already built (``given_app``), each OS block gets ``name``, as the explaining
    schema gives it from its validation context. The fast validator reads a block from a
    mapping only, so the blocks of an ``app`` it built are all new."""
    fields = shape.__dict__
    app = fields["app"]
    requires = fields["requires"].__dict__
    if app is None:
        # requires.app without an app block; min_version without app: true, or without app
        return not requires["app"] and requires["min_version"] is None
    blocks = app.__dict__
    win32, darwin, linux = blocks["win32"], blocks["darwin"], blocks["linux"]
    if requires["min_version"] is not None:
        # min_version needs app: true, and a version source in every block that can have one
        # (Linux has none, so a linux-only app is refused)
        if (
            not requires["app"]
            or (win32 is None and darwin is None)
            or (win32 is not None and win32.version.kind == _NO_VERSION)
            or (darwin is not None and darwin.version.kind == _NO_VERSION)
        ):
            return False
    elif win32 is None and darwin is None and linux is None:
        return False
    if app is not given_app:
        carried = {"app_id": name}
        if win32 is not None:
            _set_private(win32, carried)
        if darwin is not None:
            _set_private(darwin, carried)
        if linux is not None:
            _set_private(linux, carried)
    return True
