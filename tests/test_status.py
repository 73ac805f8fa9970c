"""The runtime status: every state and sentence on FakeHost, the live host and loopback servers."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration, register
from hermes_decl.gates import make_astatus_fn, make_check_fn, make_status_fn
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.registry import clear
from hermes_decl.resolver.availability import Availability, AvailabilityState
from hermes_decl.resolver.gpu import GpuClass, clear_gpu_cache, gpu_class
from hermes_decl.resolver.live_host import LiveHost
from hermes_decl.resolver.liveness import NoEndpointCode
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.resolver.status import Retry, Status, StatusState, astatus, status
from hermes_decl.testing import FakeHost
from tests.process_starts import output_of, popen_started
from tests.processes import another_users_process
from tests.servers.loopback import SdkServer, free_port, sdk_server, serve, silent

TOKEN = "SENTINEL-STATUS-TOKEN-93d2"
PID = 4242
NAME = "Vendor Studio"
APP_PATH = "/opt/vendor/studio"
RUNTIME = "/home/dev/.vendor/server.json"
HOSTS = Path(__file__).parent / "fixtures" / "hosts"

needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and users")
needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux session")


@pytest.fixture(autouse=True)
def fresh_state() -> Iterator[None]:
    clear_gpu_cache()
    clear()
    yield
    clear()


@pytest.fixture(scope="module")
def sdk() -> Iterator[SdkServer]:
    """One official MCP SDK server for the module, checking ``TOKEN``."""
    with sdk_server(TOKEN, lifetime=300) as server:
        yield server


def linux_block(liveness: dict[str, Any] | None, location: str = APP_PATH) -> dict[str, Any]:
    block: dict[str, Any] = {"presence": "executable", "location": location}
    if liveness is not None:
        block["liveness"] = liveness
    return block


SERVER_JSON = {"kind": "server_json", "path": "~/.vendor/server.json"}


def declaration(
    liveness: dict[str, Any] | None = SERVER_JSON,
    requires: dict[str, Any] | None = None,
    app: dict[str, Any] | None = None,
) -> Declaration:
    return parse_declaration(
        "vendor-studio",
        raw_app=app if app is not None else {"linux": linux_block(liveness)},
        raw_requires={"app": True} if requires is None else requires,
        where="test",
    )


def runtime_file(url: str, pid: int = PID, token: str | None = TOKEN) -> bytes:
    return json.dumps({"pid": pid, "http": url, "token": token}).encode()


def running_host(url: str = "http://127.0.0.1:5000", **process: Any) -> FakeHost:
    """A Linux machine where the application is installed, its process published ``url`` and
    listens on its port (on both loopback addresses, as ``localhost`` may mean either)."""
    host = FakeHost("linux", home="/home/dev").add_executable(APP_PATH)
    host.add_file(RUNTIME, runtime_file(url))
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    host.add_listener(port, pid=PID).add_listener(port, pid=PID, address="::1")
    return host.add_process(PID, **process)


class Connection:
    """The host's own connection check, counting its calls."""

    def __init__(self, answer: bool | Exception) -> None:
        self.answer, self.calls = answer, 0

    def __call__(self) -> bool:
        self.calls += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


UP, DOWN = True, False


@dataclass
class Row:
    """One row of the decision table on FakeHost."""

    host: Callable[[], FakeHost]
    connected: bool | None
    state: StatusState
    sentence: str
    decl: Declaration = field(default_factory=declaration)
    asks_connection: bool = True


CASK_BUNDLE: dict[str, Any] = {
    "presence": "bundle",
    "location": "/Applications/Vendor.app",
    "install": {"brew_cask": "vendor-studio"},
}


def row_decls() -> dict[str, Declaration]:
    return {
        "darwin-old": declaration(
            app={
                "darwin": {
                    "presence": "bundle",
                    "location": "/Applications/Vendor.app",
                    "version": {"kind": "plist"},
                }
            },
            requires={"app": True, "min_version": "2.0"},
        ),
        "windows-and-mac": declaration(
            app={
                "win32": {"presence": "executable", "location": "C:\\Vendor\\studio.exe"},
                "darwin": {"presence": "executable", "location": "/Applications/vendor"},
            }
        ),
        "gpu": declaration(requires={"app": True, "gpu": "nvidia"}),
        "arm64": declaration(requires={"app": True, "arch": "arm64"}),
        "ventura": declaration(app={"darwin": {**CASK_BUNDLE, "min_os_version": "13.0"}}),
        "cask": declaration(app={"darwin": CASK_BUNDLE}),
        "interactive": declaration({"kind": "interactive_session"}),
        "static": declaration({"kind": "static"}),
        "none": declaration(None),
        "nothing-required": declaration(requires={}),
    }


DECLS = row_decls()
INSTALL = f"{NAME} is not installed. Install {NAME}, then try again."
NOT_RUNNING = f"{NAME} is not running. Start {NAME}, then try again."
RUNNING_NOT_CONNECTED = (
    f"{NAME} is running, but this host is not connected to it. Reconnect {NAME}, then try again."
)
NOT_CONNECTED = f"This host is not connected to {NAME}. Reconnect {NAME}, then try again."
CONNECTED = f"{NAME} is connected."

ROWS: dict[str, Row] = {
    "missing-app": Row(
        lambda: FakeHost("linux", home="/home/dev"),
        UP,
        StatusState.MISSING_APP,
        INSTALL,
        asks_connection=False,
    ),
    "version-too-old": Row(
        lambda: FakeHost("darwin").add_bundle("/Applications/Vendor.app", "1.0"),
        UP,
        StatusState.VERSION_TOO_OLD,
        f"{NAME} version 1.0 is too old; version 2.0 or newer is required. "
        f"Update {NAME}, then try again.",
        DECLS["darwin-old"],
        asks_connection=False,
    ),
    "version-unreadable": Row(
        lambda: FakeHost("darwin").add_bundle("/Applications/Vendor.app"),
        UP,
        StatusState.VERSION_TOO_OLD,
        f"{NAME} is installed at /Applications/Vendor.app, but no version could be read from it; "
        f"version 2.0 or newer is required. Check that it is {NAME} 2.0 or newer, then try again.",
        DECLS["darwin-old"],
        asks_connection=False,
    ),
    "unsupported-os": Row(
        lambda: FakeHost("linux"),
        UP,
        StatusState.UNSUPPORTED_OS,
        f"{NAME} is not available on Linux. Use {NAME} on Windows or macOS.",
        DECLS["windows-and-mac"],
        asks_connection=False,
    ),
    "unsupported-gpu": Row(
        lambda: running_host().add_pci_device(vendor="0x1002"),
        UP,
        StatusState.UNSUPPORTED_GPU,
        f"{NAME} needs an NVIDIA GPU; none was found on this machine. "
        f"Use {NAME} on a machine with an NVIDIA GPU.",
        DECLS["gpu"],
        asks_connection=False,
    ),
    "unsupported-arch": Row(
        lambda: running_host(),
        UP,
        StatusState.UNSUPPORTED_ARCH,
        f"{NAME} needs an arm64 processor; this machine has x86_64. "
        f"Use {NAME} on a machine with an arm64 processor.",
        DECLS["arm64"],
        asks_connection=False,
    ),
    "unsupported-os-version": Row(
        lambda: FakeHost("darwin", os_version="12.7").add_bundle("/Applications/Vendor.app"),
        UP,
        StatusState.UNSUPPORTED_OS_VERSION,
        f"{NAME} needs macOS 13.0 or newer; this Mac runs 12.7. "
        "Update macOS to 13.0 or newer, then try again.",
        DECLS["ventura"],
        asks_connection=False,
    ),
    "missing-app-with-install-hint": Row(
        lambda: FakeHost("darwin"),
        UP,
        StatusState.MISSING_APP,
        f"{NAME} is not installed. Install {NAME} with `brew install --cask vendor-studio`, "
        "then try again.",
        DECLS["cask"],
        asks_connection=False,
    ),
    "no-interactive-session": Row(
        lambda: FakeHost("linux").add_executable(APP_PATH),
        UP,
        StatusState.NO_INTERACTIVE_SESSION,
        f"{NAME} needs a logged-in desktop session, and this host runs outside one. "
        f"Use {NAME} from a desktop session.",
        DECLS["interactive"],
        asks_connection=False,
    ),
    "interactive-session": Row(
        lambda: FakeHost("linux", env={"WAYLAND_DISPLAY": "wayland-0"}).add_executable(APP_PATH),
        UP,
        StatusState.CONNECTED,
        CONNECTED,
        DECLS["interactive"],
    ),
    "interactive-session-down": Row(
        lambda: FakeHost("linux", env={"DISPLAY": ":0"}).add_executable(APP_PATH),
        DOWN,
        StatusState.HERMES_NOT_CONNECTED,
        NOT_CONNECTED,
        DECLS["interactive"],
    ),
    "no-runtime-file": Row(
        lambda: FakeHost("linux", home="/home/dev").add_executable(APP_PATH),
        UP,
        StatusState.APP_NOT_RUNNING,
        NOT_RUNNING,
        asks_connection=False,
    ),
    "dead-process": Row(
        lambda: running_host().end_process(PID),
        UP,
        StatusState.APP_NOT_RUNNING,
        NOT_RUNNING,
        asks_connection=False,
    ),
    "another-users-process": Row(
        lambda: running_host(user="0"),
        UP,
        StatusState.APP_NOT_RUNNING,
        NOT_RUNNING,
        asks_connection=False,
    ),
    "file-older-than-its-process": Row(
        lambda: running_host(started=2_000_000_000.0),
        UP,
        StatusState.APP_NOT_RUNNING,
        NOT_RUNNING,
        asks_connection=False,
    ),
    "a-process-whose-owner-cannot-be-read": Row(
        lambda: running_host().add_unreadable_process(PID),
        UP,
        StatusState.ENDPOINT_UNAVAILABLE,
        f"{NAME} published no MCP endpoint this host can use. Restart {NAME}, then try again.",
        asks_connection=False,
    ),
    "a-process-whose-start-cannot-be-read": Row(
        lambda: running_host(started=None),
        UP,
        StatusState.ENDPOINT_UNAVAILABLE,
        f"{NAME} published no MCP endpoint this host can use. Restart {NAME}, then try again.",
        asks_connection=False,
    ),
    "unusable-runtime-file": Row(
        lambda: running_host("https://127.0.0.1:5000"),
        UP,
        StatusState.ENDPOINT_UNAVAILABLE,
        f"{NAME} published no MCP endpoint this host can use. Restart {NAME}, then try again.",
        asks_connection=False,
    ),
    "running-not-connected": Row(
        running_host, DOWN, StatusState.HERMES_NOT_CONNECTED, RUNNING_NOT_CONNECTED
    ),
    "running-connection-unknown": Row(
        running_host, None, StatusState.HERMES_NOT_CONNECTED, RUNNING_NOT_CONNECTED
    ),
    "running-connected": Row(running_host, UP, StatusState.CONNECTED, CONNECTED),
    "static-down": Row(
        lambda: FakeHost("linux").add_executable(APP_PATH),
        DOWN,
        StatusState.HERMES_NOT_CONNECTED,
        NOT_CONNECTED,
        DECLS["static"],
    ),
    "static-up": Row(
        lambda: FakeHost("linux").add_executable(APP_PATH),
        UP,
        StatusState.CONNECTED,
        CONNECTED,
        DECLS["static"],
    ),
    "no-liveness-down": Row(
        lambda: FakeHost("linux").add_executable(APP_PATH),
        DOWN,
        StatusState.HERMES_NOT_CONNECTED,
        NOT_CONNECTED,
        DECLS["none"],
    ),
    "no-requirements-up": Row(
        lambda: FakeHost("linux"),
        UP,
        StatusState.NO_REQUIREMENTS,
        f"{NAME} is connected; it needs no application on this machine.",
        DECLS["nothing-required"],
    ),
    "no-requirements-down": Row(
        lambda: FakeHost("linux"),
        DOWN,
        StatusState.HERMES_NOT_CONNECTED,
        NOT_CONNECTED,
        DECLS["nothing-required"],
    ),
    "gpu-met-down": Row(
        lambda: running_host().add_nvidia_proc(),
        DOWN,
        StatusState.HERMES_NOT_CONNECTED,
        RUNNING_NOT_CONNECTED,
        DECLS["gpu"],
    ),
}

RETRY = {
    StatusState.UNSUPPORTED_OS: Retry.NEVER_HERE,
    StatusState.UNSUPPORTED_GPU: Retry.NEVER_HERE,
    StatusState.UNSUPPORTED_ARCH: Retry.NEVER_HERE,
    StatusState.NO_INTERACTIVE_SESSION: Retry.NEVER_HERE,
    StatusState.CONNECTED: None,
    StatusState.NO_REQUIREMENTS: None,
}


@pytest.mark.parametrize("row", list(ROWS.values()), ids=list(ROWS))
def test_the_decision_table_on_a_fake_host(row: Row) -> None:
    connection = None if row.connected is None else Connection(row.connected)
    result = status(row.decl, host=row.host(), is_connected=connection, display_name=NAME)
    assert (result.state, result.sentence()) == (row.state, row.sentence)
    assert result.retry is RETRY.get(row.state, Retry.AFTER_USER_ACTION)
    assert result.usable is (row.state in (StatusState.CONNECTED, StatusState.NO_REQUIREMENTS))
    if result.user_action is not None:
        assert result.sentence() == f"{result.reason} {result.user_action}"
        assert result.user_action.endswith(".")
    else:
        assert result.sentence() == result.reason
    if connection is not None:
        assert connection.calls == (1 if row.asks_connection else 0)
    assert TOKEN not in repr(result) + str(result) + result.sentence()


def test_every_state_has_a_row() -> None:
    assert {row.state for row in ROWS.values()} | {StatusState.ENDPOINT_UNAVAILABLE} == set(
        StatusState
    )


def test_never_says_start_when_running_nor_not_running_when_unobserved() -> None:
    for name, row in ROWS.items():
        connection = None if row.connected is None else Connection(row.connected)
        result = status(row.decl, host=row.host(), is_connected=connection, display_name=NAME)
        if result.state is not StatusState.APP_NOT_RUNNING:
            assert "Start" not in result.sentence(), name
            assert "not running" not in result.sentence(), name
        block = row.decl.app_for("linux")
        if block is None or block.liveness_kind != "server_json":
            assert "is running" not in result.sentence(), name


def test_the_declared_display_name_is_used_when_none_is_given() -> None:
    decl = declaration(app={"display_name": "Studio Pro", "linux": linux_block(SERVER_JSON)})
    result = status(decl, host=running_host(), is_connected=Connection(DOWN))
    assert result.app_name == "Studio Pro"
    assert result.sentence() == (
        "Studio Pro is running, but this host is not connected to it. "
        "Reconnect Studio Pro, then try again."
    )
    named = status(decl, host=running_host(), is_connected=Connection(DOWN), display_name=NAME)
    assert named.app_name == NAME


def test_the_slug_is_used_only_without_a_display_name() -> None:
    result = status(declaration(), host=running_host(), is_connected=Connection(DOWN))
    assert result.sentence() == (
        "vendor-studio is running, but this host is not connected to it. "
        "Reconnect vendor-studio, then try again."
    )
    named = status(declaration(), host=running_host(), display_name=NAME)
    assert "vendor-studio" not in named.sentence()
    assert named.app_name == NAME


def test_a_failing_connection_check_is_logged_and_counts_as_down(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, logger="hermes_decl")
    result = status(
        declaration(), host=running_host(), is_connected=Connection(RuntimeError("socket gone"))
    )
    assert result.state is StatusState.HERMES_NOT_CONNECTED
    assert [record.getMessage() for record in caplog.records] == [
        "the connection check of vendor-studio failed; it counts as not connected"
    ]


def test_the_availability_it_started_from_is_kept() -> None:
    result = status(declaration(), host=running_host(), is_connected=Connection(UP))
    assert result.availability.state is AvailabilityState.AVAILABLE
    assert result.availability.path == APP_PATH
    assert result.endpoint is not None and result.endpoint.pid == PID
    assert result.runtime is None and result.probe is None


def test_the_runtime_problem_is_kept() -> None:
    result = status(declaration(), host=running_host(user="0"))
    assert result.runtime is not None
    assert result.runtime.code is NoEndpointCode.OTHER_USER
    assert result.endpoint is None


REFUSED_VERDICTS = (
    "missing_app",
    "version_too_old",
    "unsupported_os",
    "unsupported_gpu",
    "unsupported_arch",
    "unsupported_os_version",
)


def test_every_refused_verdict_has_the_status_state_of_its_name() -> None:
    offered_or_reserved = {"available", "no_requirements", "installed_not_running"}
    refused_states = {state.value for state in AvailabilityState} - offered_or_reserved
    assert refused_states == set(REFUSED_VERDICTS)
    for refused in REFUSED_VERDICTS:
        assert StatusState.for_availability(AvailabilityState(refused)) is StatusState(refused)


def test_the_reserved_availability_state_is_no_status_state() -> None:
    with pytest.raises(ValueError, match="'installed_not_running' is not a valid StatusState"):
        StatusState.for_availability(AvailabilityState.INSTALLED_NOT_RUNNING)


def test_a_host_that_cannot_tell_its_session_is_not_blamed() -> None:
    host = FakeHost("darwin").add_executable("/Applications/vendor")
    decl = declaration(
        app={
            "darwin": {
                "presence": "executable",
                "location": "/Applications/vendor",
                "liveness": {"kind": "interactive_session"},
            }
        }
    )
    assert host.interactive_session() is None
    assert status(decl, host=host, is_connected=Connection(UP)).state is StatusState.CONNECTED


def test_status_has_no_truth_value_and_stable_values() -> None:
    result = status(declaration(), host=running_host())
    with pytest.raises(TypeError, match="no truth value"):
        bool(result)
    assert [state.value for state in StatusState] == [
        "connected",
        "no_requirements",
        "hermes_not_connected",
        "app_not_running",
        "endpoint_unavailable",
        "no_interactive_session",
        "missing_app",
        "version_too_old",
        "unsupported_os",
        "unsupported_gpu",
        "unsupported_arch",
        "unsupported_os_version",
    ]
    assert [retry.value for retry in Retry] == ["after_user_action", "never_here"]
    assert str(StatusState.CONNECTED) == "connected" and str(Retry.NEVER_HERE) == "never_here"


# -- with real loopback servers ------------------------------------------------------------------


def test_running_and_answering_but_not_connected_is_hermes_not_connected(sdk: SdkServer) -> None:
    result = status(
        declaration(),
        host=running_host(f"http://127.0.0.1:{sdk.port}"),
        is_connected=Connection(DOWN),
        probe=True,
        display_name=NAME,
    )
    assert result.state is StatusState.HERMES_NOT_CONNECTED
    assert result.sentence() == RUNNING_NOT_CONNECTED
    assert result.probe is not None and result.probe.answering
    assert result.probe.server_name == "Vendor Studio"


def test_running_answering_and_connected(sdk: SdkServer) -> None:
    result = status(
        declaration(),
        host=running_host(f"http://localhost:{sdk.port}"),
        is_connected=Connection(UP),
        probe=True,
        display_name=NAME,
    )
    assert (result.state, result.sentence()) == (StatusState.CONNECTED, CONNECTED)
    assert result.endpoint is not None
    assert result.endpoint.url == f"http://localhost:{sdk.port}/mcp"


PROBE_FAILURES: dict[str, tuple[str, str]] = {
    "refused": ("refused", "nothing accepts connections at its MCP endpoint"),
    "timeout": ("timeout", "its MCP endpoint did not answer within 1 seconds"),
    "wrong-token": ("unauthorized", "its MCP endpoint refused this host's token"),
    "wrong-path": ("http_404", "its MCP endpoint answered HTTP 404"),
}


@pytest.mark.parametrize("case", list(PROBE_FAILURES))
def test_an_endpoint_that_does_not_answer_is_endpoint_unavailable(
    case: str, sdk: SdkServer
) -> None:
    reason, why = PROBE_FAILURES[case]
    decl, token = declaration(), TOKEN
    if case == "wrong-token":
        token = "another-token"
    if case == "wrong-path":
        decl = declaration({**SERVER_JSON, "endpoint_path": "/elsewhere"})
    with serve(silent) as quiet:
        port = {"refused": free_port(), "timeout": quiet.port}.get(case, sdk.port)
        url = f"http://127.0.0.1:{port}"
        host = running_host(url).add_file(RUNTIME, runtime_file(url, token=token))
        connection = Connection(UP)
        result = status(
            decl, host=host, is_connected=connection, probe=True, display_name=NAME, deadline=1.0
        )
    assert result.state is StatusState.ENDPOINT_UNAVAILABLE
    assert result.sentence() == f"{NAME} is running, but {why}. Restart {NAME}, then try again."
    assert result.probe is not None and result.probe.reason == reason
    assert connection.calls == 0


def test_a_stale_file_never_contacts_the_endpoint() -> None:
    with serve(silent) as server:
        host = running_host(f"http://127.0.0.1:{server.port}", started=2_000_000_000.0)
        result = status(declaration(), host=host, probe=True, display_name=NAME)
    assert result.state is StatusState.APP_NOT_RUNNING
    assert result.probe is None
    assert server.connections == []


def test_without_probe_nothing_is_contacted() -> None:
    with serve(silent) as server:
        host = running_host(f"http://127.0.0.1:{server.port}")
        result = status(declaration(), host=host, display_name=NAME)
    assert result.state is StatusState.HERMES_NOT_CONNECTED
    assert server.connections == []


# -- the live host -------------------------------------------------------------------------------


def live_decl(directory: Path, **extra: Any) -> Declaration:
    """A Linux/macOS declaration whose application and runtime file are in ``directory``."""
    block = {
        "presence": "executable",
        "location": str(directory / "studio"),
        "liveness": {"kind": "server_json", "path": str(directory / "server.json")},
    }
    os_family: OsFamily = "darwin" if sys.platform == "darwin" else "linux"
    return parse_declaration(
        "vendor-studio", raw_app={os_family: block}, raw_requires={"app": True, **extra}, where="t"
    )


def live_machine(directory: Path, url: str, pid: int | None = None) -> Declaration:
    (directory / "studio").write_bytes(b"#!/bin/sh\n")
    (directory / "server.json").write_bytes(
        runtime_file(url, pid=os.getpid() if pid is None else pid)
    )
    return live_decl(directory)


def live_status(decl: Declaration, connected: bool, probe: bool = False) -> Status:
    return status(
        decl,
        host=LiveHost(),
        is_connected=Connection(connected),
        probe=probe,
        display_name=NAME,
        deadline=1.0,
    )


@needs_posix
def test_live_connected_and_hermes_not_connected(tmp_path: Path, sdk: SdkServer) -> None:
    decl = live_machine(tmp_path, f"http://127.0.0.1:{sdk.port}")
    up = live_status(decl, UP, probe=True)
    assert (up.state, up.sentence()) == (StatusState.CONNECTED, CONNECTED)
    down = live_status(decl, DOWN, probe=True)
    assert (down.state, down.sentence()) == (
        StatusState.HERMES_NOT_CONNECTED,
        RUNNING_NOT_CONNECTED,
    )
    assert down.probe is not None and down.probe.answering


@needs_posix
def test_live_endpoint_unavailable(tmp_path: Path) -> None:
    decl = live_machine(tmp_path, f"http://127.0.0.1:{free_port()}")
    result = live_status(decl, UP, probe=True)
    assert result.state is StatusState.ENDPOINT_UNAVAILABLE
    assert result.probe is not None and result.probe.reason == "refused"


@needs_posix
def test_live_app_not_running(tmp_path: Path) -> None:
    child = popen_started([sys.executable, "-c", "pass"])
    child.wait(60)
    dead = live_machine(tmp_path, "http://127.0.0.1:5000", pid=child.pid)
    assert live_status(dead, UP).state is StatusState.APP_NOT_RUNNING
    with another_users_process() as pid:
        foreign = live_machine(tmp_path, "http://127.0.0.1:5000", pid=pid)
        result = live_status(foreign, UP)
    assert result.state is StatusState.APP_NOT_RUNNING
    assert result.runtime is not None and result.runtime.code is NoEndpointCode.OTHER_USER
    stale = live_machine(tmp_path, "http://127.0.0.1:5000")
    long_ago = time.time() - 10 * 365 * 24 * 3600
    os.utime(tmp_path / "server.json", (long_ago, long_ago))
    result = live_status(stale, UP)
    assert result.runtime is not None and result.runtime.code is NoEndpointCode.STALE_FILE
    assert result.sentence() == NOT_RUNNING


@needs_posix
def test_live_refusals_from_availability(tmp_path: Path) -> None:
    missing = live_decl(tmp_path)
    assert live_status(missing, UP).state is StatusState.MISSING_APP
    other_os = parse_declaration(
        "vendor-studio",
        raw_app={"win32": {"presence": "executable", "location": "C:\\Vendor\\studio.exe"}},
        raw_requires={"app": True},
        where="t",
    )
    assert live_status(other_os, UP).state is StatusState.UNSUPPORTED_OS
    nothing = parse_declaration("vendor-studio", None, None, where="t")
    assert live_status(nothing, UP).state is StatusState.NO_REQUIREMENTS


@needs_posix
def test_live_version_too_old(tmp_path: Path) -> None:
    bundle = tmp_path / "Vendor.app"
    (bundle / "Contents").mkdir(parents=True)
    (bundle / "Contents" / "Info.plist").write_bytes(
        b'<?xml version="1.0"?><plist version="1.0"><dict>'
        b"<key>CFBundleShortVersionString</key><string>1.0</string></dict></plist>"
    )
    decl = parse_declaration(
        "vendor-studio",
        raw_app={
            "darwin": {"presence": "bundle", "location": str(bundle), "version": {"kind": "plist"}}
        },
        raw_requires={"app": True, "min_version": "2.0"},
        where="t",
    )
    result = status(decl, host=LiveHost("darwin"), is_connected=Connection(UP))
    assert result.state is StatusState.VERSION_TOO_OLD


def test_unsupported_gpu_on_a_captured_machine() -> None:
    # The live machine's GPU cannot be chosen: a tree captured from an AMD machine, read by the
    # live host's own file primitives, stands in for it.
    decl = declaration(requires={"app": True, "gpu": "nvidia"})
    result = status(decl, host=RootedHost(HOSTS / "amd"), is_connected=Connection(UP))
    assert result.state is StatusState.UNSUPPORTED_GPU
    assert result.retry is Retry.NEVER_HERE


def test_the_live_gpu_decides_as_gpu_class_does() -> None:
    # Whatever this machine's GPU, the status agrees with gpu_class on the live host.
    decl = declaration(requires={"app": True, "gpu": "nvidia"})
    result = status(decl, host=LiveHost(), is_connected=Connection(UP))
    refused = gpu_class(LiveHost()) not in (GpuClass.NVIDIA, GpuClass.UNKNOWN)
    assert (result.state is StatusState.UNSUPPORTED_GPU) is refused


def status_in(env: dict[str, str], directory: Path) -> str:
    """The status state a live host computes in a fresh process with exactly ``env``."""
    (directory / "studio").write_bytes(b"")
    code = (
        "import sys\n"
        "from hermes_decl.declaration import parse_declaration\n"
        "from hermes_decl.resolver.status import status\n"
        "block = {'presence': 'executable', 'location': sys.argv[1],\n"
        "         'liveness': {'kind': 'interactive_session'}}\n"
        "decl = parse_declaration('x', {'linux': block}, {'app': True}, where='t')\n"
        "print(status(decl, is_connected=lambda: True).state.value)\n"
    )
    base = {name: os.environ[name] for name in ("PATH", "PYTHONPATH") if name in os.environ}
    return output_of(
        [sys.executable, "-c", code, str(directory / "studio")],
        env={**base, **env},
        cwd=Path(__file__).parent.parent,
    )


@needs_linux
def test_live_interactive_session(tmp_path: Path) -> None:
    assert status_in({}, tmp_path) == "no_interactive_session"
    assert status_in({"DISPLAY": ":0"}, tmp_path) == "connected"


# -- the gates -----------------------------------------------------------------------------------


def test_make_status_fn_follows_the_registry() -> None:
    host = running_host()
    connection = Connection(DOWN)
    current = make_status_fn("vendor-studio", connection, host=host, display_name=NAME)
    unregistered = current()  # no registration: what the host knows, its connection
    assert unregistered.state is StatusState.HERMES_NOT_CONNECTED
    assert unregistered.usable is False
    assert unregistered.sentence() == NOT_CONNECTED
    assert unregistered.availability.state is AvailabilityState.NO_REQUIREMENTS
    register("vendor-studio", declaration())
    first = current()
    assert first is not None and first.state is StatusState.HERMES_NOT_CONNECTED
    assert first.sentence() == RUNNING_NOT_CONNECTED
    register("vendor-studio", declaration({"kind": "static"}))
    second = current()
    assert second is not None and second.sentence() == NOT_CONNECTED
    connection.answer = UP
    third = current()
    assert third is not None and third.state is StatusState.CONNECTED
    clear()
    after = current()
    assert after.state is StatusState.NO_REQUIREMENTS and after.usable is True
    assert after.sentence() == f"{NAME} is connected; it needs no application on this machine."
    assert [s.state for s in (current(), current()) if s.usable] == ["no_requirements"] * 2


def test_make_check_fn_stays_a_light_bool(sdk: SdkServer) -> None:
    host = running_host(f"http://127.0.0.1:{sdk.port}")
    register("vendor-studio", declaration())
    check = make_check_fn("vendor-studio", Connection(UP), host=host)
    assert check() is True
    # availability only: the runtime file is never read, so nothing is probed
    assert all(RUNTIME not in args for _method, args in host.call_log)


def test_make_status_fn_probes_only_when_asked(sdk: SdkServer) -> None:
    register("vendor-studio", declaration())
    host = running_host(f"http://127.0.0.1:{sdk.port}")
    plain = make_status_fn("vendor-studio", Connection(UP), host=host)()
    probed = make_status_fn("vendor-studio", Connection(UP), host=host, probe=True)()
    assert plain is not None and plain.probe is None
    assert probed is not None and probed.probe is not None and probed.probe.answering


# -- the documented table ------------------------------------------------------------------------

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def retry_of(state: StatusState) -> str:
    retry = Status(state, Availability(AvailabilityState.AVAILABLE), NAME, "reason").retry
    return "—" if retry is None else retry.value


def test_the_readme_table_is_the_decision_order() -> None:
    section = README.split("## Runtime status", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| .*? \| `?([\w—]+)`? \| ", section, flags=re.MULTILINE)
    assert [state for state, _ in rows] == [
        "missing_app",
        "version_too_old",
        "unsupported_os",
        "unsupported_gpu",
        "unsupported_arch",
        "unsupported_os_version",
        "no_interactive_session",
        "app_not_running",
        "endpoint_unavailable",
        "hermes_not_connected",
        "no_requirements",
        "connected",
    ]
    assert {state for state, _ in rows} == {state.value for state in StatusState}
    for state, retry in rows:
        assert retry == retry_of(StatusState(state)), state


def test_the_module_table_is_the_decision_order() -> None:
    import hermes_decl.runtime.status as module

    assert module.__doc__ is not None
    rows = re.findall(
        r"^(\w+) +.*? {2,}(after_user_action|never_here|none \(usable\))$",
        module.__doc__,
        flags=re.MULTILINE,
    )
    readme = re.findall(
        r"^\| `(\w+)` \|", README.split("## Runtime status", 1)[1], flags=re.MULTILINE
    )
    assert [state for state, _ in rows] == readme[: len(rows)]
    assert len(rows) == len(StatusState)
    for state, retry in rows:
        assert retry.replace("none (usable)", "—") == retry_of(StatusState(state)), state


# -- the async driver ------------------------------------------------------------------------


class AsyncConnection(Connection):
    """The host's connection check as a coroutine, as an asyncio host writes it."""

    async def check(self) -> bool:
        return Connection.__call__(self)


@pytest.mark.parametrize("row", list(ROWS.values()), ids=list(ROWS))
@pytest.mark.parametrize("asynchronous", [False, True], ids=["sync-check", "async-check"])
def test_astatus_decides_as_status_does(row: Row, asynchronous: bool) -> None:
    connection = None if row.connected is None else AsyncConnection(row.connected)
    check = None if connection is None else (connection.check if asynchronous else connection)
    result = asyncio.run(astatus(row.decl, host=row.host(), is_connected=check, display_name=NAME))
    same_check = None if row.connected is None else Connection(row.connected)
    assert result == status(row.decl, host=row.host(), is_connected=same_check, display_name=NAME)
    assert (result.state, result.sentence()) == (row.state, row.sentence)
    if connection is not None:
        assert connection.calls == (1 if row.asks_connection else 0)


def test_astatus_probes_on_the_event_loop(sdk: SdkServer) -> None:
    host = running_host(f"http://127.0.0.1:{sdk.port}")
    decl = declaration()

    async def both() -> tuple[Status, Status]:
        probed = await astatus(decl, host=host, is_connected=Connection(UP), probe=True)
        refused = await astatus(
            decl,
            host=running_host(f"http://127.0.0.1:{free_port()}"),
            is_connected=Connection(UP),
            probe=True,
            display_name=NAME,
        )
        return probed, refused

    probed, refused = asyncio.run(both())
    assert probed.state is StatusState.CONNECTED
    assert probed.probe is not None and probed.probe.answering
    assert refused.state is StatusState.ENDPOINT_UNAVAILABLE
    assert refused.sentence() == (
        f"{NAME} is running, but nothing accepts connections at its MCP endpoint. "
        f"Restart {NAME}, then try again."
    )


def test_an_async_connection_check_that_fails_counts_as_down(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken() -> bool:
        raise ConnectionError("gone")

    result = asyncio.run(
        astatus(declaration({"kind": "static"}), host=running_host(), is_connected=broken)
    )
    assert result.state is StatusState.HERMES_NOT_CONNECTED
    assert "the connection check of vendor-studio failed" in caplog.text


def test_make_astatus_fn_follows_the_registry() -> None:
    host = running_host()
    connection = AsyncConnection(UP)
    current = make_astatus_fn("vendor-studio", connection.check, host=host, display_name=NAME)
    assert asyncio.run(current()).state is StatusState.NO_REQUIREMENTS
    register("vendor-studio", declaration({"kind": "static"}))
    assert asyncio.run(current()).state is StatusState.CONNECTED
    connection.answer = DOWN
    assert asyncio.run(current()).sentence() == NOT_CONNECTED


def test_fifty_concurrent_astatus_probes_of_silent_servers_end_within_one_deadline() -> None:
    concurrent, deadline = 50, 1.0
    decl = declaration()

    async def all_of_them(hosts: list[FakeHost]) -> tuple[list[Status], float]:
        # Timed inside the running loop: starting the loop is no part of the probes' deadline.
        started = time.monotonic()
        statuses = await asyncio.gather(
            *(
                astatus(decl, host=host, is_connected=Connection(UP), probe=True, deadline=deadline)
                for host in hosts
            )
        )
        return statuses, time.monotonic() - started

    half = concurrent // 2
    with (
        serve(silent, max_connections=half) as first,
        serve(silent, max_connections=half) as second,
    ):
        hosts = [running_host(server.url.removesuffix("/mcp")) for server in (first, second)] * half
        results, elapsed = asyncio.run(all_of_them(hosts))
    assert elapsed < deadline + 0.5, f"{concurrent} statuses took {elapsed:.2f}s"
    assert {result.state for result in results} == {StatusState.ENDPOINT_UNAVAILABLE}
    assert {result.probe.reason for result in results if result.probe} == {"timeout"}
    assert len(first.connections) + len(second.connections) == concurrent
