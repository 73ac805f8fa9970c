"""Reading YAML with PyYAML (its C parser when libyaml is present), keeping positions and bounds."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

import yaml
from yaml.reader import ReaderError

from hermes_decl._text import show
from hermes_decl.declaration import DeclarationError, Issue
from hermes_decl.errors import DataPath
from hermes_decl.loader.collection import paused_collection
from hermes_decl.loader.core_schema import CoreConstructor, CoreResolver
from hermes_decl.loader.document import (
    _MAP,
    _MERGE,
    _SEQ,
    _SKIP,
    _STANDARD_TAGS,
    _STR,
    _VALUE,
    MAX_ALIAS_NODES,
    MAX_DEPTH,
    Document,
    Position,
    _duplicate_key,
    _in_reading_order,
    _issue,
    _Lines,
    _mark,
    _Spot,
    _step,
    _Stop,
    _tag_text,
)
from hermes_decl.loader.syntax_hints import SYNTAX_HINTS as SYNTAX_HINTS
from hermes_decl.loader.syntax_hints import syntax_hints
from hermes_decl.loader.tabs import Span, scalar_span, tabs_read_alike


class _Loader(yaml.composer.Composer, CoreConstructor, CoreResolver):
    """Composes nodes from parser events in Python, bounding nesting and remembering aliases.

    Plain scalars resolve by the YAML 1.2 core schema. The events come from PyYAML's C parser
    (``_FastLoader``) when libyaml is present, else from its pure-Python one (``_PureLoader``):
    composing here, not in C, is what keeps the nesting bound and the alias positions.
    """

    def __init__(self) -> None:
        yaml.composer.Composer.__init__(self)
        CoreConstructor.__init__(self)
        CoreResolver.__init__(self)
        self.alias_at: dict[tuple[int, int], Position] = {}
        self._path: list[str | int] = []
        self._depth = -1

    def settle(self) -> None:
        """Called once the whole text is composed: raise ``_Unsure`` if another parser is needed."""

    if TYPE_CHECKING:  # given by the parser class each loader adds

        def check_event(self, *choices: type[yaml.Event]) -> bool: ...
        def peek_event(self) -> yaml.Event: ...
        def dispose(self) -> None: ...

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
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


class _PureLoader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, _Loader):
    """Events from PyYAML's pure-Python reader, scanner and parser."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Loader.__init__(self)


class _Unsure(Exception):
    """Text whose positions libyaml and PyYAML would give differently: read it the pure way."""


_Node = TypeVar("_Node", yaml.SequenceNode, yaml.MappingNode)
_FastLoader: Callable[[str], _Loader] | None = None
if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class _CLoader(_Loader, CParser):
        """Events from libyaml, through PyYAML's C parser: the same nodes, many times faster.

        The one place the two parsers put a node elsewhere is an empty value in a flow
        collection or at the very end of the text; such text is read by the pure parser.
        """

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            _Loader.__init__(self)
            self._text = text
            self._end = len(text) - 1
            self._flow = 0
            self._spans: list[Span] | None = [] if "\t" in text else None

        def compose_scalar_node(self, anchor: Any) -> yaml.ScalarNode:
            event = cast(yaml.ScalarEvent, self.peek_event())
            empty = event.value == "" and not event.style
            at_end = event.start_mark is not None and event.start_mark.index >= self._end
            if empty and (self._flow or at_end):
                raise _Unsure
            if self._spans is not None and event.style and event.start_mark and event.end_mark:
                span = scalar_span(self._text, event.start_mark.index, event.end_mark.index)
                if span is not None:
                    self._spans.append(span)
            return super().compose_scalar_node(anchor)

        def settle(self) -> None:
            if self._spans is not None and not tabs_read_alike(self._text, self._spans):
                raise _Unsure

        def compose_sequence_node(self, anchor: Any) -> yaml.SequenceNode:
            return self._collection(super().compose_sequence_node, anchor)

        def compose_mapping_node(self, anchor: Any) -> yaml.MappingNode:
            return self._collection(super().compose_mapping_node, anchor)

        def _collection(self, compose: Callable[[Any], _Node], anchor: Any) -> _Node:
            start = cast(yaml.CollectionStartEvent, self.peek_event())
            flow = bool(start.flow_style)
            self._flow += flow
            try:
                return compose(anchor)
            finally:
                self._flow -= flow

    _FastLoader = _CLoader


def _too_deep(path: Sequence[str | int], at: Position) -> Issue:
    return _issue(path, "too_deep", f"is nested more than {MAX_DEPTH} levels deep", at)


class _Pair(NamedTuple):
    key: yaml.Node
    value: yaml.Node
    parent: yaml.MappingNode
    own: bool


class _Builder:
    """Builds plain data and positions from composed nodes, bounding the work aliases ask for.

    The budget counts nodes visited again, not values produced: a merge of empty mappings
    produces nothing, yet merging it a million times is a million visits.
    """

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
            self._visit(node, path, at)
            if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
                return self._mapping(node, path, depth, at)
            if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
                return self._sequence(node, path, depth, at)
            value = self._other(node, path, depth, at)
            quoted = isinstance(node, yaml.ScalarNode) and node.style == '"'
            return (None if value is _SKIP else value), _Spot(at, double_quoted=quoted)
        finally:
            self._expansion = outer

    def _visit(self, node: yaml.Node, path: DataPath, at: Position) -> None:
        """Count a node visited again (through an alias or a merge key) against the work budget.

        Every node is visited once for free (the text bounds those); each later visit is work
        an alias or a merge key asked for, whether or not it produces a value.
        """
        if id(node) not in self._seen:
            self._seen.add(id(node))
            return
        self._expanded += 1
        if self._expanded > MAX_ALIAS_NODES:
            where, place = self._expansion or (path, at)
            message = (
                f"aliases and merge keys may repeat at most {MAX_ALIAS_NODES} nodes in a "
                "document (these repeat more: is this an alias or merge-key bomb?)"
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
                if isinstance(key, str):
                    self._soft(pair.key, _duplicate_key((*path, step), first[key], key_at))
            elif pair.own:
                first[key] = key_at
            alias = self._loader.alias_at.get((id(pair.parent), id(pair.key)))
            value, child = self.build(pair.value, (*path, step), depth + 1, alias)
            data[key] = value
            spot.children[key] = child
            spot.keys[key] = key_at
            if isinstance(pair.key, yaml.ScalarNode) and pair.key.style == '"':
                if spot.double_quoted_keys is None:
                    spot.double_quoted_keys = set()
                spot.double_quoted_keys.add(key)
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
            key_at = _mark(key_node.start_mark)
            self._visit(key_node, path, key_at)
            if key_node.tag != _MERGE:
                own.append(_Pair(key_node, value_node, node, True))
                continue
            at = self._loader.alias_at.get((id(node), id(key_node))) or _mark(value_node.start_mark)
            outer = self._expansion
            if outer is None:
                self._expansion = (path, at)  # a bomb is reported where the merging starts
            try:
                merged.extend(self._merged(node, value_node, path, merging, at))
            finally:
                self._expansion = outer
        return merged + own

    def _merged(
        self,
        node: yaml.MappingNode,
        value_node: yaml.Node,
        path: DataPath,
        merging: tuple[int, ...],
        at: Position,
    ) -> list[_Pair]:
        """The pairs one merge key brings in, each visit of a merged node counted as work."""
        self._visit(value_node, path, at)
        if isinstance(value_node, yaml.MappingNode):
            sources = [value_node]
        elif isinstance(value_node, yaml.SequenceNode) and all(
            isinstance(item, yaml.MappingNode) for item in value_node.value
        ):
            sources = [
                item for item in reversed(value_node.value) if isinstance(item, yaml.MappingNode)
            ]
            for source in sources:
                self._visit(source, path, at)
        else:
            message = "a merge key '<<' takes a mapping or a list of mappings"
            self._soft(value_node, _issue((*path, "<<"), "bad_value", message, at))
            return []
        merged: list[_Pair] = []
        for source in sources:
            if len(merging) >= MAX_DEPTH:
                raise _Stop(_too_deep(path, at))
            if source is node or id(source) in merging:
                pairs = [_Pair(k, v, source, False) for k, v in source.value if k.tag != _MERGE]
                for pair in pairs:
                    self._visit(pair.key, path, at)
            else:
                pairs = self._pairs(source, path, (*merging, id(node)))
            merged.extend(pair._replace(own=False) for pair in pairs)
        return merged

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
        if node.tag == _STR and type(node) is yaml.ScalarNode:
            return node.value  # most values are text: no need for the constructor's bookkeeping
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
            self._count(node, path, depth, at)
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

    def _count(self, node: yaml.Node, path: DataPath, depth: int, at: Position) -> None:
        """Bound a collection handed to PyYAML's own constructors, as ``build`` would."""
        if depth > MAX_DEPTH:
            raise _Stop(_too_deep(path, _mark(node.start_mark)))
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        for child in children:
            self._visit(child, path, at)
            self._count(child, path, depth + 1, at)


def _syntax_issue(error: yaml.MarkedYAMLError) -> Issue:
    mark = error.problem_mark or error.context_mark
    message = f"is not valid YAML: {error.problem or error.context or 'could not be read'}"
    details = []
    if error.problem and error.context:
        details.append(error.context)
        if error.context_mark is not None:
            line, column = _mark(error.context_mark)
            details[0] += f" at line {line}, column {column}"
    hints = syntax_hints(error.problem, error.context)
    details.extend(hints)
    if details:
        message += f" ({'; '.join(details)})"
    at = _mark(mark) if mark is not None else None
    return _issue((), "yaml_syntax", message, at, hint="; ".join(hints) or None)


def _read_yaml(text: str, where: str, *, fast: bool = True) -> Document:
    """Read YAML text into a ``Document``, through libyaml's parser when it is present.

    Both parsers give the same nodes at the same positions, so the document, its budgets and its
    problems are the same either way; but they word syntax errors differently, so text that
    libyaml refuses is read again by the pure-Python parser, whose words are the ones reported.
    """
    with paused_collection():
        return _read_yaml_text(text, where, fast=fast)


_no_collection = paused_collection
"""The name the collector's pause had here before it served the whole load."""


def _read_yaml_text(text: str, where: str, *, fast: bool) -> Document:
    """``_read_yaml``'s work: libyaml first when it may be used, PyYAML's own parser otherwise."""
    if fast and _FastLoader is not None and "\ufeff" not in text[1:]:
        # libyaml skips a byte order mark anywhere, and a tab in more places than PyYAML
        try:
            return _compose(_FastLoader(text), where)
        except DeclarationError:
            if "\t" not in text:
                raise
            # a tab before the problem may be one PyYAML refuses: it decides what is reported
        except Exception:  # a syntax error, or text the two parsers would place differently
            pass  # read below, and any problem reported in the pure-Python parser's words
    try:
        loader = _PureLoader(text)
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
        return _compose(loader, where)
    except DeclarationError:
        raise
    except yaml.MarkedYAMLError as error:
        raise DeclarationError(where, [_syntax_issue(error)]) from None
    except Exception as error:  # anything else PyYAML may raise is still a reading problem
        message = f"is not valid YAML ({type(error).__name__})"
        raise DeclarationError(where, [_issue((), "yaml_syntax", message, None)]) from None


def _compose(loader: _Loader, where: str) -> Document:
    """The one document of the text, built with positions; parser errors pass through."""
    try:
        if not loader.check_node():
            raise _Stop(_issue((), "empty_document", _EMPTY, (1, 1)))
        root = loader.get_node()
        if root is None:
            raise _Stop(_issue((), "empty_document", _EMPTY, (1, 1)))
        second = loader.check_node()
        loader.settle()
        if second:
            at = _mark(loader.peek_event().start_mark)
            message = "must hold one document (found a second one here)"
            raise _Stop(_issue((), "multiple_documents", message, at))
        if isinstance(root, yaml.ScalarNode) and root.value == "" and not root.style:
            raise _Stop(_issue((), "empty_document", _EMPTY, _mark(root.start_mark)))
        builder = _Builder(loader)
        data, spot = builder.build(root, (), 0, None)
    except _Stop as stop:
        raise DeclarationError(where, [stop.issue]) from None
    finally:
        loader.dispose()
    return Document(data, where, tuple(_in_reading_order(builder.issues)), spot)


_EMPTY = "is empty: expected a mapping of server name to {app, requires}"
