"""The HTTP/1.1 framing of an answer as a sans-I/O state machine: bytes in, events out.

``ResponseParser`` never touches a socket, a clock or a logger: a driver feeds it what it read
(``feed``) and the end of the stream (``feed_eof``), and it gives back, in order, the events the
bytes complete: ``StatusLine``, ``Headers``, ``BodyStart`` (the media type), then the body as
``BodyChunk`` pieces, one ``JsonBody`` (``application/json``) or ``ServerEvent`` s
(``text/event-stream``), and ``EndOfMessage``; or a ``FramingError`` that ends it. Every bound
is the parser's own, counted on the wire before any parsing:

- at most ``max_bytes`` are read in all (status line, headers and body);
- the status line and headers together are at most ``MAX_HEAD_BYTES``, in ``MAX_HEADERS`` lines;
- a status, header, chunk-size or chunk-end line is at most ``MAX_LINE_BYTES`` before its LF;
- a number on the wire (status code, ``Content-Length``, chunk size) is ASCII digits only, so
  ``Content-Length: \\xb2`` is a framing error, never an exception;
- an event (its lines and data) is bounded by ``max_bytes``, like everything else.

Any bytes give events or one ``FramingError``, nothing else, however they are split.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from hermes_decl.runtime.event_stream import EventStreamParser

__all__ = [
    "MAX_HEADERS",
    "MAX_HEAD_BYTES",
    "MAX_LINE_BYTES",
    "MAX_RESPONSE_BYTES",
    "READ_BYTES",
    "BodyChunk",
    "BodyStart",
    "EndOfMessage",
    "Event",
    "FramingError",
    "Headers",
    "JsonBody",
    "ResponseParser",
    "ServerEvent",
    "StatusLine",
]

MAX_RESPONSE_BYTES = 1 << 20
"""At most this many bytes of the answer are read (status line, headers and body)."""

MAX_HEAD_BYTES = 32 * 1024
"""The status line and headers together may not be longer than this."""

MAX_HEADERS = 100
"""An answer with more header lines than this is not believed."""

MAX_LINE_BYTES = 8 * 1024
"""A status, header or chunk line longer than this (before its LF) is not believed."""

READ_BYTES = 64 * 1024
"""A driver reads at most this many bytes at a time."""

_MAX_LENGTH_DIGITS = 12
_MAX_CHUNK_DIGITS = 8
_STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([0-9]{3})(?: [^\r\n]*)?\r?\n?")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_DECIMAL = re.compile(rf"[0-9]{{1,{_MAX_LENGTH_DIGITS}}}")
_HEXADECIMAL = re.compile(rb"[0-9A-Fa-f]{1,%d}" % _MAX_CHUNK_DIGITS)
_HTTP_PREFIX = b"HTTP/"
_JSON = "application/json"
_EVENT_STREAM = "text/event-stream"


@dataclass(frozen=True)
class StatusLine:
    """The status line arrived."""

    code: int


@dataclass(frozen=True)
class Headers:
    """The header block arrived: every field in order, names lower-cased, values trimmed."""

    code: int
    fields: tuple[tuple[str, str], ...]

    def values(self, name: str) -> tuple[str, ...]:
        """Every value of the (lower-case) header ``name``, in order."""
        return tuple(value for field, value in self.fields if field == name)


@dataclass(frozen=True)
class BodyStart:
    """The body begins; ``media_type`` is the Content-Type without parameters, lower-cased."""

    media_type: str


@dataclass(frozen=True)
class BodyChunk:
    """A piece of a body that is neither JSON nor an event stream."""

    data: bytes


@dataclass(frozen=True)
class JsonBody:
    """The whole body of an ``application/json`` answer."""

    data: bytes


@dataclass(frozen=True)
class ServerEvent:
    """One event of a ``text/event-stream`` body."""

    type: str
    data: str


@dataclass(frozen=True)
class EndOfMessage:
    """The body ended as its framing says (trailers after the last chunk are not read)."""


@dataclass(frozen=True)
class FramingError:
    """The answer is not believable HTTP/1.1; nothing follows it."""

    detail: str


Event = StatusLine | Headers | BodyStart | BodyChunk | JsonBody | ServerEvent | EndOfMessage
"""What ``ResponseParser`` gives, besides its ``FramingError``."""


class _State(Enum):
    PREFIX = "prefix"
    STATUS = "status"
    HEADERS = "headers"
    LENGTH = "length"
    CHUNK_SIZE = "chunk-size"
    CHUNK_DATA = "chunk-data"
    CHUNK_END = "chunk-end"
    UNTIL_CLOSE = "until-close"
    DONE = "done"


class _Framing(Exception):
    """Ends the parse with a ``FramingError`` (never leaves this module)."""


class ResponseParser:
    """One HTTP/1.1 answer, fed in pieces split anywhere; every bound is checked here."""

    def __init__(self, max_bytes: int = MAX_RESPONSE_BYTES) -> None:
        self._max_bytes = max_bytes
        self._left = max_bytes
        self._buffer = bytearray()
        self._eof = False
        self._state = _State.PREFIX
        self._code = 0
        self._head_bytes = 0
        self._fields: list[tuple[str, str]] = []
        self._media = ""
        self._body_left = 0
        self._json = bytearray()
        self._events = EventStreamParser()
        self.received = 0
        """How many bytes were accepted, in all."""

    @property
    def finished(self) -> bool:
        """Whether the answer ended (its end, or a framing error): further bytes are ignored."""
        return self._state is _State.DONE

    @property
    def read_size(self) -> int:
        """How many bytes a driver may read next (never more than is left of the budget)."""
        return max(1, min(READ_BYTES, self._left))

    def feed(self, data: bytes) -> tuple[Event | FramingError, ...]:
        """The events that ``data`` completes; bytes past the budget are a framing error."""
        if self.finished:
            return ()
        accepted = data[: self._left]
        self._left -= len(accepted)
        self.received += len(accepted)
        self._buffer += accepted
        events = self._advance()
        if not self.finished and self._left == 0:
            events.append(self._fail(f"the answer is longer than {self._max_bytes} bytes"))
        return tuple(events)

    def feed_eof(self) -> tuple[Event | FramingError, ...]:
        """The events that the end of the stream completes (an early end is a framing error)."""
        if self.finished:
            return ()
        self._eof = True
        return tuple(self._advance())

    def _fail(self, detail: str) -> FramingError:
        self._state = _State.DONE
        self._buffer.clear()
        return FramingError(detail)

    def _advance(self) -> list[Event | FramingError]:
        """Every event the buffered bytes (and the end of the stream, if seen) complete."""
        events: list[Event | FramingError] = []
        try:
            while not self.finished and self._step(events):
                pass
        except _Framing as failed:
            events.append(self._fail(str(failed)))
        return events

    def _step(self, events: list[Event | FramingError]) -> bool:
        """One step of the state machine; False when it waits for more bytes."""
        state = self._state
        if state is _State.PREFIX:
            return self._prefix()
        if state is _State.STATUS:
            return self._status(events)
        if state is _State.HEADERS:
            return self._header(events)
        if state in (_State.LENGTH, _State.CHUNK_DATA):
            return self._sized(events)
        if state is _State.CHUNK_SIZE:
            return self._chunk_size(events)
        if state is _State.CHUNK_END:
            return self._chunk_end()
        return self._until_close(events)

    def _line(self) -> bytes | None:
        """One line through its LF, or None until it arrives; an endless line is an error."""
        end = self._buffer.find(b"\n", 0, MAX_LINE_BYTES + 1)
        if end < 0:
            if len(self._buffer) > MAX_LINE_BYTES:
                raise _Framing("the answer has an endless line")
            if self._eof:
                raise _Framing("the connection closed mid-answer")
            return None
        line = bytes(self._buffer[: end + 1])
        del self._buffer[: end + 1]
        return line

    def _prefix(self) -> bool:
        if len(self._buffer) < len(_HTTP_PREFIX) and not self._eof:
            return False
        if not self._buffer.startswith(_HTTP_PREFIX):
            raise _Framing("the answer is not HTTP")
        self._state = _State.STATUS
        return True

    def _status(self, events: list[Event | FramingError]) -> bool:
        line = self._line()
        if line is None:
            return False
        match = _STATUS_LINE.fullmatch(line)
        if match is None:
            raise _Framing("the answer has no HTTP/1.x status line")
        self._code = int(match.group(1).decode("ascii"))
        self._head_bytes = len(line)
        self._state = _State.HEADERS
        events.append(StatusLine(self._code))
        return True

    def _header(self, events: list[Event | FramingError]) -> bool:
        line = self._line()
        if line is None:
            return False
        self._head_bytes += len(line)
        if self._head_bytes > MAX_HEAD_BYTES or len(self._fields) > MAX_HEADERS:
            raise _Framing("the answer's headers are too long")
        text = line.decode("latin-1").rstrip("\r\n")
        if text:
            name, colon, value = text.partition(":")
            if not colon or not _HEADER_NAME.fullmatch(name):
                raise _Framing("the answer has a malformed header")
            self._fields.append((name.lower(), value.strip(" \t")))
            return True
        head = Headers(self._code, tuple(self._fields))
        events.append(head)
        self._start_body(head, events)
        return True

    def _start_body(self, head: Headers, events: list[Event | FramingError]) -> None:
        """Choose the body's decoding and framing, in the order their errors are reported."""
        content_type = _one(head, "content-type") or ""
        self._media = content_type.split(";", 1)[0].strip().lower()
        events.append(BodyStart(self._media))
        encoding, length = _one(head, "transfer-encoding"), _one(head, "content-length")
        if encoding is not None:
            if encoding.lower() != "chunked" or length is not None:
                raise _Framing("the answer's framing is not plain chunked")
            self._state = _State.CHUNK_SIZE
        elif length is not None:
            if not _DECIMAL.fullmatch(length):
                raise _Framing("the answer has a malformed Content-Length")
            self._body_left = int(length)
            if self._body_left > self._max_bytes:
                raise _Framing(f"the answer is longer than {self._max_bytes} bytes")
            self._state = _State.LENGTH
            if not self._body_left:
                self._end_body(events)
        else:
            self._state = _State.UNTIL_CLOSE

    def _sized(self, events: list[Event | FramingError]) -> bool:
        """Body bytes of a stated length (the whole body, or one chunk)."""
        if not self._buffer:
            if self._eof:
                raise _Framing("the connection closed mid-answer")
            return False
        piece = bytes(self._buffer[: self._body_left])
        del self._buffer[: len(piece)]
        self._body_left -= len(piece)
        self._deliver(piece, events)
        if not self._body_left:
            if self._state is _State.LENGTH:
                self._end_body(events)
            else:
                self._state = _State.CHUNK_END
        return True

    def _chunk_size(self, events: list[Event | FramingError]) -> bool:
        line = self._line()
        if line is None:
            return False
        size_text = line.split(b";", 1)[0].strip()
        if not _HEXADECIMAL.fullmatch(size_text):
            raise _Framing("the answer has a malformed chunk")
        self._body_left = int(size_text.decode("ascii"), 16)
        if self._body_left:
            self._state = _State.CHUNK_DATA
        else:
            self._end_body(events)
        return True

    def _chunk_end(self) -> bool:
        line = self._line()
        if line is None:
            return False
        if line.strip():
            raise _Framing("the answer has a malformed chunk")
        self._state = _State.CHUNK_SIZE
        return True

    def _until_close(self, events: list[Event | FramingError]) -> bool:
        if self._buffer:
            piece = bytes(self._buffer)
            self._buffer.clear()
            self._deliver(piece, events)
            return True
        if self._eof:
            self._end_body(events)
            return True
        return False

    def _deliver(self, piece: bytes, events: list[Event | FramingError]) -> None:
        """Body bytes, decoded as the media type says."""
        if self._media == _JSON:
            self._json += piece
        elif self._media == _EVENT_STREAM:
            events.extend(ServerEvent(kind, data) for kind, data in self._events.feed(piece))
        else:
            events.append(BodyChunk(piece))

    def _end_body(self, events: list[Event | FramingError]) -> None:
        if self._media == _JSON:
            events.append(JsonBody(bytes(self._json)))
            self._json.clear()
        events.append(EndOfMessage())
        self._state = _State.DONE
        self._buffer.clear()


def _one(head: Headers, name: str) -> str | None:
    """A header that may appear once; twice is an ambiguous answer."""
    values = head.values(name)
    if not values:
        return None
    if len(values) != 1:
        raise _Framing(f"the answer has {name} more than once")
    return values[0]
