"""Status sentences, logs and verdicts a mutation review found untested (SPEC 11)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import OsFamily
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.host import use_host
from hermes_decl.resolver.liveness import NoEndpointCode
from hermes_decl.resolver.probe import ProbeOutcome
from hermes_decl.resolver.status import StatusState, astatus, status
from hermes_decl.runtime import presence
from hermes_decl.runtime import status as status_module
from hermes_decl.testing import FakeHost
from tests.servers.loopback import Connection, serve, silent
from tests.test_status import (
    APP_PATH,
    NAME,
    PID,
    RUNTIME,
    declaration,
    running_host,
    runtime_file,
)


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


BLOCKS: dict[str, dict[str, str]] = {
    "win32": {"presence": "executable", "location": "C:\\Vendor\\vendor.exe"},
    "darwin": {"presence": "executable", "location": "/Applications/Vendor.app"},
    "linux": {"presence": "executable", "location": "/opt/vendor/vendor"},
}

ELSEWHERE = [
    (("linux",), "darwin", "V is not available on macOS. Use V on Linux."),
    (
        ("win32", "darwin"),
        "linux",
        "V is not available on Linux. Use V on Windows or macOS.",
    ),
    (
        ("win32", "darwin", "linux"),
        None,
        "V is not available on this operating system. Use V on Windows, macOS or Linux.",
    ),
]


@pytest.mark.parametrize(
    ("blocks", "os_family", "sentence"), ELSEWHERE, ids=["one", "two", "three"]
)
def test_an_unsupported_os_names_every_system_with_a_block(
    blocks: tuple[str, ...], os_family: OsFamily | None, sentence: str
) -> None:
    app = {family: BLOCKS[family] for family in blocks}
    decl = parse_declaration("vendor", app, {"app": True}, where="t")
    result = status(decl, host=FakeHost(os_family), display_name="V")
    assert (result.state, result.sentence()) == (StatusState.UNSUPPORTED_OS, sentence)
    assert (result.availability, result.app_name) == (
        availability(decl, host=FakeHost(os_family)),
        "V",
    )


def test_another_processor_names_each_one_accepted() -> None:
    decl = parse_declaration(
        "vendor", {"linux": BLOCKS["linux"]}, {"app": True, "arch": ["arm64", "x86_64"]}, where="t"
    )
    host = FakeHost("linux", native_machine="riscv64").add_executable("/opt/vendor/vendor")
    result = status(decl, host=host, display_name="V")
    assert (result.state, result.app_name) == (StatusState.UNSUPPORTED_ARCH, "V")
    assert result.user_action == "Use V on a machine with an arm64 or x86_64 processor."
    assert result.availability == availability(decl, host=host)


@pytest.mark.parametrize("name", ["PluginPresence", "Presence", "plugin_presence"])
def test_plugin_presence_is_reachable_from_the_status_module(name: str) -> None:
    assert getattr(status_module, name) is getattr(presence, name)


def test_another_name_is_no_attribute_of_the_status_module() -> None:
    with pytest.raises(AttributeError) as missing:
        getattr(status_module, "presence")  # noqa: B009  # the module's __getattr__ is the subject
    assert str(missing.value) == "module 'hermes_decl.runtime.status' has no attribute 'presence'"


def test_the_probe_of_a_silent_endpoint_waits_the_deadline_it_was_given() -> None:
    with serve(silent) as quiet:
        url = f"http://127.0.0.1:{quiet.port}"
        host = running_host(url).add_file(RUNTIME, runtime_file(url))
        sync = status(declaration(), host=host, probe=True, display_name=NAME, deadline=0.5)
        in_loop = asyncio.run(
            astatus(declaration(), host=host, probe=True, display_name=NAME, deadline=0.5)
        )
    for result in (sync, in_loop):
        assert result.state is StatusState.ENDPOINT_UNAVAILABLE
        assert result.probe is not None
        assert (result.probe.outcome, result.probe.detail) == (
            ProbeOutcome.TIMEOUT,
            "no answer within 0.5 seconds",
        )


def test_no_host_given_is_the_host_chosen_with_use_host() -> None:
    decl = declaration({"kind": "interactive_session"})
    outside = FakeHost("linux", interactive_session=False).add_executable(APP_PATH)
    with use_host(outside):
        result = status(decl, is_connected=lambda: True, display_name=NAME)
    assert (result.state, result.sentence()) == (
        StatusState.NO_INTERACTIVE_SESSION,
        f"{NAME} needs a logged-in desktop session, and this host runs outside one. "
        f"Use {NAME} from a desktop session.",
    )


def without_runtime_file() -> FakeHost:
    return FakeHost("linux", home="/home/dev").add_executable(APP_PATH)


DECIDED_HERE: list[tuple[str, Callable[[], FakeHost], bool, StatusState, NoEndpointCode | None]] = [
    (
        "no runtime file",
        without_runtime_file,
        True,
        StatusState.APP_NOT_RUNNING,
        NoEndpointCode.MISSING_FILE,
    ),
    (
        "an unusable runtime file",
        lambda: without_runtime_file().add_file(RUNTIME, b"not json"),
        True,
        StatusState.ENDPOINT_UNAVAILABLE,
        NoEndpointCode.BAD_JSON,
    ),
    ("running and connected", running_host, True, StatusState.CONNECTED, None),
    ("running, not connected", running_host, False, StatusState.HERMES_NOT_CONNECTED, None),
]


@pytest.mark.parametrize(
    ("host_of", "connected", "state", "code"),
    [case[1:] for case in DECIDED_HERE],
    ids=[case[0] for case in DECIDED_HERE],
)
def test_every_status_keeps_the_verdict_the_name_and_the_runtime_answer(
    host_of: Callable[[], FakeHost],
    connected: bool,
    state: StatusState,
    code: NoEndpointCode | None,
) -> None:
    decl = declaration()
    result = status(decl, host=host_of(), is_connected=lambda: connected, display_name=NAME)
    assert (result.state, result.app_name) == (state, NAME)
    assert result.availability == availability(decl, host=host_of())
    assert (result.runtime.code if result.runtime else None) == code


def test_a_status_without_requirements_keeps_the_verdict_and_the_name() -> None:
    decl = parse_declaration("vendor", None, None, where="t")
    result = status(decl, host=FakeHost("linux"), is_connected=lambda: True, display_name=NAME)
    assert (result.state, result.app_name) == (StatusState.NO_REQUIREMENTS, NAME)
    assert result.availability == availability(decl, host=FakeHost("linux"))


@pytest.mark.parametrize(
    ("connected", "state"),
    [(True, StatusState.CONNECTED), (False, StatusState.HERMES_NOT_CONNECTED)],
    ids=["connected", "not connected"],
)
def test_a_status_of_nothing_observed_keeps_the_verdict_and_the_name(
    connected: bool, state: StatusState
) -> None:
    decl = declaration({"kind": "static"})
    result = status(decl, host=running_host(), is_connected=lambda: connected, display_name=NAME)
    assert (result.state, result.app_name) == (state, NAME)
    assert result.availability == availability(decl, host=running_host())


def test_a_status_outside_a_desktop_session_keeps_the_verdict_and_the_name() -> None:
    decl = declaration({"kind": "interactive_session"})
    outside = FakeHost("linux", interactive_session=False).add_executable(APP_PATH)
    result = status(decl, host=outside, is_connected=lambda: True, display_name=NAME)
    assert (result.state, result.app_name) == (StatusState.NO_INTERACTIVE_SESSION, NAME)
    assert result.availability == availability(decl, host=outside)


def test_an_unproven_listener_keeps_the_verdict_the_name_and_the_endpoint() -> None:
    with serve(silent) as quiet:
        url = f"http://127.0.0.1:{quiet.port}"
        host = FakeHost("linux", home="/home/dev").add_executable(APP_PATH).add_process(PID)
        host.add_file(RUNTIME, runtime_file(url)).add_process(77).add_listener(quiet.port, pid=77)
        result = status(declaration(), host=host, probe=True, display_name=NAME, deadline=2)
    assert (result.state, result.app_name) == (StatusState.ENDPOINT_UNAVAILABLE, NAME)
    assert result.probe is not None and result.probe.outcome is ProbeOutcome.UNVERIFIED_LISTENER
    assert result.sentence() == (
        f"{NAME} is running, but what listens at its MCP endpoint could not be proven to be "
        f"{NAME}. Restart {NAME}, then try again."
    )
    assert result.availability == availability(declaration(), host=host)
    assert result.endpoint is not None
    assert (result.endpoint.url, result.endpoint.pid, result.endpoint.path) == (
        f"{url}/mcp",
        PID,
        RUNTIME,
    )


def test_a_declaration_that_requires_no_app_observes_nothing_of_its_block() -> None:
    # Only a processor is required: the block's runtime file is never read, so its absence is
    # no reason to say the application is not running.
    decl = declaration(requires={"arch": ["x86_64"]})
    result = status(decl, host=without_runtime_file(), is_connected=lambda: True, display_name=NAME)
    assert (result.state, result.runtime, result.sentence()) == (
        StatusState.NO_REQUIREMENTS,
        None,
        f"{NAME} is connected; it needs no application on this machine.",
    )
