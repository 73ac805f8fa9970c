"""A real MCP server for the tests: the official MCP SDK's Streamable HTTP app on loopback.

``python -m tests.servers.mcp_sdk_server TOKEN LIFETIME [--json]`` binds ``127.0.0.1`` on an
ephemeral port, prints the port once it serves, then prints ``METHOD PATH STATUS`` for every
request it answers.
Requests without ``Authorization: Bearer TOKEN`` get 401. It stops by itself when its standard
input closes or after LIFETIME seconds, whichever comes first.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from typing import Any

import uvicorn
from mcp.server.mcpserver import MCPServer

SERVER_NAME = "Vendor Studio"
SERVER_VERSION = "2.4.0"


def guarded(app: Any, token: str) -> Any:
    """``app`` behind a bearer-token check, printing each HTTP request it answers."""
    expected = f"Bearer {token}".encode()

    async def asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        statuses: list[int] = []

        async def recording_send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                statuses.append(message["status"])
            await send(message)

        if dict(scope["headers"]).get(b"authorization") != expected:
            await recording_send(
                {
                    "type": "http.response.start",
                    "status": 401,
                    "headers": [(b"content-length", b"0")],
                }
            )
            await send({"type": "http.response.body", "body": b""})
        else:
            await app(scope, receive, recording_send)
        # int(): Python 3.10 prints an HTTPStatus member by its name, later ones by its number.
        status = int(statuses[0]) if statuses else 0
        print(scope["method"], scope["path"], status, flush=True)

    return asgi


def render_scene(scene: str) -> str:
    """The one tool the application offers: what a host lists once it may offer it."""
    return f"rendered {scene}"


def main() -> None:
    token, lifetime = sys.argv[1], float(sys.argv[2])
    mcp = MCPServer(SERVER_NAME, version=SERVER_VERSION, log_level="WARNING")
    mcp.add_tool(render_scene, name="render_scene", description="Render a scene of the studio.")
    app = mcp.streamable_http_app(json_response="--json" in sys.argv[3:])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    server = uvicorn.Server(
        uvicorn.Config(guarded(app, token), log_level="warning", lifespan="on", access_log=False)
    )

    def stop() -> None:
        server.should_exit = True

    def stop_when_stdin_closes() -> None:
        sys.stdin.read()
        stop()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()

    def announce_once_serving() -> None:
        while not server.started:
            if server.should_exit:
                return
            time.sleep(0.01)
        print(listener.getsockname()[1], flush=True)

    timer = threading.Timer(lifetime, stop)
    timer.daemon = True
    timer.start()
    # The port is printed only once uvicorn serves, so a slow start is not charged to the
    # first request's deadline.
    threading.Thread(target=announce_once_serving, daemon=True).start()
    server.run(sockets=[listener])


if __name__ == "__main__":
    main()
