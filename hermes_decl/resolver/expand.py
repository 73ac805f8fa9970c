"""Expanding a declared path at lookup, and matching its ``*`` segments (SPEC 6.2).

``~`` is the host's home; ``%VAR%`` (Windows), ``$VAR`` and ``${VAR}`` come from the host's
environment, in one pass (a value is never expanded again). A path whose variable is unset, or
that after expansion is not rooted for its OS, became a UNC or device path, or gained a ``..``
segment, is refused before anything touches it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hermes_decl.models import OsFamily
from hermes_decl.models.rules import DRIVE_ROOT, has_parent_segment, starts_with_two_separators
from hermes_decl.resolver.host import Host
from hermes_decl.versions import version_key

MAX_MATCHES = 256
"""The most directory entries a ``*`` pattern considers, over all its segments."""

_TILDE = re.compile(r"~([^\\/]*)(?=[\\/]|\Z)")
_POSIX_VARIABLE = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
_ANY_VARIABLE = re.compile(
    r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})|%([^%=/\\]+)%"
)
_SEPARATORS = re.compile(r"[\\/]+")


@dataclass(frozen=True)
class Expansion:
    """A declared path after expansion: the path, or why it cannot be looked at."""

    path: str | None
    refused: str | None = None
    """Why nothing was touched: an unset variable, an unknown home, an unsafe result."""


def separator(os_family: OsFamily) -> str:
    """The separator paths are written with on an OS family."""
    return "\\" if os_family == "win32" else "/"


def join(os_family: OsFamily, base: str, *names: str) -> str:
    """Join names onto a directory, in the OS family's form."""
    sep = separator(os_family)
    text = base
    for name in names:
        text = text if text.endswith(("/", "\\")) else text + sep
        text += name
    return normalise(os_family, text)


def normalise(os_family: OsFamily, path: str) -> str:
    """Write a path with the OS family's separator (Windows accepts both; shown with ``\\``)."""
    return path.replace("/", "\\") if os_family == "win32" else path


def unsafe_reason(path: str, os_family: OsFamily) -> str | None:
    """Why an expanded path must not be touched, or None when it is safe to look at."""
    if "\x00" in path:
        return "contains a NUL character"
    if starts_with_two_separators(path):
        return "became a UNC or device path"
    rooted = DRIVE_ROOT.match(path) if os_family == "win32" else path.startswith("/")
    if not rooted:
        return "is not an absolute path after expansion"
    if has_parent_segment(path, os_family):
        return "gained a '..' segment"
    return None


def _joined(value: str, following: str) -> str:
    """A substituted value, less its trailing separators when the template supplies one.

    ``HOME=/`` then gives ``/x`` for ``~/x``, not ``//x`` (which would look like a UNC path).
    """
    return value.rstrip("/\\") if following[:1] in ("/", "\\") else value


def expand(template: str, os_family: OsFamily, host: Host) -> Expansion:
    """Expand ``~`` and variables through the host, then check the result is safe to look at.

    A ``*`` is a wildcard only where the declaration wrote it: a value from the host that holds
    one is refused rather than allowed to decide which folders are listed.
    """
    text = template
    tilde = _TILDE.match(text)
    if tilde:
        user = tilde.group(1)
        home = host.user_home(user) if user else host.home()
        if not home:
            return Expansion(None, f"the home directory of {'~' + user} is unknown")
        home = _joined(home, text[tilde.end() :])
        if "*" in home:
            return Expansion(None, f"the home directory of {'~' + user} holds a '*'")
        text = home + text[tilde.end() :]
        rest_from = len(home)
    else:
        rest_from = 0
    unset: list[str] = []
    starred: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2) or match.group(3)
        value = host.getenv(name)
        if value is None:
            unset.append(name)
            return ""
        if "*" in value:
            starred.append(name)
        return _joined(value, match.string[match.end() :])

    pattern = _ANY_VARIABLE if os_family == "win32" else _POSIX_VARIABLE
    text = text[:rest_from] + pattern.sub(substitute, text[rest_from:])
    if unset:
        return Expansion(None, f"variable {unset[0]} is unset")
    if starred:
        return Expansion(None, f"variable {starred[0]} holds a '*'")
    reason = unsafe_reason(text, os_family)
    if reason is not None:
        return Expansion(None, f"{normalise(os_family, text)} {reason}")
    return Expansion(normalise(os_family, text))


def _fold(text: str, ignore_case: bool) -> str:
    folded = text.lower() if ignore_case else text
    return folded if len(folded) == len(text) else text


def star_text(segment: str, name: str, *, ignore_case: bool) -> str | None:
    """The text the first ``*`` of ``segment`` matches in ``name``, or None when it does not match.

    Each literal piece is placed at its leftmost possible position, which decides a match
    whenever one exists and gives the first ``*`` its shortest text; no backtracking, so a
    hostile pattern costs at most one scan of the name per piece.
    """
    pieces = _fold(segment, ignore_case).split("*")
    text = _fold(name, ignore_case)
    first, *middle, last = pieces
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return None
    position, end = len(first), len(text) - len(last)
    first_star_end = end
    for index, piece in enumerate(middle):
        found = text.find(piece, position, end)
        if found < 0:
            return None
        if index == 0:
            first_star_end = found
        position = found + len(piece)
    return name[len(first) : first_star_end]


def _newest_first(matches: list[tuple[str, str]]) -> list[str]:
    """Order matched names by the version in the text ``*`` matched, highest first, then by name."""
    readable = [(key, name) for name, star in matches if (key := version_key(star)) is not None]
    unreadable = sorted(name for name, star in matches if version_key(star) is None)
    readable.sort(key=lambda entry: entry[1])
    readable.sort(key=lambda entry: entry[0], reverse=True)
    return [name for _, name in readable] + unreadable


def match_pattern(path: str, os_family: OsFamily, host: Host) -> tuple[str, ...]:
    """The paths a ``*`` pattern matches, newest first.

    Each ``*`` segment considers at most ``MAX_MATCHES`` matching entries over all the folders it
    looks in, and lists no further folder once it has them, so a pattern yields at most
    ``MAX_MATCHES`` paths and lists at most ``1 + MAX_MATCHES`` folders per ``*`` segment.
    """
    root_length = 3 if os_family == "win32" else 1
    root, rest = path[:root_length], path[root_length:]
    bases = [normalise(os_family, root)]
    for segment in (part for part in _SEPARATORS.split(rest) if part):
        if "*" not in segment:
            bases = [join(os_family, base, segment) for base in bases]
            continue
        found: list[str] = []
        for base in bases:
            if len(found) >= MAX_MATCHES:
                break
            matches: list[tuple[str, str]] = []
            for name in host.list_dir(base):
                star = star_text(segment, name, ignore_case=os_family == "win32")
                if star is not None:
                    matches.append((name, star))
                    if len(found) + len(matches) >= MAX_MATCHES:
                        break
            found.extend(join(os_family, base, name) for name in _newest_first(matches))
        bases = found
    return tuple(bases)
