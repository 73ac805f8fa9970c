"""An incremental ``text/event-stream`` parser: body bytes in, each event's type and data out.

It never touches a socket; the HTTP core (``http_wire``) feeds it the body of an answer as the
pieces arrive. A line, and so an event, may be as long as the answer (a ``data:`` line holds a
whole JSON message): the byte budget of the answer bounds it, and each byte is scanned once, so
feeding it a byte at a time costs no more than feeding it everything at once.
"""

from __future__ import annotations

import re

__all__ = ["EventStreamParser"]

_CR, _LF = 0x0D, 0x0A
_LINE_END = re.compile(rb"[\r\n]")


class EventStreamParser:
    """Server-sent events from the pieces of a body, split anywhere (CRLF, LF or CR lines)."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._scanned = 0
        self._event = ""
        self._data: list[str] = []

    def feed(self, data: bytes) -> list[tuple[str, str]]:
        """The ``(type, data)`` of every event that ``data`` completes, in order."""
        self._pending += data
        events: list[tuple[str, str]] = []
        while (line := self._take_line()) is not None:
            if not line:
                if self._data:
                    events.append((self._event or "message", "\n".join(self._data)))
                self._event, self._data = "", []
                continue
            if line.startswith(":"):
                continue  # a comment, such as a keep-alive
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                self._event = value
            elif name == "data":
                self._data.append(value)
        return events

    def _take_line(self) -> str | None:
        """One complete line, or None until more arrives (a last CR may be half of a CRLF)."""
        pending = self._pending
        found = _LINE_END.search(pending, self._scanned)
        if found is None:
            self._scanned = len(pending)
            return None
        index = found.start()
        if pending[index] == _CR and index + 1 == len(pending):
            self._scanned = index
            return None
        end = index + 2 if pending[index] == _CR and pending[index + 1] == _LF else index + 1
        line = bytes(pending[:index])
        del pending[:end]
        self._scanned = 0
        return line.decode("utf-8", "replace")
