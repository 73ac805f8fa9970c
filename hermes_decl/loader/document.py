"""A read document: its data, where each value and key sits, and the problems found reading it."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Protocol

import yaml

from hermes_decl._text import show
from hermes_decl.declaration import Issue
from hermes_decl.errors import DataPath, dotted

MAX_ALIAS_NODES = 10_000
"""The most node visits that aliases and merge keys may repeat in one document.

It bounds the work, not the output: a merge of empty mappings produces no value, but each time
it is merged its nodes are visited again, and those visits count."""
MAX_DEPTH = 100
"""The deepest nesting of mappings and lists accepted, counted from the document's top."""
MAX_BYTES = 1024 * 1024
"""The largest file (in bytes) or text (in characters) read."""
MAX_INT_DIGITS = 4_300
"""The most digits of a decimal integer read: turning digits into a number takes time quadratic
in their count (Python 3.11 and later refuse more than 4,300 themselves, in their own words)."""

Position = tuple[int, int]
"""A 1-based ``(line, column)``, as editors show them."""

STRING_WHERE = "<string>"
ESCAPE_HINT = "in double quotes '\\' starts an escape: use single quotes or '/'"
"""The fix for a Windows path written in double quotes (``"C:\\tools"``), where each '\\' starts an
escape: what a control character it made, and YAML's refusal of an unknown escape, are told."""
SERVER_KEYS = ("app", "requires")

_TAG_PREFIX = "tag:yaml.org,2002:"
_MAP = _TAG_PREFIX + "map"
_SEQ = _TAG_PREFIX + "seq"
_STR = _TAG_PREFIX + "str"
_MERGE = _TAG_PREFIX + "merge"
_VALUE = _TAG_PREFIX + "value"
_STANDARD_TAGS = frozenset(tag for tag in yaml.SafeLoader.yaml_constructors if tag is not None)
_AT_KEY_CODES = frozenset({"unknown_key", "missing_key"})
_UNREAD_CODES = frozenset({"unknown_tag", "bad_value"})


class _Skip:
    """The marker for a key or value that could not be read (its issue is already recorded)."""


_SKIP = _Skip()


class _Nothing(Mapping[Any, Any]):
    """An empty read-only map; pickled and copied, it stays the one ``_NOTHING``."""

    def __getitem__(self, key: object) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __reduce__(self) -> str:
        return "_NOTHING"


_NOTHING = _Nothing()
"""The children and keys of a scalar's spot: one read-only empty map for all of them."""


class _Spot:
    """Where one value sits, and where its children and (for a mapping) their keys sit."""

    __slots__ = ("at", "children", "double_quoted", "double_quoted_keys", "keys")

    def __init__(
        self,
        at: Position,
        *,
        double_quoted: bool = False,
        children: Mapping[object, _Spot] = _NOTHING,
        keys: Mapping[object, Position] = _NOTHING,
        double_quoted_keys: AbstractSet[object] | None = None,
    ) -> None:
        self.at = at
        self.children = children
        """Where each item or value of a list or mapping sits (a scalar shares one empty map)."""
        self.keys = keys
        """Where each key of a mapping sits."""
        self.double_quoted = double_quoted
        """Whether the value is a double-quoted YAML scalar, where '\\' starts an escape."""
        self.double_quoted_keys = double_quoted_keys
        """The keys of a mapping written as double-quoted YAML scalars (None: there are none)."""


@dataclass(frozen=True)
class Document:
    """One YAML or JSON document read as plain data, with the position of each value and key."""

    data: object
    """The data, as ``yaml.safe_load`` (or ``json.loads`` for JSON text) would give it."""
    where: str
    """The label every error starts with: the file name or ``<string>``."""
    issues: tuple[Issue, ...] = ()
    """Problems that did not stop reading (duplicate keys, non-string keys, custom tags…)."""
    _root: _Spot = field(default_factory=lambda: _Spot((1, 1)), repr=False, compare=False)

    def _find(self, path: Sequence[str | int]) -> _Spot | None:
        spot: _Spot | None = self._root
        for step in path:
            spot = spot.children.get(step) if spot is not None else None
        return spot

    def value_position(self, path: Sequence[str | int]) -> Position | None:
        """Where the value at a data path starts, or None when the path is not in the document."""
        spot = self._find(path)
        return spot.at if spot is not None else None

    def double_quoted(self, path: Sequence[str | int]) -> bool:
        """Whether the value at a data path was written as a double-quoted YAML scalar."""
        spot = self._find(path)
        return spot is not None and spot.double_quoted

    def key_double_quoted(self, path: Sequence[str | int]) -> bool:
        """Whether the mapping key naming a data path was written as a double-quoted YAML scalar."""
        parent = self._find(path[:-1]) if path else None
        quoted = parent.double_quoted_keys if parent is not None else None
        return quoted is not None and path[-1] in quoted

    def key_position(self, path: Sequence[str | int]) -> Position | None:
        """Where the mapping key naming a data path is written, or None when there is none."""
        if not path:
            return None
        parent = self._find(path[:-1])
        return parent.keys.get(path[-1]) if parent is not None else None

    def position(self, path: Sequence[str | int], *, key: bool = False) -> Position:
        """Where to report a path: its key (if ``key``), else its value, else its closest parent."""
        if key:
            found = self.key_position(path)
            if found is not None:
                return found
        spot = self._root
        for step in path:
            child = spot.children.get(step)
            if child is None:
                break
            spot = child
        return spot.at

    @cached_property
    def bad_key_paths(self) -> frozenset[DataPath]:
        """The mappings that hold a key that is no string, each reported once while reading."""
        return frozenset(issue.path for issue in self.issues if issue.code == "bad_key")

    @cached_property
    def values(self) -> Mapping[DataPath, Position]:
        """Every data path in the document → the position of its value."""
        return {path: spot.at for path, spot, _ in self._walk()}

    @cached_property
    def keys(self) -> Mapping[DataPath, Position]:
        """Every data path named by a mapping key → the position of that key."""
        return {path: key_at for path, _, key_at in self._walk() if key_at is not None}

    def _walk(self) -> Iterator[tuple[DataPath, _Spot, Position | None]]:
        stack: list[tuple[DataPath, _Spot, Position | None]] = [((), self._root, None)]
        while stack:
            path, spot, key_at = stack.pop()
            yield path, spot, key_at
            for step, child in reversed(tuple(spot.children.items())):
                stack.append(((*path, _step(step)), child, spot.keys.get(step)))


# ---------------------------------------------------------------------------------------------
# Issues


class _Stop(Exception):
    """A problem that ends reading: the text cannot be turned into data."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(issue)
        self.issue = issue


def _issue(
    path: Sequence[str | int],
    code: str,
    message: str,
    at: Position | None,
    *,
    hint: str | None = None,
) -> Issue:
    line, column = at if at is not None else (None, None)
    return Issue(dotted(path), code, message, line, column, path=tuple(path), hint=hint)


class _Marked(Protocol):
    """A PyYAML mark, from its pure-Python parser or from libyaml's."""

    line: int
    column: int


def _duplicate_key(path: Sequence[str | int], first: Position, at: Position) -> Issue:
    """The issue for a key that a mapping already has, at the repeat, naming the first one."""
    line, column = first
    message = (
        f"duplicate key: keys must be unique in a mapping (first at line {line}, column {column})"
    )
    return _issue(path, "duplicate_key", message, at)


def _mark(mark: _Marked | None) -> Position:
    if mark is None:  # every event and node has one; the stubs do not promise it
        return (1, 1)
    return (mark.line + 1, mark.column + 1)  # PyYAML counts no column for a byte order mark


def _step(key: object) -> str | int:
    """A mapping key as a data path element (non-string keys are shown, as they are errors)."""
    return key if isinstance(key, (str, int)) else show(key)


def _in_reading_order(issues: Sequence[Issue]) -> list[Issue]:
    return sorted(issues, key=lambda i: (i.line is None, i.line or 0, i.column or 0))


def _tag_text(tag: str) -> str:
    return "!!" + tag[len(_TAG_PREFIX) :] if tag.startswith(_TAG_PREFIX) else tag


class _Lines:
    """Turns offsets into a text into 1-based positions."""

    def __init__(self, text: str) -> None:
        self._starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def at(self, offset: int) -> Position:
        line = bisect.bisect_right(self._starts, offset)
        return (line, offset - self._starts[line - 1] + 1)
