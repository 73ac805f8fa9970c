"""The probe's whole conversation as a sans-I/O generator: steps out, replies in, a result last.

``conversation(url, token, target, deadline_s, now)`` yields ``Connect``, ``Send`` and
``Receive`` steps; a driver performs each one and sends back a ``Reply`` saying how it went and
when, on the driver's clock. The generator's return value is the ``ProbeResult``. Every rule of
the probe lives here, so the sync and the async drivers cannot disagree:

- one absolute deadline covers connecting, sending and reading: each step carries only what is
  left of it as its timeout, and a reply that comes after it is a timeout; ending an opened
  session gets what is left, and at least ``SESSION_END_GRACE_S``, so it is always attempted;
- the answer's framing and bounds are ``http_wire``'s;
- a redirect is an answer (``http_3xx``), never followed;
- only the endpoint's loopback address is connected to, and ``localhost`` is never looked up (it
  means ``127.0.0.1``, then ``::1``), so the token goes to nothing else; a driver answers a
  connection whose listener it could not prove to be the application's ``UNVERIFIED`` (closed,
  nothing sent), and ``localhost`` then tries ``::1`` under the same proof;
- the token never appears in a result, and it joins a request's bytes only in the driver's
  send (``OutgoingRequest.wire()``); a server-chosen string is made printable and shortened
  first, then shown as ``<hidden>`` whole when it holds ``ECHO_WINDOW_CHARS`` consecutive
  characters of the token (after casefold and NFKC), so no echo of it is ever shown;
- anything unexpected (a failure of a driver, or of this code) is the ``not_mcp`` outcome with a
  fixed detail, never an exception's text, and an opened session is still ended.
"""

from __future__ import annotations

import json
import re
from collections.abc import Generator
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from hermes_decl.runtime.bearer_token import ECHO_WINDOW_CHARS, BearerToken
from hermes_decl.runtime.http_request import OutgoingRequest
from hermes_decl.runtime.http_wire import (
    MAX_HEAD_BYTES,
    MAX_RESPONSE_BYTES,
    BodyStart,
    EndOfMessage,
    Event,
    FramingError,
    Headers,
    JsonBody,
    ResponseParser,
    ServerEvent,
)
from hermes_decl.runtime.probe_result import ProbeOutcome, ProbeResult

__all__ = [
    "CLIENT_NAME",
    "DEFAULT_DEADLINE_S",
    "ECHO_WINDOW_CHARS",
    "MAX_DEADLINE_S",
    "MAX_SESSION_ID_CHARS",
    "MAX_SHOWN_CHARS",
    "PROTOCOL_VERSION",
    "SESSION_END_GRACE_S",
    "UNEXPECTED_DETAIL",
    "UNVERIFIED_DETAIL",
    "Connect",
    "Conversation",
    "OutgoingRequest",
    "Receive",
    "Reply",
    "ReplyKind",
    "Send",
    "Step",
    "connect_addresses",
    "conversation",
    "end_session_request",
    "initialize_request",
]

DEFAULT_DEADLINE_S = 3.0
"""The one deadline for the whole probe, in seconds."""

MAX_DEADLINE_S = 600.0
"""A deadline longer than this many seconds (or not finite) is refused: no probe waits longer."""

SESSION_END_GRACE_S = 0.25
"""Ending an opened session gets at least this many seconds, even after the deadline."""

MAX_SESSION_ID_CHARS = 1024
"""A session id longer than this is not sent back."""

MAX_SHOWN_CHARS = 200
"""A server name or version longer than this is shortened before it is shown."""

PROTOCOL_VERSION = "2025-11-25"
"""The MCP protocol version the probe offers; the server answers with the one it speaks."""

CLIENT_NAME = "hermes-decl"
"""The ``clientInfo.name`` the probe gives."""

UNEXPECTED_DETAIL = "the probe failed unexpectedly"
"""The detail of a probe that something unforeseen ended (its text is never shown)."""

UNVERIFIED_DETAIL = "what listens there was not proven to be the application, so nothing was sent"
"""The detail of a probe whose listener was not proven (``unverified_listener``)."""

_REQUEST_ID = 1
_PROTOCOL_TOKEN = re.compile(r"[0-9A-Za-z._-]{1,64}")
_HIDDEN = "<hidden>"
_MEDIA_TYPES = ("application/json", "text/event-stream")


class ReplyKind(Enum):
    """How a driver's step went."""

    DONE = "done"
    """It was done (a read of no bytes is the end of the stream)."""
    TIMEOUT = "timeout"
    """It did not finish within the step's timeout."""
    FAILED = "failed"
    """The connection failed (refused, reset, no such address family)."""
    BROKEN = "broken"
    """Something unforeseen went wrong in the driver."""
    UNVERIFIED = "unverified"
    """It connected, but what listens there was not proven to be the application's, so the
    connection was closed before anything was sent."""


@dataclass(frozen=True)
class Connect:
    """Connect to ``address`` and ``port``, closing the connection open before, if any."""

    address: str
    port: int
    timeout: float


@dataclass(frozen=True)
class Send:
    """Send all of ``request`` on the open connection (its ``wire()`` bytes, built there)."""

    request: OutgoingRequest
    timeout: float


@dataclass(frozen=True)
class Receive:
    """Read once, at most ``size`` bytes, from the open connection."""

    size: int
    timeout: float


Step = Connect | Send | Receive
"""What the conversation asks its driver to do."""


@dataclass(frozen=True)
class Reply:
    """How a step went, ``now`` on the driver's monotonic clock, and the bytes a read gave."""

    now: float
    kind: ReplyKind
    data: bytes = b""


Conversation = Generator[Step, Reply, ProbeResult]
"""A probe in progress: send it a ``Reply`` for each ``Step``; it returns the result."""


class _Failed(Exception):
    """Ends the initialize exchange early with an outcome (never leaves this module)."""

    def __init__(self, outcome: ProbeOutcome, detail: str, status: int | None = None) -> None:
        super().__init__(detail)
        self.outcome, self.detail, self.status = outcome, detail, status


def connect_addresses(host: str) -> tuple[str, ...]:
    """The addresses to try, in order, for a loopback host (``localhost`` is not looked up)."""
    return ("127.0.0.1", "::1") if host == "localhost" else (host,)


def _request(
    method: str,
    target: tuple[str, int, str],
    headers: dict[str, str],
    token: BearerToken | None,
    body: bytes = b"",
) -> OutgoingRequest:
    """An HTTP/1.1 request; every header value was checked to be visible ASCII."""
    host, port, path = target
    netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    lines = [f"{method} {path} HTTP/1.1", f"Host: {netloc}", f"User-Agent: {CLIENT_NAME}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return OutgoingRequest("".join(f"{line}\r\n" for line in lines).encode("ascii"), token, body)


def initialize_request(
    target: tuple[str, int, str], token: BearerToken | None, client_version: str
) -> OutgoingRequest:
    """The whole ``initialize`` POST: head, token and JSON-RPC body."""
    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": _REQUEST_ID,
            "method": "initialize",
            "params": {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": CLIENT_NAME, "version": client_version},
            },
        },
        separators=(",", ":"),
    ).encode()
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Content-Length": str(len(body)),
        "Connection": "close",
    }
    return _request("POST", target, headers, token, body)


def end_session_request(
    target: tuple[str, int, str],
    session_id: str,
    protocol: str | None,
    token: BearerToken | None,
) -> OutgoingRequest:
    """The ``DELETE`` that ends a session, with the protocol version when it is a plain token."""
    headers = {"Mcp-Session-Id": session_id, "Content-Length": "0", "Connection": "close"}
    if protocol is not None and _PROTOCOL_TOKEN.fullmatch(protocol):
        headers["MCP-Protocol-Version"] = protocol
    return _request("DELETE", target, headers, token)


def conversation(
    url: str,
    token: BearerToken | None,
    target: tuple[str, int, str],
    deadline_s: float,
    now: float,
) -> Conversation:
    """A probe of the checked endpoint ``target``, started at ``now`` on the driver's clock."""
    return _Probe(url, token, target, deadline_s, now).run()


class _Probe:
    """The state one conversation keeps: its deadline, the answer's status and session."""

    def __init__(
        self,
        url: str,
        token: BearerToken | None,
        target: tuple[str, int, str],
        deadline_s: float,
        now: float,
    ) -> None:
        self._url, self._token, self._target = url, token, target
        self._seconds = deadline_s
        self._ends = now + deadline_s
        self._now = now
        self._status: int | None = None
        self._session_id: str | None = None

    def run(self) -> Conversation:
        """Initialize, read the answer, end any session opened, and say what was found."""
        protocol: str | None = None
        try:
            answer = yield from self._initialize()
            result, protocol = self._answering(answer)
        except _Failed as failed:
            result = self._failure(failed.outcome, failed.detail, failed.status)
        except Exception:
            result = self._failure(ProbeOutcome.NOT_MCP, UNEXPECTED_DETAIL, None)
        ended = yield from self._end_session(protocol)
        return replace(result, session_ended=ended)

    def _failure(self, outcome: ProbeOutcome, detail: str, status: int | None) -> ProbeResult:
        status = status if status is not None else self._status
        return ProbeResult(outcome, self._url, http_status=status, detail=detail)

    def _left(self) -> float:
        """Seconds left of the deadline; none left is a timeout."""
        remaining = self._ends - self._now
        if remaining <= 0:
            raise _Failed(ProbeOutcome.TIMEOUT, f"no answer within {self._seconds:g} seconds")
        return remaining

    def _connect(self) -> Generator[Step, Reply, None]:
        unverified = False
        for address in connect_addresses(self._target[0]):
            reply = yield Connect(address, self._target[1], self._left())
            self._now = reply.now
            if reply.kind is ReplyKind.DONE:
                return
            if reply.kind is ReplyKind.UNVERIFIED:
                unverified = True
                continue
            if reply.kind is ReplyKind.TIMEOUT and not unverified:
                raise _Failed(
                    ProbeOutcome.TIMEOUT, f"no connection within {self._seconds:g} seconds"
                )
            if reply.kind is ReplyKind.BROKEN:
                raise _Failed(ProbeOutcome.NOT_MCP, UNEXPECTED_DETAIL)
        if unverified:
            raise _Failed(ProbeOutcome.UNVERIFIED_LISTENER, UNVERIFIED_DETAIL)
        raise _Failed(ProbeOutcome.REFUSED, "the connection was refused")

    def _send(self, request: OutgoingRequest) -> Generator[Step, Reply, None]:
        reply = yield Send(request, self._left())
        self._now = reply.now
        if reply.kind is ReplyKind.TIMEOUT:
            raise _Failed(ProbeOutcome.TIMEOUT, "the request could not be sent in time")
        if reply.kind is ReplyKind.FAILED:
            raise _Failed(ProbeOutcome.REFUSED, "the connection closed before the request")
        if reply.kind is ReplyKind.BROKEN:
            raise _Failed(ProbeOutcome.NOT_MCP, UNEXPECTED_DETAIL)

    def _receive(
        self, parser: ResponseParser
    ) -> Generator[Step, Reply, tuple[Event | FramingError, ...]]:
        """The events one more read completes (a read of nothing is the end of the stream)."""
        reply = yield Receive(parser.read_size, self._left())
        self._now = reply.now
        if reply.kind is ReplyKind.TIMEOUT:
            raise _Failed(ProbeOutcome.TIMEOUT, f"no answer within {self._seconds:g} seconds")
        if reply.kind is ReplyKind.FAILED:
            if parser.received:
                raise _Failed(ProbeOutcome.NOT_MCP, "the connection broke mid-answer")
            raise _Failed(ProbeOutcome.REFUSED, "the connection was reset")
        if reply.kind is ReplyKind.BROKEN:
            raise _Failed(ProbeOutcome.NOT_MCP, UNEXPECTED_DETAIL)
        return parser.feed(reply.data) if reply.data else parser.feed_eof()

    def _initialize(self) -> Generator[Step, Reply, dict[str, Any]]:
        """Send ``initialize`` and read until its result arrives, as JSON or as events."""
        yield from self._connect()
        yield from self._send(initialize_request(self._target, self._token, _client_version()))
        parser = ResponseParser(MAX_RESPONSE_BYTES)
        while True:
            for event in (yield from self._receive(parser)):
                answer = self._on_event(event)
                if answer is not None:
                    return answer

    def _on_event(self, event: Event | FramingError) -> dict[str, Any] | None:
        """The ``initialize`` result when ``event`` brings it; a reason to stop is raised."""
        if isinstance(event, FramingError):
            raise _Failed(ProbeOutcome.NOT_MCP, event.detail)
        if isinstance(event, Headers):
            self._status, self._session_id = event.code, _session_id(event)
            if event.code in (401, 403):
                raise _Failed(
                    ProbeOutcome.UNAUTHORIZED,
                    f"it refused the token (HTTP {event.code})",
                    event.code,
                )
            if not 200 <= event.code < 300:
                raise _Failed(ProbeOutcome.HTTP_ERROR, f"it answered HTTP {event.code}", event.code)
        elif isinstance(event, BodyStart):
            if event.media_type not in _MEDIA_TYPES:
                raise _Failed(
                    ProbeOutcome.NOT_MCP, "the answer is neither JSON nor an event stream"
                )
        elif isinstance(event, JsonBody):
            answer = _answer(_parse_json(event.data))
            if answer is None:
                raise _Failed(ProbeOutcome.NOT_MCP, "the answer is not the initialize result")
            return answer
        elif isinstance(event, ServerEvent):
            if event.type == "message":
                return _answer(_parse_json(event.data.encode("utf-8")))
        elif isinstance(event, EndOfMessage):
            raise _Failed(ProbeOutcome.NOT_MCP, "the event stream ended without the answer")
        return None

    def _answering(self, answer: dict[str, Any]) -> tuple[ProbeResult, str]:
        """The result of an ``initialize`` answer, and the protocol version it chose."""
        protocol = answer.get("protocolVersion")
        info = answer.get("serverInfo")
        name = info.get("name") if isinstance(info, dict) else None
        if not isinstance(protocol, str) or not protocol or not isinstance(name, str):
            raise _Failed(
                ProbeOutcome.NOT_MCP,
                "the initialize result has no protocolVersion or serverInfo.name",
            )
        assert isinstance(info, dict)
        result = ProbeResult(
            ProbeOutcome.ANSWERING,
            self._url,
            http_status=self._status,
            server_name=_shown(name, self._token),
            server_version=_shown(info.get("version"), self._token),
            protocol_version=_shown(protocol, self._token),
        )
        return result, protocol

    def _end_session(self, protocol: str | None) -> Generator[Step, Reply, bool | None]:
        """End the session a successful answer opened: whether the server accepted (2xx)."""
        session_id, status = self._session_id, self._status
        if session_id is None or status is None or not 200 <= status < 300:
            return None
        self._ends = max(self._ends, self._now + SESSION_END_GRACE_S)
        request = end_session_request(self._target, session_id, protocol, self._token)
        try:
            yield from self._connect()
            yield from self._send(request)
            parser = ResponseParser(MAX_HEAD_BYTES)
            while True:
                for event in (yield from self._receive(parser)):
                    if isinstance(event, FramingError):
                        return False
                    if isinstance(event, Headers):
                        return 200 <= event.code < 300
        except Exception:
            return False


def _session_id(head: Headers) -> str | None:
    """The ``Mcp-Session-Id`` the server gave, when it is one that may be sent back."""
    values = head.values("mcp-session-id")
    if len(values) != 1:
        return None
    value = values[0]
    if not value or len(value) > MAX_SESSION_ID_CHARS:
        return None
    return value if all("\x21" <= char <= "\x7e" for char in value) else None


def _shown(value: object, token: BearerToken | None) -> str | None:
    """A server-given string fit to show: printable, shortened, then ``<hidden>`` whole when
    what a person would read holds ``ECHO_WINDOW_CHARS`` of the token; else None."""
    if not isinstance(value, str):
        return None
    head = value[: MAX_SHOWN_CHARS + 1]
    printable = "".join(char if char.isprintable() else "?" for char in head)
    if len(printable) > MAX_SHOWN_CHARS:
        printable = printable[: MAX_SHOWN_CHARS - 1] + "…"
    if token is not None:
        squeezed = "".join(char for char in head if char.isprintable())
        if token.echoed_in(printable) or token.echoed_in(squeezed):
            return _HIDDEN
    return printable


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


def _client_version() -> str:
    from hermes_decl import __version__

    return __version__
