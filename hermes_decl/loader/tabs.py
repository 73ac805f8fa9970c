"""Where a tab is read the same by libyaml and by PyYAML's pure-Python parser.

libyaml skips a tab between tokens wherever a simple key cannot start (after ``:``, ``-``, a
scalar, inside a flow collection), where PyYAML's scanner refuses it as a character that
cannot start a token; both read a tab alike only inside what neither scans as tokens: the
text between a quoted scalar's quotes, a block scalar's content lines, and a comment.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

_BREAKS = "\n\r\x85\u2028\u2029"
"""What both parsers end a line with (YAML 1.1 counts NEL, LS and PS as line breaks too)."""
_BREAK = re.compile(f"[{_BREAKS}]")

Span = tuple[int, int]
"""Character offsets ``[start, end)`` of text a parser read inside one scalar."""


def scalar_span(text: str, start: int, end: int) -> Span | None:
    """The span of a quoted or block scalar read from ``start`` to ``end``, where a tab is read
    alike and a ``#`` starts no comment; None where a tab in it may be read differently.

    Between a quoted scalar's quotes; for a block scalar, from the line break that ends its
    header to its end. A scalar whose tag or anchor comes first spans all it was read from, and
    only without a tab: the parsers may read one between its properties and its text differently.
    """
    opening = text[start : start + 1]
    if opening in ("'", '"'):
        return (start + 1, end - 1)
    if opening in ("|", ">"):
        breaks = [at for at in (text.find(c, start, end) for c in _BREAKS) if at >= 0]
        return (min(breaks, default=end), end)
    return (start, end) if text.find("\t", start, end) < 0 else None


def libyaml_shift(text: str) -> int:
    """What to add to libyaml's offsets into ``text`` to index it: libyaml does not count a
    leading byte order mark."""
    return 1 if text.startswith("\ufeff") else 0


def tabs_read_alike(text: str, spans: Sequence[Span]) -> bool:
    """Whether every tab in ``text`` lies inside a quoted or block scalar's span, or in a comment.

    ``spans`` are the quoted and block scalars' spans in reading order (they do not overlap).
    A comment is a ``#`` at a line's start or after a space or tab, outside every span, before
    the tab on its line. Each line is read once, however many tabs it holds: the work stays
    linear in the text.
    """
    starts = [start for start, _ in spans]
    line_end, comment = 0, 0  # the line of the last tab looked at, and where its comment starts
    at = text.find("\t")
    while at >= 0:
        if not _inside(spans, starts, at):
            if at >= line_end:
                line_start = max(text.rfind(c, line_end, at) for c in _BREAKS) + 1
                found = _BREAK.search(text, at)
                line_end = found.start() if found is not None else len(text)
                comment = _comment_start(text, spans, starts, line_start, line_end)
            if comment >= at:
                return False
        at = text.find("\t", at + 1)
    return True


def _inside(spans: Sequence[Span], starts: Sequence[int], at: int) -> bool:
    index = bisect.bisect_right(starts, at) - 1
    return index >= 0 and spans[index][0] <= at < spans[index][1]


def _comment_start(
    text: str, spans: Sequence[Span], starts: Sequence[int], line_start: int, line_end: int
) -> int:
    """Where the comment on the line from ``line_start`` to ``line_end`` starts; its end if none."""
    hash_at = text.find("#", line_start, line_end)
    while hash_at >= 0:
        after_space = hash_at == line_start or text[hash_at - 1] in " \t"
        if after_space and not _inside(spans, starts, hash_at):
            return hash_at
        hash_at = text.find("#", hash_at + 1, line_end)
    return line_end
