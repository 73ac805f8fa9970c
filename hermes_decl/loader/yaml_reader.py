"""Reading YAML with PyYAML (its C parser when libyaml is present), keeping positions and bounds."""

from __future__ import annotations

from collections.abc import Callable

import yaml
from yaml.reader import ReaderError

from hermes_decl._text import show
from hermes_decl.declaration import DeclarationError, Issue
from hermes_decl.errors import DataPath
from hermes_decl.loader.alias_places import alias_places
from hermes_decl.loader.collection import paused_collection
from hermes_decl.loader.composers import (
    _ComposerBase,
    _FastComposer,
    _FastLoader,
    _Loader,
    _PlacedElsewhere,
    _PureLoader,
    _too_deep,
    _Unsure,
    may_compose_in_c,
    may_hold_aliases,
    places_alike,
)
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

_Pair = tuple[yaml.Node, yaml.Node, yaml.MappingNode, bool]
"""A key, its value, the mapping that holds them, and whether that mapping is the one being built
(not one merged into it)."""


class _Builder:
    """Builds plain data and positions from composed nodes, bounding the work aliases ask for.

    The budget counts nodes visited again, not values produced: a merge of empty mappings
    produces nothing, yet merging it a million times is a million visits.
    """

    def __init__(self, loader: _ComposerBase) -> None:
        self._loader = loader
        self._alias_at = loader.alias_at
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
        if alias is None:
            if id(node) in self._seen:
                self._visit(node, path, at)
            else:
                self._seen.add(id(node))  # a first visit, as ``_visit`` records it
            return self._value(node, path, depth, at)
        outer = self._expansion
        if outer is None:
            self._expansion = (path, alias)
        try:
            self._visit(node, path, at)
            return self._value(node, path, depth, at)
        finally:
            self._expansion = outer

    def _value(
        self, node: yaml.Node, path: DataPath, depth: int, at: Position
    ) -> tuple[object, _Spot]:
        """The value of a node being visited, and where it and its children sit."""
        if type(node) is yaml.ScalarNode and node.tag == _STR:
            return node.value, _Spot(at, double_quoted=node.style == '"')  # most values: text
        if isinstance(node, yaml.MappingNode) and node.tag == _MAP:
            return self._mapping(node, path, depth, at)
        if isinstance(node, yaml.SequenceNode) and node.tag == _SEQ:
            return self._sequence(node, path, depth, at)
        value = self._other(node, path, depth, at)
        quoted = isinstance(node, yaml.ScalarNode) and node.style == '"'
        return (None if value is _SKIP else value), _Spot(at, double_quoted=quoted)

    def _visit(self, node: yaml.Node, path: DataPath, at: Position | None) -> None:
        """Count a node visited again (through an alias or a merge key) against the work budget.

        Every node is visited once for free (the text bounds those); each later visit is work
        an alias or a merge key asked for, whether or not it produces a value. ``at`` (None:
        the node's own start) is where a visit past the budget is reported.
        """
        if id(node) not in self._seen:
            self._seen.add(id(node))
            return
        self._expanded += 1
        if self._expanded > MAX_ALIAS_NODES:
            where, place = self._expansion or (path, at or _mark(node.start_mark))
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
        data: dict[object, object] = {}
        children: dict[object, _Spot] = {}
        keys: dict[object, Position] = {}
        double_quoted_keys: set[object] | None = None
        first: dict[object, Position] = {}
        alias_at = self._alias_at
        for key_node, value_node, parent, own in self._pairs(node, path, ()):
            key_at = _mark(key_node.start_mark)
            if type(key_node) is yaml.ScalarNode and key_node.tag == _STR:
                key: object = key_node.value  # most keys: text
            else:
                key = self._key(key_node, path, depth, key_at)
                if key is _SKIP:
                    continue
            step = key if type(key) is str else _step(key)
            if own and key in first:
                if isinstance(key, str):
                    self._soft(key_node, _duplicate_key((*path, step), first[key], key_at))
            elif own:
                first[key] = key_at
            alias = alias_at.get((id(parent), id(key_node))) if alias_at else None
            value, child = self.build(value_node, (*path, step), depth + 1, alias)
            data[key] = value
            children[key] = child
            keys[key] = key_at
            if isinstance(key_node, yaml.ScalarNode) and key_node.style == '"':
                if double_quoted_keys is None:
                    double_quoted_keys = set()
                double_quoted_keys.add(key)
        spot = _Spot(at, children=children, keys=keys, double_quoted_keys=double_quoted_keys)
        return data, spot

    def _sequence(
        self, node: yaml.SequenceNode, path: DataPath, depth: int, at: Position
    ) -> tuple[object, _Spot]:
        data: list[object] = []
        children: dict[object, _Spot] = {}
        alias_at = self._alias_at
        for index, item in enumerate(node.value):
            alias = alias_at.get((id(node), index)) if alias_at else None
            value, child = self.build(item, (*path, index), depth + 1, alias)
            data.append(value)
            children[index] = child
        return data, _Spot(at, children=children)

    def _pairs(
        self, node: yaml.MappingNode, path: DataPath, merging: tuple[int, ...]
    ) -> list[_Pair]:
        """The mapping's pairs with merge keys (``<<``) applied as PyYAML does: merged first."""
        merged: list[_Pair] = []
        own: list[_Pair] = []
        seen = self._seen
        for key_node, value_node in node.value:
            if id(key_node) in seen:
                self._visit(key_node, path, None)
            else:
                seen.add(id(key_node))  # a first visit, as ``_visit`` records it
            if key_node.tag != _MERGE:
                own.append((key_node, value_node, node, True))
                continue
            at = self._alias_at.get((id(node), id(key_node))) or _mark(value_node.start_mark)
            outer = self._expansion
            if outer is None:
                self._expansion = (path, at)  # a bomb is reported where the merging starts
            try:
                merged.extend(self._merged(node, value_node, path, merging, at))
            finally:
                self._expansion = outer
        return merged + own if merged else own

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
                pairs = [(k, v, source, False) for k, v in source.value if k.tag != _MERGE]
                for pair in pairs:
                    self._visit(pair[0], path, at)
            else:
                pairs = self._pairs(source, path, (*merging, id(node)))
            merged.extend((key, value, parent, False) for key, value, parent, _ in pairs)
        return merged

    def _key(self, node: yaml.Node, path: DataPath, depth: int, at: Position) -> object:
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


def _read_yaml(text: str, where: str, *, fast: bool = True, compose_in_c: bool = True) -> Document:
    """Read YAML text into a ``Document``, through libyaml's parser when it is present.

    Both parsers give the same nodes at the same positions, so the document, its budgets and its
    problems are the same either way; but they word syntax errors differently, so text that
    libyaml refuses is read again by the pure-Python parser, whose words are the ones reported.
    With libyaml, nodes are composed in C where that composes them as Python would
    (``compose_in_c``), else in Python from libyaml's events.
    """
    with paused_collection():
        return _read_yaml_text(text, where, fast=fast, compose_in_c=compose_in_c)


_no_collection = paused_collection
"""The name the collector's pause had here before it served the whole load."""


LIBYAML_TAG_DIRECTIVES = 64
"""Text with more ``%TAG`` directives than this is read by PyYAML's own parser: libyaml compares
each directive, and each tag, with every directive before it (time quadratic in their count)."""


def libyaml_may_read(text: str) -> bool:
    """Whether libyaml may read ``text`` as PyYAML would, in linear time: not where a byte order
    mark stands after the start (libyaml skips one anywhere), nor past ``LIBYAML_TAG_DIRECTIVES``
    ``%TAG`` directives."""
    return "\ufeff" not in text[1:] and text.count("%TAG") <= LIBYAML_TAG_DIRECTIVES


def _read_yaml_text(text: str, where: str, *, fast: bool, compose_in_c: bool) -> Document:
    """``_read_yaml``'s work: libyaml first when it may be used, PyYAML's own parser otherwise."""
    if fast and _FastLoader is not None and libyaml_may_read(text):
        # libyaml reads a tab in more places than PyYAML: ``_through_libyaml`` sees to it
        fast_loader = _FastLoader
        document = None
        try:
            if compose_in_c:
                document = _through_libyaml(lambda: _compose_in_c(text, where), text)
            if document is None:
                document = _through_libyaml(lambda: _compose(fast_loader(text), where), text)
        except _PlacedElsewhere:
            pass  # libyaml's events place some node elsewhere: PyYAML's own parser reads it
        if document is not None:
            return document
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


def _through_libyaml(read: Callable[[], Document], text: str) -> Document | None:
    """The document ``read`` gives through libyaml, or None where another reading must decide."""
    try:
        return read()
    except _PlacedElsewhere:
        raise  # no reading of libyaml's events would do
    except DeclarationError:
        if "\t" not in text:
            raise
        # a tab before the problem may be one PyYAML refuses: it decides what is reported
    except Exception:  # a syntax error, or text the two parsers would place differently
        pass  # read again, and any problem reported in the pure-Python parser's words
    return None


def _compose_in_c(text: str, where: str) -> Document:
    """The one document of the text, composed in C; ``_Unsure`` where Python would differ.

    Any text the C composer refuses (a second document, an alias it cannot resolve, nesting
    past ``MAX_DEPTH``) raises, to be composed in Python, which says what is wrong and where.
    Where the text may hold aliases, each alias's place is read off the text around it.
    """
    if _FastComposer is None or not may_compose_in_c():
        raise _Unsure
    composer = _FastComposer(text)
    root = composer.get_single_node()
    aliased = places_alike(text, root, aliased=may_hold_aliases(text))
    if aliased is None:
        raise _PlacedElsewhere
    composer.alias_at.update(alias_places(text, aliased))
    return _document(composer, root, where)


def _compose(loader: _Loader, where: str) -> Document:
    """The one document of the text, built with positions; parser errors pass through."""
    try:
        if not loader.check_node():
            raise _Stop(_issue((), "empty_document", _EMPTY, (1, 1)))
        root = loader.get_node()
        second = loader.check_node()
        loader.settle()
        if second:
            at = _mark(loader.peek_event().start_mark)
            message = "must hold one document (found a second one here)"
            raise _Stop(_issue((), "multiple_documents", message, at))
        return _document(loader, root, where)
    except _Stop as stop:
        raise DeclarationError(where, [stop.issue]) from None
    finally:
        loader.dispose()


def _document(loader: _ComposerBase, root: yaml.Node | None, where: str) -> Document:
    """The document built from the composed ``root``; its problems raise ``DeclarationError``."""
    try:
        if root is None:
            raise _Stop(_issue((), "empty_document", _EMPTY, (1, 1)))
        if isinstance(root, yaml.ScalarNode) and root.value == "" and not root.style:
            raise _Stop(_issue((), "empty_document", _EMPTY, _mark(root.start_mark)))
        builder = _Builder(loader)
        data, spot = builder.build(root, (), 0, None)
    except _Stop as stop:
        raise DeclarationError(where, [stop.issue]) from None
    return Document(data, where, tuple(_in_reading_order(builder.issues)), spot)


_EMPTY = "is empty: expected a mapping of server name to {app, requires}"
