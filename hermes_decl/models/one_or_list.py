"""``OneOrListRule``: a field of an OS block that takes one item or a non-empty list of them.

``location`` and ``install`` are both such fields; the rule object says, once, how each is
checked (one item becomes a list of one; an empty list is refused with the field's own words),
rendered in JSON Schema and run in the fast schema.
"""

from __future__ import annotations

from typing import Any

from pydantic.json_schema import JsonSchemaValue

from hermes_decl.models.common import fail
from hermes_decl.models.editor_schema import TITLE, one_or_list
from hermes_decl.models.rule_object import (
    Derivation,
    Node,
    Renderer,
    RuleObject,
    fast_one_or_list,
    os_family_of,
)


class OneOrListRule(RuleObject):
    """One item as a list of one, or a non-empty list, for the field ``field`` of an OS block."""

    field: str
    empty: str
    """What is said of an empty list."""
    item_comment: str
    """How the schema describes one item, before ``under app.<os>``."""
    item_def: str
    """The ``$defs`` name of one item, after the OS's capitalised name."""
    max_items: int | None = None
    """The most items the list may hold, or None when any number may be given."""
    too_many: str = ""
    """What is said of a list longer than ``max_items``."""

    def check(self, value: Any) -> Any:
        """The items, as a tuple; a list must not be empty."""
        if isinstance(value, (list, tuple)):
            if not value:
                fail("empty", self.empty)
            if self.max_items is not None and len(value) > self.max_items:
                fail(f"too_many_{self.field}s", f"{self.too_many} (got {len(value):,})")
            return tuple(value)
        return (value,)

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        os_family = os_family_of(renderer, f"{self.field} list")
        item = renderer.generate_inner(schema["schema"])["items"]
        item[TITLE] = f"app.{os_family}.{self.field}"
        item["$comment"] = f"{self.item_comment} under app.{os_family}."
        hoist = f"{os_family.capitalize()}{self.item_def}"
        limit = None if self.max_items is None else (self.max_items, self.too_many)
        return one_or_list(item, self.empty, hoist=hoist, limit=limit)

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        return fast_one_or_list(
            derivation.node(schema["schema"], presence), max_items=self.max_items
        )
