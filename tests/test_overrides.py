"""The user overrides file: where it is, how it is read and checked, and places tried first."""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_decl.declaration import parse_declaration
from hermes_decl.errors import DeclarationError
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.overrides_text import parse_overrides
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.overrides import (
    MAX_OVERRIDES_BYTES,
    OVERRIDES_ENV,
    clear_overrides_cache,
    overrides_path,
    user_overrides,
)
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.testing import FakeHost
from tests.process_starts import run_started

LINUX_FILE = "/home/u/.config/hermes-decl/overrides.yaml"


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    clear_overrides_cache()
    yield
    clear_overrides_cache()


def decl(name: str = "vendor-studio", **extra: Any) -> Declaration:
    app = {
        "linux": {"presence": "executable", "location": "/opt/vendor/bin/vendor-studio"},
        "darwin": {"presence": "bundle", "location": {"kind": "app_bundle", "name": "Vendor.app"}},
        "win32": {"presence": "executable", "location": "C:\\Vendor\\vendor.exe"},
    }
    return parse_declaration(name, app, {"app": True, **extra}, where="test")


def linux_host(overrides: str | None = None, **env: str) -> FakeHost:
    host = FakeHost("linux", env={"HOME": "/home/u", **env})
    if overrides is not None:
        host.add_file(LINUX_FILE, overrides.encode())
    return host


# -- where the file is ---------------------------------------------------------------------------

PLACES: list[tuple[str, OsFamily, dict[str, str], str | None, str | None]] = [
    ("linux", "linux", {"HOME": "/home/u"}, LINUX_FILE, None),
    (
        "linux-xdg-config-home",
        "linux",
        {"HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"},
        "/cfg/hermes-decl/overrides.yaml",
        None,
    ),
    (
        "linux-relative-xdg-is-ignored",
        "linux",
        {"HOME": "/home/u", "XDG_CONFIG_HOME": "cfg"},
        LINUX_FILE,
        None,
    ),
    ("linux-no-home", "linux", {}, None, "the config folder the home directory of ~ is unknown"),
    (
        "darwin",
        "darwin",
        {"HOME": "/Users/u"},
        "/Users/u/Library/Application Support/hermes-decl/overrides.yaml",
        None,
    ),
    (
        "win32",
        "win32",
        {"APPDATA": "C:\\Users\\u\\AppData\\Roaming"},
        "C:\\Users\\u\\AppData\\Roaming\\hermes-decl\\overrides.yaml",
        None,
    ),
    ("win32-no-appdata", "win32", {}, None, "the config folder variable APPDATA is unset"),
    (
        "named",
        "linux",
        {OVERRIDES_ENV: " /etc/hermes/overrides.yaml "},
        "/etc/hermes/overrides.yaml",
        None,
    ),
    (
        "named-win32-forward-slashes",
        "win32",
        {OVERRIDES_ENV: "D:/cfg/o.yaml"},
        "D:\\cfg\\o.yaml",
        None,
    ),
    (
        "named-relative",
        "linux",
        {OVERRIDES_ENV: "overrides.yaml"},
        None,
        f"{OVERRIDES_ENV}=overrides.yaml is not an absolute path after expansion",
    ),
    (
        "named-unc",
        "win32",
        {OVERRIDES_ENV: "\\\\srv\\share\\o.yaml"},
        None,
        f"{OVERRIDES_ENV}=\\\\srv\\share\\o.yaml became a UNC or device path",
    ),
    ("named-blank-is-unset", "linux", {"HOME": "/home/u", OVERRIDES_ENV: "  "}, LINUX_FILE, None),
]


@pytest.mark.parametrize(
    ("os_family", "env", "path", "refused"),
    [row[1:] for row in PLACES],
    ids=[row[0] for row in PLACES],
)
def test_where_the_overrides_file_is(
    os_family: OsFamily, env: dict[str, str], path: str | None, refused: str | None
) -> None:
    assert overrides_path(FakeHost(os_family, env=env), os_family) == (path, refused)


# -- reading and checking it ---------------------------------------------------------------------

VALID: list[tuple[str, str, dict[str, dict[str, list[str]]]]] = [
    ("empty", "", {}),
    ("comments-only", "# nothing yet\n", {}),
    (
        "one-path",
        "vendor-studio: {linux: '~/apps/vs/bin/vs'}\n",
        {"vendor-studio": {"linux": ["~/apps/vs/bin/vs"]}},
    ),
    (
        "a-list-and-a-kind",
        "vendor-studio:\n  win32:\n    - 'D:\\PortableApps\\VS\\vs.exe'\n"
        "    - {kind: command, name: vs}\n",
        {"vendor-studio": {"win32": ["D:\\PortableApps\\VS\\vs.exe", "command:vs"]}},
    ),
    (
        "several-servers-and-oses",
        '{"a": {"linux": "/a"}, "b": {"darwin": ["/Applications/B.app"], "linux": null}}',
        {"a": {"linux": ["/a"]}, "b": {"darwin": ["/Applications/B.app"]}},
    ),
]


def _shape(parsed: dict[str, Any]) -> dict[str, dict[str, list[str]]]:
    shape: dict[str, dict[str, list[str]]] = {}
    for server, entry in parsed.items():
        for os_family in ("win32", "darwin", "linux"):
            places = entry.for_os(os_family)
            if places:
                shape.setdefault(server, {})[os_family] = [
                    getattr(p, "path", None) or f"{p.kind}:{p.target}" for p in places
                ]
    return shape


@pytest.mark.parametrize(("text", "expected"), [v[1:] for v in VALID], ids=[v[0] for v in VALID])
def test_valid_overrides(text: str, expected: dict[str, dict[str, list[str]]]) -> None:
    assert _shape(parse_overrides(text, where="o.yaml")) == expected


INVALID: list[tuple[str, str, list[str] | None]] = [
    (
        "relative-path",
        "vendor-studio:\n  linux: apps/vs\n",
        ["o.yaml:2:10: [\"vendor-studio\"].linux: must start with /, ~ or $VAR (got 'apps/vs')"],
    ),
    (
        "unknown-os-key",
        "vendor-studio:\n  macos: /Applications/VS.app\n",
        [
            'o.yaml:2:3: ["vendor-studio"].macos: unknown key '
            "(expected 'win32', 'darwin' or 'linux')",
        ],
    ),
    (
        "misspelt-os-key",
        "vendor-studio:\n  linx: /opt/vs\n",
        ["o.yaml:2:3: [\"vendor-studio\"].linx: unknown key (did you mean 'linux'?)"],
    ),
    (
        "kind-of-another-os",
        "vs:\n  linux: [{kind: app_bundle, name: VS.app}]\n",
        ["o.yaml:2:11: vs.linux[0]: kind 'app_bundle' is only valid under app.darwin"],
    ),
    (
        "bad-name-in-a-kind",
        "vs:\n  linux:\n    - /opt/ok\n    - {kind: command, name: ../vs}\n",
        [
            "o.yaml:4:29: vs.linux[1].name: must be a bare name without '/', '\\' or ':', and "
            "not '..' (got '../vs')"
        ],
    ),
    (
        "unc-path",
        "vs:\n  win32: '\\\\srv\\share\\vs.exe'\n",
        [
            "o.yaml:2:10: vs.win32: must not start with two separators: UNC, device and "
            "network paths are not allowed (got '\\\\srv\\share\\vs.exe')"
        ],
    ),
    (
        "no-os",
        "vs: {}\n",
        ["o.yaml:1:5: vs: must give locations for at least one of 'win32', 'darwin' or 'linux'"],
    ),
    (
        "empty-list",
        "vs: {linux: []}\n",
        [
            "o.yaml:1:13: vs.linux: must not be empty: give a path, a location mapping, or a "
            "list of them"
        ],
    ),
    ("not-a-mapping", "- vs\n", ["o.yaml:1:1: must be a mapping (got ['vs'])"]),
    (
        "duplicate-server",
        "vs: {linux: /a}\nvs: {linux: /b}\n",
        [
            "o.yaml:2:1: vs: duplicate key: keys must be unique in a mapping (first at line 1, "
            "column 1)"
        ],
    ),
    ("yaml-syntax", "vs: {linux: [/a\n", None),
]


@pytest.mark.parametrize(
    ("text", "expected"), [i[1:] for i in INVALID], ids=[i[0] for i in INVALID]
)
def test_invalid_overrides_are_reported_with_line_and_column(
    text: str, expected: list[str] | None
) -> None:
    with pytest.raises(DeclarationError) as raised:
        parse_overrides(text, where="o.yaml")
    lines = str(raised.value).splitlines()
    if expected is None:
        assert len(lines) == 1 and lines[0].startswith("o.yaml:")
    else:
        assert lines == expected


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.text(max_size=12),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=12,
    )
)
def test_any_data_gives_overrides_or_a_declaration_error(data: object) -> None:
    outcome = _parse_or_error(json.dumps(data))
    assert isinstance(outcome, dict) or outcome.issues


def _parse_or_error(text: str) -> dict[str, Any] | DeclarationError:
    try:
        return parse_overrides(text, where="o.json")
    except DeclarationError as error:
        return error


# -- places tried first --------------------------------------------------------------------------


def test_an_override_points_at_a_portable_copy() -> None:
    host = linux_host("vendor-studio: {linux: '~/apps/vendor-studio/bin/vendor-studio'}\n")
    host.add_executable("/home/u/apps/vendor-studio/bin/vendor-studio")
    result = availability(decl(), host=host)
    assert (result.state, result.path, result.overrides_file) == (
        "available",
        "/home/u/apps/vendor-studio/bin/vendor-studio",
        LINUX_FILE,
    )
    assert [(c.source, c.index, c.kind, c.outcome) for c in result.trace] == [
        ("overrides", 0, "path", "present")
    ]


def test_overrides_come_before_the_declaration() -> None:
    host = linux_host("vendor-studio: {linux: ['/mnt/usb/vs', '/home/u/vs']}\n")
    host.add_executable("/opt/vendor/bin/vendor-studio").add_executable("/home/u/vs")
    result = availability(decl(), host=host)
    assert result.path == "/home/u/vs"
    assert [(c.source, c.index, c.path, c.outcome) for c in result.trace] == [
        ("overrides", 0, "/mnt/usb/vs", "absent"),
        ("overrides", 1, "/home/u/vs", "present"),
    ]
    nothing_there = linux_host("vendor-studio: {linux: /mnt/usb/vs}\n")
    nothing_there.add_executable("/opt/vendor/bin/vendor-studio")
    result = availability(decl(), host=nothing_there)
    assert [(c.source, c.index, c.outcome) for c in result.trace] == [
        ("overrides", 0, "absent"),
        ("declaration", 0, "present"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "other-server: {linux: /home/u/vs}\n",
        "vendor-studio: {darwin: /Applications/VS.app}\n",
    ],
    ids=["another-server", "another-os"],
)
def test_overrides_for_another_server_or_os_do_not_apply(text: str) -> None:
    host = linux_host(text).add_executable("/home/u/vs")
    result = availability(decl(), host=host)
    assert (result.state, result.overrides_file) == ("missing_app", None)
    assert [c.source for c in result.trace] == ["declaration"]


def test_an_override_kind_of_another_presence_is_refused_not_looked_at() -> None:
    host = FakeHost("darwin", env={"HOME": "/Users/u", "PATH": "/usr/bin"})
    host.add_file(
        "/Users/u/Library/Application Support/hermes-decl/overrides.yaml",
        b"vendor-studio: {darwin: [{kind: command, name: vs}, /Volumes/USB/Vendor.app]}\n",
    )
    host.add_bundle("/Volumes/USB/Vendor.app", "3.0")
    result = availability(decl(), host=host)
    assert (result.state, result.path) == ("available", "/Volumes/USB/Vendor.app")
    assert [(c.source, c.index, c.outcome, c.detail) for c in result.trace] == [
        (
            "overrides",
            0,
            "refused",
            "kind 'command' finds an executable, but the declaration's presence is 'bundle'",
        ),
        ("overrides", 1, "present", None),
    ]
    assert host.calls["which"] == 0


def test_windows_overrides_in_appdata() -> None:
    host = FakeHost(
        "win32", env={"APPDATA": "C:\\Users\\u\\AppData\\Roaming", "USERPROFILE": "C:\\Users\\u"}
    )
    host.add_file(
        "C:\\Users\\u\\AppData\\Roaming\\hermes-decl\\overrides.yaml",
        b"vendor-studio:\n  win32: '~\\PortableApps\\Vendor\\vendor.exe'\n",
    )
    host.add_executable("C:\\Users\\u\\PortableApps\\Vendor\\vendor.exe")
    result = availability(decl(), host=host)
    assert (result.state, result.path) == (
        "available",
        "C:\\Users\\u\\PortableApps\\Vendor\\vendor.exe",
    )


def test_the_file_is_read_through_the_host_bounded() -> None:
    host = linux_host("")
    availability(decl(), host=host)
    assert ("read_file", (LINUX_FILE, MAX_OVERRIDES_BYTES + 1, 0)) in host.call_log


def test_an_override_in_a_rooted_tree(tmp_path: Path) -> None:
    config = tmp_path / "home/u/.config/hermes-decl"
    config.mkdir(parents=True)
    (config / "overrides.yaml").write_text("vendor-studio:\n  linux: ~/Apps/vs*/vendor-studio\n")
    for version in ("2.1", "2.10"):
        portable = tmp_path / f"home/u/Apps/vs{version}/vendor-studio"
        portable.parent.mkdir(parents=True)
        portable.write_bytes(b"#!/bin/sh\n")
    host = RootedHost(tmp_path, env={"HOME": "/home/u"})
    result = availability(decl(), host=host)
    assert (result.state, result.path) == ("available", "/home/u/Apps/vs2.10/vendor-studio")
    assert result.trace[0].source == "overrides"


def test_nothing_is_read_when_nothing_needs_locating() -> None:
    host = linux_host("vendor-studio: {linux: /home/u/vs}\n")
    no_block = parse_declaration(
        "vendor-studio",
        {"win32": {"presence": "executable", "location": "C:\\x.exe"}},
        {"app": True},
        where="t",
    )
    host.reset_calls()
    assert availability(no_block, host=host).state == "unsupported_os"
    assert sum(host.calls.values()) == 0


# -- an invalid file never breaks a declaration, and is reported once ----------------------------


def test_an_invalid_file_is_ignored_and_reported_once(caplog: pytest.LogCaptureFixture) -> None:
    host = linux_host("vendor-studio:\n  linux: relative/vs\n")
    host.add_executable("/opt/vendor/bin/vendor-studio")
    caplog.set_level(logging.WARNING, logger="hermes_decl")
    for _ in range(3):
        result = availability(decl(), host=host)
        assert (result.state, result.path) == ("available", "/opt/vendor/bin/vendor-studio")
        assert [c.source for c in result.trace] == ["declaration"]
    assert [r.getMessage() for r in caplog.records] == [
        f"the overrides file {LINUX_FILE} is ignored:\n"
        f'{LINUX_FILE}:2:10: ["vendor-studio"].linux: '
        "must start with /, ~ or $VAR (got 'relative/vs')"
    ]
    host.add_file(LINUX_FILE, b"vendor-studio: {linux: [}\n")  # edited: reported again, once
    availability(decl(), host=host)
    availability(decl(), host=host)
    assert len(caplog.records) == 2


def test_a_named_file_that_is_missing_is_reported(caplog: pytest.LogCaptureFixture) -> None:
    host = linux_host(**{OVERRIDES_ENV: "/etc/hermes/overrides.yaml"})
    host.add_executable("/opt/vendor/bin/vendor-studio")
    caplog.set_level(logging.WARNING, logger="hermes_decl")
    assert availability(decl(), host=host).state == "available"
    assert availability(decl(), host=host).state == "available"
    assert [r.getMessage() for r in caplog.records] == [
        "the overrides file /etc/hermes/overrides.yaml is ignored:\n"
        f"/etc/hermes/overrides.yaml: is not a readable regular file (named by {OVERRIDES_ENV})"
    ]
    missing_default = linux_host()
    caplog.clear()
    availability(decl(), host=missing_default)
    assert caplog.records == []  # no file in the usual place is no news


def test_the_package_logger_has_a_null_handler() -> None:
    handlers = logging.getLogger("hermes_decl").handlers
    assert [type(handler) for handler in handlers] == [logging.NullHandler]


def test_a_host_without_logging_configuration_gets_no_stray_warning(tmp_path: Path) -> None:
    invalid = tmp_path / "overrides.yaml"
    invalid.write_text("vendor-studio:\n  linux: relative/vs\n")
    script = (
        "from hermes_decl.declaration import parse_declaration\n"
        "from hermes_decl.resolver.availability import availability\n"
        "from hermes_decl.resolver.live_host import current_os_family\n"
        "block = {'presence': 'executable', 'location': '~/no-such-folder/vs'}\n"
        "app = {current_os_family() or 'linux': block}\n"
        "decl = parse_declaration('vendor-studio', app, {'app': True}, where='t')\n"
        "print(availability(decl).state)\n"
    )
    result = run_started(
        [sys.executable, "-c", script],
        env={**os.environ, OVERRIDES_ENV: str(invalid)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (result.stdout, result.stderr) == ("missing_app\n", "")


def test_a_too_large_file_is_refused() -> None:
    text = "# " + "x" * MAX_OVERRIDES_BYTES + "\nvendor-studio: {linux: /home/u/vs}\n"
    host = linux_host(text).add_executable("/home/u/vs")
    found = user_overrides(host, "linux")
    assert found.error is not None
    assert str(found.error) == (
        f"{LINUX_FILE}: is too large to read (more than {MAX_OVERRIDES_BYTES} bytes)"
    )
    assert availability(decl(), host=host).state == "missing_app"


def test_a_file_is_parsed_once_per_content() -> None:
    host = linux_host("vendor-studio: {linux: /home/u/vs}\n")
    first = user_overrides(host, "linux")
    assert user_overrides(host, "linux").servers is first.servers
    host.add_file(LINUX_FILE, b"vendor-studio: {linux: /home/u/other}\n")
    assert user_overrides(host, "linux").servers is not first.servers
