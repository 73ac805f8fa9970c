"""Reading the gap between two nodes libyaml composed, where only a few kinds of text can lie.

The C composer keeps no place for what stands between the nodes it builds (an alias, the ``:``
before an empty value). That gap holds nothing but blanks, line breaks, comments and indicators
(and, between the nodes beside an alias, anchors and aliases): it is read piece by piece, and
the line and column of each piece are counted on as it is read, once.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import yaml

BLANKS = " \t\r\n\x85\u2028\u2029"
"""Blanks and line breaks (YAML 1.1's)."""
LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
"""A line break, as both parsers count lines (YAML 1.1 breaks; CR LF is one)."""


class UnreadableGap(Exception):
    """The gap holds something its pattern does not allow, or a ``#`` inside a token."""


def gap_pieces(
    text: str, pattern: re.Pattern[str], lower: yaml.Mark, upper: yaml.Mark, offset: int
) -> Iterator[tuple[str, int, int, int]]:
    """Each piece of the gap from ``lower`` to ``upper`` (libyaml's marks, ``offset`` behind the
    text's own: ``libyaml_shift``) as ``pattern`` matches it: its first character, where it
    starts in the text, its 0-based line, and where that line starts; ``UnreadableGap`` where a
    piece does not match, or the marks are not in reading order."""
    start, stop = lower.index + offset, upper.index + offset
    if start > stop:
        raise UnreadableGap
    line, line_start = lower.line, start - lower.column  # 0-based, as marks count
    at = start
    while at < stop:
        piece = pattern.match(text, at, stop)
        if piece is None:
            raise UnreadableGap
        first = text[at]
        if first == "#" and at > 0 and text[at - 1] not in BLANKS:
            raise UnreadableGap  # not a comment: a '#' inside a token
        yield first, at, line, line_start
        if first in BLANKS:
            for line_break in LINE_BREAK.finditer(text, at, piece.end()):
                line, line_start = line + 1, line_break.end()
        at = piece.end()
