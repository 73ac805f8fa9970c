"""Small servers on 127.0.0.1 for the probe tests: hand-written answers, hostile ones included.

Every server listens on an ephemeral port of ``127.0.0.1`` only, answers at most
``MAX_CONNECTIONS`` connections unless told otherwise, and stops by itself: when its ``with``
block ends, or after ``LIFETIME_S`` seconds at the latest. Every loop a handler runs is bounded
in count and time. The official MCP SDK's server, for the real-server tests, is ``mcp_sdk_server``.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.process_starts import popen_started

LIFETIME_S = 20.0
"""No server, connection or handler outlives this."""

MAX_CONNECTIONS = 16
"""A server stops accepting after this many connections."""

MAX_REQUEST_BYTES = 64 * 1024
"""At most this much of a request is kept."""

Handler = Callable[["Connection"], None]


@dataclass
class Connection:
    """One accepted connection, handed to a handler."""

    sock: socket.socket
    stop: threading.Event
    request: bytes = b""

    def alive(self) -> bool:
        """Whether the handler should go on (not stopped, within its lifetime)."""
        return not self.stop.is_set()

    def read_request(self) -> bytes:
        """The request head and (by Content-Length) its body, read with a bounded wait."""
        self.sock.settimeout(2.0)
        data = b""
        try:
            while b"\r\n\r\n" not in data and len(data) < MAX_REQUEST_BYTES:
                chunk = self.sock.recv(4096)
                if not chunk:
                    break
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length" and value.strip().isdigit():
                    length = int(value.strip())
            while len(body) < min(length, MAX_REQUEST_BYTES):
                chunk = self.sock.recv(4096)
                if not chunk:
                    break
                body += chunk
            data = head + b"\r\n\r\n" + body
        except OSError:
            pass
        self.request = data
        return data

    def send(self, data: bytes) -> bool:
        """Send all of ``data``; False once the client has gone."""
        try:
            self.sock.settimeout(2.0)
            self.sock.sendall(data)
            return True
        except OSError:
            return False

    def drip(self, data: bytes, every: float, limit_s: float = LIFETIME_S) -> None:
        """Send ``data`` one byte at a time, ``every`` seconds apart, until stopped or refused."""
        ends = time.monotonic() + limit_s
        for byte in data:
            if not self.alive() or time.monotonic() > ends or not self.send(bytes([byte])):
                return
            self.stop.wait(every)

    def repeat(self, data: bytes, every: float, limit_s: float = LIFETIME_S) -> None:
        """Send ``data`` again and again until stopped, refused or out of time."""
        ends = time.monotonic() + limit_s
        while self.alive() and time.monotonic() < ends and self.send(data):
            if every:
                self.stop.wait(every)


@dataclass
class LoopbackServer:
    """A running server: its port and every request it received."""

    port: int
    requests: list[bytes] = field(default_factory=list)
    connections: list[int] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


@contextmanager
def serve(handler: Handler, max_connections: int = MAX_CONNECTIONS) -> Iterator[LoopbackServer]:
    """Run ``handler`` for each connection to a fresh loopback port, for the ``with`` block.

    It accepts at most ``max_connections`` connections (``MAX_CONNECTIONS`` unless told).
    """
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(max_connections)
    listener.settimeout(0.05)
    stop = threading.Event()
    server = LoopbackServer(listener.getsockname()[1])
    started = time.monotonic()
    workers: list[threading.Thread] = []

    def handle(sock: socket.socket) -> None:
        connection = Connection(sock, stop)
        try:
            handler(connection)
        except OSError:
            pass
        finally:
            if connection.request:
                server.requests.append(connection.request)
            sock.close()

    def accept_loop() -> None:
        while not stop.is_set() and time.monotonic() - started < LIFETIME_S:
            if len(server.connections) >= max_connections:
                break
            try:
                sock, _address = listener.accept()
            except OSError:
                continue
            server.connections.append(len(server.connections))
            worker = threading.Thread(target=handle, args=(sock,), daemon=True)
            workers.append(worker)
            worker.start()
        listener.close()

    acceptor = threading.Thread(target=accept_loop, daemon=True)
    acceptor.start()
    timer = threading.Timer(LIFETIME_S, stop.set)
    timer.daemon = True
    timer.start()
    try:
        yield server
    finally:
        stop.set()
        timer.cancel()
        acceptor.join(5)
        for worker in workers:
            worker.join(5)


def free_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.bind(("127.0.0.1", 0))
    port: int = probe.getsockname()[1]
    probe.close()
    return port


def http(status: str, headers: dict[str, str], body: bytes = b"") -> bytes:
    """An HTTP/1.1 answer."""
    lines = [f"HTTP/1.1 {status}", *(f"{name}: {value}" for name, value in headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def initialize_result(
    name: str = "Hand Server", version: str = "1.0", protocol: str = "2025-06-18"
) -> dict[str, Any]:
    """A JSON-RPC answer to the probe's ``initialize`` (id 1)."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "protocolVersion": protocol,
            "capabilities": {},
            "serverInfo": {"name": name, "version": version},
        },
    }


def answer_json(message: object, extra: dict[str, str] | None = None) -> Handler:
    """A handler answering one JSON body."""
    body = json.dumps(message).encode()

    def handler(connection: Connection) -> None:
        connection.read_request()
        headers = {
            "Content-Type": "application/json",
            "Content-Length": str(len(body)),
            **(extra or {}),
        }
        connection.send(http("200 OK", headers, body))

    return handler


def answer_events(events: list[bytes], extra: dict[str, str] | None = None) -> Handler:
    """A handler answering an event stream of ``events``, then closing it."""

    def handler(connection: Connection) -> None:
        connection.read_request()
        headers = {"Content-Type": "text/event-stream", "Connection": "close", **(extra or {})}
        connection.send(http("200 OK", headers))
        for event in events:
            connection.send(event)

    return handler


def silent(connection: Connection) -> None:
    """A handler that reads the request and never answers (until the server stops)."""
    connection.read_request()
    connection.stop.wait(LIFETIME_S)


SDK_SERVER_MODULE = "tests.servers.mcp_sdk_server"
REPOSITORY = Path(__file__).resolve().parent.parent.parent


@dataclass
class SdkServer:
    """The official SDK's server running in a child process."""

    port: int
    process: subprocess.Popen[str]
    log: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


@contextmanager
def sdk_server(
    token: str, *, json_response: bool = False, lifetime: float = LIFETIME_S
) -> Iterator[SdkServer]:
    """The MCP SDK's Streamable HTTP server on a loopback port, checking ``token``.

    It stops when the ``with`` block ends (its standard input closes), or by itself after
    ``lifetime`` seconds; ``log`` then holds each request it answered (``METHOD PATH STATUS``).
    """
    command = [sys.executable, "-m", SDK_SERVER_MODULE, token, str(lifetime)]
    if json_response:
        command.append("--json")
    process = popen_started(
        command,
        cwd=REPOSITORY,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stdin is not None
        # Importing the SDK takes seconds, far more under Wine on a busy machine.
        port_line = _first_line(process, 120.0)
        server = SdkServer(int(port_line), process)
        yield server
        process.stdin.close()
        process.wait(timeout=15)
        server.log.extend(line for line in process.stdout.read().splitlines() if line)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


def _first_line(process: subprocess.Popen[str], timeout: float) -> str:
    """The child's first line of output, or a failure after ``timeout`` seconds."""
    lines: list[str] = []
    stdout = process.stdout
    assert stdout is not None
    reader = threading.Thread(target=lambda: lines.append(stdout.readline()), daemon=True)
    reader.start()
    reader.join(timeout)
    if not lines or not lines[0].strip().isdigit():
        raise RuntimeError(f"the MCP SDK server did not start (exit code {process.poll()})")
    return lines[0].strip()
