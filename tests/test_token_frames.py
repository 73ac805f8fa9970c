"""No frame of a probe holds the token's text: an error reporter that captures every local of
every frame (the traceback's, and the generator and coroutine frames it can reach) sees the
token only as a hidden ``BearerToken``, whatever line the probe was on."""

from __future__ import annotations

import asyncio
import signal
import sys
import threading
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import hermes_decl
from hermes_decl.resolver.liveness import BearerToken, Endpoint
from hermes_decl.resolver.probe import aprobe, probe
from hermes_decl.runtime.probe_flow import Receive, Reply, ReplyKind, Send, conversation
from tests.servers.loopback import (
    Connection,
    Handler,
    LoopbackServer,
    answer_json,
    http,
    initialize_result,
    serve,
)

SENTINEL = "SENTINEL-FRAME-TOKEN-9d31-NEVER-SHOWN"
PACKAGE = str(Path(hermes_decl.__file__).parent)


class Interrupted(BaseException):
    """Raised into the probe by a signal while it waits on a server that broke off."""


def _ours(frame: types.FrameType) -> bool:
    return frame.f_code.co_filename.startswith(PACKAGE)


def _awaited(value: object) -> Iterator[types.FrameType]:
    """The frames of a generator or coroutine and of everything it is suspended in."""
    for _ in range(64):
        frame = getattr(value, "gi_frame", None) or getattr(value, "cr_frame", None)
        if frame is None:
            return
        yield frame
        value = getattr(value, "gi_yieldfrom", None) or getattr(value, "cr_await", None)


class Reporter:
    """What an error reporter that captures locals would keep: each local's ``repr``, and the
    ``repr`` of its attributes, for every frame of the package it can reach."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.reached: set[str] = set()
        self._done: dict[int, types.FrameType] = {}
        """The frames captured, by id; kept alive so that no later frame reuses an id."""

    def frame(self, frame: types.FrameType | None) -> None:
        """Capture ``frame``, the frames that called it, and the frames their locals suspend."""
        for _ in range(256):
            if frame is None:
                return
            self._capture(frame)
            frame = frame.f_back

    def _capture(self, frame: types.FrameType) -> None:
        if id(frame) in self._done:
            return
        self._done[id(frame)] = frame
        local_values = list(frame.f_locals.values())
        if _ours(frame):
            self.reached.add(frame.f_code.co_name)
            self.texts += [self._shown(value) for value in local_values]
        for value in local_values:
            for suspended in _awaited(value):
                self._capture(suspended)

    def tasks(self) -> None:
        """Capture the coroutine frames of every task of the running event loop, if any."""
        try:
            running = asyncio.all_tasks()
        except RuntimeError:
            return
        for task in running:
            for suspended in _awaited(task.get_coro()):
                self._capture(suspended)

    @staticmethod
    def _shown(value: Any) -> str:
        """``value``'s repr and its attributes', as a reporter shows them: a repr that raises
        (an object still being built, say) is shown by its type alone."""
        try:
            text = repr(value)
        except Exception:
            text = f"<{type(value).__name__}: repr failed>"
        if hasattr(value, "__dict__") and not isinstance(value, (type, types.ModuleType)):
            text += repr(vars(value))
        return text

    def text(self) -> str:
        return "\n".join(self.texts)


def _interrupt_main() -> None:
    if sys.platform != "win32":
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGUSR1)


def _on_break(handler: Any) -> Any:
    """Make ``handler`` the break signal's, giving the one it replaces (POSIX only)."""
    if sys.platform != "win32":
        return signal.signal(signal.SIGUSR1, handler)
    raise NotImplementedError("no signal interrupts a socket wait on Windows")


def breaks_mid_answer(connection: Connection) -> None:
    """Reads the initialize request, then breaks the probe off while it waits for the answer."""
    connection.read_request()
    _interrupt_main()
    connection.stop.wait(5.0)


def breaks_mid_session_end() -> Handler:
    """Answers initialize with a session, then breaks the probe off while it ends that session."""
    answered: list[int] = []

    def handler(connection: Connection) -> None:
        connection.read_request()
        if not answered:
            answered.append(1)
            answer_json(initialize_result(), {"Mcp-Session-Id": "s-1"})(connection)
            return
        _interrupt_main()
        connection.stop.wait(5.0)

    return handler


def run_sync(server: LoopbackServer) -> object:
    return probe(Endpoint(server.url, SENTINEL), deadline=5.0)


def run_async(server: LoopbackServer) -> object:
    return asyncio.run(aprobe(Endpoint(server.url, SENTINEL), deadline=5.0))


BREAKS: dict[str, Callable[[], Handler]] = {
    "mid-answer": lambda: breaks_mid_answer,
    "mid-session-end": breaks_mid_session_end,
}
DRIVERS: dict[str, Callable[[LoopbackServer], object]] = {"probe": run_sync, "aprobe": run_async}


@pytest.mark.skipif(sys.platform == "win32", reason="no signal interrupts a socket wait there")
@pytest.mark.parametrize("driver", list(DRIVERS.values()), ids=list(DRIVERS))
@pytest.mark.parametrize("breaking", list(BREAKS.values()), ids=list(BREAKS))
def test_no_frame_of_a_broken_off_probe_holds_the_token(
    breaking: Callable[[], Handler], driver: Callable[[LoopbackServer], object]
) -> None:
    reporter = Reporter()

    def on_signal(signum: int, frame: types.FrameType | None) -> None:
        reporter.frame(frame)
        reporter.tasks()
        raise Interrupted

    previous = _on_break(on_signal)
    try:
        with serve(breaking()) as server, pytest.raises(Interrupted) as caught:
            driver(server)
    finally:
        _on_break(previous)
    trace = caught.value.__traceback__
    while trace is not None:
        reporter.frame(trace.tb_frame)
        trace = trace.tb_next
    assert SENTINEL.encode() in server.requests[-1]  # the token was sent before the break
    assert {"_drive", "run"} <= reporter.reached
    assert SENTINEL not in reporter.text()


def test_no_local_of_any_line_of_a_probe_holds_the_token() -> None:
    """Every line of both drivers, through an opened session's end, under a trace function."""
    reporter = Reporter()

    def tracer(frame: types.FrameType, event: str, arg: object) -> Any:
        if _ours(frame):
            reporter.texts += [Reporter._shown(value) for value in frame.f_locals.values()]
            reporter.reached.add(frame.f_code.co_name)
        return tracer

    answering = answer_json(initialize_result(), {"Mcp-Session-Id": "s-1"})
    with serve(answering) as server:
        endpoint = Endpoint(server.url, SENTINEL)
        previous = sys.gettrace()
        sys.settrace(tracer)
        try:
            results = (probe(endpoint), asyncio.run(aprobe(endpoint)))
        finally:
            sys.settrace(previous)
    assert [result.session_ended for result in results] == [True, True]
    assert sum(SENTINEL.encode() in request for request in server.requests) == 4
    assert {"wire", "_end_session", "_perform", "_answering"} <= reporter.reached
    assert SENTINEL not in "\n".join(reporter.texts)


def test_a_send_step_shows_the_request_without_the_token_it_carries() -> None:
    token = BearerToken(SENTINEL)
    steps = conversation("http://127.0.0.1:1/mcp", token, ("127.0.0.1", 1, "/mcp"), 1.0, 0.0)
    connect = next(steps)
    send = steps.send(Reply(0.0, ReplyKind.DONE))
    assert isinstance(send, Send)
    assert SENTINEL not in repr(connect) + repr(send) + str(send)
    assert "token=BearerToken(<hidden>)" in repr(send)
    assert f"\r\nAuthorization: Bearer {SENTINEL}\r\n\r\n".encode() in send.request.wire()
    assert isinstance(steps.send(Reply(0.0, ReplyKind.DONE)), Receive)
    steps.close()


def test_a_refused_probe_answers_in_the_reporters_view_too() -> None:
    """A server that answers 500 mid-way: the result and its frames never show the token."""
    reporter = Reporter()

    def server_error(connection: Connection) -> None:
        connection.read_request()
        connection.send(http("500 Internal Server Error", {"Content-Length": "0"}))

    def tracer(frame: types.FrameType, event: str, arg: object) -> Any:
        if event == "exception" and _ours(frame):
            reporter.frame(frame)
        return tracer

    with serve(server_error) as server:
        previous = sys.gettrace()
        sys.settrace(tracer)
        try:
            result = probe(Endpoint(server.url, SENTINEL))
        finally:
            sys.settrace(previous)
    assert (result.reason, result.detail) == ("http_500", "it answered HTTP 500")
    assert "_on_event" in reporter.reached  # the failure was raised there, and captured
    assert SENTINEL not in reporter.text() + repr(result)
