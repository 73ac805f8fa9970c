"""``DeclarationError`` and the one translation from Pydantic's ``ValidationError`` into issues.

Errors are translated by their ``type`` (Pydantic's built-in types and our own stable codes),
never by message text. Locations are written as data paths (``app.win32.location[1].file``):
the discriminator tags Pydantic inserts are dropped, and so is the index of a lone location that
the models turned into a list of one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from hermes_decl._text import show
from hermes_decl.models.common import BUILTIN_ERROR_TYPES
from hermes_decl.models.kinds import KindVariant
from hermes_decl.models.liveness import LIVENESS_VARIANTS
from hermes_decl.models.locations import KIND_LOCATIONS, PathLocation
from hermes_decl.models.version import VERSION_VARIANTS


@dataclass(frozen=True)
class Issue:
    """One problem in a declaration, at a dotted data location (``""`` is the whole declaration)."""

    loc: str
    code: str
    message: str
    line: int | None = None
    column: int | None = None

    def render(self, where: str) -> str:
        """The issue as one line: ``where[:line:column]: loc: message``."""
        place = where if self.line is None else f"{where}:{self.line}:{self.column}"
        return f"{place}: {self.loc}: {self.message}" if self.loc else f"{place}: {self.message}"


class DeclarationError(ValueError):
    """An invalid declaration: ``.issues`` holds every problem found, ``.where`` its source."""

    def __init__(self, where: str, issues: Iterable[Issue]) -> None:
        self.where = where
        self.issues: tuple[Issue, ...] = tuple(issues)
        super().__init__(where, self.issues)

    def __str__(self) -> str:
        return "\n".join(issue.render(self.where) for issue in self.issues)

    def __repr__(self) -> str:
        return f"DeclarationError(where={self.where!r}, issues={len(self.issues)})"


def _tags(variants: Iterable[type[KindVariant]]) -> set[str]:
    return {variant.KIND for variant in variants}


_UNION_TAGS = (
    _tags(KIND_LOCATIONS)
    | _tags(VERSION_VARIANTS)
    | _tags(v for variants in LIVENESS_VARIANTS.values() for v in variants)
    | {PathLocation.KIND}
)
_UNION_FIELDS = ("version", "liveness")
_UNION_LISTS = ("location",)

_TYPE_RULES: dict[str, tuple[str, str]] = {
    "string_type": ("wrong_type", "must be a string"),
    "bool_type": ("wrong_type", "must be true or false"),
    "int_type": ("wrong_type", "must be a whole number"),
    "model_type": ("wrong_type", "must be a mapping"),
    "model_attributes_type": ("wrong_type", "must be a mapping"),
    "dict_type": ("wrong_type", "must be a mapping"),
    "tuple_type": ("wrong_type", "must be a list"),
    "list_type": ("wrong_type", "must be a list"),
    "literal_error": ("invalid_choice", "is not one of the accepted values"),
    "missing": ("missing_key", "is required"),
    "extra_forbidden": ("unknown_key", "unknown key"),
    "recursion_loop": ("too_deep", "is nested too deeply or contains itself"),
    "union_tag_invalid": ("invalid_choice", "has an unknown kind"),
    "union_tag_not_found": ("wrong_type", "must be a mapping with a kind"),
}
_QUOTES_FOUND = {"wrong_type", "invalid_choice", "invalid"}


def _is_tag(raw: Sequence[Any], index: int) -> bool:
    element = raw[index]
    if index == 0 or not isinstance(element, str) or element not in _UNION_TAGS:
        return False
    parent = raw[index - 1]
    if parent in _UNION_FIELDS:
        return True
    return isinstance(parent, int) and index >= 2 and raw[index - 2] in _UNION_LISTS


def data_path(raw: Sequence[Any], data: object) -> tuple[str | int, ...]:
    """Turn a Pydantic location into a path through the input data."""
    path: list[str | int] = []
    cursor: object = data
    for index, element in enumerate(raw):
        if _is_tag(raw, index):
            continue
        if isinstance(element, int) and not isinstance(element, bool):
            if not isinstance(cursor, (list, tuple)):
                continue  # a lone value the models read as a list of one
            cursor = cursor[element] if 0 <= element < len(cursor) else None
            path.append(element)
            continue
        path.append(element if isinstance(element, str) else str(element))
        cursor = cursor.get(element) if isinstance(cursor, Mapping) else None
    return tuple(path)


def dotted(path: Sequence[str | int]) -> str:
    """Write a data path as ``a.b[1].c``."""
    text = ""
    for element in path:
        if isinstance(element, int):
            text += f"[{element}]"
        else:
            text += f".{element}" if text else element
    return text


def issues_from(error: ValidationError, data: object) -> tuple[Issue, ...]:
    """Translate every line of a ``ValidationError`` about ``data`` into an ``Issue``."""
    issues: list[Issue] = []
    for line in error.errors(include_url=False):
        loc = dotted(data_path(line["loc"], data))
        if line["type"] in BUILTIN_ERROR_TYPES:
            code, message = _TYPE_RULES.get(line["type"], ("invalid", "is not valid"))
            if code in _QUOTES_FOUND:
                message = f"{message} (got {show(line['input'])})"
        else:
            # Our own codes (PydanticCustomError) carry finished messages.
            code, message = line["type"], line["msg"]
        issue = Issue(loc, code, message)
        if issue not in issues:
            issues.append(issue)
    return tuple(issues)
