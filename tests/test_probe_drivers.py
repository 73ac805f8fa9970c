"""Both probe drivers, ``probe`` and ``aprobe``, over the same servers give the same results."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import pytest

from hermes_decl.resolver.liveness import Endpoint
from hermes_decl.resolver.probe import (
    DEFAULT_DEADLINE_S,
    PROTOCOL_VERSION,
    ProbeOutcome,
    ProbeResult,
    aprobe,
    probe,
)
from tests.listener_proof import live_listener_proof  # noqa: F401  (a fixture)
from tests.servers.hostile import HOSTILE, NOT_MCP_ANSWERS, slow_loris
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
from tests.servers.mcp_sdk_server import SERVER_NAME, SERVER_VERSION
from tests.test_probe import DEADLINE, SLACK, TOKEN

# Their servers run on loopback and are probed on the live host, which must prove them.
pytestmark = pytest.mark.usefixtures("live_listener_proof")

Driver = Callable[[Endpoint, float], ProbeResult]


def sync_driver(endpoint: Endpoint, deadline: float) -> ProbeResult:
    return probe(endpoint, deadline=deadline)


def async_driver(endpoint: Endpoint, deadline: float) -> ProbeResult:
    return asyncio.run(aprobe(endpoint, deadline=deadline))


DRIVERS: dict[str, Driver] = {"probe": sync_driver, "aprobe": async_driver}


def both(url: str, token: str | None = TOKEN, deadline: float = DEADLINE) -> ProbeResult:
    """Probe ``url`` with each driver in turn, each within the deadline and the slack, and
    check they agree; the one result."""
    results = {}
    for name, driver in DRIVERS.items():
        started = time.monotonic()
        results[name] = driver(Endpoint(url, token), deadline)
        elapsed = time.monotonic() - started
        assert elapsed < deadline + SLACK, f"{name} took {elapsed:.2f}s"
    assert results["probe"] == results["aprobe"]
    assert TOKEN not in repr(results["probe"])
    return results["probe"]


def answering_with(raw: bytes) -> Handler:
    def handler(connection: Connection) -> None:
        connection.read_request()
        connection.send(raw)

    return handler


@pytest.mark.parametrize(("handler", "reason", "detail"), list(HOSTILE.values()), ids=list(HOSTILE))
def test_both_drivers_end_a_hostile_server_alike(
    handler: Handler, reason: str, detail: str
) -> None:
    with serve(handler) as server:
        result = both(server.url)
    assert (result.reason, result.detail) == (reason, detail)


EXTRA_ANSWERS: dict[str, tuple[bytes, str]] = {
    "superscript-two-length": (
        http("200 OK", {"Content-Type": "application/json", "Content-Length": "\xb2"}).replace(
            b"\xc2\xb2", b"\xb2"
        )
        + b"{}",
        "the answer has a malformed Content-Length",
    ),
    "arabic-indic-length": (
        http("200 OK", {"Content-Type": "application/json", "Content-Length": "٢"}) + b"{}",
        "the answer has a malformed Content-Length",
    ),
    "non-ascii-chunk-size": (
        http("200 OK", {"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
        + b"\xb2\r\n{}\r\n0\r\n\r\n",
        "the answer has a malformed chunk",
    ),
}


@pytest.mark.parametrize(
    ("raw", "detail"),
    [*NOT_MCP_ANSWERS.values(), *EXTRA_ANSWERS.values()],
    ids=[*NOT_MCP_ANSWERS, *EXTRA_ANSWERS],
)
def test_both_drivers_read_an_answer_that_is_not_mcp_alike(raw: bytes, detail: str) -> None:
    with serve(answering_with(raw)) as server:
        result = both(server.url)
    assert (result.outcome, result.detail) == (ProbeOutcome.NOT_MCP, detail)


@pytest.mark.parametrize("json_response", [False, True], ids=["event-stream", "json"])
def test_both_drivers_find_the_sdk_server_answering_and_end_its_sessions(
    json_response: bool,
) -> None:
    with sdk_server(TOKEN, json_response=json_response) as server:
        result = both(server.url, deadline=DEFAULT_DEADLINE_S)
        wrong = both(server.url, token="not-the-token")
    assert result == ProbeResult(
        ProbeOutcome.ANSWERING,
        server.url,
        http_status=200,
        server_name=SERVER_NAME,
        server_version=SERVER_VERSION,
        protocol_version=PROTOCOL_VERSION,
        session_ended=True,
    )
    assert (wrong.reason, wrong.http_status, wrong.session_ended) == ("unauthorized", 401, None)
    assert sorted(server.log) == [
        "DELETE /mcp 200",
        "DELETE /mcp 200",
        "POST /mcp 200",
        "POST /mcp 200",
        "POST /mcp 401",
        "POST /mcp 401",
    ]


def test_both_drivers_end_a_session_with_the_same_request() -> None:
    session = answer_json(initialize_result(), {"Mcp-Session-Id": "session-7"})
    ended = answer_json({})
    answers = iter([session, ended, session, ended])

    def handler(connection: Connection) -> None:
        next(answers)(connection)

    with serve(handler) as server:
        result = both(server.url)
    assert result.answering and result.session_ended is True
    posts, deletes = server.requests[0::2], server.requests[1::2]
    assert posts[0] == posts[1] and deletes[0] == deletes[1]
    assert deletes[0].startswith(b"DELETE /mcp HTTP/1.1\r\n")
    assert b"\r\nMcp-Session-Id: session-7\r\n" in deletes[0]


def test_both_drivers_never_follow_a_redirect() -> None:
    with serve(answer_json(initialize_result("Elsewhere"))) as elsewhere:
        moved = http("302 Found", {"Location": elsewhere.url, "Content-Length": "0"})
        with serve(answering_with(moved)) as server:
            result = both(server.url)
    assert (result.reason, result.http_status) == ("http_302", 302)
    assert elsewhere.connections == []
    assert len(server.connections) == 2


def test_both_drivers_find_nothing_listening_refused() -> None:
    result = both(f"http://127.0.0.1:{free_port()}/mcp")
    assert (result.reason, result.detail) == ("refused", "the connection was refused")
    localhost = both(f"http://localhost:{free_port()}/mcp")
    assert (localhost.reason, localhost.detail) == ("refused", "the connection was refused")


@pytest.mark.parametrize(
    ("url", "token", "deadline", "message"),
    [
        ("http://example.com:80/mcp", TOKEN, 1.0, "not plain http to 127.0.0.1"),
        ("http://127.0.0.1:5000/mcp", f"{TOKEN}\r\nX: 1", 1.0, "token is not a string"),
        ("http://127.0.0.1:5000/mcp", TOKEN, 0, "deadline must be a positive number"),
    ],
    ids=["not-loopback", "token", "deadline"],
)
def test_aprobe_refuses_what_probe_refuses(
    url: str, token: str, deadline: float, message: str
) -> None:
    endpoint = Endpoint(url, token)
    with pytest.raises(ValueError, match=message) as sync_refusal:
        probe(endpoint, deadline=deadline)
    with pytest.raises(ValueError, match=message) as async_refusal:
        asyncio.run(aprobe(endpoint, deadline=deadline))
    assert str(sync_refusal.value) == str(async_refusal.value)
    assert TOKEN not in str(async_refusal.value)


def test_both_drivers_write_the_same_log_record(caplog: pytest.LogCaptureFixture) -> None:
    with serve(silent) as server, caplog.at_level(logging.DEBUG, "hermes_decl"):
        both(server.url)
    records = [(r.name, r.levelno, r.getMessage()) for r in caplog.records]
    expected = (
        "hermes_decl.resolver.probe",
        logging.DEBUG,
        f"probe {server.url}: timeout (no answer within 1 seconds)",
    )
    assert records == [expected, expected]


CONCURRENT = 50


def test_fifty_concurrent_aprobes_of_hostile_servers_end_within_one_deadline() -> None:
    async def all_of_them(urls: list[str]) -> list[ProbeResult]:
        return await asyncio.gather(
            *(aprobe(Endpoint(url, TOKEN), deadline=DEADLINE) for url in urls)
        )

    with (
        serve(silent, max_connections=CONCURRENT) as quiet,
        serve(slow_loris, max_connections=CONCURRENT) as slow,
    ):
        urls = [quiet.url, slow.url] * (CONCURRENT // 2)
        started = time.monotonic()
        results = asyncio.run(all_of_them(urls))
        elapsed = time.monotonic() - started
    assert elapsed < DEADLINE + SLACK, f"{CONCURRENT} probes took {elapsed:.2f}s"
    assert len(results) == CONCURRENT
    assert {(result.reason, result.detail) for result in results} == {
        ("timeout", "no answer within 1 seconds")
    }
    assert len(quiet.connections) + len(slow.connections) == CONCURRENT


def test_aprobe_leaves_the_callers_event_loop_running() -> None:
    async def probe_and_count_ticks(url: str) -> tuple[ProbeResult, int]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        result = await aprobe(Endpoint(url, TOKEN), deadline=0.5)
        ticker.cancel()
        return result, ticks

    with serve(silent) as server:
        result, ticks = asyncio.run(probe_and_count_ticks(server.url))
    assert result.reason == "timeout"
    assert ticks >= 20  # the loop went on ticking through the half second the probe waited
