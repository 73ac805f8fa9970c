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
from typing import Literal, NamedTuple

from hermes_decl.models import path_atoms
from hermes_decl.models.common import OsFamily
from hermes_decl.models.path_atoms import SEPARATORS, WINDOWS_DEVICE_NAMES
from hermes_decl.models.text_rules import C0_C1_CLASS, PLAIN_SPACE_CLASS, SPACE_CLASS

NEVER_IN_SEGMENT = SEPARATORS + C0_C1_CLASS
"""A separator ends a segment; a control character is never valid anywhere (but in a path's
surrounding whitespace, which its pattern refuses: the explaining check strips it)."""

Stars = Literal["any", "single", "none"]
"""What a '*' may do in a segment: anything, stand alone (never '**'), or not appear."""


# The helpers below are named tuples and a plain class, not dataclasses: a dataclass costs the
# import several times as much to define, and these only build patterns once.


class Heads(NamedTuple):
    """The ways a segment starts, up to the first character after which anything may follow.

    ``plain`` ends with such a character other than '*', ``star`` with a '*' (which the rest
    must not repeat), ``whole`` is a whole segment that never reaches one. Keeping the heads
    apart lets every segment share one written-out rest, which keeps the pattern small.
    """

    plain: str
    star: str | None
    whole: str | None


class Segment(NamedTuple):
    """The characters a path segment may hold, and what a '*' may do there."""

    excluded: str
    """The body of a character class: what never appears in the segment."""
    stars: Stars
    trimmed: bool = False
    """Whether the segment neither starts nor ends with whitespace (a path matched as written,
    not stripped first, so that its surrounding whitespace is refused, not kept)."""

    def rest(self, *, after_star: bool = False) -> str:
        """Any rest of a segment; with ``after_star``, one that cannot start with '*'."""
        if self.trimmed:
            return self._trimmed_rest(after_star=after_star)
        other = self.excluded
        if self.stars == "any":
            return f"[^{other}]*"
        if self.stars == "none":
            return f"[^*{other}]*"
        run = f"[^*{other}]+"
        if after_star:
            return f"(?:{run}(?:\\*{run})*\\*?)?"
        return f"[^*{other}]*(?:\\*{run})*\\*?"

    def _trimmed_rest(self, *, after_star: bool) -> str:
        """A rest of a segment that is empty or ends with a character other than whitespace."""
        star = "" if self.stars == "any" else "*"
        inner, last = f"[^{star}{self.excluded}]", f"[^{star}{self.excluded}\\s]"
        if self.stars != "single":
            return f"(?:{inner}*{last})?"
        # no '**': every '*' but a last one is followed by another character
        runs = f"(?:\\*?{inner})*(?:\\*?{last}|\\*)"
        if after_star:
            return f"(?:{last}|{inner}{runs})?"
        return f"(?:{runs})?"

    def free(self, excluded_first: str) -> str:
        """A character, not in ``excluded_first``, after which anything may follow (not '*'
        when a '*' must stand alone: ``star`` heads end with it).

        In a trimmed segment, where that character may end the segment, it is not whitespace
        either: a segment with whitespace there (first, after its leading dots, or after a start
        of a device name) is left to the explaining check, which keeps such rare paths as well.
        ``\\s`` is Unicode whitespace to both Rust's and Python's patterns; the two differ only
        in control characters, which no segment holds.
        """
        star = "" if self.stars == "any" else "*"
        space = "\\s" if self.trimmed else ""
        return f"[^{star}{excluded_first}{self.excluded}{space}]"

    @property
    def lone_stars(self) -> bool:
        """Whether a head may end with a '*' that the rest must not follow with another."""
        return self.stars == "single"

    def pattern(self, heads: Heads) -> str:
        """A non-empty segment: one of its heads, then the rest that head allows."""
        branches = [f"{heads.plain}{self.rest()}"]
        if self.lone_stars and heads.star is not None:
            branches.append(f"{heads.star}{self.rest(after_star=True)}")
        if heads.whole is not None:
            branches.append(heads.whole)
        return f"(?:{'|'.join(branches)})"

    def dotted(self, *, windows: bool) -> Heads:
        """The heads of a segment starting with '.' that is not '..' (nor '..' as Windows trims
        it: Windows drops trailing dots and spaces from a segment, so '... ' names '..' too)."""
        if windows:
            return Heads(
                plain=f"\\.(?:{self.free('.')}|\\.[. ]*{self.free('. ')})",
                star="\\.(?:\\.[. ]*)?\\*",
                whole="\\.",
            )
        return Heads(
            plain=f"\\.(?:{self.free('.')}|\\.{self.free('')})",
            star="\\.\\.?\\*",
            whole="\\.",
        )


class _Node:
    __slots__ = ("children", "complete")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.complete = False


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


def _in_class(characters: str) -> str:
    return "".join(c if c.isascii() else f"\\u{ord(c):04x}" for c in characters)


def _alternatives(branches: list[tuple[str, str]]) -> list[str]:
    """``(character, what follows it)`` pairs as alternatives, characters with the same
    continuation sharing one class (the ten digits of COM0-COM9 are one branch)."""
    grouped: dict[str, str] = {}
    for character, following in branches:
        grouped[following] = grouped.get(following, "") + _cases(character)
    alternatives = []
    for following, characters in grouped.items():
        if len(characters) == 1 and characters != "$" and characters.isascii():
            alternatives.append(characters + following)
        else:
            alternatives.append(f"[{_in_class(characters)}]{following}")
    return alternatives


def device_name_prefixes() -> str:
    """Every start of a Windows device name (the whole name too), in any case, as one pattern:
    where a trimmed segment's head may stop and take no whitespace (``Segment.free``)."""

    def starts(node: _Node) -> str:
        branches = [
            (c, f"(?:{starts(child)})?" if child.children else "")
            for c, child in node.children.items()
        ]
        return "|".join(_alternatives(branches))

    return f"(?:{starts(_trie(sorted(WINDOWS_DEVICE_NAMES)))})"


def device_free(segment: Segment, *, names: Iterable[str], nonblank: bool = False) -> Heads:
    """The heads of a segment, not starting with '.', that Windows does not open as a device.

    Windows reads a segment as a device when its part before the first '.', less trailing
    spaces, is a device name in any case (``rules.windows_device_name``); the heads walk the
    names as a tree and, at each step, take every way of leaving it. With ``nonblank`` the
    segment holds something besides whitespace.
    """
    root = _trie(sorted(names))

    def following(node: _Node) -> str:
        return _in_class("".join(_cases(c) for c in node.children))

    def plain(node: _Node, at_root: bool) -> str:
        options = _alternatives([(c, plain(child, False)) for c, child in node.children.items()])
        if at_root and nonblank:
            options.append(segment.free("." + following(node) + SPACE_CLASS))
            options.append(f"[{PLAIN_SPACE_CLASS}]+{segment.free(SPACE_CLASS)}")
        elif at_root:
            options.append(segment.free("." + following(node)))
        elif node.complete:
            # A whole name, then spaces, then something other than a '.'.
            options.append(f" +{segment.free(' .')}")
            options.append(segment.free(" ." + following(node)))
        else:
            options.append(segment.free(following(node)))
        return f"(?:{'|'.join(options)})"

    def star(node: _Node, at_root: bool) -> str:
        options = _alternatives([(c, star(child, False)) for c, child in node.children.items()])
        if at_root and nonblank:
            options.append(f"[{PLAIN_SPACE_CLASS}]*\\*")
        elif node.complete and not at_root:
            options.append(" *\\*")
        else:
            options.append("\\*")
        return f"(?:{'|'.join(options)})"

    def whole(node: _Node) -> str | None:
        """A segment ending inside the tree: a part of a name, never a whole one."""
        options = []
        for c, child in node.children.items():
            after = whole(child)
            if after is not None:
                options.append((c, after))
        ends = not node.complete
        parts = _alternatives(options)
        if not parts:
            return "" if ends else None
        return f"(?:{'|'.join(parts)}){'?' if ends else ''}"

    whole_heads = [
        alternative
        for c, child in root.children.items()
        if (after := whole(child)) is not None
        for alternative in _alternatives([(c, after)])
    ]
    return Heads(
        plain=plain(root, True),
        star=star(root, True),
        whole=f"(?:{'|'.join(whole_heads)})" if whole_heads else None,
    )


def segment_pattern(segment: Segment, *, windows: bool, nonblank: bool = False) -> str:
    """One non-empty segment: not '..', and on Windows no device name."""
    dotted = segment.pattern(segment.dotted(windows=windows))
    if windows:
        heads = device_free(segment, names=WINDOWS_DEVICE_NAMES, nonblank=nonblank)
        return f"(?:{dotted}|{segment.pattern(heads)})"
    if nonblank:
        raise ValueError("only a Windows segment pattern is asked to be nonblank")
    heads = Heads(plain=segment.free("."), star="\\*", whole=None)
    return f"(?:{dotted}|{segment.pattern(heads)})"


def location_path(os_family: OsFamily, *, star: bool) -> str:
    """A path of an OS block, as written: rooted for its OS, no '..' segment, no NUL, no two
    separators first, no '**' (no '*' at all without ``star``), no device on Windows, and no
    segment that starts or ends with whitespace, so that stripping would keep it as it is.

    A ':' is allowed only in a drive root, which a segment follows (``c://`` would be a URL); a
    path with any other ':', or a separator right after its drive root, is left to the
    explaining check (``rules.location_path``), which knows every rule.
    """
    windows = os_family == "win32"
    stars: Stars = "single" if star else "none"
    segment = Segment(NEVER_IN_SEGMENT + ":", stars, trimmed=True)
    one = segment_pattern(segment, windows=windows)
    ends = f"(?:[{SEPARATORS}]+|$)"  # what ends a segment: separators, or the end
    variable = Segment(segment.excluded + path_atoms.WINDOWS_VARIABLE_EXCLUDED, stars)
    named = [f"~{segment.rest()}", f"{path_atoms.posix_variable(whole=False)}{segment.rest()}"]
    if windows:
        name = variable.pattern(Heads(plain=variable.free(""), star="\\*", whole=None))
        named.append(f"%{name}%{segment.rest()}")
        root = path_atoms.DRIVE_ROOT
    else:
        # the first segment of an absolute POSIX path has rules of its own
        root = f"/(?:{_first_posix_segment(segment, os_family)}{ends}|$)"
    # A root ends with its separator and the loop starts with a segment, so a path never has
    # two separators first; written once, the segment (most of the pattern, and on Windows a
    # large one) costs pydantic-core half as much to compile on first use.
    return f"^(?:(?:{'|'.join(named)}){ends}|{root})(?:{one}{ends})*$"


def network_root_initials(os_family: OsFamily) -> str:
    """Every character a network root of the OS family may start with (``rules.network_root``),
    for a character class; empty when it has none."""
    ignore_case = os_family in path_atoms.NETWORK_ROOTS_IGNORE_CASE
    initials = {root[0][0] for root in path_atoms.NETWORK_ROOTS.get(os_family, ())}
    return "".join(
        sorted(
            "".join(path_atoms.spellings(letter, ignore_case=ignore_case) for letter in initials)
        )
    )


def _first_posix_segment(segment: Segment, os_family: OsFamily) -> str:
    """The first segment of an absolute POSIX path: with network roots, neither ``.`` (which the
    OS skips) nor one starting like a network root, which are left to the explaining check."""
    initials = network_root_initials(os_family)
    if not initials:
        return segment_pattern(segment, windows=False)
    dotted = segment.dotted(windows=False)._replace(whole=None)
    heads = Heads(plain=segment.free("." + _in_class(initials)), star="\\*", whole=None)
    return f"(?:{segment.pattern(dotted)}|{segment.pattern(heads)})"


def relative_file() -> str:
    """A path inside an install folder: non-empty segments, none '..' (as Windows trims it) or a
    device, no ':' and no NUL, not blank.

    A segment of whitespace only, which another segment can make valid, is left to the
    explaining check (``rules.relative_file``).
    """
    segment = Segment(NEVER_IN_SEGMENT + ":", "any")
    one = segment_pattern(segment, windows=True, nonblank=True)
    return f"^{one}(?:[{SEPARATORS}]{one})*$"


def bare_name() -> str:
    """A name without '/', '\\\\', ':' or a control character, with something besides
    whitespace, and not '..' once stripped: either it holds a character that is neither
    whitespace nor '.', or, stripped, it is '.' or a '.' and a '.' with dots or whitespace
    between."""
    allowed = f"[^{C0_C1_CLASS}\\\\/:]"
    telling = f"[^{C0_C1_CLASS}\\\\/:.{SPACE_CLASS}]"
    space = f"[{PLAIN_SPACE_CLASS}]"
    dots = f"{space}*\\.(?:[.{PLAIN_SPACE_CLASS}]+\\.)?{space}*"
    return f"^(?:{allowed}*{telling}{allowed}*|{dots})$"


def endpoint_path() -> str:
    """'/' then segments of letters, digits and ``. _ ~ -``, none '..', the first not empty."""
    allowed, no_dot = "[A-Za-z0-9._~-]", "[A-Za-z0-9_~-]"
    one = f"(?:{no_dot}{allowed}*|\\.(?:{no_dot}{allowed}*)?|\\.\\.{allowed}+)"
    return f"^/(?:{one}(?:/{one}?)*)?$"
