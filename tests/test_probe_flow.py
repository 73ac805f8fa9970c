"""The probe's conversation without a socket: scripted replies in, steps and a result out."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hermes_decl.resolver.probe import ProbeOutcome, ProbeResult
from hermes_decl.runtime.bearer_token import BearerToken
from hermes_decl.runtime.http_wire import MAX_HEAD_BYTES, READ_BYTES
from hermes_decl.runtime.probe_flow import (
    SESSION_END_GRACE_S,
    UNEXPECTED_DETAIL,
    Connect,
    Receive,
    Reply,
    ReplyKind,
    Send,
    Step,
    connect_addresses,
    conversation,
    end_session_request,
    initialize_request,
)

TOKEN = BearerToken("SENTINEL-FLOW-TOKEN-77aa")
URL = "http://127.0.0.1:5000/mcp"
TARGET = ("127.0.0.1", 5000, "/mcp")
START = 100.0
DONE, TIMEOUT, FAILED, BROKEN = (
    ReplyKind.DONE,
    ReplyKind.TIMEOUT,
    ReplyKind.FAILED,
    ReplyKind.BROKEN,
)
INITIALIZED = json.dumps(
    {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"protocolVersion": "2025-06-18", "serverInfo": {"name": "S", "version": "2"}},
    }
).encode()
JSON_ANSWER = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
    % len(INITIALIZED)
    + INITIALIZED
)
SESSION_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nMcp-Session-Id: s-1\r\n\r\n"
ANSWERING = ProbeResult(
    ProbeOutcome.ANSWERING,
    URL,
    http_status=200,
    server_name="S",
    server_version="2",
    protocol_version="2025-06-18",
)

Script = list[tuple[ReplyKind, bytes | str, float]]
"""Each reply: how the step went, what a read gave, and the seconds it took."""


def play(
    script: Script,
    *,
    url: str = URL,
    target: tuple[str, int, str] = TARGET,
    token: BearerToken | None = TOKEN,
    deadline: float = 1.0,
) -> tuple[ProbeResult, list[Step]]:
    """Run one conversation on ``script``: its result and every step it asked for."""
    now = START
    steps = conversation(url, token, target, deadline, now)
    asked: list[Step] = []
    step = next(steps)
    for kind, data, took in script:
        asked.append(step)
        now += took
        try:
            step = steps.send(Reply(now, kind, data))  # type: ignore[arg-type]
        except StopIteration as finished:
            result: ProbeResult = finished.value
            return result, asked
    raise AssertionError(f"the conversation asked for more than the script: {step}")


def test_a_json_answer_takes_connect_send_and_one_read() -> None:
    result, asked = play([(DONE, b"", 0.1), (DONE, b"", 0.1), (DONE, JSON_ANSWER, 0.1)])
    assert result == ANSWERING
    assert asked == [
        Connect("127.0.0.1", 5000, 1.0),
        Send(initialize_request(TARGET, TOKEN, "0.1.0"), pytest.approx(0.9)),  # type: ignore[arg-type]
        Receive(READ_BYTES, pytest.approx(0.8)),  # type: ignore[arg-type]
    ]


def test_the_initialize_request_bytes() -> None:
    request = initialize_request(("::1", 7, "/m"), TOKEN, "9.9")
    head, _, body = request.wire().partition(b"\r\n\r\n")
    assert head.split(b"\r\n") == [
        b"POST /m HTTP/1.1",
        b"Host: [::1]:7",
        b"User-Agent: hermes-decl",
        b"Content-Type: application/json",
        b"Accept: application/json, text/event-stream",
        b"Content-Length: %d" % len(body),
        b"Connection: close",
        f"Authorization: Bearer {TOKEN.reveal()}".encode(),
    ]
    assert json.loads(body)["params"]["clientInfo"] == {"name": "hermes-decl", "version": "9.9"}


@pytest.mark.parametrize(
    ("protocol", "version_line"),
    [("2025-06-18", [b"MCP-Protocol-Version: 2025-06-18"]), ("a b", []), (None, [])],
    ids=["token", "not-a-token", "none"],
)
def test_the_session_ending_request_bytes(protocol: str | None, version_line: list[bytes]) -> None:
    request = end_session_request(TARGET, "s-1", protocol, None)
    assert request.wire().split(b"\r\n") == [
        b"DELETE /mcp HTTP/1.1",
        b"Host: 127.0.0.1:5000",
        b"User-Agent: hermes-decl",
        b"Mcp-Session-Id: s-1",
        b"Content-Length: 0",
        b"Connection: close",
        *version_line,
        b"",
        b"",
    ]


def test_localhost_is_the_ipv4_then_the_ipv6_loopback_and_never_looked_up() -> None:
    assert connect_addresses("localhost") == ("127.0.0.1", "::1")
    assert connect_addresses("::1") == ("::1",)
    target = ("localhost", 5000, "/mcp")
    result, asked = play([(FAILED, b"", 0), (FAILED, b"", 0)], target=target)
    assert asked == [Connect("127.0.0.1", 5000, 1.0), Connect("::1", 5000, 1.0)]
    assert (result.reason, result.detail) == ("refused", "the connection was refused")


TRANSPORT_FAILURES: dict[str, tuple[Script, str, str]] = {
    "connect-timeout": ([(TIMEOUT, b"", 1.0)], "timeout", "no connection within 1 seconds"),
    "send-timeout": (
        [(DONE, b"", 0), (TIMEOUT, b"", 1.0)],
        "timeout",
        "the request could not be sent in time",
    ),
    "send-failed": (
        [(DONE, b"", 0), (FAILED, b"", 0)],
        "refused",
        "the connection closed before the request",
    ),
    "reset-before-any-byte": (
        [(DONE, b"", 0), (DONE, b"", 0), (FAILED, b"", 0)],
        "refused",
        "the connection was reset",
    ),
    "broke-mid-answer": (
        [(DONE, b"", 0), (DONE, b"", 0), (DONE, b"HTTP/1.1 2", 0), (FAILED, b"", 0)],
        "not_mcp",
        "the connection broke mid-answer",
    ),
    "read-timeout": (
        [(DONE, b"", 0), (DONE, b"", 0), (TIMEOUT, b"", 1.0)],
        "timeout",
        "no answer within 1 seconds",
    ),
    "deadline-passed-between-reads": (
        [(DONE, b"", 0), (DONE, b"", 0), (DONE, b"HTTP/1.1 200", 1.0)],
        "timeout",
        "no answer within 1 seconds",
    ),
    "driver-broke": ([(BROKEN, b"", 0)], "not_mcp", UNEXPECTED_DETAIL),
    "core-broke": (
        [(DONE, b"", 0), (DONE, b"", 0), (DONE, "text, not bytes", 0)],
        "not_mcp",
        UNEXPECTED_DETAIL,
    ),
    "non-ascii-content-length": (
        [
            (DONE, b"", 0),
            (DONE, b"", 0),
            (DONE, b"HTTP/1.1 200 OK\r\nContent-Length: \xb2\r\n", 0),
            (DONE, b"Content-Type: application/json\r\n\r\n{}", 0),
        ],
        "not_mcp",
        "the answer has a malformed Content-Length",
    ),
}


@pytest.mark.parametrize(
    ("script", "reason", "detail"), list(TRANSPORT_FAILURES.values()), ids=list(TRANSPORT_FAILURES)
)
def test_how_a_step_went_decides_the_outcome(script: Script, reason: str, detail: str) -> None:
    result, asked = play(script)
    assert (result.reason, result.detail, result.session_ended) == (reason, detail, None)
    assert len(asked) == len(script)
    assert TOKEN.reveal() not in repr(result)


def test_every_step_gets_only_what_is_left_of_the_deadline() -> None:
    answer: Script = [(DONE, JSON_ANSWER[index * 9 : index * 9 + 9], 0.0625) for index in range(12)]
    result, asked = play([(DONE, b"", 0.125), (DONE, b"", 0.125), *answer], deadline=1.0)
    assert (result.reason, result.detail) == ("timeout", "no answer within 1 seconds")
    timeouts = [step.timeout for step in asked]
    assert timeouts == [1.0, 0.875, *(0.75 - 0.0625 * n for n in range(12))]


def test_a_redirect_is_an_answer_and_no_second_connection_is_asked_for() -> None:
    redirect = b"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/mcp\r\n\r\n"
    result, asked = play([(DONE, b"", 0), (DONE, b"", 0), (DONE, redirect, 0)])
    assert (result.outcome, result.reason, result.http_status) == (
        ProbeOutcome.HTTP_ERROR,
        "http_307",
        307,
    )
    assert sum(isinstance(step, Connect) for step in asked) == 1


def test_an_opened_session_is_ended_after_the_answer() -> None:
    event = b"data: " + INITIALIZED + b"\n\n"
    script: Script = [(DONE, b"", 0), (DONE, b"", 0), (DONE, SESSION_HEAD + event, 0.1)]
    script += [(DONE, b"", 0), (DONE, b"", 0), (DONE, b"HTTP/1.1 204 No Content\r\n\r\n", 0)]
    result, asked = play(script)
    assert result == replace(ANSWERING, session_ended=True)
    assert asked[3] == Connect("127.0.0.1", 5000, pytest.approx(0.9))  # type: ignore[arg-type]
    request = end_session_request(TARGET, "s-1", "2025-06-18", TOKEN)
    assert asked[4] == Send(request, pytest.approx(0.9))  # type: ignore[arg-type]
    assert asked[5] == Receive(MAX_HEAD_BYTES, pytest.approx(0.9))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("failure", "reason", "detail"),
    [
        ((TIMEOUT, b"", 1.0), "timeout", "no answer within 1 seconds"),
        ((BROKEN, b"", 0.2), "not_mcp", UNEXPECTED_DETAIL),
        ((DONE, b"data: [1]\n\n", 0.2), "not_mcp", "the answer is not a JSON-RPC 2.0 message"),
    ],
    ids=["timeout", "driver-broke", "not-json-rpc"],
)
def test_an_opened_session_is_ended_whatever_ended_the_probe(
    failure: tuple[ReplyKind, bytes, float], reason: str, detail: str
) -> None:
    script: Script = [(DONE, b"", 0), (DONE, b"", 0), (DONE, SESSION_HEAD, 0), failure]
    script += [(DONE, b"", 0), (DONE, b"", 0), (DONE, b"HTTP/1.1 200 OK\r\n\r\n", 0)]
    result, asked = play(script)
    assert (result.reason, result.detail, result.http_status, result.session_ended) == (
        reason,
        detail,
        200,
        True,
    )
    left = max(1.0 - failure[2], SESSION_END_GRACE_S)
    assert asked[4] == Connect("127.0.0.1", 5000, pytest.approx(left))  # type: ignore[arg-type]
    assert asked[5] == Send(end_session_request(TARGET, "s-1", None, TOKEN), pytest.approx(left))  # type: ignore[arg-type]


def test_a_refused_session_end_is_reported() -> None:
    script: Script = [(DONE, b"", 0), (DONE, b"", 0), (DONE, SESSION_HEAD, 0), (TIMEOUT, b"", 1)]
    script += [(DONE, b"", 0), (DONE, b"", 0), (DONE, b"HTTP/1.1 404 Not Found\r\n\r\n", 0)]
    assert play(script)[0].session_ended is False
    broken: Script = [*script[:4], (FAILED, b"", 0)]
    assert play(broken)[0].session_ended is False
    late: Script = [*script[:4], (DONE, b"", 0), (DONE, b"", 0), (TIMEOUT, b"", 0.3)]
    assert play(late)[0].session_ended is False


def test_no_session_is_ended_for_an_error_status() -> None:
    head = b"HTTP/1.1 500 Oops\r\nMcp-Session-Id: s-1\r\n\r\n"
    result, asked = play([(DONE, b"", 0), (DONE, b"", 0), (DONE, head, 0)])
    assert (result.reason, result.session_ended, len(asked)) == ("http_500", None, 3)
