"""Ask a running application's MCP endpoint whether it answers: one Streamable HTTP ``initialize``.

``probe(endpoint)`` POSTs a JSON-RPC ``initialize`` to the endpoint ``read_endpoint`` found, with
the token as ``Authorization: Bearer`` and ``Accept: application/json, text/event-stream``; reads
the answer as JSON or as a server-sent event stream (stopping at the answer, never waiting for the
stream to end); and, when the server gave an ``Mcp-Session-Id``, ends that session with a
``DELETE`` carrying it, as the transport specifies. Availability (SPEC 8) never calls it.

It is a small HTTP/1.1 client on a plain socket, written for its bounds:

- one absolute deadline (``DEFAULT_DEADLINE_S``) covers connecting, sending, reading and ending
  the session together: every socket wait gets only what is left of it, so a server that sends
  one byte a second cannot stretch it;
- at most ``MAX_RESPONSE_BYTES`` are read, counted on the wire before any parsing;
- a redirect is an answer (``http_3xx``), never followed;
- it connects only to the loopback host and port of the endpoint, checked again here, and
  ``localhost`` is never looked up (it means ``127.0.0.1``, then ``::1``), so the token goes to
  nothing else;
- the token never appears in a result, message, log record or exception, and a server name that
  repeats it is shown with ``<hidden>`` in its place.

The outcome is ``answering`` (with the server's name, version and protocol version), or why not:
``refused``, ``timeout``, ``http_<code>``, ``not_mcp`` or ``unauthorized`` (HTTP 401 or 403).
"""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from hermes_decl._logging import get_logger
from hermes_decl.resolver.liveness import Endpoint, endpoint_target, usable_token

__all__ = [
    "DEFAULT_DEADLINE_S",
    "MAX_RESPONSE_BYTES",
    "PROTOCOL_VERSION",
    "ProbeOutcome",
    "ProbeResult",
    "probe",
]

logger = get_logger(__name__)

DEFAULT_DEADLINE_S = 3.0
"""The one deadline for the whole probe, in seconds."""

MAX_RESPONSE_BYTES = 1 << 20
"""At most this many bytes of the answer are read (status line, headers and body)."""

MAX_HEAD_BYTES = 32 * 1024
"""The status line and headers together may not be longer than this."""

MAX_HEADERS = 100
"""An answer with more header lines than this is not believed."""

MAX_LINE_BYTES = 8 * 1024
"""A header, chunk-size or event-stream line longer than this is not believed."""

MAX_SESSION_ID_CHARS = 1024
"""A session id longer than this is not sent back."""

MAX_SHOWN_CHARS = 200
"""A server name or version longer than this is shortened before it is shown."""

PROTOCOL_VERSION = "2025-11-25"
"""The MCP protocol version the probe offers; the server answers with the one it speaks."""

CLIENT_NAME = "hermes-decl"
"""The ``clientInfo.name`` the probe gives."""

_REQUEST_ID = 1
_RECV_BYTES = 64 * 1024
_STATUS_LINE = re.compile(rb"HTTP/1\.[01] ([0-9]{3})(?: [^\r\n]*)?\r?\n?")
_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_PROTOCOL_TOKEN = re.compile(r"[0-9A-Za-z._-]{1,64}")
_HIDDEN = "<hidden>"


class ProbeOutcome(str, Enum):
    """How an endpoint answered ``initialize`` (a ``str``, so ``outcome == "answering"``)."""

    ANSWERING = "answering"
    """It answered as an MCP server."""
    REFUSED = "refused"
    """Nothing accepted the connection (or it was reset before any answer)."""
    TIMEOUT = "timeout"
    """No complete answer before the deadline."""
    HTTP_ERROR = "http_error"
    """It answered with an HTTP status other than success (a redirect included)."""
    NOT_MCP = "not_mcp"
    """It answered, but not as an MCP server (wrong protocol, malformed, too large, an error)."""
    UNAUTHORIZED = "unauthorized"
    """It refused the token (HTTP 401 or 403)."""

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ProbeResult:
    """What one probe found; never holds the token."""

    outcome: ProbeOutcome
    url: str
    """The endpoint URL probed."""
    http_status: int | None = None
    """The HTTP status of the ``initialize`` answer, when one came."""
    server_name: str | None = None
    """``serverInfo.name`` of an answering server (printable, shortened)."""
    server_version: str | None = None
    """``serverInfo.version`` of an answering server (printable, shortened)."""
    protocol_version: str | None = None
    """The protocol version the server chose."""
    session_ended: bool | None = None
    """Whether a ``DELETE`` ended the session the server opened; None when it opened none."""
    detail: str = ""
    """A sentence fragment on why it is not answering; empty when it is."""

    @property
    def answering(self) -> bool:
        """Whether the endpoint answered ``initialize`` as an MCP server."""
        return self.outcome is ProbeOutcome.ANSWERING

    @property
    def reason(self) -> str:
        """``answering``, ``refused``, ``timeout``, ``http_<code>``, ``not_mcp`` or
        ``unauthorized``."""
        if self.outcome is ProbeOutcome.HTTP_ERROR and self.http_status is not None:
            return f"http_{self.http_status}"
        return self.outcome.value


class _Failed(Exception):
    """Ends a probe early with an outcome (never leaves this module)."""

    def __init__(self, outcome: ProbeOutcome, detail: str, status: int | None = None) -> None:
        super().__init__(detail)
        self.outcome, self.detail, self.status = outcome, detail, status


class _Clock:
    """The one absolute deadline."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def left(self) -> float:
        """Seconds left; the probe times out when none are."""
        remaining = self._end - time.monotonic()
        if remaining <= 0:
            raise _Failed(ProbeOutcome.TIMEOUT, f"no answer within {self.seconds:g} seconds")
        return remaining


class _Wire:
    """A connected socket read under the deadline and a byte budget."""

    def __init__(self, sock: socket.socket, clock: _Clock, budget: int) -> None:
        self._sock, self._clock, self._left = sock, clock, budget
        self._buffer = bytearray()
        self._eof = False
        self.received = 0

    def send(self, data: bytes) -> None:
        self._sock.settimeout(self._clock.left())
        try:
            self._sock.sendall(data)
        except TimeoutError:
            raise _Failed(ProbeOutcome.TIMEOUT, "the request could not be sent in time") from None
        except OSError:
            raise _Failed(
                ProbeOutcome.REFUSED, "the connection closed before the request"
            ) from None

    def _fill(self) -> None:
        """Read once more into the buffer (or note the end of the stream)."""
        if self._left <= 0:
            raise _Failed(
                ProbeOutcome.NOT_MCP, f"the answer is longer than {MAX_RESPONSE_BYTES} bytes"
            )
        self._sock.settimeout(self._clock.left())
        try:
            data = self._sock.recv(min(_RECV_BYTES, self._left))
        except TimeoutError:
            raise _Failed(
                ProbeOutcome.TIMEOUT, f"no answer within {self._clock.seconds:g} seconds"
            ) from None
        except OSError:
            if self.received:
                raise _Failed(ProbeOutcome.NOT_MCP, "the connection broke mid-answer") from None
            raise _Failed(ProbeOutcome.REFUSED, "the connection was reset") from None
        if not data:
            self._eof = True
        self._left -= len(data)
        self.received += len(data)
        self._buffer += data

    def line(self) -> bytes:
        """One line, through its ``\\n``; the end of the stream here is an error."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[: end + 1])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > MAX_LINE_BYTES:
                raise _Failed(ProbeOutcome.NOT_MCP, "the answer has an endless line")
            if self._eof:
                raise _Failed(ProbeOutcome.NOT_MCP, "the connection closed mid-answer")
            self._fill()

    def peek(self, size: int) -> bytes:
        """At least ``size`` buffered bytes (fewer only at the end of the stream), not consumed."""
        while len(self._buffer) < size and not self._eof:
            self._fill()
        return bytes(self._buffer[:size])

    def some(self, most: int | None = None) -> bytes:
        """What is buffered, or what one read brings, up to ``most`` bytes; empty at the end."""
        if not self._buffer and not self._eof:
            self._fill()
        take = len(self._buffer) if most is None else min(most, len(self._buffer))
        piece = bytes(self._buffer[:take])
        del self._buffer[:take]
        return piece


def _connect(host: str, port: int, clock: _Clock) -> socket.socket:
    """A socket connected to the loopback ``host`` and ``port`` (``localhost`` is not looked up)."""
    addresses = ("127.0.0.1", "::1") if host == "localhost" else (host,)
    for address in addresses:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        try:
            sock = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 on this machine
        try:
            sock.settimeout(clock.left())
            sock.connect((address, port))
            return sock
        except TimeoutError:
            sock.close()
            raise _Failed(
                ProbeOutcome.TIMEOUT, f"no connection within {clock.seconds:g} seconds"
            ) from None
        except OSError:
            sock.close()
        except BaseException:
            sock.close()
            raise
    raise _Failed(ProbeOutcome.REFUSED, "the connection was refused")


def _request(method: str, host: str, port: int, path: str, headers: dict[str, str]) -> bytes:
    """An HTTP/1.1 request head; every value was checked to be visible ASCII."""
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    lines = [f"{method} {path} HTTP/1.1", f"Host: {netloc}", f"User-Agent: {CLIENT_NAME}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


def _read_head(wire: _Wire) -> tuple[int, dict[str, list[str]]]:
    """The status code and headers (names lower-cased) of an HTTP/1.1 answer."""
    if wire.peek(5) != b"HTTP/":
        raise _Failed(ProbeOutcome.NOT_MCP, "the answer is not HTTP")
    status_line = wire.line()
    match = _STATUS_LINE.fullmatch(status_line)
    if match is None:
        raise _Failed(ProbeOutcome.NOT_MCP, "the answer has no HTTP/1.x status line")
    headers: dict[str, list[str]] = {}
    size, count = len(status_line), 0
    while True:
        line = wire.line()
        size += len(line)
        if size > MAX_HEAD_BYTES or count > MAX_HEADERS:
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer's headers are too long")
        text = line.decode("latin-1").rstrip("\r\n")
        if not text:
            return int(match.group(1)), headers
        name, colon, value = text.partition(":")
        if not colon or not _HEADER_NAME.fullmatch(name):
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer has a malformed header")
        headers.setdefault(name.lower(), []).append(value.strip(" \t"))
        count += 1


def _one(headers: dict[str, list[str]], name: str) -> str | None:
    """A header that may appear once; twice is an ambiguous answer."""
    values = headers.get(name)
    if values is None:
        return None
    if len(values) != 1:
        raise _Failed(ProbeOutcome.NOT_MCP, f"the answer has {name} more than once")
    return values[0]


def _body(wire: _Wire, headers: dict[str, list[str]]) -> Iterator[bytes]:
    """The answer's body in pieces as they arrive: chunked, of a stated length, or to the end."""
    encoding, length = _one(headers, "transfer-encoding"), _one(headers, "content-length")
    if encoding is not None:
        if encoding.lower() != "chunked" or length is not None:
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer's framing is not plain chunked")
        yield from _chunks(wire)
    elif length is not None:
        if not length.isdigit() or len(length) > 12:
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer has a malformed Content-Length")
        left = int(length)
        if left > MAX_RESPONSE_BYTES:
            raise _Failed(
                ProbeOutcome.NOT_MCP, f"the answer is longer than {MAX_RESPONSE_BYTES} bytes"
            )
        yield from _exactly(wire, left)
    else:
        while piece := wire.some():
            yield piece


def _exactly(wire: _Wire, size: int) -> Iterator[bytes]:
    """``size`` bytes of the body, in pieces as they arrive; the end of the stream is an error."""
    while size:
        piece = wire.some(size)
        if not piece:
            raise _Failed(ProbeOutcome.NOT_MCP, "the connection closed mid-answer")
        size -= len(piece)
        yield piece


def _chunks(wire: _Wire) -> Iterator[bytes]:
    """A chunked body's data; the trailers after the last chunk are not read."""
    while True:
        size_text = wire.line().split(b";", 1)[0].strip()
        if (
            not size_text
            or len(size_text) > 8
            or not all(c in b"0123456789abcdefABCDEF" for c in size_text)
        ):
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer has a malformed chunk")
        size = int(size_text, 16)
        if size == 0:
            return
        yield from _exactly(wire, size)
        if wire.line().strip():
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer has a malformed chunk")


class _EventStream:
    """An incremental ``text/event-stream`` parser that yields each event's type and data."""

    def __init__(self) -> None:
        self._pending = bytearray()
        self._event = ""
        self._data: list[str] = []

    def feed(self, data: bytes) -> Iterator[tuple[str, str]]:
        self._pending += data
        while True:
            line = self._take_line()
            if line is None:
                return
            if not line:
                if self._data:
                    yield self._event or "message", "\n".join(self._data)
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

    def _take_line(self) -> str | None:
        """One complete line (CRLF, LF or CR ended), or None until more arrives.

        A line may be as long as the answer (a ``data:`` line holds a whole JSON message); the
        byte budget of the answer bounds it.
        """
        ends = [
            index for index in (self._pending.find(b"\r"), self._pending.find(b"\n")) if index >= 0
        ]
        if not ends:
            return None
        index = min(ends)
        if self._pending[index] == 0x0D and index + 1 == len(self._pending):
            return None  # a CR that may be the first half of a CRLF
        end = index + 2 if self._pending[index : index + 2] == b"\r\n" else index + 1
        line = bytes(self._pending[:index])
        del self._pending[:end]
        return line.decode("utf-8", "replace")


def _shown(value: object, token: str | None) -> str | None:
    """A server-given string fit to show: the token hidden, printable, shortened; else None."""
    if not isinstance(value, str):
        return None
    if token:
        value = value.replace(token, _HIDDEN)
    value = "".join(char if char.isprintable() else "?" for char in value[: MAX_SHOWN_CHARS + 1])
    return value if len(value) <= MAX_SHOWN_CHARS else value[: MAX_SHOWN_CHARS - 1] + "…"


def _answer(message: Any) -> dict[str, Any] | None:
    """The ``initialize`` result in a JSON-RPC message, None when the message is another one."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise _Failed(ProbeOutcome.NOT_MCP, "the answer is not a JSON-RPC 2.0 message")
    request_id = message.get("id")
    if "method" in message or isinstance(request_id, bool) or request_id != _REQUEST_ID:
        return None  # a notification or request of the server's own, before the answer
    if "error" in message:
        error = message["error"]
        code = error.get("code") if isinstance(error, dict) else None
        number = f" {code}" if isinstance(code, int) and not isinstance(code, bool) else ""
        raise _Failed(
            ProbeOutcome.NOT_MCP, f"the server refused initialize (JSON-RPC error{number})"
        )
    result = message.get("result")
    if not isinstance(result, dict):
        raise _Failed(ProbeOutcome.NOT_MCP, "the answer has no initialize result")
    return result


def _parse_json(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise _Failed(ProbeOutcome.NOT_MCP, "the answer is not valid JSON") from None


def _initialize_result(wire: _Wire, headers: dict[str, list[str]]) -> dict[str, Any]:
    """Read the body until the ``initialize`` result arrives, as JSON or as events."""
    content_type = (_one(headers, "content-type") or "").split(";", 1)[0].strip().lower()
    if content_type == "application/json":
        result = _answer(_parse_json(b"".join(_body(wire, headers))))
        if result is None:
            raise _Failed(ProbeOutcome.NOT_MCP, "the answer is not the initialize result")
        return result
    if content_type == "text/event-stream":
        stream = _EventStream()
        for piece in _body(wire, headers):
            for event, data in stream.feed(piece):
                if event == "message":
                    result = _answer(_parse_json(data.encode("utf-8")))
                    if result is not None:
                        return result
        raise _Failed(ProbeOutcome.NOT_MCP, "the event stream ended without the answer")
    raise _Failed(ProbeOutcome.NOT_MCP, "the answer is neither JSON nor an event stream")


def _end_session(target: tuple[str, int, str], headers: dict[str, str], clock: _Clock) -> bool:
    """Send the ``DELETE`` that ends a session; whether the server accepted it (2xx)."""
    host, port, path = target
    try:
        sock = _connect(host, port, clock)
        try:
            wire = _Wire(sock, clock, MAX_HEAD_BYTES)
            wire.send(_request("DELETE", host, port, path, headers))
            status, _headers = _read_head(wire)
        finally:
            sock.close()
    except _Failed:
        return False
    return 200 <= status < 300


def probe(endpoint: Endpoint, *, deadline: float = DEFAULT_DEADLINE_S) -> ProbeResult:
    """Send MCP ``initialize`` to a loopback endpoint and say how it answered.

    Never raises because of what the server does; a ``ValueError`` (which never shows the token)
    means the endpoint itself is not one ``read_endpoint`` could have given, or the deadline is
    not a positive number of seconds.
    """
    target = endpoint_target(endpoint.url)
    if target is None:
        raise ValueError(
            "the endpoint URL is not plain http to 127.0.0.1, localhost or [::1] "
            "with a numeric port and a plain path"
        )
    if not usable_token(endpoint.token):
        raise ValueError("the endpoint's token is not a string of visible ASCII characters")
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not deadline > 0:
        raise ValueError(f"the deadline must be a positive number of seconds (got {deadline!r})")
    result = _probe(endpoint, target, _Clock(float(deadline)))
    logger.debug(
        "probe %s: %s%s",
        endpoint.url,
        result.reason,
        f" ({result.detail})" if result.detail else "",
    )
    return result


def _probe(endpoint: Endpoint, target: tuple[str, int, str], clock: _Clock) -> ProbeResult:
    """``probe`` after its arguments were checked."""
    host, port, path = target
    auth = {} if endpoint.token is None else {"Authorization": f"Bearer {endpoint.token}"}
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": _REQUEST_ID,
            "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": CLIENT_NAME, "version": _client_version()},
            },
        },
        separators=(",", ":"),
    ).encode()
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(len(body)),
        "Connection": "close",
        **auth,
    }
    status: int | None = None
    session_id: str | None = None
    try:
        sock = _connect(host, port, clock)
        try:
            wire = _Wire(sock, clock, MAX_RESPONSE_BYTES)
            wire.send(_request("POST", host, port, path, headers) + body)
            status, answer_headers = _read_head(wire)
            session_id = _session_id(answer_headers)
            if status in (401, 403):
                raise _Failed(
                    ProbeOutcome.UNAUTHORIZED, f"it refused the token (HTTP {status})", status
                )
            if not 200 <= status < 300:
                raise _Failed(ProbeOutcome.HTTP_ERROR, f"it answered HTTP {status}", status)
            result = _initialize_result(wire, answer_headers)
        finally:
            sock.close()
    except _Failed as failed:
        ended = _close_session(target, session_id, None, auth, clock, status)
        return ProbeResult(
            failed.outcome,
            endpoint.url,
            http_status=failed.status if failed.status is not None else status,
            session_ended=ended,
            detail=failed.detail,
        )
    protocol = result.get("protocolVersion")
    info = result.get("serverInfo")
    name = info.get("name") if isinstance(info, dict) else None
    if not isinstance(protocol, str) or not protocol or not isinstance(name, str):
        ended = _close_session(target, session_id, None, auth, clock, status)
        return ProbeResult(
            ProbeOutcome.NOT_MCP,
            endpoint.url,
            http_status=status,
            session_ended=ended,
            detail="the initialize result has no protocolVersion or serverInfo.name",
        )
    ended = _close_session(target, session_id, protocol, auth, clock, status)
    return ProbeResult(
        ProbeOutcome.ANSWERING,
        endpoint.url,
        http_status=status,
        server_name=_shown(name, endpoint.token),
        server_version=_shown(info.get("version"), endpoint.token)
        if isinstance(info, dict)
        else None,
        protocol_version=_shown(protocol, endpoint.token),
        session_ended=ended,
    )


def _session_id(headers: dict[str, list[str]]) -> str | None:
    """The ``Mcp-Session-Id`` the server gave, when it is one that may be sent back."""
    values = headers.get("mcp-session-id")
    if values is None or len(values) != 1:
        return None
    value = values[0]
    if not value or len(value) > MAX_SESSION_ID_CHARS:
        return None
    return value if all("\x21" <= char <= "\x7e" for char in value) else None


def _close_session(
    target: tuple[str, int, str],
    session_id: str | None,
    protocol: str | None,
    auth: dict[str, str],
    clock: _Clock,
    status: int | None,
) -> bool | None:
    """End the session a successful answer opened; None when it opened none."""
    if session_id is None or status is None or not 200 <= status < 300:
        return None
    headers = {"Mcp-Session-Id": session_id, "Content-Length": "0", "Connection": "close"}
    if protocol is not None and _PROTOCOL_TOKEN.fullmatch(protocol):
        headers["MCP-Protocol-Version"] = protocol
    return _end_session(target, {**headers, **auth}, clock)


def _client_version() -> str:
    from hermes_decl import __version__

    return __version__
