"""Gate and status-function cases a mutation review found untested (SPEC 9, 11, 12)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hermes_decl import declaration
from hermes_decl.errors import DeclarationError
from hermes_decl.gates import make_astatus_fn, make_check_fn, make_status_fn, refresh
from hermes_decl.hosts.default import use_host
from hermes_decl.resolver.status import Status, StatusState
from hermes_decl.testing import FakeHost
from tests.servers.loopback import free_port, serve, silent
from tests.test_status import NAME, running_host
from tests.test_status import declaration as status_declaration

APP = {"linux": {"presence": "executable", "location": "/opt/vendor/vendor"}}


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    yield
    declaration.clear()


class BrokenHost(FakeHost):
    """A host whose file checks fail outright."""

    def is_file(self, path: str) -> bool:
        raise RuntimeError("the disk is gone")


def broken_connection() -> bool:
    raise ConnectionError("gone")


def test_each_failure_is_logged_with_the_server_name(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="hermes_decl")
    declaration.register("srv", declaration.parse_declaration("srv", APP, {"app": True}, where="t"))
    assert make_check_fn("srv", broken_connection, host=FakeHost("linux"))() is False
    assert make_check_fn("srv", lambda: True, host=BrokenHost("linux"))() is False
    assert [(record.getMessage(), record.exc_info is not None) for record in caplog.records] == [
        ("the connection check of srv failed", True),
        ("evaluating srv failed; it is not offered", True),
    ]


def test_a_cached_failure_is_logged_with_the_server_name(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="hermes_decl")
    declaration.register("srv", declaration.parse_declaration("srv", APP, {"app": True}, where="t"))
    assert make_check_fn("srv", lambda: True, host=BrokenHost("linux"), max_age=60)() is False
    assert [record.getMessage() for record in caplog.records] == [
        "evaluating srv failed; it is not offered"
    ]


def test_a_cached_verdict_of_the_chosen_host_is_not_reused_for_another_choice() -> None:
    refresh()
    declaration.register("srv", declaration.parse_declaration("srv", APP, {"app": True}, where="t"))
    check = make_check_fn("srv", lambda: True, max_age=3600)
    with use_host(FakeHost("linux").add_executable("/opt/vendor/vendor")):
        assert check() is True
    with use_host(FakeHost("linux")):
        assert check() is False
    refresh()


def synchronous(server_name: str, is_connected: Callable[[], bool], **options: Any) -> Status:
    return make_status_fn(server_name, is_connected, **options)()


def asynchronous(server_name: str, is_connected: Callable[[], bool], **options: Any) -> Status:
    return asyncio.run(make_astatus_fn(server_name, is_connected, **options)())


DRIVERS = pytest.mark.parametrize("driver", [synchronous, asynchronous], ids=["sync", "async"])


@DRIVERS
def test_a_status_function_probes_only_when_asked(driver: Callable[..., Status]) -> None:
    declaration.register("vendor-studio", status_declaration())
    host = running_host(f"http://127.0.0.1:{free_port()}")
    unprobed = driver("vendor-studio", lambda: True, host=host, display_name=NAME)
    assert (unprobed.state, unprobed.probe) == (StatusState.CONNECTED, None)
    probed = driver("vendor-studio", lambda: True, host=host, display_name=NAME, probe=True)
    assert probed.state is StatusState.ENDPOINT_UNAVAILABLE
    assert probed.sentence() == (
        f"{NAME} is running, but nothing accepts connections at its MCP endpoint. "
        f"Restart {NAME}, then try again."
    )


@DRIVERS
def test_a_status_function_of_a_blank_name_names_it_as_the_source(
    driver: Callable[..., Status],
) -> None:
    with pytest.raises(DeclarationError) as refused:
        driver(" ", lambda: True)
    assert str(refused.value) == " : name: must not be blank (got ' ')"


@DRIVERS
def test_a_status_function_probes_under_the_deadline_it_was_given(
    driver: Callable[..., Status],
) -> None:
    declaration.register("vendor-studio", status_declaration())
    with serve(silent) as quiet:
        host = running_host(f"http://127.0.0.1:{quiet.port}")
        result = driver(
            "vendor-studio", lambda: True, host=host, display_name=NAME, probe=True, deadline=0.5
        )
    assert result.state is StatusState.ENDPOINT_UNAVAILABLE
    assert result.probe is not None and result.probe.detail == "no answer within 0.5 seconds"
    assert result.sentence() == (
        f"{NAME} is running, but its MCP endpoint did not answer within 0.5 seconds. "
        f"Restart {NAME}, then try again."
    )
