"""The composers that turn YAML text into nodes for the builder, bounding nesting.

PyYAML composes nodes in Python (``_Loader``), from the events of its pure-Python parser or of
libyaml's, keeping the nesting bound and where each alias stood. Its C composer
(``CParser.get_single_node``) builds from libyaml's events the very nodes the Python composer
builds from them, several times faster: it asks the resolver for each node's tag (``resolve``:
the core schema applies) and tells it of each node before composing it (``descend_resolver``:
the nesting bound is kept there, so the C recursion stays shallow). It keeps no alias's place,
which is read off the text around it instead (``alias_places``); libyaml places an empty value
in a flow mapping or at the very end of the text elsewhere than PyYAML, and such a value is given
PyYAML's place, read off the text too (``empty_values``). An empty value whose place cannot be
told, text with a tab the two parsers may read differently, and an alias whose place is not
certain are declined (``_Unsure``) and composed in Python instead.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any, TypeVar, cast

import yaml

from hermes_decl.declaration import Issue
from hermes_decl.loader.core_schema import CoreConstructor, CoreResolver
from hermes_decl.loader.document import MAX_DEPTH, Position, _issue, _mark, _Stop
from hermes_decl.loader.empty_values import is_bare_empty, place_at_end, place_empty_flow_values
from hermes_decl.loader.tabs import Span, libyaml_shift, scalar_span, tabs_read_alike


class _ComposerBase(CoreConstructor, CoreResolver):
    """What every composer gives the builder: the core schema, and where each alias stood."""

    def __init__(self) -> None:
        CoreConstructor.__init__(self)
        CoreResolver.__init__(self)
        self.alias_at: dict[tuple[int, int], Position] = {}


_STANDARD = "tag:yaml.org,2002:"
"""The prefix of the tags the core schema knows."""


def _scanned_alike(tag: str | None, plain: str | None, in_flow: bool) -> bool:
    """Whether PyYAML's scanner reads a node as libyaml's did, given its tag and, for a plain
    scalar, its value: not where the tag is one the core schema does not know (libyaml reads
    some PyYAML refuses, ``!a:!b``, and a file with such a tag is refused anyway), nor where a
    plain scalar in a flow collection holds a ``?`` (PyYAML's scanner ends the scalar there)."""
    if tag is not None and not tag.startswith(_STANDARD):
        return False
    return not (in_flow and plain is not None and "?" in plain)


class _Unsure(Exception):
    """Text whose nodes libyaml and PyYAML would place differently: compose it another way."""


class _PlacedElsewhere(_Unsure):
    """Text whose nodes libyaml places elsewhere than PyYAML's parser (an empty value whose
    place cannot be told, a tab the two may read differently): composing it in Python from
    libyaml's events would decline it too, so only PyYAML's own parser reads it."""


def _too_deep(path: Sequence[str | int], at: Position) -> Issue:
    """The issue of a node nested past ``MAX_DEPTH``, at ``path``."""
    return _issue(path, "too_deep", f"is nested more than {MAX_DEPTH} levels deep", at)


class _Loader(yaml.composer.Composer, _ComposerBase):
    """Composes nodes from parser events in Python, bounding nesting and remembering aliases.

    Plain scalars resolve by the YAML 1.2 core schema. The events come from PyYAML's C parser
    (``_FastLoader``) when libyaml is present, else from its pure-Python one (``_PureLoader``):
    composing here, not in C, is what keeps the nesting bound and the alias positions.
    """

    def __init__(self) -> None:
        yaml.composer.Composer.__init__(self)
        _ComposerBase.__init__(self)
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


_Node = TypeVar("_Node", yaml.SequenceNode, yaml.MappingNode)
_FastLoader: Callable[[str], _Loader] | None = None
_FastComposer: type[_CComposer] | None = None
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
            self._shift = libyaml_shift(text)
            self._end = len(text) - 1 - self._shift
            self._flow = 0
            self._spans: list[Span] | None = [] if "\t" in text else None

        def compose_scalar_node(self, anchor: Any) -> yaml.ScalarNode:
            event = cast(yaml.ScalarEvent, self.peek_event())
            plain = None if event.style else event.value
            if not _scanned_alike(event.tag, plain, self._flow > 0):
                raise _Unsure
            empty = event.value == "" and not event.style
            at_end = event.start_mark is not None and event.start_mark.index >= self._end
            if empty and (self._flow or at_end):
                raise _Unsure
            if self._spans is not None and event.style and event.start_mark and event.end_mark:
                start = event.start_mark.index + self._shift
                span = scalar_span(self._text, start, event.end_mark.index + self._shift)
                if span is None:
                    raise _Unsure
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
            if not _scanned_alike(start.tag, None, self._flow > 0):
                raise _Unsure
            flow = bool(start.flow_style)
            self._flow += flow
            try:
                return compose(anchor)
            finally:
                self._flow -= flow

    class _CComposer(CParser, _ComposerBase):
        """PyYAML's C composer with the core schema, refusing nesting past ``MAX_DEPTH``."""

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            _ComposerBase.__init__(self)
            self._depth = -1

        def descend_resolver(self, current_node: object, current_index: object) -> None:
            """Called before each node but an alias is composed: count its depth, bound it."""
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise _Unsure  # the Python composer reports where, with the path

        def ascend_resolver(self) -> None:
            """Called once a node is composed."""
            self._depth -= 1

    _FastLoader = _CLoader
    _FastComposer = _CComposer


_MAY_ANCHOR = re.compile(r"(?:^|[^0-9A-Za-z])&")
"""An ``&`` that may start an anchor: one after a letter or digit lies inside another token."""


def may_hold_aliases(text: str) -> bool:
    """Whether ``text`` may hold an anchor, so an alias: an ``&`` that may start one."""
    return "&" in text and _MAY_ANCHOR.search(text) is not None


_Place = tuple[yaml.Node, bool, yaml.CollectionNode | None, int]
"""A node to look at: whether it lies in a flow collection, the collection holding it, and its
index there."""
AliasedChildren = list[tuple[yaml.CollectionNode, list[int]]]
"""Each collection holding an alias, with the indexes of its aliased children in document order
(a mapping's counted key, value, key, value…)."""


def places_alike(
    text: str, root: yaml.Node | None, *, aliased: bool = False
) -> AliasedChildren | None:
    """Where composing in Python from libyaml's events would place ``root``'s nodes alike, the
    collections holding an alias (only looked for where the text may hold one: ``aliased``);
    else None.

    An empty plain scalar in a flow collection or at the very end of the text, which libyaml
    places elsewhere, is moved to PyYAML's place (``empty_values``); one whose place cannot be
    told (an empty key in a flow mapping, one with a tag or an anchor) is not placed alike, nor
    is text kept with libyaml where a tab lies outside every quoted and block scalar and every
    comment, a ``?`` lies in a plain scalar in a flow collection, or a node has a tag the core
    schema does not know. Each node is looked at once, where it stands: with ``aliased``, the
    nodes are walked in document order, and a node met again is where an alias stood.
    """
    shift = libyaml_shift(text)
    end = len(text) - 1 - shift
    spans: list[Span] | None = [] if "\t" in text else None
    seen: set[yaml.Node] | None = set() if aliased else None  # nodes hash by identity
    found: dict[int, tuple[yaml.CollectionNode, list[int]]] = {}
    holding: list[yaml.CollectionNode | None] = []  # the flow collections with an empty value
    at_end: list[yaml.Node] = []
    pending: list[_Place] = [] if root is None else [(root, False, None, 0)]
    while pending:
        node, in_flow, parent, index = pending.pop()
        if seen is not None:
            if node in seen:
                assert parent is not None  # the root is met first
                found.setdefault(id(parent), (parent, []))[1].append(index)
                continue
            seen.add(node)
        plain = node.value if isinstance(node, yaml.ScalarNode) and not node.style else None
        if not _scanned_alike(node.tag, plain, in_flow):
            return None
        if isinstance(node, yaml.ScalarNode):
            if not node.value and not node.style and (in_flow or node.start_mark.index >= end):
                if not is_bare_empty(node):
                    return None
                if in_flow:  # placed as PyYAML places it, once the walk is done
                    holding.append(parent)
                else:
                    at_end.append(node)
            if spans is not None and node.style:
                start, stop = node.start_mark.index + shift, node.end_mark.index + shift
                span = scalar_span(text, start, stop)
                if span is None:
                    return None
                spans.append(span)
            continue
        if isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            continue
        in_flow = in_flow or bool(node.flow_style)
        if seen is None:  # no alias: any order will do; a flow collection is told its children's
            held_by = node if in_flow else None
            pending.extend((child, in_flow, held_by, 0) for child in children)
        else:
            last = len(children) - 1
            pending.extend(
                zip(reversed(children), repeat(in_flow), repeat(node), range(last, -1, -1))
            )
    if spans is not None and not tabs_read_alike(text, sorted(spans)):
        return None
    if holding and not place_empty_flow_values(text, holding):
        return None
    if at_end:
        place_at_end(text, at_end)
    return list(found.values())


@functools.cache
def may_compose_in_c() -> bool:
    """Whether the C composer is here and keeps the bound: it declines nesting past ``MAX_DEPTH``.

    Checked once, on first use: a C composer that did not tell the resolver of each node would
    recurse as deep as libyaml lets it, and this one's depth would go unchecked.
    """
    if _FastComposer is None:
        return False
    levels = MAX_DEPTH + 2
    composer = _FastComposer("[" * levels + "]" * levels)
    try:
        composer.get_single_node()
    except _Unsure:
        return True
    except Exception:  # anything else: this C composer is not the one described here
        return False
    return False
