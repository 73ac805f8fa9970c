"""The probe on asyncio streams: ``aprobe(endpoint)``, in the caller's event loop, no thread.

It drives the same sans-I/O conversation as ``probe`` (``probe_flow``, with ``http_wire``'s
framing), so its deadline, bounds, loopback rule and results are the same: it only opens, writes
and reads the streams the conversation asks for, each under the timeout it gives.
"""

from __future__ import annotations

import asyncio
import time

from hermes_decl.hosts.default import default_host
from hermes_decl.runtime.listener import ListenerCheck, ListenerHost, listener_check
from hermes_decl.runtime.liveness import Endpoint
from hermes_decl.runtime.probe_driving import checked_target, logged, unexpected
from hermes_decl.runtime.probe_flow import (
    DEFAULT_DEADLINE_S,
    Connect,
    Conversation,
    Receive,
    Reply,
    ReplyKind,
    Send,
    Step,
    conversation,
)
from hermes_decl.runtime.probe_result import ProbeResult

__all__ = ["aprobe"]

_Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def aprobe(
    endpoint: Endpoint, *, deadline: float = DEFAULT_DEADLINE_S, host: ListenerHost | None = None
) -> ProbeResult:
    """Send MCP ``initialize`` to a loopback endpoint and say how it answered, asynchronously.

    The listener is proven through ``host`` before anything is sent, as ``probe`` proves it (the
    host is read synchronously). Never raises because of what the server does; a ``ValueError``
    (which never shows the token) means the endpoint itself is not one ``read_endpoint`` could
    have given, or the deadline is not a positive, finite number of seconds of at most
    ``MAX_DEADLINE_S``. Cancelling it cancels the probe.
    """
    target = checked_target(endpoint, deadline)
    proven = listener_check(host if host is not None else default_host(), endpoint.pid)
    steps = conversation(endpoint.url, endpoint.token, target, float(deadline), time.monotonic())
    try:
        result = await _drive(steps, proven)
    except Exception:
        result = unexpected(endpoint)
    return logged(result)


async def _drive(steps: Conversation, proven: ListenerCheck) -> ProbeResult:
    """Perform each step of the conversation on asyncio streams until it gives its result."""
    streams: _Streams | None = None
    try:
        step: Step = next(steps)
        while True:
            if isinstance(step, Connect):
                if streams is not None:
                    _close(streams)
                streams, reply = await _connect(step, proven)
            elif streams is None:
                reply = Reply(time.monotonic(), ReplyKind.BROKEN)
            else:
                reply = await _perform(streams, step)
            step = steps.send(reply)
    except StopIteration as finished:
        result: ProbeResult = finished.value
        return result
    finally:
        if streams is not None:
            _close(streams)
        steps.close()


def _close(streams: _Streams) -> None:
    """Close a connection without waiting for the peer (the conversation is done with it)."""
    streams[1].close()


async def _connect(step: Connect, proven: ListenerCheck) -> tuple[_Streams | None, Reply]:
    """Streams connected as ``step`` asks, their listener proven, or None and why not."""
    try:
        streams = await asyncio.wait_for(
            asyncio.open_connection(step.address, step.port), step.timeout
        )
    except (TimeoutError, asyncio.TimeoutError):  # two classes before Python 3.11
        return None, Reply(time.monotonic(), ReplyKind.TIMEOUT)
    except OSError:
        return None, Reply(time.monotonic(), ReplyKind.FAILED)
    except Exception:
        return None, Reply(time.monotonic(), ReplyKind.BROKEN)
    try:
        kind = ReplyKind.DONE if proven(step.address, step.port) else ReplyKind.UNVERIFIED
    except Exception:
        kind = ReplyKind.BROKEN
    except BaseException:
        _close(streams)
        raise
    if kind is not ReplyKind.DONE:
        _close(streams)
        return None, Reply(time.monotonic(), kind)
    return streams, Reply(time.monotonic(), kind)


async def _perform(streams: _Streams, step: Send | Receive) -> Reply:
    """Write or read on ``streams`` under the step's timeout."""
    reader, writer = streams
    data = b""
    try:
        if isinstance(step, Send):
            writer.write(step.request.wire())
            await asyncio.wait_for(writer.drain(), step.timeout)
        else:
            data = await asyncio.wait_for(reader.read(step.size), step.timeout)
    except (TimeoutError, asyncio.TimeoutError):  # two classes before Python 3.11
        return Reply(time.monotonic(), ReplyKind.TIMEOUT)
    except OSError:
        return Reply(time.monotonic(), ReplyKind.FAILED)
    except Exception:
        return Reply(time.monotonic(), ReplyKind.BROKEN)
    return Reply(time.monotonic(), ReplyKind.DONE, data)
