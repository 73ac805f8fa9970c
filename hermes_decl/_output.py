"""Writing human output that no declaration, file name or folder name can take over.

What the command line prints comes partly from files and machines it does not control: server
names, declared paths, folder names a ``*`` matched. Every line is written with its control
characters (C0, DEL, C1) escaped, so an escape sequence can neither retitle nor clear the
terminal, nor a newline fake a line; lone surrogates are escaped too. The streams are set to
replace what their encoding cannot carry (``LANG=C`` included), so printing never raises.
Machine output (``--json``) is not written here: ``json`` escapes every string exactly.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from hermes_decl.errors import DeclarationError


@functools.cache
def _unsafe() -> re.Pattern[str]:
    """What is escaped: C0, DEL, C1 and lone surrogates; compiled when a line first holds any
    character besides printable ASCII (the class of surrogates is slow to compile)."""
    return re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """``text`` with each control character and lone surrogate escaped (``\\x1b``, ``\\ud800``)."""
    if text.isascii() and text.isprintable():
        return text  # no C0 nor DEL, and ASCII has no C1 nor surrogate: nothing to escape
    return _unsafe().sub(_escape, text)


def forgiving(stream: TextIO) -> TextIO:
    """The stream, set (when it can be) to write ``\\u…`` for what its encoding cannot carry."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        # A stream that refuses keeps its handler: say() still never raises.
        with contextlib.suppress(AttributeError, ValueError, OSError):
            reconfigure(errors="backslashreplace")
    return stream


def say(out: TextIO, text: str = "", *, after_escaping: Callable[[str], str] | None = None) -> None:
    """Write one line of human output, control characters escaped; never an encoding error.

    ``after_escaping`` may add to the escaped line what the caller itself wrote (colours).
    """
    line = escape_controls(text)
    if after_escaping is not None:
        line = after_escaping(line)
    line += "\n"
    try:
        out.write(line)
    except UnicodeEncodeError:
        out.write(line.encode("ascii", "backslashreplace").decode("ascii"))


def say_problems(out: TextIO, error: DeclarationError) -> None:
    """Write a ``DeclarationError`` as ``str(error)`` does: one escaped line per issue."""
    for issue in error.issues:
        say(out, issue.render(error.where))
