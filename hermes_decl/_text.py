"""Wording shared by every message: how a found value is quoted, how choices are listed."""

from __future__ import annotations

import datetime
import functools
import reprlib
from collections.abc import Iterable

MAX_SHOWN = 80
LONGEST_WRITTEN_INT_BITS = 14_000
"""The longest integer written as digits (about 4,200): Python 3.11 and later refuse to write one
past 4,300 digits, and 3.10 takes time quadratic in the digits; a longer one is shown by size."""

_VISIBLE = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def quoted(text: str) -> str:
    """Text as an author wrote it, in quotes: backslashes single (``'C:\\Apps'``, not
    ``'C:\\\\Apps'``), only what cannot be seen escaped (controls, format characters, lone
    surrogates, line separators), and single quotes unless the text holds one."""
    quote = '"' if "'" in text and '"' not in text else "'"
    shown = []
    for character in text:
        if character in _VISIBLE:
            shown.append(_VISIBLE[character])
        elif character == quote:
            shown.append("\\" + quote)
        elif character.isprintable() or character == " ":
            shown.append(character)
        else:
            shown.append(repr(character)[1:-1])
    return quote + "".join(shown) + quote


class _AsWritten(reprlib.Repr):
    """``reprlib``'s shortening, with each string quoted as written (``quoted``)."""

    def repr_str(self, x: str, level: int) -> str:
        if len(x) <= self.maxstring:
            return quoted(x)
        keep = max(0, (self.maxstring - 3) // 2)
        tail = max(0, self.maxstring - 3 - keep)
        shown = quoted(x[:keep] + x[len(x) - tail :])
        return shown[:keep] + "..." + shown[len(shown) - tail :]


_repr = _AsWritten()
_repr.maxlevel = 3
_repr.maxstring = MAX_SHOWN
_repr.maxother = MAX_SHOWN
_repr.maxlong = MAX_SHOWN


def show(value: object) -> str:
    """Render a value found in a declaration for a message, shortened, and never raising."""
    if value is None:
        text = "null"
    elif value is True or value is False:
        text = "true" if value else "false"
    elif isinstance(value, (datetime.date, datetime.time)):
        text = value.isoformat()  # YAML reads 2024-01-01 as a date
    elif isinstance(value, (bytes, bytearray)):
        text = f"binary data of {len(value)} bytes"
    elif isinstance(value, int) and value.bit_length() > LONGEST_WRITTEN_INT_BITS:
        text = f"an integer of {value.bit_length():,} bits"
    elif isinstance(value, (set, frozenset)):
        text = "a set"
    else:
        try:
            text = _repr.repr(value)
        except Exception:
            text = f"<{type(value).__name__}>"
    if len(text) > MAX_SHOWN:
        text = text[: MAX_SHOWN - 3] + "..."
    return text


def choices(options: Iterable[str]) -> str:
    """List options the way messages do: 'a', 'b' or 'c'."""
    quoted = [repr(option) for option in options]
    if len(quoted) <= 1:
        return "".join(quoted)
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def did_you_mean(found: object, options: Iterable[str]) -> str | None:
    """The closest option to a misspelt string, as difflib judges with its default cutoff."""
    if not isinstance(found, str):
        return None
    choices = tuple(options)
    # difflib's ratio is at most 2 * shorter / (both lengths): below its cutoff of 0.6 once one
    # string is 7/3 times the other, so a long value is never close (nor kept in the cache).
    if not choices or 3 * len(found) > 7 * max(map(len, choices)):
        return None
    return _closest(str(found), choices)


SUGGESTIONS_KEPT = 4096
"""How many misspellings' suggestions are kept (the oldest used is forgotten first)."""


@functools.lru_cache(maxsize=SUGGESTIONS_KEPT)
def _closest(found: str, options: tuple[str, ...]) -> str | None:
    """``did_you_mean``'s answer, kept for the next time: a file of many servers repeats its
    misspellings, and difflib compares each option anew (about 50 µs a key)."""
    import difflib  # only for a misspelt key: a valid declaration never needs it

    close = difflib.get_close_matches(found, list(options), n=1)
    return close[0] if close else None
