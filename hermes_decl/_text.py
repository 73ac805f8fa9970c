"""Wording shared by every message: how a found value is quoted, how choices are listed."""

from __future__ import annotations

import datetime
import reprlib
from collections.abc import Iterable

MAX_SHOWN = 80

_repr = reprlib.Repr()
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
    import difflib  # only for a misspelt key: a valid declaration never needs it

    close = difflib.get_close_matches(found, list(options), n=1)
    return close[0] if close else None
