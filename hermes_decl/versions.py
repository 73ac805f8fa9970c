"""Version strings: the strict ``requires.min_version`` form and the lenient reading of found ones.

A minimum is written strictly (``2.3.0``); a version found on a machine is read leniently
(``v2.10``, ``2.3.0-beta``, ``11.0.9.509 (x64)``) and compared segment by segment, numerically,
the shorter side padded with zeros. Pre-release and build suffixes take no part in ordering.
"""

from __future__ import annotations

import re

MAX_PART_DIGITS = 9
"""The most digits one part of ``requires.min_version`` may have."""

_MIN_VERSION = re.compile(r"[0-9]+(?:\.[0-9]+)*")
_DIGITS = re.compile(r"[0-9]+")

VersionKey = tuple[tuple[int, str], ...]
"""A found version in comparable form: per segment (digit count, digits), trailing zeros dropped."""


MIN_VERSION_FORM = "must be a dotted numeric version such as '2.3.0'"
"""What is said of a ``min_version`` that is not dotted numeric."""


def min_version_problem(text: str) -> str | None:
    """Say what is wrong with a ``min_version`` string, or return None when it is well formed."""
    if not _MIN_VERSION.fullmatch(text):
        return MIN_VERSION_FORM
    if any(len(part) > MAX_PART_DIGITS for part in text.split(".")):
        return f"each part must have at most {MAX_PART_DIGITS} digits"
    return None


def version_key(text: str) -> VersionKey | None:
    """Read a found version leniently into a comparable key; None when it holds no digit at all.

    The text is cut at its first whitespace and split on ``.``; each segment counts as its first
    run of ASCII digits (0 when it has none). Digits are compared as numbers without converting
    them to ``int``, so a hostile thousand-digit segment costs no more than its length.
    """
    words = text.split(None, 1)
    if not words:
        return None
    head = words[0]
    if _DIGITS.search(head) is None:
        return None
    parts: list[tuple[int, str]] = []
    for segment in head.split("."):
        run = _DIGITS.search(segment)
        digits = run.group().lstrip("0") if run else ""
        parts.append((len(digits), digits))
    while parts and parts[-1] == (0, ""):
        parts.pop()
    return tuple(parts)


def compare_versions(found: str, minimum: str) -> int | None:
    """-1, 0 or 1 as ``found`` is below, equal to or above ``minimum``; None if unreadable."""
    left, right = version_key(found), version_key(minimum)
    if left is None or right is None:
        return None
    return (left > right) - (left < right)


def satisfies(found: str | None, minimum: str) -> bool:
    """Whether a found version meets a minimum; an absent or unreadable version never does."""
    if found is None:
        return False
    order = compare_versions(found, minimum)
    return order is not None and order >= 0
