"""The hostile and not-MCP answers every probe driver is tested against, with what each gives.

``NOT_MCP_ANSWERS`` maps a name to the raw bytes a server sends after reading the request and
the ``not_mcp`` detail a probe gives; ``HOSTILE`` maps a name to a handler and the reason and
detail a probe with a one-second deadline gives.
"""

from __future__ import annotations

from hermes_decl.resolver.probe import MAX_RESPONSE_BYTES
from tests.servers.loopback import Connection, Handler, http, silent

NOT_MCP_ANSWERS: dict[str, tuple[bytes, str]] = {
    "html": (
        http("200 OK", {"Content-Type": "text/html", "Content-Length": "6"}, b"<html>"),
        "the answer is neither JSON nor an event stream",
    ),
    "not-json": (
        http("200 OK", {"Content-Type": "application/json", "Content-Length": "3"}, b"{x}"),
        "the answer is not valid JSON",
    ),
    "not-json-rpc": (
        http("200 OK", {"Content-Type": "application/json", "Content-Length": "2"}, b"{}"),
        "the answer is not a JSON-RPC 2.0 message",
    ),
    "json-rpc-error": (
        http(
            "200 OK",
            {"Content-Type": "application/json", "Connection": "close"},
            b'{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad version"}}',
        ),
        "the server refused initialize (JSON-RPC error -32602)",
    ),
    "another-id": (
        http(
            "200 OK",
            {"Content-Type": "application/json", "Connection": "close"},
            b'{"jsonrpc":"2.0","id":2,"result":{}}',
        ),
        "the answer is not the initialize result",
    ),
    "no-server-info": (
        http(
            "200 OK",
            {"Content-Type": "application/json", "Connection": "close"},
            b'{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}',
        ),
        "the initialize result has no protocolVersion or serverInfo.name",
    ),
    "ssh-banner": (b"SSH-2.0-OpenSSH_9.6\r\n", "the answer is not HTTP"),
    "http-0.9": (b"<html>hello</html>", "the answer is not HTTP"),
    "bad-status-line": (b"HTTP/1.1 OK\r\n\r\n", "the answer has no HTTP/1.x status line"),
    "two-lengths": (
        http("200 OK", {"Content-Type": "application/json"}).replace(
            b"\r\n\r\n", b"\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n"
        ),
        "the answer has content-length more than once",
    ),
    "gzip-framing": (
        http("200 OK", {"Content-Type": "application/json", "Transfer-Encoding": "gzip"}),
        "the answer's framing is not plain chunked",
    ),
    "closed-mid-body": (
        http("200 OK", {"Content-Type": "application/json", "Content-Length": "100"}, b"{"),
        "the connection closed mid-answer",
    ),
    "event-stream-without-answer": (
        http("200 OK", {"Content-Type": "text/event-stream", "Connection": "close"}, b": hi\n\n"),
        "the event stream ended without the answer",
    ),
    "closed-silently": (b"", "the answer is not HTTP"),
}


def slow_loris(connection: Connection) -> None:
    connection.read_request()
    connection.drip(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" * 100, every=0.05)


def endless_events(connection: Connection) -> None:
    connection.read_request()
    connection.send(http("200 OK", {"Content-Type": "text/event-stream"}))
    connection.repeat(b'event: message\ndata: {"jsonrpc":"2.0","method":"ping"}\n\n', every=0.01)


def flooding_events(connection: Connection) -> None:
    connection.read_request()
    connection.send(http("200 OK", {"Content-Type": "text/event-stream"}))
    connection.repeat(b": " + b"x" * 65536 + b"\n\n", every=0)


def ten_megabytes_stated(connection: Connection) -> None:
    connection.read_request()
    headers = {"Content-Type": "application/json", "Content-Length": str(10 * 1024 * 1024)}
    connection.send(http("200 OK", headers))
    connection.repeat(b" " * 65536, every=0, limit_s=5)


def ten_megabytes_unstated(connection: Connection) -> None:
    connection.read_request()
    connection.send(http("200 OK", {"Content-Type": "application/json", "Connection": "close"}))
    for _ in range(160):  # 10 MiB
        if not connection.send(b" " * 65536):
            return


def endless_headers(connection: Connection) -> None:
    connection.read_request()
    connection.send(b"HTTP/1.1 200 OK\r\n")
    # Ten lines a tick: a wait on Python 3.10 for Windows lasts a 15.6 ms timer tick, not 1 ms.
    connection.repeat((b"X-Filler: " + b"y" * 100 + b"\r\n") * 10, every=0.001)


def endless_line(connection: Connection) -> None:
    connection.read_request()
    connection.repeat(b"HTTP/1.1 200 " + b"z" * 4096, every=0.001)


HOSTILE: dict[str, tuple[Handler, str, str]] = {
    "slow-loris": (slow_loris, "timeout", "no answer within 1 seconds"),
    "silent": (silent, "timeout", "no answer within 1 seconds"),
    "endless-event-stream": (endless_events, "timeout", "no answer within 1 seconds"),
    "flooding-event-stream": (
        flooding_events,
        "not_mcp",
        f"the answer is longer than {MAX_RESPONSE_BYTES} bytes",
    ),
    "10MB-body-stated": (
        ten_megabytes_stated,
        "not_mcp",
        f"the answer is longer than {MAX_RESPONSE_BYTES} bytes",
    ),
    "10MB-body-unstated": (
        ten_megabytes_unstated,
        "not_mcp",
        f"the answer is longer than {MAX_RESPONSE_BYTES} bytes",
    ),
    "endless-headers": (endless_headers, "not_mcp", "the answer's headers are too long"),
    "endless-status-line": (endless_line, "not_mcp", "the answer has an endless line"),
}
