"""The MCP probe: the official SDK's server, hand-written answers and hostile loopback servers."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest

from hermes_decl.resolver.liveness import Endpoint
from hermes_decl.resolver.probe import (
    DEFAULT_DEADLINE_S,
    PROTOCOL_VERSION,
    ProbeOutcome,
    ProbeResult,
    probe,
)
from tests.servers.hostile import HOSTILE, NOT_MCP_ANSWERS, slow_loris
from tests.servers.loopback import (
    Connection,
    Handler,
    LoopbackServer,
    answer_events,
    answer_json,
    free_port,
    http,
    initialize_result,
    sdk_server,
    serve,
)
from tests.servers.mcp_sdk_server import SERVER_NAME, SERVER_VERSION

TOKEN = "SENTINEL-PROBE-TOKEN-5c1e"
DEADLINE = 1.0
SLACK = 0.5
"""Every probe ends within its deadline and this many seconds (the issue's bound)."""


def timed_probe(url: str, token: str | None = TOKEN, deadline: float = DEADLINE) -> ProbeResult:
    """Probe ``url`` and check the whole probe ended within the deadline and the slack."""
    started = time.monotonic()
    result = probe(Endpoint(url, token), deadline=deadline)
    elapsed = time.monotonic() - started
    assert elapsed < deadline + SLACK, f"the probe took {elapsed:.2f}s"
    assert TOKEN not in repr(result)
    return result


def request_lines(server: LoopbackServer) -> list[list[str]]:
    """The head lines of each request a loopback server received."""
    return [
        request.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
        for request in server.requests
    ]


# -- the official MCP SDK's server ---------------------------------------------------------------


@pytest.mark.parametrize("json_response", [False, True], ids=["event-stream", "json"])
def test_the_sdk_server_answers_and_its_session_is_ended(json_response: bool) -> None:
    with sdk_server(TOKEN, json_response=json_response) as server:
        result = timed_probe(server.url, deadline=DEFAULT_DEADLINE_S)
    assert result == ProbeResult(
        ProbeOutcome.ANSWERING,
        server.url,
        http_status=200,
        server_name=SERVER_NAME,
        server_version=SERVER_VERSION,
        protocol_version=PROTOCOL_VERSION,
        session_ended=True,
    )
    assert result.answering is True
    assert result.reason == "answering"
    assert sorted(server.log) == ["DELETE /mcp 200", "POST /mcp 200"]


def test_the_sdk_server_refuses_a_wrong_token_and_a_missing_one() -> None:
    with sdk_server(TOKEN) as server:
        wrong = timed_probe(server.url, token="not-the-token")
        missing = timed_probe(server.url, token=None)
        localhost = timed_probe(server.url.replace("127.0.0.1", "localhost"))
    for result in (wrong, missing):
        assert (result.outcome, result.reason, result.http_status) == (
            ProbeOutcome.UNAUTHORIZED,
            "unauthorized",
            401,
        )
        assert result.detail == "it refused the token (HTTP 401)"
        assert result.session_ended is None
    assert localhost.answering
    assert server.log.count("POST /mcp 401") == 2


def test_the_sdk_server_at_a_wrong_path_is_http_404() -> None:
    with sdk_server(TOKEN) as server:
        result = timed_probe(server.url.replace("/mcp", "/other"))
    assert (result.outcome, result.reason, result.http_status) == (
        ProbeOutcome.HTTP_ERROR,
        "http_404",
        404,
    )


# -- hand-written answers ------------------------------------------------------------------------


def test_the_request_is_initialize_with_the_bearer_token_and_both_media_types() -> None:
    with serve(answer_json(initialize_result())) as server:
        result = timed_probe(server.url)
    assert result.answering
    assert (result.server_name, result.server_version, result.protocol_version) == (
        "Hand Server",
        "1.0",
        "2025-06-18",
    )
    assert result.session_ended is None  # no session id was given, so none is ended
    (lines,) = request_lines(server)
    assert lines[0] == "POST /mcp HTTP/1.1"
    assert f"Host: 127.0.0.1:{server.port}" in lines
    assert f"Authorization: Bearer {TOKEN}" in lines
    assert "Accept: application/json, text/event-stream" in lines
    assert "Content-Type: application/json" in lines
    body = json.loads(server.requests[0].partition(b"\r\n\r\n")[2])
    assert body == {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "hermes-decl", "version": "0.1.0"},
        },
    }


def test_without_a_token_no_authorization_header_is_sent() -> None:
    with serve(answer_json(initialize_result())) as server:
        assert timed_probe(server.url, token=None).answering
    (lines,) = request_lines(server)
    assert not any(line.lower().startswith("authorization") for line in lines)


def test_the_session_is_ended_with_its_id_protocol_version_and_token() -> None:
    answers = iter(
        [
            answer_json(initialize_result(), {"Mcp-Session-Id": "session-42"}),
            answer_json({}),
        ]
    )

    def handler(connection: Connection) -> None:
        next(answers)(connection)

    with serve(handler) as server:
        result = timed_probe(server.url)
    assert result.answering and result.session_ended is True
    first, second = request_lines(server)
    assert first[0] == "POST /mcp HTTP/1.1"
    assert second[0] == "DELETE /mcp HTTP/1.1"
    assert "Mcp-Session-Id: session-42" in second
    assert "MCP-Protocol-Version: 2025-06-18" in second
    assert f"Authorization: Bearer {TOKEN}" in second


@pytest.mark.parametrize(
    "session_id", ["has space", "x" * 1025, "tab\there", "é"], ids=["space", "long", "tab", "utf8"]
)
def test_a_session_id_that_cannot_be_sent_back_is_not(session_id: str) -> None:
    raw = http(
        "200 OK",
        {"Content-Type": "application/json", "Mcp-Session-Id": session_id, "Connection": "close"},
        json.dumps(initialize_result()).encode(),
    )

    def handler(connection: Connection) -> None:
        connection.read_request()
        connection.send(raw)

    with serve(handler) as server:
        result = timed_probe(server.url)
    assert result.answering and result.session_ended is None
    assert len(server.requests) == 1


def test_an_event_stream_is_read_up_to_the_answer() -> None:
    events = [
        b": keep-alive\n\n",
        b'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n',
        b"event: message\r\ndata: "
        + json.dumps(initialize_result("Events")).encode()
        + b"\r\n\r\n",
    ]
    with serve(answer_events(events)) as server:
        result = timed_probe(server.url)
    assert result.answering and result.server_name == "Events"


def test_a_chunked_event_stream_split_anywhere_is_read() -> None:
    message = json.dumps(initialize_result("Chunked")).encode()
    stream = b"event: message\r\ndata: " + message + b"\r\n\r\n"
    pieces = [stream[i : i + 7] for i in range(0, len(stream), 7)]
    body = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for piece in pieces) + b"0\r\n\r\n"

    def handler(connection: Connection) -> None:
        connection.read_request()
        headers = {"Content-Type": "text/event-stream", "Transfer-Encoding": "chunked"}
        connection.send(http("200 OK", headers))
        for index in range(0, len(body), 5):
            connection.send(body[index : index + 5])

    with serve(handler) as server:
        result = timed_probe(server.url)
    assert result.answering and result.server_name == "Chunked"


def test_a_server_name_that_repeats_the_token_is_hidden_whole() -> None:
    answer = initialize_result(f"name {TOKEN}\x1b[2J", f"v{TOKEN}")
    with serve(answer_json(answer)) as server:
        result = timed_probe(server.url)
    assert result.server_name == "<hidden>"
    assert result.server_version == "<hidden>"


@pytest.mark.parametrize(
    ("raw", "detail"), list(NOT_MCP_ANSWERS.values()), ids=list(NOT_MCP_ANSWERS)
)
def test_an_answer_that_is_not_mcp(raw: bytes, detail: str) -> None:
    def handler(connection: Connection) -> None:
        connection.read_request()
        connection.send(raw)

    with serve(handler) as server:
        result = timed_probe(server.url)
    assert (result.outcome, result.reason, result.detail) == (
        ProbeOutcome.NOT_MCP,
        "not_mcp",
        detail,
    )


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        ("401 Unauthorized", "unauthorized"),
        ("403 Forbidden", "unauthorized"),
        ("500 Oops", "http_500"),
        ("204 No Content", "not_mcp"),
    ],
)
def test_http_statuses(status: str, reason: str) -> None:
    def handler(connection: Connection) -> None:
        connection.read_request()
        connection.send(http(status, {"Content-Length": "0"}))

    with serve(handler) as server:
        assert timed_probe(server.url).reason == reason


def test_nothing_listening_is_refused() -> None:
    result = timed_probe(f"http://127.0.0.1:{free_port()}/mcp")
    assert (result.outcome, result.reason, result.detail) == (
        ProbeOutcome.REFUSED,
        "refused",
        "the connection was refused",
    )


# -- hostile servers: each ends within the deadline and the slack --------------------------------


@pytest.mark.parametrize(("handler", "reason", "detail"), list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_server_ends_within_the_deadline(
    handler: Handler, reason: str, detail: str
) -> None:
    with serve(handler) as server:
        result = timed_probe(server.url)
    assert (result.reason, result.detail) == (reason, detail)


def test_the_default_deadline_is_three_seconds() -> None:
    assert DEFAULT_DEADLINE_S == 3.0
    with serve(slow_loris) as server:
        started = time.monotonic()
        result = probe(Endpoint(server.url, TOKEN))
        elapsed = time.monotonic() - started
    assert result.reason == "timeout"
    assert DEFAULT_DEADLINE_S <= elapsed < DEFAULT_DEADLINE_S + SLACK


@pytest.fixture
def elsewhere() -> Iterator[LoopbackServer]:
    """The server a redirect points at; nothing should ever reach it."""
    with serve(answer_json(initialize_result("Elsewhere"))) as server:
        yield server


@pytest.mark.parametrize(
    "status",
    ["301 Moved Permanently", "302 Found", "307 Temporary Redirect", "308 Permanent Redirect"],
)
def test_a_redirect_to_another_port_is_never_followed(
    status: str, elsewhere: LoopbackServer
) -> None:
    def redirect(connection: Connection) -> None:
        connection.read_request()
        connection.send(http(status, {"Location": elsewhere.url, "Content-Length": "0"}))

    with serve(redirect) as server:
        result = timed_probe(server.url)
    code = int(status[:3])
    assert (result.outcome, result.reason, result.http_status) == (
        ProbeOutcome.HTTP_ERROR,
        f"http_{code}",
        code,
    )
    assert elsewhere.connections == []
    assert len(server.connections) == 1


# -- what the probe refuses to do ----------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://10.0.0.1:80/mcp",
        "http://example.com:80/mcp",
        "https://127.0.0.1:5000/mcp",
        "http://127.0.0.1/mcp",
        "http://user@127.0.0.1:5000/mcp",
        "http://127.0.0.1:5000/mcp?x=1",
        "http://127.0.0.1:5000",
        "http://0x7f000001:5000/mcp",
        "http://LOCALHOST:5000/mcp",
    ],
)
def test_an_endpoint_that_is_not_loopback_is_refused_before_any_connection(url: str) -> None:
    with pytest.raises(ValueError, match=r"not plain http to 127\.0\.0\.1, localhost or") as caught:
        probe(Endpoint(url, TOKEN))
    assert TOKEN not in str(caught.value)


@pytest.mark.parametrize(
    "token",
    [f"{TOKEN}\r\nX-Injected: 1", f"{TOKEN} x", "", f"{TOKEN}é"],
    ids=["crlf", "space", "empty", "utf8"],
)
def test_a_token_that_could_split_a_header_is_refused(token: str) -> None:
    refusal = pytest.raises(ValueError, match="token is not a string of visible ASCII")
    with serve(answer_json(initialize_result())) as server, refusal as caught:
        probe(Endpoint(server.url, token))
    assert TOKEN not in str(caught.value)
    assert server.connections == []


@pytest.mark.parametrize("deadline", [0, -1.0, float("nan"), True])
def test_a_deadline_must_be_positive(deadline: float) -> None:
    with pytest.raises(ValueError, match="deadline must be a positive number"):
        probe(Endpoint("http://127.0.0.1:5000/mcp", TOKEN), deadline=deadline)


def test_probe_outcomes_are_stable() -> None:
    assert [outcome.value for outcome in ProbeOutcome] == [
        "answering",
        "refused",
        "timeout",
        "http_error",
        "not_mcp",
        "unauthorized",
        "unverified_listener",
    ]
    assert str(ProbeOutcome.NOT_MCP) == "not_mcp"
