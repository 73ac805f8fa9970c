"""Reading declaration files: YAML or JSON text → data with positions → declarations (SPEC 10).

The text is read with PyYAML's safe loader (or, for text that is JSON, with the ``json`` module's
own scanners), keeping the 1-based line and column of every value and every mapping key, so that
each ``DeclarationError`` issue points at the offending value or key in the file. Reading never
raises anything but ``DeclarationError`` and never expands an alias bomb: aliases may produce at
most ``MAX_ALIAS_NODES`` values, nesting stops at ``MAX_DEPTH`` levels, and text is bounded by
``MAX_BYTES``.

Issue locations (``loc`` and ``path``) are data paths from the top of the document, so with an
``at`` selection they start with the selected keys (``tool.servers.my-server.app.linux``).
Each issue's ``line``/``column`` is: for ``unknown_key``, the key; for ``missing_key``, the key
when it is written with a null value, else the mapping that lacks it; for ``duplicate_key``, the
second key; for ``bad_key``, the key; otherwise the offending value (a value given by an alias at
the alias, anything inside it at the anchored text). A lone location read as a list of one has
no index in its path, so it is placed at the location value. A path the document lacks is placed
at its closest existing parent; problems of the whole text at the place reading stopped.
"""

from __future__ import annotations

import bisect
import codecs
import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

import yaml
from yaml.reader import ReaderError

from hermes_decl._text import choices, did_you_mean, show
from hermes_decl.declaration import DeclarationError, Issue, parse_declaration
from hermes_decl.errors import DataPath, dotted
from hermes_decl.models import Declaration

MAX_ALIAS_NODES = 10_000
"""The most values that aliases (and merge keys) may produce in one document."""
MAX_DEPTH = 100
"""The deepest nesting of mappings and lists accepted, counted from the document's top."""
MAX_BYTES = 1024 * 1024
"""The largest file (in bytes) or text (in characters) read."""

Position = tuple[int, int]
"""A 1-based ``(line, column)``, as editors show them."""

STRING_WHERE = "<string>"
SERVER_KEYS = ("app", "requires")

_TAG_PREFIX = "tag:yaml.org,2002:"
_MAP = _TAG_PREFIX + "map"
_SEQ = _TAG_PREFIX + "seq"
_MERGE = _TAG_PREFIX + "merge"
_VALUE = _TAG_PREFIX + "value"
_STANDARD_TAGS = frozenset(tag for tag in yaml.SafeLoader.yaml_constructors if tag is not None)
_AT_KEY_CODES = frozenset({"unknown_key", "missing_key"})
_UNREAD_CODES = frozenset({"unknown_tag", "bad_value"})
_JSON_SPACE = re.compile(r"[ \t\n\r]*")
_JSON = json.JSONDecoder()


class _Skip:
    """The marker for a key or value that could not be read (its issue is already recorded)."""


_SKIP = _Skip()


class _Spot:
    """Where one value sits, and where its children and (for a mapping) their keys sit."""

    __slots__ = ("at", "children", "keys")

    def __init__(self, at: Position) -> None:
        self.at = at
        self.children: dict[object, _Spot] = {}
        self.keys: dict[object, Position] = {}


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
            for step, child in reversed(spot.children.items()):
                stack.append(((*path, _step(step)), child, spot.keys.get(step)))


# ---------------------------------------------------------------------------------------------
# Issues


class _Stop(Exception):
    """A problem that ends reading: the text cannot be turned into data."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(issue)
        self.issue = issue


def _issue(path: Sequence[str | int], code: str, message: str, at: Position | None) -> Issue:
    line, column = at if at is not None else (None, None)
    return Issue(dotted(path), code, message, line, column, path=tuple(path))


def _mark(mark: yaml.Mark) -> Position:
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


# ---------------------------------------------------------------------------------------------
# YAML


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader that bounds nesting and remembers where each alias is written."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.alias_at: dict[tuple[int, int], Position] = {}
        self._path: list[str | int] = []
        self._depth = -1

    def compose_node(self, parent: yaml.Node | None, index: yaml.Node | int | None) -> yaml.Node:
        if self.check_event(yaml.AliasEvent):
            at = _mark(self.peek_event().start_mark)
            node = super().compose_node(parent, index)
            if parent is not None and index is not None:
                self.alias_at[(id(parent), index if isinstance(index, int) else id(index))] = at
            return node
        step: str | int | None = None
        if isinstance(index, yaml.ScalarNode):
            step = index.value
        elif isinstance(index, int):
            step = index
        if self._depth >= MAX_DEPTH:
            path = self._path if step is None else [*self._path, step]
            at = _mark(self.peek_event().start_mark)
            raise _Stop(_too_deep(path, at))
        self._depth += 1
        if step is not None:
            self._path.append(step)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1
            if step is not None:
                self._path.pop()


def _too_deep(path: Sequence[str | int], at: Position) -> Issue:
    return _issue(path, "too_deep", f"is nested more than {MAX_DEPTH} levels deep", at)


class _Pair(NamedTuple):
    key: yaml.Node
    value: yaml.Node
    parent: yaml.MappingNode
    own: bool


class _Builder:
    """Builds plain data and positions from composed nodes, bounding what aliases expand to."""

    def __init__(self, loader: _Loader) -> None:
        self._loader = loader
        self.issues: list[Issue] = []
        self._reported: set[tuple[int, str]] = set()
        self._seen: set[int] = set()
        self._expanded = 0
        self._expansion: tuple[DataPath, Position] | None = None

    def build(
        self, node: yaml.Node, path: DataPath, depth: int, alias: Position | None
    ) -> tuple[object, _Spot]:
        at = alias or _mark(node.start_mark)
        if depth > MAX_DEPTH:
            raise _Stop(_too_deep(path, at))
        outer = self._expansion
        if alias is not None and outer is None:
            self._expansion = (path, alias)
        try:
            if id(node) in self._seen:
                self._expand(1, path, at)
            else:
                self._seen.add(id(node))
            if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
                return self._mapping(node, path, depth, at)
            if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
                return self._sequence(node, path, depth, at)
            value = self._other(node, path, depth, at)
            return (None if value is _SKIP else value), _Spot(at)
        finally:
            self._expansion = outer

    def _expand(self, count: int, path: DataPath, at: Position) -> None:
        self._expanded += count
        if self._expanded > MAX_ALIAS_NODES:
            where, place = self._expansion or (path, at)
            message = (
                f"aliases may produce at most {MAX_ALIAS_NODES} values in a document "
                "(these expand to more: is this an alias bomb?)"
            )
            raise _Stop(_issue(where, "alias_limit", message, place))

    def _soft(self, node: yaml.Node, issue: Issue) -> None:
        if (id(node), issue.code) not in self._reported:
            self._reported.add((id(node), issue.code))
            self.issues.append(issue)

    def _mapping(
        self, node: yaml.MappingNode, path: DataPath, depth: int, at: Position
    ) -> tuple[object, _Spot]:
        spot = _Spot(at)
        data: dict[object, object] = {}
        first: dict[object, Position] = {}
        for pair in self._pairs(node, path, ()):
            key = self._key(pair.key, path, depth)
            if key is _SKIP:
                continue
            key_at = _mark(pair.key.start_mark)
            step = _step(key)
            if pair.own and key in first:
                line, column = first[key]
                message = (
                    "duplicate key: a key may appear once in a mapping "
                    f"(first at line {line}, column {column})"
                )
                if isinstance(key, str):
                    self._soft(pair.key, _issue((*path, step), "duplicate_key", message, key_at))
            elif pair.own:
                first[key] = key_at
            alias = self._loader.alias_at.get((id(pair.parent), id(pair.key)))
            value, child = self.build(pair.value, (*path, step), depth + 1, alias)
            data[key] = value
            spot.children[key] = child
            spot.keys[key] = key_at
        return data, spot

    def _sequence(
        self, node: yaml.SequenceNode, path: DataPath, depth: int, at: Position
    ) -> tuple[object, _Spot]:
        spot = _Spot(at)
        data: list[object] = []
        for index, item in enumerate(node.value):
            alias = self._loader.alias_at.get((id(node), index))
            value, child = self.build(item, (*path, index), depth + 1, alias)
            data.append(value)
            spot.children[index] = child
        return data, spot

    def _pairs(
        self, node: yaml.MappingNode, path: DataPath, merging: tuple[int, ...]
    ) -> list[_Pair]:
        """The mapping's pairs with merge keys (``<<``) applied as PyYAML does: merged first."""
        merged: list[_Pair] = []
        own: list[_Pair] = []
        for key_node, value_node in node.value:
            if key_node.tag != _MERGE:
                own.append(_Pair(key_node, value_node, node, True))
                continue
            at = self._loader.alias_at.get((id(node), id(key_node))) or _mark(value_node.start_mark)
            if isinstance(value_node, yaml.MappingNode):
                sources = [value_node]
            elif isinstance(value_node, yaml.SequenceNode) and all(
                isinstance(item, yaml.MappingNode) for item in value_node.value
            ):
                sources = [
                    item
                    for item in reversed(value_node.value)
                    if isinstance(item, yaml.MappingNode)
                ]
            else:
                message = "a merge key '<<' takes a mapping or a list of mappings"
                self._soft(value_node, _issue((*path, "<<"), "bad_value", message, at))
                continue
            for source in sources:
                if len(merging) >= MAX_DEPTH:
                    raise _Stop(_too_deep(path, at))
                if source is node or id(source) in merging:
                    pairs = [_Pair(k, v, source, False) for k, v in source.value if k.tag != _MERGE]
                else:
                    pairs = self._pairs(source, path, (*merging, id(node)))
                self._expand(len(pairs), path, at)
                merged.extend(pair._replace(own=False) for pair in pairs)
        return merged + own

    def _key(self, node: yaml.Node, path: DataPath, depth: int) -> object:
        at = _mark(node.start_mark)
        if not isinstance(node, yaml.ScalarNode):
            kind = "a mapping" if isinstance(node, yaml.MappingNode) else "a list"
            message = f"keys must be strings (got {kind})"
            self._soft(node, _issue(path, "bad_key", message, at))
            return _SKIP
        if node.tag == _VALUE:
            return node.value  # the '=' key, read as text as PyYAML does
        key = self._other(node, path, depth, at)
        if key is _SKIP:
            return _SKIP
        if not isinstance(key, str):
            self._soft(node, _issue(path, "bad_key", f"keys must be strings (got {show(key)})", at))
            try:
                hash(key)
            except TypeError:
                return _SKIP
        return key

    def _other(self, node: yaml.Node, path: DataPath, depth: int, at: Position) -> object:
        """A scalar, or a collection with another standard tag (``!!set``, ``!!omap``…)."""
        if node.tag in (_MERGE, _VALUE):
            message = f"cannot be read: {_tag_text(node.tag)} is reserved in YAML"
            if isinstance(node, yaml.ScalarNode):
                message += f"; quote {node.value!r} to write it as text"
            self._soft(node, _issue(path, "bad_value", message, at))
            return _SKIP
        if node.tag not in _STANDARD_TAGS:
            message = f"custom tags are not allowed (got {show(_tag_text(node.tag))})"
            self._soft(node, _issue(path, "unknown_tag", message, at))
            return _SKIP
        if not isinstance(node, yaml.ScalarNode):
            self._count(node, path, depth)
        try:
            value: object = self._loader.construct_object(node, deep=True)
        except Exception as error:  # PyYAML's constructors raise ValueError and others too
            reason = error.problem if isinstance(error, yaml.MarkedYAMLError) else str(error)
            message = f"cannot be read as {_tag_text(node.tag)}: {reason or type(error).__name__}"
            if isinstance(node, yaml.ScalarNode):
                message += f" (got {show(node.value)})"
            self._soft(node, _issue(path, "bad_value", message, at))
            return _SKIP
        return value

    def _count(self, node: yaml.Node, path: DataPath, depth: int) -> None:
        """Bound a collection handed to PyYAML's own constructors, as ``build`` would."""
        if depth > MAX_DEPTH:
            raise _Stop(_too_deep(path, _mark(node.start_mark)))
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        for child in children:
            if id(child) in self._seen:
                self._expand(1, path, _mark(child.start_mark))
            else:
                self._seen.add(id(child))
            self._count(child, path, depth + 1)


def _syntax_issue(error: yaml.MarkedYAMLError) -> Issue:
    mark = error.problem_mark or error.context_mark
    message = f"is not valid YAML: {error.problem or error.context or 'could not be read'}"
    if error.problem and error.context:
        message += f" ({error.context}"
        if error.context_mark is not None:
            line, column = _mark(error.context_mark)
            message += f" at line {line}, column {column}"
        message += ")"
    return _issue((), "yaml_syntax", message, _mark(mark) if mark is not None else None)


def _read_yaml(text: str, where: str) -> Document:
    try:
        loader = _Loader(text)
    except ReaderError as error:
        character = error.character
        shown = f"{character:#06x}" if isinstance(character, int) else repr(character)
        message = f"is not valid YAML: special characters are not allowed (got {shown})"
        line, column = _Lines(text).at(error.position)
        if line == 1 and column > 1 and text.startswith("\ufeff"):
            column -= 1
        issue = _issue((), "yaml_syntax", message, (line, column))
        raise DeclarationError(where, [issue]) from None
    try:
        if not loader.check_node():
            raise _Stop(_issue((), "empty_document", _EMPTY, (1, 1)))
        root = loader.get_node()
        if root is None:
            raise _Stop(_issue((), "empty_document", _EMPTY, (1, 1)))
        if loader.check_node():
            at = _mark(loader.peek_event().start_mark)
            message = "must hold one document (found a second one here)"
            raise _Stop(_issue((), "multiple_documents", message, at))
        if isinstance(root, yaml.ScalarNode) and root.value == "" and root.style is None:
            raise _Stop(_issue((), "empty_document", _EMPTY, _mark(root.start_mark)))
        builder = _Builder(loader)
        data, spot = builder.build(root, (), 0, None)
    except _Stop as stop:
        raise DeclarationError(where, [stop.issue]) from None
    except yaml.MarkedYAMLError as error:
        raise DeclarationError(where, [_syntax_issue(error)]) from None
    except Exception as error:  # anything else PyYAML may raise is still a reading problem
        message = f"is not valid YAML ({type(error).__name__})"
        raise DeclarationError(where, [_issue((), "yaml_syntax", message, None)]) from None
    finally:
        loader.dispose()
    return Document(data, where, tuple(_in_reading_order(builder.issues)), spot)


_EMPTY = "is empty: expected a mapping of server name to {app, requires}"


# ---------------------------------------------------------------------------------------------
# JSON


class _JsonSyntax(Exception):
    """Text that starts like JSON but is not JSON (it may still be YAML)."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message, offset)
        self.message = message
        self.offset = offset


class _JsonReader:
    """Reads JSON as ``json.loads`` does, keeping positions and finding duplicate keys."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _Lines(text)
        self.issues: list[Issue] = []

    def _skip(self, offset: int) -> int:
        match = _JSON_SPACE.match(self.text, offset)
        return match.end() if match else offset

    def document(self) -> tuple[object, _Spot]:
        data, spot, end = self.value(self._skip(0), (), 0)
        end = self._skip(end)
        if end != len(self.text):
            raise _JsonSyntax("Extra data", end)
        return data, spot

    def value(self, offset: int, path: DataPath, depth: int) -> tuple[object, _Spot, int]:
        spot = _Spot(self.lines.at(offset))
        if depth > MAX_DEPTH:
            raise _Stop(_too_deep(path, spot.at))
        if self.text.startswith("{", offset):
            return self._object(offset, path, depth, spot)
        if self.text.startswith("[", offset):
            return self._array(offset, path, depth, spot)
        value, end = self._scalar(offset)
        return value, spot, end

    def _scalar(self, offset: int) -> tuple[object, int]:
        try:
            value, end = _JSON.raw_decode(self.text, offset)
        except json.JSONDecodeError as error:
            raise _JsonSyntax(error.msg, error.pos) from None
        except ValueError as error:  # e.g. an integer beyond Python's digit limit
            raise _JsonSyntax(str(error), offset) from None
        return value, end

    def _object(
        self, offset: int, path: DataPath, depth: int, spot: _Spot
    ) -> tuple[object, _Spot, int]:
        data: dict[object, object] = {}
        first: dict[str, Position] = {}
        offset = self._skip(offset + 1)
        if self.text.startswith("}", offset):
            return data, spot, offset + 1
        while True:
            if not self.text.startswith('"', offset):
                raise _JsonSyntax("Expecting property name enclosed in double quotes", offset)
            key_at = self.lines.at(offset)
            key, offset = self._scalar(offset)
            if not isinstance(key, str):  # pragma: no cover - a '"' always starts a string
                raise _JsonSyntax("Expecting property name enclosed in double quotes", offset)
            offset = self._skip(offset)
            if not self.text.startswith(":", offset):
                raise _JsonSyntax("Expecting ':' delimiter", offset)
            value, child, offset = self.value(self._skip(offset + 1), (*path, key), depth + 1)
            if key in first:
                line, column = first[key]
                message = (
                    "duplicate key: a key may appear once in a mapping "
                    f"(first at line {line}, column {column})"
                )
                self.issues.append(_issue((*path, key), "duplicate_key", message, key_at))
            else:
                first[key] = key_at
            data[key] = value
            spot.children[key] = child
            spot.keys[key] = key_at
            offset = self._skip(offset)
            if self.text.startswith(",", offset):
                offset = self._skip(offset + 1)
            elif self.text.startswith("}", offset):
                return data, spot, offset + 1
            else:
                raise _JsonSyntax("Expecting ',' delimiter", offset)

    def _array(
        self, offset: int, path: DataPath, depth: int, spot: _Spot
    ) -> tuple[object, _Spot, int]:
        data: list[object] = []
        offset = self._skip(offset + 1)
        if self.text.startswith("]", offset):
            return data, spot, offset + 1
        while True:
            index = len(data)
            value, child, offset = self.value(offset, (*path, index), depth + 1)
            data.append(value)
            spot.children[index] = child
            offset = self._skip(offset)
            if self.text.startswith(",", offset):
                offset = self._skip(offset + 1)
            elif self.text.startswith("]", offset):
                return data, spot, offset + 1
            else:
                raise _JsonSyntax("Expecting ',' delimiter", offset)


def _read_json(text: str, where: str) -> Document:
    reader = _JsonReader(text)
    try:
        data, spot = reader.document()
    except _Stop as stop:
        raise DeclarationError(where, [stop.issue]) from None
    return Document(data, where, tuple(reader.issues), spot)


# ---------------------------------------------------------------------------------------------
# Text and files


def _decode(data: bytes, where: str) -> str:
    encoding = "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start].decode(encoding, "replace")
        at = _Lines(before).at(len(before))
        message = f"must be UTF-8 text (got byte {data[error.start]:#04x})"
        raise DeclarationError(where, [_issue((), "bad_encoding", message, at)]) from None


def _read(text: str | bytes, where: str) -> Document:
    """Read one document from text: JSON when it parses as JSON, YAML otherwise."""
    if len(text) > MAX_BYTES:
        message = f"is too large to read (more than {MAX_BYTES} bytes)"
        raise DeclarationError(where, [_issue((), "too_large", message, None)])
    if isinstance(text, bytes):
        text = _decode(text, where)
    unmarked = text.removeprefix("\ufeff")  # PyYAML skips one byte order mark itself
    start = _JSON_SPACE.match(unmarked)
    if unmarked[start.end() if start else 0 :][:1] not in ("{", "["):
        return _read_yaml(text, where)
    try:
        return _read_json(unmarked, where)
    except _JsonSyntax as json_failure:
        try:
            return _read_yaml(text, where)
        except DeclarationError as yaml_error:
            # Report the reading that got further: that is where the author's mistake is.
            yaml_issue = yaml_error.issues[0]
            json_at = _Lines(unmarked).at(json_failure.offset)
            yaml_at = (yaml_issue.line or 0, yaml_issue.column or 0)
            if yaml_issue.code != "yaml_syntax" or json_at < yaml_at:
                raise
            message = json_failure.message
            message = f"is not valid JSON: {message[:1].lower()}{message[1:]}"
            issue = _issue((), "json_syntax", message, json_at)
            raise DeclarationError(where, [issue]) from None


def _read_file(path: str | os.PathLike[str], where: str | None) -> tuple[bytes, str]:
    label = where if where is not None else os.fspath(path)
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        issue = _issue((), "unreadable_file", f"cannot be read ({reason})", None)
        raise DeclarationError(label, [issue]) from None
    return data, label


def _checked(document: Document) -> Document:
    if document.issues:
        raise DeclarationError(document.where, document.issues)
    return document


def read_document(text: str | bytes, *, where: str = STRING_WHERE, strict: bool = True) -> Document:
    """Read YAML or JSON text into a ``Document``; problems raise ``DeclarationError``.

    With ``strict=False`` the problems that do not stop reading (duplicate or non-string keys,
    custom tags, unreadable values) are returned in ``Document.issues`` instead.
    """
    document = _read(text, where)
    return _checked(document) if strict else document


def read_document_file(
    path: str | os.PathLike[str], *, where: str | None = None, strict: bool = True
) -> Document:
    """Read a YAML or JSON file into a ``Document``, labelled with ``where`` or the path."""
    data, label = _read_file(path, where)
    document = _read(data, label)
    return _checked(document) if strict else document


# ---------------------------------------------------------------------------------------------
# Declarations


def _selection(at: str | Sequence[str] | None) -> tuple[str, ...]:
    if at is None or at == "":
        return ()
    return tuple(at.split(".")) if isinstance(at, str) else tuple(at)


def _concerns(issue: Issue, base: tuple[str, ...]) -> bool:
    """Whether a reading problem lies in the selected mapping (or on the way to it)."""
    if issue.path[: len(base)] == base:
        return True
    return issue.code == "duplicate_key" and base[: len(issue.path)] == issue.path


def _select(
    document: Document, base: tuple[str, ...], issues: list[Issue]
) -> Mapping[object, object] | None:
    cursor = document.data
    for index, key in enumerate(base):
        if not isinstance(cursor, Mapping):
            path = base[:index]
            message = f"must be a mapping to select {'.'.join(base)!r} (got {show(cursor)})"
            issues.append(_issue(path, "not_a_mapping", message, document.position(path)))
            return None
        if key not in cursor:
            path = base[: index + 1]
            message = f"is not in the document (selected with at={'.'.join(base)!r})"
            issues.append(_issue(path, "selection_missing", message, document.position(path)))
            return None
        cursor = cursor[key]
    if not isinstance(cursor, Mapping):
        message = f"must be a mapping of server name to {{app, requires}} (got {show(cursor)})"
        issues.append(_issue(base, "not_a_mapping", message, document.position(base)))
        return None
    return cursor


def _placed(document: Document, server: DataPath, error: DeclarationError) -> Iterator[Issue]:
    """The parser's issues for one server, located in the document."""
    bad_keys = {issue.path for issue in document.issues if issue.code == "bad_key"}
    for issue in error.issues:
        if issue.code == "non_string_key" and (*server, *issue.path) in bad_keys:
            continue  # already reported while reading, at the key itself
        if issue.path[:1] == ("name",):
            path, at = server, document.position(server, key=True)
        else:
            path = (*server, *issue.path)
            at = document.position(path, key=issue.code in _AT_KEY_CODES)
        yield Issue(dotted(path), issue.code, issue.message, *at, path=path)


def _server(
    document: Document, path: DataPath, name: str, body: object, issues: list[Issue]
) -> Declaration | None:
    if not isinstance(body, Mapping):
        message = f"must be a mapping with {choices(SERVER_KEYS)} (got {show(body)})"
        issues.append(_issue(path, "not_a_mapping", message, document.position(path)))
        return None
    for key in body:
        if isinstance(key, str) and key not in SERVER_KEYS:
            suggestion = did_you_mean(key, SERVER_KEYS)
            hint = (
                f"did you mean {suggestion!r}?"
                if suggestion
                else f"expected {choices(SERVER_KEYS)}"
            )
            key_path = (*path, key)
            at = document.position(key_path, key=True)
            issues.append(_issue(key_path, "unknown_key", f"unknown key ({hint})", at))
    try:
        return parse_declaration(name, body.get("app"), body.get("requires"), where=document.where)
    except DeclarationError as error:
        issues.extend(_placed(document, path, error))
        return None


def declarations_from(
    document: Document, *, at: str | Sequence[str] | None = None
) -> dict[str, Declaration]:
    """Parse every server of a document (or of the mapping selected by ``at``) at once.

    ``at`` is a dotted path (``"tool.servers"``) or a sequence of keys. Every problem of every
    server, and every reading problem inside the selection, is raised as one ``DeclarationError``.
    """
    base = _selection(at)
    reading = [issue for issue in document.issues if _concerns(issue, base)]
    # A value that could not be read was read as null; what follows from that is not news.
    unread = {issue.path for issue in reading if issue.code in _UNREAD_CODES}
    parsing: list[Issue] = []
    servers = _select(document, base, parsing)
    found: dict[str, Declaration] = {}
    for name, body in (servers or {}).items():
        if isinstance(name, str):  # any other key was reported while reading
            declaration = _server(document, (*base, name), name, body, parsing)
            if declaration is not None:
                found[name] = declaration
    issues = reading + [issue for issue in parsing if issue.path not in unread]
    if issues:
        raise DeclarationError(document.where, _in_reading_order(issues))
    return found


def load_declarations_text(
    text: str | bytes, *, where: str = STRING_WHERE, at: str | Sequence[str] | None = None
) -> dict[str, Declaration]:
    """Parse the declarations in YAML or JSON text: server name → ``Declaration``."""
    return declarations_from(_read(text, where), at=at)


def load_declarations_file(
    path: str | os.PathLike[str],
    *,
    where: str | None = None,
    at: str | Sequence[str] | None = None,
) -> dict[str, Declaration]:
    """Parse the declarations in a YAML or JSON file, labelled with ``where`` or the path."""
    data, label = _read_file(path, where)
    return declarations_from(_read(data, label), at=at)


def load_declarations(
    source: str | bytes | os.PathLike[str],
    *,
    where: str | None = None,
    at: str | Sequence[str] | None = None,
) -> dict[str, Declaration]:
    """Parse declarations from a path (any ``os.PathLike``) or from text (``str`` or ``bytes``)."""
    if isinstance(source, (str, bytes)):
        return load_declarations_text(
            source, where=where if where is not None else STRING_WHERE, at=at
        )
    return load_declarations_file(source, where=where, at=at)


__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "SERVER_KEYS",
    "STRING_WHERE",
    "Document",
    "Position",
    "declarations_from",
    "load_declarations",
    "load_declarations_file",
    "load_declarations_text",
    "read_document",
    "read_document_file",
]
