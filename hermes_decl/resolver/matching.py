"""Matching an expanded path's ``*`` segments against the folders a host lists (SPEC 6.2).

Each ``*`` segment is compiled once per evaluation (folded and split into its literal pieces),
then every listed name costs one pass over that name, so a long pattern over a big folder stays
linear in the entries. Only matches are capped (``MAX_MATCHES``); entries are scanned up to
``MAX_SCANNED_ENTRIES`` per pattern (and the evaluation's ``budget.MAX_NAMES_LISTED`` over all
its patterns), each listing up to ``listing.MAX_DIR_ENTRIES`` names. When a
bound is hit, or a host cut its listing or listed names that are not plain names, the search says
so, so the trace never reads a partial search as "absent".
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from hermes_decl._quick_init import quick_init
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import OsFamily
from hermes_decl.models.rules import network_root
from hermes_decl.resolver.budget import MAX_NAMES_LISTED, WorkBudget
from hermes_decl.resolver.expand import join, normalise, separator
from hermes_decl.resolver.listing import listed_names
from hermes_decl.versions import version_key

if TYPE_CHECKING:
    from hermes_decl.resolver.evaluation_pass import EvaluationPass

MAX_MATCHES = 256
"""The most directory entries a ``*`` segment considers, over all the folders it looks in."""

MAX_READ_PATTERNS = 4096
"""The most patterns whose reading (``read_pattern``) is kept; the least recently used are read
again."""

MAX_SCANNED_ENTRIES = 1_000_000
"""The most listed names one pattern examines, over all its segments and folders."""

_SEPARATORS = re.compile(r"[\\/]+")


def _fold(text: str, ignore_case: bool) -> str:
    """``text`` lowercased when case is ignored, unless that changes its length (``İ``)."""
    folded = text.lower() if ignore_case else text
    return folded if len(folded) == len(text) else text


class StarPattern:
    """One path segment with ``*`` in it, prepared once and matched against many names.

    Each literal piece is placed at its leftmost possible position, which decides a match
    whenever one exists and gives the first ``*`` its shortest text; no backtracking, so a name
    costs at most one scan per piece, and a name shorter than the pieces costs nothing.
    """

    __slots__ = ("_first", "_ignore_case", "_last", "_literal_length", "_middle", "segment")

    def __init__(self, segment: str, *, ignore_case: bool) -> None:
        self.segment = segment
        self._ignore_case = ignore_case
        first, *middle, last = _fold(segment, ignore_case).split("*")
        self._first, self._middle, self._last = first, tuple(middle), last
        self._literal_length = len(first) + sum(map(len, middle)) + len(last)

    def star_text(self, name: str) -> str | None:
        """The text the first ``*`` matches in ``name``, or None when ``name`` does not match."""
        if len(name) < self._literal_length:
            return None
        text = _fold(name, self._ignore_case)
        first, last = self._first, self._last
        if not text.startswith(first) or not text.endswith(last):
            return None
        position, end = len(first), len(text) - len(last)
        first_star_end = end
        for index, piece in enumerate(self._middle):
            found = text.find(piece, position, end)
            if found < 0:
                return None
            if index == 0:
                first_star_end = found
            position = found + len(piece)
        return name[len(first) : first_star_end]


@quick_init
@dataclass(frozen=True)
class PatternSearch:
    """What a ``*`` pattern matched, and whether the search was cut short."""

    paths: tuple[str, ...]
    """The matching paths, newest first."""
    cut_short: tuple[str, ...] = ()
    """Each bound hit or partial listing on the way, in words; empty when the search was whole."""
    refused: tuple[str, ...] = ()
    """Matched folders never looked into, each with why (under a network root such as ``/net``)."""


def _newest_first(matches: list[tuple[str, str]]) -> list[str]:
    """Order matched names by the version in the text ``*`` matched, highest first, then by name."""
    keyed = [(version_key(star), name) for name, star in matches]
    readable = [(key, name) for key, name in keyed if key is not None]
    unreadable = sorted(name for key, name in keyed if key is None)
    readable.sort(key=lambda entry: entry[1])
    readable.sort(key=lambda entry: entry[0], reverse=True)
    return [name for _, name in readable] + unreadable


class _Search:
    """One pattern's search: the folders reached so far and the bounds hit on the way."""

    __slots__ = ("budget", "cut_short", "host", "os_family", "scanned", "shared")

    def __init__(
        self, os_family: OsFamily, host: Host, budget: WorkBudget, shared: EvaluationPass | None
    ) -> None:
        self.os_family = os_family
        self.host = host
        self.budget = budget
        self.shared = shared
        self.scanned = 0
        self.cut_short: dict[str, None] = {}  # ordered, without repeats

    def note(self, text: str) -> None:
        self.cut_short.setdefault(text, None)

    def segment(self, bases: list[str], pattern: StarPattern) -> list[str]:
        """The folders below ``bases`` whose names match ``pattern``, at most ``MAX_MATCHES``."""
        found: list[str] = []
        for base in bases:
            if len(found) >= MAX_MATCHES:
                self.note(f"stopped at {MAX_MATCHES} matches of {pattern.segment!r}")
                break
            if self._out_of_work():
                break
            found.extend(self._matches(base, pattern, MAX_MATCHES - len(found)))
        return found

    def _matches(self, base: str, pattern: StarPattern, room: int) -> list[str]:
        shared, os_family = self.shared, self.os_family
        if shared is None:
            listing = listed_names(self.host, base, os_family)
        else:
            listing = shared.listed(base, os_family)
        if listing.truncated:
            self.note(f"the host listed only part of {base} ({len(listing.names)} entries)")
        if listing.ignored:
            self.note(f"ignored {listing.ignored} names listed in {base} that are not plain names")
        names = listing.names
        if shared is not None and self._can_scan_all(len(names)):
            key = (os_family, base, pattern.segment)
            found = shared.matches.get(key)
            if found is None:
                stars = [(name, pattern.star_text(name)) for name in names]
                every = [(name, star) for name, star in stars if star is not None]
                found = shared.matches[key] = self._ordered(base, every)
            if len(found) < room:
                # What the scan below would have done: every name examined, none left over.
                self.scanned += len(names)
                self.budget.names_listed += len(names)
                return list(found)
        matches: list[tuple[str, str]] = []
        for index, name in enumerate(names):
            if self._out_of_work():
                break
            self.scanned += 1
            self.budget.names_listed += 1
            star = pattern.star_text(name)
            if star is None:
                continue
            matches.append((name, star))
            if len(matches) >= room:
                if index + 1 < len(names):
                    self.note(f"stopped at {MAX_MATCHES} matches of {pattern.segment!r}")
                break
        return list(self._ordered(base, matches))

    def _ordered(self, base: str, matches: list[tuple[str, str]]) -> tuple[str, ...]:
        """The matched names' paths below ``base``, newest first."""
        return tuple(join(self.os_family, base, name) for name in _newest_first(matches))

    def _can_scan_all(self, count: int) -> bool:
        """Whether ``count`` more names fit in this pattern's and the evaluation's bounds."""
        return (
            self.scanned + count <= MAX_SCANNED_ENTRIES
            and self.budget.names_listed + count <= MAX_NAMES_LISTED
        )

    def _out_of_work(self) -> bool:
        """Whether this pattern, or the whole evaluation, has examined all the names it may."""
        if self.scanned >= MAX_SCANNED_ENTRIES:
            self.note(f"stopped after examining {MAX_SCANNED_ENTRIES} entries")
            return True
        if self.budget.names_listed >= MAX_NAMES_LISTED:
            self.note(f"stopped: the evaluation examined {MAX_NAMES_LISTED:,} listed names")
            return True
        return False


def search_pattern(
    path: str,
    os_family: OsFamily,
    host: Host,
    budget: WorkBudget | None = None,
    *,
    shared: EvaluationPass | None = None,
) -> PatternSearch:
    """The paths a ``*`` pattern matches, newest first, and where the search was cut short.

    Each ``*`` segment lists the folders the previous segments reached and stops listing once it
    has ``MAX_MATCHES`` matches, so a pattern yields at most ``MAX_MATCHES`` paths and lists at
    most ``1 + MAX_MATCHES`` folders per ``*`` segment. The names it examines are charged to
    ``budget``, the evaluation's (a budget of its own when none is given). With ``shared``, the
    evaluation pass it belongs to, each folder is listed and matched once per pass.
    """
    read = read_pattern(path, os_family)
    search = _Search(os_family, host, budget or WorkBudget(), shared)
    bases = [read.root]
    refused: list[str] = []
    root_of = network_root if shared is None else shared.network_root
    for literal, pattern in read.steps:
        if literal:
            bases = [join(os_family, base, literal) for base in bases]
        if pattern is None:
            break
        bases = search.segment(bases, pattern)
        # A '*' can match the automounter's folder (``/n*t``): never look below it.
        roots = [root_of(base, os_family) for base in bases]
        if any(root is not None for root in roots):
            refused += [
                f"{base} is under {root}, where the automounter would contact a host"
                for base, root in zip(bases, roots, strict=True)
                if root is not None
            ]
            bases = [base for base, root in zip(bases, roots, strict=True) if root is None]
    return PatternSearch(tuple(bases), tuple(search.cut_short), tuple(refused))


class ReadPattern(NamedTuple):
    """A ``*`` pattern split once, apart from any host: its root, then each step below it."""

    root: str
    """The pattern's root (``/``, or ``C:\\`` for Windows), in the OS family's form."""
    steps: tuple[tuple[str, StarPattern | None], ...]
    """Each step: the literal segments to join on first (joined by the separator, or empty),
    then the ``*`` segment to match, None for the literal segments after the last one."""


@functools.lru_cache(maxsize=MAX_READ_PATTERNS)
def read_pattern(path: str, os_family: OsFamily) -> ReadPattern:
    """The pattern's root and steps: each ``*`` segment prepared once for every evaluation.

    A ``StarPattern`` is never changed once built, so the evaluations of every pass share it.
    """
    root_length = 3 if os_family == "win32" else 1
    root, rest = path[:root_length], path[root_length:]
    steps: list[tuple[str, StarPattern | None]] = []
    literal: list[str] = []  # the segments since the last '*' one, joined on at once
    for segment in (part for part in _SEPARATORS.split(rest) if part):
        if "*" not in segment:
            literal.append(segment)
            continue
        pattern = StarPattern(segment, ignore_case=os_family == "win32")
        steps.append((separator(os_family).join(literal), pattern))
        literal = []
    if literal:
        steps.append((separator(os_family).join(literal), None))
    return ReadPattern(normalise(os_family, root), tuple(steps))
