"""Writing human output that no declaration, file name or folder name can take over.

What the command line prints comes partly from files and machines it does not control: server
names, declared paths, folder names a ``*`` matched. Every line is written with its control
characters (C0, DEL, C1) escaped, so an escape sequence can neither retitle nor clear the
terminal, nor a newline fake a line; lone surrogates are escaped too. The streams are set to
replace what their encoding cannot carry (``LANG=C`` included), so printing never raises. A line
ends with ``\\n`` written to the text stream, which ends it the platform's way (``\\r\\n`` on
Windows). Only the colours ``Output`` adds reach a terminal as sequences. Machine output
(``--json``) is not escaped: ``json`` escapes every string exactly.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from hermes_decl.errors import DeclarationError, Issue


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
    _write(out, line + "\n")


def _write(out: TextIO, text: str) -> None:
    """Write ``text``; what the stream's encoding cannot carry is written as ``\\u…``."""
    try:
        out.write(text)
    except UnicodeEncodeError:
        out.write(text.encode("ascii", "backslashreplace").decode("ascii"))


def say_problems(out: TextIO, error: DeclarationError) -> None:
    """Write a ``DeclarationError`` as ``str(error)`` does: one escaped line per issue."""
    for issue in error.issues:
        say(out, issue.render(error.where))


# --- colour ------------------------------------------------------------------------------------

_STYLES = {"place": "1", "loc": "36", "hint": "32", "detail": "2", "bad": "31", "good": "32"}
_MARK = "".join(chr(0xF0000 + int.from_bytes(os.urandom(2), "big") % 0xFFFE) for _ in range(4))
"""Stands for the start of a colour sequence until a line is written: private-use characters
drawn afresh in every process, so no text from a declaration or a machine can forge one."""
_MARKED = re.compile(re.escape(_MARK) + r"([0-9]+)m")


def use_color(stream: TextIO, choice: str, env: Mapping[str, str] | None = None) -> bool:
    """Colour for ``--color=always``; for ``auto``, only on a terminal without ``NO_COLOR``.

    ``env`` is the environment asked about ``NO_COLOR`` and ``TERM`` (this process's when None).
    """
    if choice == "always":
        return True
    env = os.environ if env is None else env
    if choice == "never" or env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Output:
    """One stream a person reads: every human line is written here, styled when colour is on.

    Every line has its control characters escaped (``say``), so nothing read from a file or a
    machine can steer the terminal; only the colours this class adds reach it as sequences.
    """

    def __init__(self, stream: TextIO, *, color: bool) -> None:
        self.stream = forgiving(stream)
        self.color = color

    def style(self, text: str, role: str) -> str:
        """``text`` in the colour of ``role`` (place, loc, hint, detail, bad, good), if any."""
        if not (self.color and text):
            return text
        return f"{_MARK}{_STYLES[role]}m{text}{_MARK}0m"

    def line(self, text: str = "") -> None:
        """Write one line of human output, control characters escaped, colours kept."""
        say(self.stream, text, after_escaping=lambda safe: _MARKED.sub("\x1b[\\1m", safe))

    def issue(self, issue: Issue, where: str) -> None:
        """One problem: ``file:line:column: location: message``, place, key and hint styled
        (a warning's message after ``warning:``)."""
        place = where if issue.line is None else f"{where}:{issue.line}:{issue.column}"
        message = issue.message
        if issue.hint and message.endswith(f"{issue.hint})"):
            start = len(message) - len(issue.hint) - 1
            message = message[:start] + self.style(issue.hint, "hint") + ")"
        loc = f"{self.style(issue.loc, 'loc')}: " if issue.loc else ""
        tier = "warning: " if issue.severity == "warning" else ""
        self.line(f"{self.style(place, 'place')}: {loc}{tier}{message}")

    def error(self, error: DeclarationError) -> None:
        """Every problem of a ``DeclarationError``."""
        for issue in error.issues:
            self.issue(issue, error.where)

    def lines_written_elsewhere(self, text: str) -> None:
        """Human lines another ``Output`` of this command has already escaped and styled (a
        worker process's), written as they are."""
        _write(self.stream, text)

    def machine_line(self, text: str) -> None:
        """One line of machine output another program parses, written exactly as it is given."""
        self.stream.write(text + "\n")

    def data(self, payload: object) -> None:
        """Machine-readable output: indented JSON, never styled."""
        import json  # only for --json: a plain check prints lines

        json.dump(payload, self.stream, indent=2)
        print(file=self.stream)
