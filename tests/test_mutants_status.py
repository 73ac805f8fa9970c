"""Status sentences and logs a mutation review found untested (SPEC 11)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from hermes_decl.resolver.probe import ProbeOutcome
from hermes_decl.resolver.status import StatusState, status
from tests.servers.loopback import Connection, serve
from tests.test_status import NAME, RUNTIME, declaration, running_host, runtime_file


def not_http(connection: Connection) -> None:
    """A handler that reads the request and answers with something that is not HTTP."""
    connection.read_request()
    connection.send(b"SSH-2.0-OpenSSH_9.6\r\n\r\n")


def test_an_endpoint_that_answers_but_not_as_mcp_is_endpoint_unavailable() -> None:
    with serve(not_http) as server:
        url = f"http://127.0.0.1:{server.port}"
        host = running_host(url).add_file(RUNTIME, runtime_file(url))
        result = status(declaration(), host=host, probe=True, display_name=NAME, deadline=5.0)
    assert result.state is StatusState.ENDPOINT_UNAVAILABLE
    assert result.probe is not None
    assert result.probe.outcome is ProbeOutcome.NOT_MCP
    assert result.sentence() == (
        f"{NAME} is running, but its endpoint did not answer as an MCP server. "
        f"Restart {NAME}, then try again."
    )


@pytest.mark.parametrize(
    ("is_connected", "state"),
    [(None, StatusState.HERMES_NOT_CONNECTED), (lambda: True, StatusState.CONNECTED)],
    ids=["no connection check", "a connection check"],
)
def test_no_connection_check_logs_nothing(
    caplog: pytest.LogCaptureFixture, is_connected: Callable[[], object] | None, state: StatusState
) -> None:
    caplog.set_level(logging.WARNING, logger="hermes_decl")
    result = status(declaration(), host=running_host(), is_connected=is_connected)
    assert result.state is state
    assert caplog.records == []


def test_a_status_in_a_condition_says_what_to_read_instead() -> None:
    result = status(declaration(), host=running_host(), is_connected=lambda: True)
    with pytest.raises(TypeError) as refused:
        bool(result)
    assert str(refused.value) == "a Status has no truth value: read .usable or .state"
