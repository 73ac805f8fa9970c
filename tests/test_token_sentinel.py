"""A recognisable token never shows: not in any repr or str of the runtime objects, log record,
exception or command-line output (text and JSON), whatever the server does with it."""

from __future__ import annotations

import json
import logging
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from hermes_decl.declaration import parse_declaration, register
from hermes_decl.gates import make_check_fn, make_status_fn
from hermes_decl.models import Declaration
from hermes_decl.registry import clear
from hermes_decl.resolver.liveness import Endpoint, read_endpoint
from hermes_decl.resolver.probe import ProbeResult, probe
from hermes_decl.resolver.status import Status, status
from hermes_decl.testing import FakeHost
from tests.listener_proof import live_listener_proof  # noqa: F401  (a fixture)
from tests.servers.loopback import (
    Connection,
    Handler,
    answer_json,
    free_port,
    http,
    initialize_result,
    sdk_server,
    serve,
    silent,
)
from tests.test_cli import run

SENTINEL = "SENTINEL-TOKEN-3e9b-NEVER-SHOWN"
RUNTIME = "/home/dev/.vendor/server.json"
DECL = parse_declaration(
    "vendor-studio",
    raw_app={
        "linux": {
            "presence": "executable",
            "location": "/opt/vendor/studio",
            "liveness": {"kind": "server_json", "path": "~/.vendor/server.json"},
        }
    },
    raw_requires={"app": True},
    where="test",
)


def shown(value: object) -> str:
    return f"{value!r} {value!s} {value}"


def echo_request(status_line: str) -> Handler:
    """A server that sends the whole request back, Authorization header included."""

    def handler(connection: Connection) -> None:
        request = connection.read_request()
        lines = request.split(b"\r\n")
        authorization = next((line for line in lines if line.startswith(b"Authorization")), b"")
        headers = {
            "Content-Type": "application/json",
            "Content-Length": str(len(request)),
            "X-Echo": authorization.decode("latin-1"),
            "Mcp-Session-Id": SENTINEL,
        }
        connection.send(http(status_line, headers, request))

    return handler


def echo_in_server_info(connection: Connection) -> None:
    answer_json(
        initialize_result(f"Echo {SENTINEL}", SENTINEL, f"2025-{SENTINEL}"),
        {"Mcp-Session-Id": f"id-{SENTINEL}"},
    )(connection)


def echo_in_error(connection: Connection) -> None:
    answer_json({"jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": SENTINEL}})(connection)


SERVERS: dict[str, Handler] = {
    "echo-request-200": echo_request("200 OK"),
    "echo-request-500": echo_request("500 Internal Server Error"),
    "echo-request-401": echo_request("401 Unauthorized"),
    "echo-in-server-info": echo_in_server_info,
    "echo-in-error": echo_in_error,
    "silent": silent,
}


@pytest.fixture
def all_logs(caplog: pytest.LogCaptureFixture) -> Callable[[], str]:
    """Every log record of every logger at DEBUG, as the text a handler would write."""
    caplog.set_level(logging.DEBUG)

    def text() -> str:
        records = [record.getMessage() + shown(record.args) for record in caplog.records]
        errors = [
            "".join(traceback.format_exception(*record.exc_info))
            for record in caplog.records
            if record.exc_info and record.exc_info[0] is not None
        ]
        return caplog.text + "".join(records) + "".join(errors)

    return text


def everything_about(result: ProbeResult | Status) -> str:
    parts = [shown(result)]
    if isinstance(result, Status):
        parts += [result.sentence(), shown(result.availability), shown(result.endpoint)]
        parts += [shown(result.runtime), shown(result.probe)]
    else:
        parts += [result.reason, result.detail, str(result.server_name)]
    return " ".join(parts)


@pytest.mark.usefixtures("live_listener_proof")
@pytest.mark.parametrize("handler", list(SERVERS.values()), ids=list(SERVERS))
def test_no_probe_result_or_log_shows_the_token(
    handler: Handler, all_logs: Callable[[], str]
) -> None:
    with serve(handler) as server:
        result = probe(Endpoint(server.url, SENTINEL), deadline=1.0)
    assert server.requests, "the server was reached"
    assert SENTINEL.encode() in server.requests[0]  # it was sent, to the endpoint only
    assert SENTINEL not in everything_about(result)
    assert SENTINEL not in all_logs()


@pytest.mark.usefixtures("live_listener_proof")
def test_a_real_server_with_the_token(all_logs: Callable[[], str]) -> None:
    with sdk_server(SENTINEL) as server:
        right = probe(Endpoint(server.url, SENTINEL))
        wrong = probe(Endpoint(server.url, SENTINEL + "-wrong"))
    assert right.answering and wrong.reason == "unauthorized"
    assert SENTINEL not in everything_about(right) + everything_about(wrong) + all_logs()


@pytest.mark.parametrize(
    "token",
    [f"{SENTINEL}\r\nX: 1", f"{SENTINEL} ", f"{SENTINEL}\x00", SENTINEL * 300],
    ids=["crlf", "space", "nul", "long"],
)
def test_exceptions_never_carry_the_token(token: str, all_logs: Callable[[], str]) -> None:
    for endpoint in (
        Endpoint("http://127.0.0.1:5000/mcp", token),
        Endpoint(f"http://127.0.0.1:5000/{SENTINEL}?{SENTINEL}", SENTINEL),
        Endpoint(f"http://{SENTINEL}@127.0.0.1:5000/mcp", SENTINEL),
    ):
        with pytest.raises(ValueError, match=r"^the endpoint") as caught:
            probe(endpoint)
        text = "".join(traceback.format_exception(caught.value))
        assert SENTINEL not in text + repr(caught.value) + str(caught.value)
    assert SENTINEL not in all_logs()


def host_for(url: str) -> FakeHost:
    host = FakeHost("linux", home="/home/dev").add_executable("/opt/vendor/studio")
    data = {"pid": 4242, "http": url, "token": SENTINEL}
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    host.add_listener(port, pid=4242)
    return host.add_file(RUNTIME, json.dumps(data).encode()).add_process(4242)


def statuses(url: str) -> list[Status]:
    """Every way a host asks for a status of a server that published ``url`` with the token."""
    host = host_for(url)

    def broken() -> bool:
        raise RuntimeError("the connection check broke")

    found = [
        status(DECL, host=host, is_connected=connected, probe=probed, deadline=1.0)
        for connected in (None, lambda: True, lambda: False, broken)
        for probed in (False, True)
    ]
    stale = host_for(url).add_process(4242, started=2e9)
    found.append(status(DECL, host=stale, probe=True))
    register("vendor-studio", DECL)
    try:
        via_gate = make_status_fn("vendor-studio", lambda: False, host=host, probe=True)()
        assert via_gate is not None
        found.append(via_gate)
        assert make_check_fn("vendor-studio", lambda: True, host=host)() is True
    finally:
        clear()
    return found


@pytest.mark.parametrize("handler", list(SERVERS.values()), ids=list(SERVERS))
def test_no_status_or_log_shows_the_token(handler: Handler, all_logs: Callable[[], str]) -> None:
    with serve(handler) as server:
        found = statuses(server.url.removesuffix("/mcp"))
    for result in found:
        assert SENTINEL not in everything_about(result)
    assert SENTINEL not in all_logs()


def test_no_status_shows_the_token_when_nothing_listens(all_logs: Callable[[], str]) -> None:
    for result in statuses(f"http://127.0.0.1:{free_port()}"):
        assert SENTINEL not in everything_about(result)
    app_def = DECL.app_for("linux")
    assert app_def is not None
    endpoint = read_endpoint(app_def, host=host_for("http://localhost:1"))
    assert isinstance(endpoint, Endpoint) and endpoint.token is not None
    assert endpoint.token.reveal() == SENTINEL
    assert SENTINEL not in shown(endpoint) + all_logs()


def cli_outputs(servers: Path) -> str:
    outputs = []
    for extra in ([], ["--json"]):
        for flags in (["--live"], ["--probe"]):
            result = run("explain", str(servers), *flags, *extra)
            assert result.returncode == 0, result.stderr
            outputs += [result.stdout, result.stderr]
    return "".join(outputs)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths")
@pytest.mark.parametrize("handler", [*SERVERS.values(), None], ids=[*SERVERS, "sdk-server"])
def test_no_command_line_output_shows_the_token(tmp_path: Path, handler: Handler | None) -> None:
    block = {
        "presence": "executable",
        "location": str(tmp_path / "studio"),
        "liveness": {"kind": "server_json", "path": str(tmp_path / "server.json")},
    }
    (tmp_path / "studio").write_bytes(b"")
    os_family = "darwin" if sys.platform == "darwin" else "linux"
    servers = tmp_path / "servers.yaml"
    servers.write_text(
        yaml.safe_dump({"studio": {"app": {os_family: block}, "requires": {"app": True}}})
    )

    def publish(port: int) -> None:
        data = {"pid": os.getpid(), "http": f"http://127.0.0.1:{port}", "token": SENTINEL}
        (tmp_path / "server.json").write_text(json.dumps(data))

    if handler is None:
        with sdk_server(SENTINEL) as server:
            publish(server.port)
            output = cli_outputs(servers)
    else:
        with serve(handler) as hostile:
            publish(hostile.port)
            output = cli_outputs(servers)
    assert "127.0.0.1" in output
    assert SENTINEL not in output


def test_the_declaration_objects_never_held_it() -> None:
    assert SENTINEL not in shown(DECL)
    assert isinstance(DECL, Declaration)
