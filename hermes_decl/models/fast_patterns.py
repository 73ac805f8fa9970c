"""Lookaround-free patterns of the path, file and name rules, for pydantic-core's regex engine.

pydantic-core matches a string's ``pattern`` with Rust's ``regex`` crate: linear time whatever the
input, but without lookaround, so "no segment may be X" cannot be said as ``(?!…X)``. Each rule
is written here instead as the grammar of the values it allows, generated from the rule's own
definition (the Windows device names, the '..' forms of each OS, the roots of a path), so that a
pattern cannot drift from the rule it restates. ``hermes_decl.models.path_rules`` pairs each
pattern with the check that explains a refusal; the tests prove that the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from hermes_decl.models.common import OsFamily
from hermes_decl.models.rules import WINDOWS_DEVICE_NAMES
from hermes_decl.models.text_rules import SPACE_CLASS

SEPARATORS = r"\\/"
NEVER_IN_SEGMENT = SEPARATORS + r"\u0000"
"""A separator ends a segment; a NUL is never valid anywhere."""
UNSTRIPPABLE = r"\u001c-\u001f"
"""The characters Python's ``str.strip`` removes and Rust's ``trim`` keeps (the information
separators): a value holding one is left to the explaining check."""

Stars = Literal["any", "single", "none"]
"""What a '*' may do in a segment: anything, stand alone (never '**'), or not appear."""


@dataclass(frozen=True)
class Segment:
    """The characters a path segment may hold, and what a '*' may do there."""

    excluded: str
    """The body of a character class: what never appears in the segment."""
    stars: Stars

    def rest(self, *, after_star: bool = False) -> str:
        """Any rest of a segment; with ``after_star``, one that cannot start with '*'."""
        other = self.excluded
        if self.stars == "any":
            return f"[^{other}]*"
        if self.stars == "none":
            return f"[^*{other}]*"
        run = f"[^*{other}]+"
        if after_star:
            return f"(?:{run}(?:\\*{run})*\\*?)?"
        return f"[^*{other}]*(?:\\*{run})*\\*?"

    def then(self, excluded_first: str) -> str:
        """One character that is not in ``excluded_first``, then any rest of the segment."""
        other = self.excluded
        if self.stars == "any":
            return f"[^{excluded_first}{other}]{self.rest()}"
        plain = f"[^*{excluded_first}{other}]{self.rest()}"
        if self.stars == "none":
            return plain
        return f"(?:{plain}|\\*{self.rest(after_star=True)})"

    def dotted(self, *, windows: bool) -> str:
        """A segment starting with '.' that is not '..' (nor, on Windows, '..' trimmed).

        Windows drops trailing dots and spaces from a segment, so there '... ' names '..' too.
        """
        if windows:
            return f"\\.(?:{self.then('.')}|\\.[. ]*{self.then('. ')})?"
        return f"\\.(?:{self.then('.')}|\\.{self.then('')})?"


@dataclass
class _Node:
    children: dict[str, _Node] = field(default_factory=dict)
    complete: bool = False


def _trie(names: Iterable[str]) -> _Node:
    root = _Node()
    for name in names:
        node = root
        for character in name:
            node = node.children.setdefault(character, _Node())
        node.complete = True
    return root


def _cases(character: str) -> str:
    """The characters that spell ``character`` in a device name: both cases of an ASCII letter."""
    if character.isascii() and character.isalpha():
        return character.upper() + character.lower()
    return character


def _literal(character: str) -> str:
    cases = _cases(character)
    if len(cases) > 1:
        return f"[{cases}]"
    if character == "$":
        return r"\$"
    return character if character.isascii() else f"\\u{ord(character):04x}"


def _in_class(characters: str) -> str:
    return "".join(c if c.isascii() else f"\\u{ord(c):04x}" for c in characters)


def device_free(segment: Segment, *, names: Iterable[str], nonblank: bool = False) -> str:
    """A non-empty segment, not starting with '.', that Windows does not open as a device.

    Windows reads a segment as a device when its part before the first '.', less trailing
    spaces, is a device name in any case (``rules.windows_device_name``); the pattern walks the
    names as a tree and, at each step, allows every way of leaving it. With ``nonblank`` the
    segment holds something besides whitespace.
    """

    def walk(node: _Node, at_root: bool) -> str:
        children = sorted(node.children)
        following = _in_class("".join(_cases(c) for c in children))
        branches = [_literal(c) + walk(node.children[c], False) for c in children]
        if at_root:
            if nonblank:
                branches.append(segment.then("." + following + SPACE_CLASS))
                branches.append(f"[{SPACE_CLASS}]+{segment.then(SPACE_CLASS)}")
            else:
                branches.append(segment.then("." + following))
            return f"(?:{'|'.join(branches)})"
        if node.complete:
            # A whole name, then spaces, then something other than the end or a '.'.
            branches.append(f" +{segment.then(' .')}")
            branches.append(segment.then(" ." + following))
            return f"(?:{'|'.join(branches)})"
        branches.append(segment.then(following))
        return f"(?:{'|'.join(branches)})?"  # a part of a name alone names no device

    return walk(_trie(sorted(names)), True)


def segment_pattern(segment: Segment, *, windows: bool, nonblank: bool = False) -> str:
    """One non-empty segment: not '..', and on Windows no device name."""
    dotted = segment.dotted(windows=windows)
    if windows:
        return f"(?:{dotted}|{device_free(segment, names=WINDOWS_DEVICE_NAMES, nonblank=nonblank)})"
    return f"(?:{dotted}|{segment.then('.')})"


_POSIX_VARIABLE = r"\$(?:[A-Za-z_]|\{[A-Za-z_][A-Za-z0-9_]*\})"


def location_path(os_family: OsFamily, *, star: bool) -> str:
    """A path of an OS block, as stored (stripped): rooted for its OS, no '..' segment, no NUL,
    no two separators first, no '**' (no '*' at all without ``star``), no device on Windows.

    A ':' is allowed only in a drive root, and ``C:/`` is not followed by another '/' (that
    would be a URL, ``c://``); a path with any other ':' is left to the explaining check
    (``rules.location_path``), which knows every rule.
    """
    windows = os_family == "win32"
    segment = Segment(NEVER_IN_SEGMENT + ":" + UNSTRIPPABLE, "single" if star else "none")
    one = segment_pattern(segment, windows=windows)
    more = f"(?:[{SEPARATORS}]{one}?)*"
    variable_name = Segment(segment.excluded + "%=", segment.stars)
    roots = [
        f"~{segment.rest()}{more}",
        f"{_POSIX_VARIABLE}{segment.rest()}{more}",
    ]
    if windows:
        roots.append(f"[A-Za-z]:(?:\\\\{one}?{more}|/(?:{one}{more}|\\\\{one}?{more})?)")
        roots.append(f"%{variable_name.then('')}%{segment.rest()}{more}")
    else:
        roots.append(f"/(?:{one}{more})?")
    return f"^(?:{'|'.join(roots)})$"


def relative_file() -> str:
    """A path inside an install folder: non-empty segments, none '..' (as Windows trims it) or a
    device, no ':' and no NUL, not blank."""
    segment = Segment(NEVER_IN_SEGMENT + ":", "any")
    one = segment_pattern(segment, windows=True)
    nonblank = segment_pattern(segment, windows=True, nonblank=True)
    return f"^(?:{one}(?:[{SEPARATORS}]{one})+|{nonblank})$"


def bare_name() -> str:
    """A name without '/', '\\\\', ':' or NUL, with something besides whitespace, and not '..'
    once stripped."""
    allowed = r"[^\u0000\\/:]"
    solid = f"[^\\u0000\\\\/:{SPACE_CLASS}]"
    no_dot = f"[^\\u0000\\\\/:.{SPACE_CLASS}]"
    core = f"(?:{solid}|{no_dot}{allowed}*{solid}|\\.{allowed}*{no_dot}|\\.{allowed}+\\.)"
    return f"^[{SPACE_CLASS}]*{core}[{SPACE_CLASS}]*$"


def endpoint_path() -> str:
    """'/' then segments of letters, digits and ``. _ ~ -``, none '..', the first not empty."""
    allowed, no_dot = "[A-Za-z0-9._~-]", "[A-Za-z0-9_~-]"
    one = f"(?:{no_dot}{allowed}*|\\.(?:{no_dot}{allowed}*)?|\\.\\.{allowed}+)"
    return f"^/(?:{one}(?:/{one}?)*)?$"
