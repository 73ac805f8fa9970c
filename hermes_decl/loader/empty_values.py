"""Where PyYAML places an empty value, in the nodes libyaml composed, where the two differ.

An empty plain value written after its ``:`` in a flow mapping (``{gpu: , arch: x64}``) is
placed by PyYAML's parser just after the ``:``, and by libyaml where the next token starts (the
``,``, the ``}``, or the next line's). The gap between the key and libyaml's place holds nothing
but blanks, line breaks, comments and that ``:``, so PyYAML's place is read off it and given to
the node. A gap holding anything else is told apart (a value with no ``:`` before it is placed
alike by both); an empty key in a flow mapping is left to PyYAML's own parser.

At the very end of a text whose last line has no line break, libyaml places an empty value at
the start of a line after the last, which PyYAML places at the end of the last line.
"""

from __future__ import annotations

import re

import yaml

from hermes_decl.loader.gaps import LINE_BREAK, UnreadableGap, gap_pieces
from hermes_decl.loader.tabs import libyaml_shift

_GAP_PIECE = re.compile(
    r"[ \t\r\n\x85\u2028\u2029]+"  # blanks and line breaks
    r"|:"  # the value indicator
    r"|#[^\r\n\x85\u2028\u2029]*"  # a comment, when a blank or a line break comes before it
)


def is_bare_empty(node: yaml.Node) -> bool:
    """Whether ``node`` is an empty plain scalar written as nothing at all: no tag, no anchor
    (those give it a place of its own, where both parsers put it)."""
    return (
        isinstance(node, yaml.ScalarNode)
        and not node.value
        and not node.style
        and node.start_mark.index == node.end_mark.index
    )


def place_at_end(text: str, nodes: list[yaml.Node]) -> None:
    """Move each empty value that libyaml placed past the last line to the end of that line,
    where PyYAML places it; leave one placed anywhere else."""
    breaks = list(LINE_BREAK.finditer(text))
    offset = libyaml_shift(text)
    line_start = breaks[-1].end() if breaks else offset  # libyaml counts no byte order mark
    place: yaml.Mark | None = None
    for node in nodes:
        mark = node.start_mark
        if mark.column == 0 and mark.line == len(breaks) + 1:
            if place is None:
                place = yaml.Mark(
                    mark.name, len(text) - offset, len(breaks), len(text) - line_start, None, 0
                )
            node.start_mark = node.end_mark = place


def place_empty_flow_values(text: str, holding: list[yaml.CollectionNode | None]) -> bool:
    """Give each bare empty value of these flow collections the place PyYAML's parser gives it;
    False where one cannot be told (an empty key, a gap holding more than a ``:``, an empty
    value that is no mapping's value)."""
    offset = libyaml_shift(text)
    done: set[int] = set()
    for collection in holding:
        if not isinstance(collection, yaml.MappingNode):
            return False
        if id(collection) in done:
            continue
        done.add(id(collection))
        for key, value in collection.value:
            if is_bare_empty(key):
                return False
            if is_bare_empty(value) and not _after_indicator(text, offset, key, value):
                return False
    return True


def _after_indicator(text: str, offset: int, key: yaml.Node, value: yaml.Node) -> bool:
    """Move ``value`` just after the ``:`` between it and ``key``, where one is; False where the
    gap between them holds anything but blanks, line breaks, comments and one ``:``."""
    try:
        for first, at, line, line_start in gap_pieces(
            text, _GAP_PIECE, key.end_mark, value.start_mark, offset
        ):
            if first == ":":
                place = yaml.Mark(
                    value.start_mark.name, at + 1 - offset, line, at + 1 - line_start, None, 0
                )
                value.start_mark = value.end_mark = place
                return True
    except UnreadableGap:
        return False
    return True  # no ':' (``{key}``): both parsers place it where the next token starts
