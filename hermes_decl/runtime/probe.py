"""Ask a running application's MCP endpoint whether it answers: one Streamable HTTP ``initialize``.

``probe(endpoint)`` POSTs a JSON-RPC ``initialize`` to the endpoint ``read_endpoint`` found, with
the token as ``Authorization: Bearer`` and ``Accept: application/json, text/event-stream``; reads
the answer as JSON or as a server-sent event stream (stopping at the answer, never waiting for the
stream to end); and, when the server gave an ``Mcp-Session-Id``, ends that session with a
``DELETE`` carrying it, as the transport specifies. Availability (SPEC 8) never calls it.
``aprobe`` does the same on asyncio streams, in the caller's event loop.

Both are drivers of one sans-I/O protocol: ``probe_flow`` holds the conversation and its rules,
``http_wire`` the HTTP/1.1 framing and its bounds; a driver only performs the socket steps they
ask for, each under the timeout they give. So, for both:

- one absolute deadline (``DEFAULT_DEADLINE_S``; a finite number of seconds, at most
  ``MAX_DEADLINE_S``, else a ``ValueError``) covers connecting, sending and reading: every
  socket wait gets only what is left of it, so a server that sends one byte a second cannot
  stretch it; ending an opened session gets what is left, and at least ``SESSION_END_GRACE_S``;
- at most ``MAX_RESPONSE_BYTES`` are read, counted on the wire before any parsing, and every
  number on the wire is read with an ASCII-only grammar;
- a redirect is an answer (``http_3xx``), never followed;
- it connects only to the loopback host and port of the endpoint, checked again here, and
  ``localhost`` is never looked up (it means ``127.0.0.1``, then ``::1``), so the token goes to
  nothing else; and it sends nothing until what listens there is proven to be this user's
  application (``runtime.listener``), so no other user's listener ever sees the token;
- the token never appears in a result, message, log record or exception, nor in a local of any
  frame of the probe's: it stays a ``BearerToken`` until the send writes ``wire()``'s bytes;
  a server name, version or protocol version that holds ``ECHO_WINDOW_CHARS`` characters of it
  (after casefold and NFKC, on what would be shown) is shown as ``<hidden>`` whole.

The outcome is ``answering`` (with the server's name, version and protocol version), or why not:
``refused``, ``timeout``, ``http_<code>``, ``not_mcp``, ``unauthorized`` (HTTP 401 or 403) or
``unverified_listener``.
Anything unforeseen is ``not_mcp``, never an exception.
"""

from __future__ import annotations

import socket
import time

from hermes_decl.hosts.default import default_host
from hermes_decl.runtime.aprobe import aprobe
from hermes_decl.runtime.http_wire import (
    MAX_HEAD_BYTES,
    MAX_HEADERS,
    MAX_LINE_BYTES,
    MAX_RESPONSE_BYTES,
)
from hermes_decl.runtime.listener import ListenerCheck, ListenerHost, listener_check
from hermes_decl.runtime.liveness import Endpoint
from hermes_decl.runtime.probe_driving import checked_target, logged, unexpected
from hermes_decl.runtime.probe_driving import logger as logger
from hermes_decl.runtime.probe_flow import (
    CLIENT_NAME,
    DEFAULT_DEADLINE_S,
    ECHO_WINDOW_CHARS,
    MAX_DEADLINE_S,
    MAX_SESSION_ID_CHARS,
    MAX_SHOWN_CHARS,
    PROTOCOL_VERSION,
    SESSION_END_GRACE_S,
    Connect,
    Conversation,
    Receive,
    Reply,
    ReplyKind,
    Send,
    Step,
    conversation,
)
from hermes_decl.runtime.probe_result import ProbeOutcome, ProbeResult

__all__ = [
    "CLIENT_NAME",
    "DEFAULT_DEADLINE_S",
    "ECHO_WINDOW_CHARS",
    "MAX_DEADLINE_S",
    "MAX_HEADERS",
    "MAX_HEAD_BYTES",
    "MAX_LINE_BYTES",
    "MAX_RESPONSE_BYTES",
    "MAX_SESSION_ID_CHARS",
    "MAX_SHOWN_CHARS",
    "PROTOCOL_VERSION",
    "SESSION_END_GRACE_S",
    "ProbeOutcome",
    "ProbeResult",
    "aprobe",
    "probe",
]


def probe(
    endpoint: Endpoint, *, deadline: float = DEFAULT_DEADLINE_S, host: ListenerHost | None = None
) -> ProbeResult:
    """Send MCP ``initialize`` to a loopback endpoint and say how it answered.

    Once connected, and before anything is sent, what listens there must be proven through
    ``host`` (the live machine by default) to be this user's, and the endpoint's process or a
    descendant (``runtime.listener``); else the outcome is ``unverified_listener``. Never raises
    because of what the server does; a ``ValueError`` (which never shows the token) means the
    endpoint itself is not one ``read_endpoint`` could have given, or the deadline is not a
    positive, finite number of seconds of at most ``MAX_DEADLINE_S``.
    """
    target = checked_target(endpoint, deadline)
    proven = listener_check(host if host is not None else default_host(), endpoint.pid)
    steps = conversation(endpoint.url, endpoint.token, target, float(deadline), time.monotonic())
    try:
        result = _drive(steps, proven)
    except Exception:
        result = unexpected(endpoint)
    return logged(result)


def _drive(steps: Conversation, proven: ListenerCheck) -> ProbeResult:
    """Perform each step of the conversation on a blocking socket until it gives its result."""
    connection: socket.socket | None = None
    try:
        step: Step = next(steps)
        while True:
            if isinstance(step, Connect):
                if connection is not None:
                    connection.close()
                connection, reply = _connect(step, proven)
            elif connection is None:
                reply = Reply(time.monotonic(), ReplyKind.BROKEN)
            else:
                reply = _perform(connection, step)
            step = steps.send(reply)
    except StopIteration as finished:
        result: ProbeResult = finished.value
        return result
    finally:
        if connection is not None:
            connection.close()
        steps.close()


def _connect(step: Connect, proven: ListenerCheck) -> tuple[socket.socket | None, Reply]:
    """A socket connected as ``step`` asks, its listener proven, or None and why not."""
    family = socket.AF_INET6 if ":" in step.address else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError:
        return None, Reply(time.monotonic(), ReplyKind.FAILED)  # no IPv6 on this machine
    try:
        sock.settimeout(step.timeout)
        sock.connect((step.address, step.port))
    except TimeoutError:
        kind = ReplyKind.TIMEOUT
    except OSError:
        kind = ReplyKind.FAILED
    except Exception:
        kind = ReplyKind.BROKEN
    except BaseException:
        sock.close()
        raise
    else:
        try:
            kind = ReplyKind.DONE if proven(step.address, step.port) else ReplyKind.UNVERIFIED
        except Exception:
            kind = ReplyKind.BROKEN
        except BaseException:
            sock.close()
            raise
        if kind is ReplyKind.DONE:
            return sock, Reply(time.monotonic(), kind)
    sock.close()
    return None, Reply(time.monotonic(), kind)


def _perform(connection: socket.socket, step: Send | Receive) -> Reply:
    """Send or receive on ``connection`` under the step's timeout."""
    data = b""
    try:
        connection.settimeout(step.timeout)
        if isinstance(step, Send):
            connection.sendall(step.request.wire())
        else:
            data = connection.recv(step.size)
    except TimeoutError:
        return Reply(time.monotonic(), ReplyKind.TIMEOUT)
    except OSError:
        return Reply(time.monotonic(), ReplyKind.FAILED)
    except Exception:
        return Reply(time.monotonic(), ReplyKind.BROKEN)
    return Reply(time.monotonic(), ReplyKind.DONE, data)
