"""``DeclarationError`` and the one translation from Pydantic's ``ValidationError`` into issues.

Errors are translated by their ``type`` (Pydantic's built-in types and our own stable codes),
never by message text. Locations are written as data paths (``app.win32.location[1].file``):
the discriminator tags Pydantic inserts are dropped, and so is the index of a lone location that
the models turned into a list of one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import ValidationError

from hermes_decl._text import LONGEST_WRITTEN_INT_BITS, show
from hermes_decl.models.common import BUILTIN_ERROR_TYPES, HINT_CONTEXT, OS_FAMILIES
from hermes_decl.models.install import HINT_KEYS, key_of
from hermes_decl.models.kinds import KindVariant, tag_of
from hermes_decl.models.liveness_sources import LIVENESS_VARIANTS
from hermes_decl.models.locations import KIND_LOCATIONS, PathLocation
from hermes_decl.models.version import VERSION_VARIANTS, NoVersion

Severity = Literal["error", "warning"]
"""An error makes a declaration invalid; a warning says a valid one is doubtful."""


@dataclass(frozen=True)
class Issue:
    """One problem in a declaration, at a dotted data location (``""`` is the whole declaration)."""

    loc: str
    code: str
    message: str
    line: int | None = None
    column: int | None = None
    path: tuple[str | int, ...] = field(default=(), compare=False, repr=False)
    """The location as data: keys and list indexes from the top of the declaration."""
    where: str = field(default="", compare=False, repr=False)
    """The source's label, given by the ``DeclarationError`` that holds the issue."""
    severity: Severity = "error"
    """``"warning"`` for a doubtful but valid declaration (``hermes_decl.lint``), else an error."""
    hint: str | None = field(default=None, compare=False, repr=False)
    """What to do about it, alone (``"write 'GIMP.app'"``), or None; the message ends with it too,
    so it takes no part in equality."""

    def with_hint(self, hint: str) -> Issue:
        """The issue with one more hint, inside its message's closing parenthesis (or in one of
        its own) and after any hint it has."""
        message = self.message
        message = f"{message[:-1]}; {hint})" if message.endswith(")") else f"{message} ({hint})"
        return replace(
            self, message=message, hint=hint if self.hint is None else f"{self.hint}; {hint}"
        )

    def render(self, where: str) -> str:
        """The issue as one line: ``where[:line:column]: loc: message``."""
        place = where if self.line is None else f"{where}:{self.line}:{self.column}"
        return f"{place}: {self.loc}: {self.message}" if self.loc else f"{place}: {self.message}"

    def __str__(self) -> str:
        """The line a person reads: ``where:line:column: loc: message``, less what is unknown."""
        if self.where:
            return self.render(self.where)
        place = "" if self.line is None else f"{self.line}:{self.column}"
        return ": ".join(part for part in (place, self.loc, self.message) if part)


class DeclarationError(ValueError):
    """An invalid declaration: ``.issues`` holds every problem found, ``.where`` its source."""

    def __init__(self, where: str, issues: Iterable[Issue]) -> None:
        self.where = where
        self.issues: tuple[Issue, ...] = tuple(_from(where, issue) for issue in issues)
        super().__init__(where, self.issues)

    def __str__(self) -> str:
        return "\n".join(issue.render(self.where) for issue in self.issues)

    def __repr__(self) -> str:
        return f"DeclarationError(where={self.where!r}, issues={len(self.issues)})"


def _from(where: str, issue: Issue) -> Issue:
    """The issue labelled with its source, unless it already is.

    The copy is made by filling a new instance's fields, as ``dataclasses.replace`` would but
    without its checks and ``__init__`` (a fifth of the time): every issue is labelled again by
    each ``DeclarationError`` it passes through, and a file may hold hundreds of thousands.
    """
    if issue.where == where:
        return issue
    labelled = issue.__class__.__new__(issue.__class__)
    fields = labelled.__dict__
    fields.update(issue.__dict__)
    fields["where"] = where
    return labelled


def _tags(variants: Iterable[type[KindVariant]]) -> set[str]:
    return {variant.KIND for variant in variants}


_UNION_TAGS = (
    _tags(KIND_LOCATIONS)
    | _tags(VERSION_VARIANTS)
    | _tags(v for variants in LIVENESS_VARIANTS.values() for v in variants)
    | {PathLocation.KIND}
    | set(HINT_KEYS)
)
_UNION_FIELDS = ("version", "liveness")
_UNION_LISTS = ("location", "install", *OS_FAMILIES)
"""Keys whose value is a list of union items: ``location`` and ``install``, and an OS key of the
overrides file (a list of locations)."""

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


_BOOLEAN_WORDS = {
    **dict.fromkeys(("y", "yes", "on", "true"), "true"),
    **dict.fromkeys(("n", "no", "off", "false"), "false"),
}
"""Text that YAML 1.1 read as a boolean, and the YAML 1.2 boolean it meant."""


def _boolean_fix(found: object) -> str | None:
    """The fix for a boolean written as text (``yes``, ``"true"``…): write true or false."""
    if not isinstance(found, str):
        return None
    meant = _BOOLEAN_WORDS.get(found.strip().lower())
    if meant is None:
        return None
    return f"write {meant} without quotes" if found == meant else f"write {meant}"


_VERSION_KEYS = {("min_version",), ("min_os_version",)}


def _version_fix(found: object) -> str | None:
    """The fix for a version written as a number (``min_version: 3.6``): quote it."""
    if isinstance(found, bool) or not isinstance(found, (int, float)):
        return None
    return f"quote it: {show(str(found))}, as YAML reads an unquoted 3.10 as the number 3.1"


def _is_tag(raw: Sequence[Any], index: int, cursor: object) -> bool:
    """Whether ``raw[index]`` is a discriminator tag Pydantic inserted, not a key of the data.

    Only a union position can hold one, and only when the value there has that tag and the
    union has more than one variant under its OS block (a Linux version has one, so no tag).
    """
    element = raw[index]
    if index < 2 or not isinstance(element, str) or element not in _UNION_TAGS:
        return False
    parent = raw[index - 1]
    if parent in _UNION_FIELDS:
        os_family = raw[index - 2]
        if os_family not in OS_FAMILIES:
            return False
        variants = VERSION_VARIANTS if parent == "version" else LIVENESS_VARIANTS[os_family]
        if sum(os_family in variant.VALID_OS for variant in variants) < 2:
            return False
        return element == tag_of(cursor, default_kind=NoVersion.KIND)
    if not isinstance(parent, int) or raw[index - 2] not in _UNION_LISTS:
        return False
    if raw[index - 2] == "install":
        return element == key_of(cursor)
    return element == tag_of(cursor, default_kind=None, string_kind=PathLocation.KIND)


DataPath = tuple[str | int, ...]


KeyOrders = dict[int, dict[str, int]]
"""Per input mapping (by identity), each string key's position: worked out once per mapping."""


def _position(container: object, key: str, orders: KeyOrders) -> int:
    if not isinstance(container, (dict, Mapping)):  # a dict first: no ABC check
        return 0
    order = orders.get(id(container))
    if order is None:
        order = {k: index for index, k in enumerate(k for k in container if isinstance(k, str))}
        orders[id(container)] = order
    return order.get(key, len(order))


def data_path(
    raw: Sequence[Any], data: object, orders: KeyOrders
) -> tuple[DataPath, tuple[int, ...]]:
    """Turn a Pydantic location into a path through the input data, and its place in reading order.

    The place holds, per step, the position of the key or item in its container, so that sorting
    by it lists issues in the order an author reads the file; a missing key sorts after the rest.
    ``orders`` lets the issues of one error share the key positions they look up.
    """
    path: list[str | int] = []
    place: list[int] = []
    cursor: object = data
    for index, element in enumerate(raw):
        if _is_tag(raw, index, cursor):
            continue
        if isinstance(element, int) and not isinstance(element, bool):
            if not isinstance(cursor, (list, tuple)):
                continue  # a lone value the models read as a list of one
            inside = 0 <= element < len(cursor)
            cursor = cursor[element] if inside else None
            path.append(element)
            place.append(element)
            continue
        key = element if isinstance(element, str) else str(element)
        path.append(key)
        place.append(_position(cursor, key, orders))
        cursor = cursor.get(key) if isinstance(cursor, (dict, Mapping)) else None  # dict: no ABC
    return tuple(path), tuple(place)


def _is_bare(key: str) -> bool:
    """Whether a key is written unquoted: exactly when ``str.isidentifier()`` holds (SPEC 4).

    Identifiers of any script are bare (``línux``, ``пути``); anything else is quoted, a hyphen
    or a leading digit included (``["my-server"]``, ``["3d"]``), so one rule decides every key.
    """
    return key.isidentifier()


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(character: str) -> str:
    """A character as a quoted key shows it: itself, unless it could break or steer the line."""
    if character in _ESCAPES:
        return _ESCAPES[character]
    if unicodedata.category(character) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
        return f"\\u{ord(character):04x}"
    return character


def dotted(path: Sequence[str | int]) -> str:
    """Write a data path as ``a.b[1].c``; other keys as ``["k.y"]``, never shortened.

    A quoted key keeps its characters as written; only control and format characters, lone
    surrogates, line separators, ``"`` and ``\\`` are escaped, so the location stays on one line
    and reads in order.
    """
    text = ""
    for element in path:
        if isinstance(element, int):
            too_long = element.bit_length() > LONGEST_WRITTEN_INT_BITS  # an integer key, shown
            text += f"[{show(element) if too_long else element}]"
        elif _is_bare(element):
            text += f".{element}" if text else element
        else:
            text += '["' + "".join(map(_escaped, element)) + '"]'
    return text


def issues_from(error: ValidationError, data: object, *, where: str = "") -> tuple[Issue, ...]:
    """Translate each line of a ``ValidationError`` about ``data`` into issues, in reading order,
    each labelled with ``where`` (the ``DeclarationError`` that holds them then keeps them)."""
    placed: list[tuple[tuple[int, ...], Issue]] = []
    seen: set[Issue] = set()
    orders: KeyOrders = {}
    for line in error.errors(include_url=False):
        path, place = data_path(line["loc"], data, orders)
        loc = dotted(path)
        hint: str | None = None
        if line["type"] in BUILTIN_ERROR_TYPES:
            code, message = _TYPE_RULES.get(line["type"], ("invalid", "is not valid"))
            if code in _QUOTES_FOUND:
                found = line["input"]
                if line["type"] == "bool_type":
                    hint = _boolean_fix(found)
                elif line["type"] == "string_type" and path[-1:] in _VERSION_KEYS:
                    hint = _version_fix(found)
                message = f"{message} (got {show(found)}{f'; {hint}' if hint else ''})"
        else:
            # Our own codes (PydanticCustomError) carry finished messages, and their hint apart.
            code, message = line["type"], line["msg"]
            hint = line.get("ctx", {}).get(HINT_CONTEXT)
        issue = Issue(loc, code, message, path=path, where=where, hint=hint)
        if issue not in seen:
            seen.add(issue)
            placed.append((place, issue))
    placed.sort(key=lambda entry: entry[0])
    return tuple(issue for _, issue in placed)
