"""The Plugins tab's vocabulary (``Status.ui_state``) and a plugin's one presence verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration
from hermes_decl.resolver.availability import Availability, AvailabilityState
from hermes_decl.resolver.status import (
    UI_STATES,
    PluginPresence,
    Presence,
    Status,
    StatusState,
    UiState,
    plugin_presence,
)
from hermes_decl.testing import FakeHost

APP_PATH = "/opt/vendor/studio"
RUNTIME = "/home/dev/.vendor/server.json"
PID = 4242

EXPECTED_UI = {
    "connected": "connected",
    "no_requirements": "connected",
    "hermes_not_connected": "endpoint_unavailable",
    "app_not_running": "app_not_running",
    "endpoint_unavailable": "endpoint_unavailable",
    "no_interactive_session": "no_interactive_session",
    "missing_app": "missing_app",
    "version_too_old": "version_too_old",
    "unsupported_os": "missing_app",
    "unsupported_gpu": "unsupported_gpu",
    "unsupported_arch": "missing_app",
    "unsupported_os_version": "version_too_old",
}


@pytest.mark.parametrize("state", list(StatusState), ids=str)
def test_every_status_state_has_its_ui_state(state: StatusState) -> None:
    shown = Status(state, Availability(AvailabilityState.AVAILABLE), "App", "reason")
    assert shown.ui_state is UI_STATES[state]
    assert shown.ui_state.value == EXPECTED_UI[state.value]


def test_the_ui_vocabulary_is_the_plugins_tab_s() -> None:
    assert [str(s) for s in UiState] == [
        "connected",
        "app_not_running",
        "endpoint_unavailable",
        "no_interactive_session",
        "version_too_old",
        "missing_app",
        "unsupported_gpu",
        "unknown",
    ]
    assert set(UI_STATES) == set(StatusState)


def server(
    requires: dict[str, Any] | None = None, liveness: dict[str, Any] | None = None, **block: Any
) -> Declaration:
    linux: dict[str, Any] = {"presence": "executable", "location": APP_PATH, **block}
    if liveness is not None:
        linux["liveness"] = liveness
    return parse_declaration(
        "s", {"linux": linux}, {"app": True} if requires is None else requires, where="t"
    )


LIVE = {"kind": "server_json", "path": "~/.vendor/server.json"}


def installed() -> FakeHost:
    return FakeHost("linux", home="/home/dev").add_executable(APP_PATH)


def running() -> FakeHost:
    host = installed()
    host.add_file(RUNTIME, json.dumps({"pid": PID, "http": "http://127.0.0.1:5000"}).encode())
    return host.add_process(PID)


@pytest.mark.parametrize(
    ("decls", "host", "state", "decided_by", "sentence"),
    [
        ({"a": server()}, installed, "present", "a", "s is installed."),
        ({"a": server(liveness=LIVE)}, running, "present", "a", "s is installed."),
        (
            {"a": server(liveness=LIVE)},
            installed,
            "not_running",
            "a",
            "s is not running. Start s, then try again.",
        ),
        (
            {"a": server()},
            lambda: FakeHost("linux"),
            "missing",
            "a",
            "s is not installed. Install s, then try again.",
        ),
        (
            {"up": server(), "gone": server(location="/opt/other/tool")},
            installed,
            "missing",
            "gone",
            "s is not installed. Install s, then try again.",
        ),
        (
            {"idle": server(liveness=LIVE), "free": server(requires={})},
            installed,
            "not_running",
            "idle",
            "s is not running. Start s, then try again.",
        ),
        (
            {"free": server(requires={}), "up": server()},
            installed,
            "present",
            "up",
            "s is installed.",
        ),
        (
            {"free": server(requires={})},
            installed,
            "unknown",
            None,
            "This plugin requires no application, so none can be checked.",
        ),
        (
            {},
            installed,
            "unknown",
            None,
            "This plugin declares no server, so no application can be checked.",
        ),
    ],
    ids=[
        "installed",
        "running",
        "installed-not-running",
        "missing",
        "worst-server-wins",
        "not-running-beats-unjudged",
        "unjudged-adds-nothing",
        "no-requirement-is-unknown",
        "no-server-is-unknown",
    ],
)
def test_plugin_presence(
    decls: dict[str, Declaration],
    host: Any,
    state: str,
    decided_by: str | None,
    sentence: str,
) -> None:
    presence = plugin_presence(decls, host=host())
    assert presence.state is Presence(state)
    assert presence.decided_by == decided_by
    assert presence.sentence() == sentence
    assert list(presence.servers) == list(decls)


def test_presence_has_no_truth_value() -> None:
    presence = plugin_presence({}, host=FakeHost("linux"))
    assert isinstance(presence, PluginPresence)
    with pytest.raises(TypeError, match="has no truth value"):
        bool(presence)


def test_the_readme_table_is_the_ui_mapping() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("| status state | `ui_state` | why |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in section.splitlines()[2:]:
        cells = [cell.strip().strip("`") for cell in line.strip("|").split("|")]
        rows[cells[0]] = cells[1]
    assert rows == {state.value: ui.value for state, ui in UI_STATES.items()}
