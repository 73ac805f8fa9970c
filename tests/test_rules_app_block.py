"""The ``app`` block of SPEC 3.1: OS keys, presence, version, liveness, strictness and null.

Written from SPEC.md. Unknown keys are reported at the key itself and name a close valid key
when ``difflib.get_close_matches`` finds one; a version or liveness kind valid only under another
OS is reported at ``version.kind``; ``null`` means absent for optional keys and OS blocks.
"""

from __future__ import annotations

import pytest

from hermes_decl.models import AppDef
from tests.rules_helpers import NAME, ROOTED, error_of, one_os, os_block, parse, rows, rows1
from tests.rules_helpers import issues as issues_of
from tests.test_declaration import FULL_APP

LINUX = os_block("linux")


def _app_def(raw_app: object, os_family: str) -> AppDef:
    decl = parse(raw_app)
    assert decl.app is not None
    app_def = decl.app.for_os(os_family)
    assert app_def is not None
    return app_def


def _check_suggestion(message: str, suggestion: str | None) -> None:
    if suggestion is None:
        assert "did you mean" not in message, message
    else:
        assert message.endswith(f"(did you mean '{suggestion}'?)"), message


# --- OS keys -------------------------------------------------------------------------------------

UNKNOWN_OS: dict[str, tuple[str, str | None]] = {
    "macos-alias": ("macos", None),
    "windows-alias": ("windows", None),
    "osx-alias": ("osx", None),
    "capitalised-linux": ("Linux", "linux"),
    "win-prefix": ("win", "win32"),
    "darwin-typo": ("darwn", "darwin"),
}


@pytest.mark.parametrize(("key", "suggestion"), rows(UNKNOWN_OS), ids=list(UNKNOWN_OS))
def test_unknown_os_key(key: str, suggestion: str | None) -> None:
    error = error_of({"linux": LINUX, key: os_block("darwin")})
    assert [(i.loc, i.code) for i in error.issues] == [(f"app.{key}", "unknown_key")]
    _check_suggestion(error.issues[0].message, suggestion)


APP_SHAPES: dict[str, tuple[object, list[tuple[str, str]]]] = {
    "empty-mapping": ({}, [("app", "no_os_block")]),
    "all-null": ({"win32": None, "darwin": None, "linux": None}, [("app", "no_os_block")]),
    "one-null": ({"linux": None}, [("app", "no_os_block")]),
    "list": ([], [("app", "wrong_type")]),
    "list-of-blocks": ([LINUX], [("app", "wrong_type")]),
    "string": ("linux", [("app", "wrong_type")]),
    "bool": (True, [("app", "wrong_type")]),
    "os-block-string": ({"linux": "/opt/vendor"}, [("app.linux", "wrong_type")]),
    "os-block-list": ({"linux": [LINUX]}, [("app.linux", "wrong_type")]),
    "os-block-empty-string": ({"linux": ""}, [("app.linux", "wrong_type")]),
    "os-block-false": ({"darwin": False, "linux": LINUX}, [("app.darwin", "wrong_type")]),
    "os-block-empty-mapping": (
        {"linux": {}},
        [("app.linux.presence", "missing_key"), ("app.linux.location", "missing_key")],
    ),
    "only-unknown-os": ({"macos": os_block("darwin")}, [("app.macos", "unknown_key")]),
}


@pytest.mark.parametrize(("raw_app", "expected"), rows(APP_SHAPES), ids=list(APP_SHAPES))
def test_app_block_shape(raw_app: object, expected: list[tuple[str, str]]) -> None:
    assert sorted(issues_of(raw_app)) == sorted(expected)


def test_non_string_os_key() -> None:
    found = issues_of({"linux": LINUX, 1: os_block("linux")})
    assert [code for _, code in found] == ["non_string_key"]
    assert found[0][0].startswith("app")


VALID_APPS: dict[str, tuple[dict[str, object], tuple[str, ...]]] = {
    "win32-only": ({"win32": os_block("win32")}, ("win32",)),
    "darwin-only": ({"darwin": os_block("darwin")}, ("darwin",)),
    "linux-only": ({"linux": LINUX}, ("linux",)),
    "all-three": (
        {"win32": os_block("win32"), "darwin": os_block("darwin"), "linux": LINUX},
        ("win32", "darwin", "linux"),
    ),
    "null-darwin-is-absent": ({"darwin": None, "linux": LINUX}, ("linux",)),
    "null-win32-and-darwin": ({"win32": None, "darwin": None, "linux": LINUX}, ("linux",)),
}


@pytest.mark.parametrize(("raw_app", "present"), rows(VALID_APPS), ids=list(VALID_APPS))
def test_valid_os_blocks(raw_app: dict[str, object], present: tuple[str, ...]) -> None:
    decl = parse(raw_app)
    assert decl.app is not None
    for os_family in ("win32", "darwin", "linux"):
        app_def = decl.app.for_os(os_family)
        if os_family in present:
            assert app_def is not None
            assert app_def.os_family == os_family
            assert app_def.app_id == NAME
        else:
            assert app_def is None
            assert getattr(decl.app, os_family) is None


# --- presence --------------------------------------------------------------------------------

PRESENCES: dict[str, tuple[str, object, str]] = {
    "linux-executable": ("linux", "executable", ""),
    "darwin-bundle": ("darwin", "bundle", ""),
    "darwin-executable-path": ("darwin", "executable", ""),
    "win32-bundle": ("win32", "bundle", "bundle_on_windows"),
    "abbreviation": ("win32", "exe", "invalid_choice"),
    "capitalised": ("linux", "Executable", "invalid_choice"),
    "app-word": ("darwin", "app", "invalid_choice"),
    "leading-space": ("linux", " executable", "invalid_choice"),
    "bytes": ("linux", b"executable", "wrong_type"),
    "int": ("linux", 1, "wrong_type"),
    "bool": ("linux", True, "wrong_type"),
    "list": ("linux", ["executable"], "wrong_type"),
}


@pytest.mark.parametrize(("os_family", "value", "code"), rows(PRESENCES), ids=list(PRESENCES))
def test_presence(os_family: str, value: object, code: str) -> None:
    app = {os_family: {"presence": value, "location": ROOTED[os_family]}}
    if not code:
        assert _app_def(app, os_family).presence == value
    else:
        assert issues_of(app) == [(f"app.{os_family}.presence", code)]


def test_presence_missing() -> None:
    assert issues_of({"linux": {"location": "/opt/vendor"}}) == [
        ("app.linux.presence", "missing_key")
    ]


def test_presence_message() -> None:
    issue = error_of(one_os("win32", presence="exe")).issues[0]
    assert issue.message == "must be 'executable' or 'bundle' (got 'exe')"


def test_long_value_is_shortened_in_message() -> None:
    value = "x" * 200
    issue = error_of(one_os("linux", presence=value)).issues[0]
    assert (issue.loc, issue.code) == ("app.linux.presence", "invalid_choice")
    assert "x" * 81 not in issue.message


# --- unknown keys of an OS block --------------------------------------------------------------

OS_BLOCK_KEYS: dict[str, tuple[str, str | None]] = {
    "versoin": ("versoin", "version"),
    "locations-plural": ("locations", "location"),
    "presense": ("presense", "presence"),
    "livenes": ("livenes", "liveness"),
    "app-id": ("app_id", None),
    "name": ("name", None),
    "os-family": ("os_family", None),
    "version-kind": ("version_kind", "version"),
}


@pytest.mark.parametrize(("key", "suggestion"), rows(OS_BLOCK_KEYS), ids=list(OS_BLOCK_KEYS))
def test_unknown_os_block_key(key: str, suggestion: str | None) -> None:
    block = {**LINUX, key: "x"}
    error = error_of({"linux": block})
    assert [(i.loc, i.code) for i in error.issues] == [(f"app.linux.{key}", "unknown_key")]
    _check_suggestion(error.issues[0].message, suggestion)


def test_locations_plural_does_not_stand_for_location() -> None:
    found = issues_of({"linux": {"presence": "executable", "locations": ["/opt/vendor"]}})
    assert sorted(found) == [
        ("app.linux.location", "missing_key"),
        ("app.linux.locations", "unknown_key"),
    ]


# --- version ---------------------------------------------------------------------------------

VALID_VERSIONS: dict[str, tuple[str, object, str, str | None]] = {
    "win32-pe-resource": ("win32", {"kind": "pe_resource"}, "pe_resource", None),
    "win32-uninstall-registry": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor App 2"},
        "uninstall_registry",
        "Vendor App 2",
    ),
    "darwin-plist": ("darwin", {"kind": "plist"}, "plist", None),
    "win32-uninstall-prefix-is-free-text": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor: App/2"},
        "uninstall_registry",
        "Vendor: App/2",
    ),
    "win32-none": ("win32", {"kind": "none"}, "none", None),
    "darwin-none": ("darwin", {"kind": "none"}, "none", None),
    "linux-none": ("linux", {"kind": "none"}, "none", None),
    "linux-null": ("linux", None, "none", None),
    "darwin-empty-mapping-defaults-none": ("darwin", {}, "none", None),
    "win32-null-kind-is-absent": ("win32", {"kind": None}, "none", None),
}


@pytest.mark.parametrize(
    ("os_family", "version", "kind", "arg"), rows(VALID_VERSIONS), ids=list(VALID_VERSIONS)
)
def test_valid_version(os_family: str, version: object, kind: str, arg: str | None) -> None:
    app_def = _app_def(one_os(os_family, version=version), os_family)
    assert app_def.version_kind == kind
    assert app_def.version_display_name_prefix == arg
    assert app_def.version_arg == arg


def test_version_absent_defaults_to_none() -> None:
    assert _app_def(one_os("win32"), "win32").version_kind == "none"


INVALID_VERSIONS: dict[str, tuple[str, object, list[tuple[str, str]]]] = {
    "pe-resource-under-darwin": ("darwin", {"kind": "pe_resource"}, [("kind", "kind_wrong_os")]),
    "pe-resource-under-linux": ("linux", {"kind": "pe_resource"}, [("kind", "kind_wrong_os")]),
    "plist-under-win32": ("win32", {"kind": "plist"}, [("kind", "kind_wrong_os")]),
    "plist-under-linux": ("linux", {"kind": "plist"}, [("kind", "kind_wrong_os")]),
    "uninstall-registry-under-darwin": (
        "darwin",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor"},
        [("kind", "kind_wrong_os")],
    ),
    "uninstall-registry-under-linux": (
        "linux",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor"},
        [("kind", "kind_wrong_os")],
    ),
    "unknown-kind": ("win32", {"kind": "exif"}, [("kind", "invalid_choice")]),
    "kind-wrong-case": ("win32", {"kind": "PE_RESOURCE"}, [("kind", "invalid_choice")]),
    "uninstall-missing-prefix": (
        "win32",
        {"kind": "uninstall_registry"},
        [("display_name_prefix", "missing_key")],
    ),
    "uninstall-empty-prefix": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": ""},
        [("display_name_prefix", "blank")],
    ),
    "uninstall-blank-prefix": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": "  \t"},
        [("display_name_prefix", "blank")],
    ),
    "uninstall-int-prefix": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": 7},
        [("display_name_prefix", "wrong_type")],
    ),
    "prefix-on-pe-resource": (
        "win32",
        {"kind": "pe_resource", "display_name_prefix": "Vendor"},
        [("display_name_prefix", "unknown_key")],
    ),
    "prefix-on-none": (
        "linux",
        {"kind": "none", "display_name_prefix": "Vendor"},
        [("display_name_prefix", "unknown_key")],
    ),
    "path-on-plist": ("darwin", {"kind": "plist", "path": "/x"}, [("path", "unknown_key")]),
    "file-on-uninstall-registry": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "v.exe"},
        [("file", "unknown_key")],
    ),
}


@pytest.mark.parametrize(
    ("os_family", "version", "expected"), rows(INVALID_VERSIONS), ids=list(INVALID_VERSIONS)
)
def test_invalid_version(os_family: str, version: object, expected: list[tuple[str, str]]) -> None:
    found = issues_of(one_os(os_family, version=version))
    assert found == [(f"app.{os_family}.version.{loc}", code) for loc, code in expected]


VERSION_TYPES: dict[str, object] = {
    "string": "pe_resource",
    "list": [{"kind": "pe_resource"}],
    "empty-string": "",
    "bool": True,
}


@pytest.mark.parametrize("version", rows1(VERSION_TYPES), ids=list(VERSION_TYPES))
def test_version_must_be_a_mapping(version: object) -> None:
    assert issues_of(one_os("win32", version=version)) == [("app.win32.version", "wrong_type")]


def test_version_typo_key_suggests_kind() -> None:
    error = error_of(one_os("win32", version={"kind": "pe_resource", "knd": "x"}))
    assert [(i.loc, i.code) for i in error.issues] == [("app.win32.version.knd", "unknown_key")]
    _check_suggestion(error.issues[0].message, "kind")


# --- liveness --------------------------------------------------------------------------------

LIVENESS_PATH = {
    "win32": "%LOCALAPPDATA%/Vendor/Vendor App/McpServer/server.json",
    "darwin": "~/Library/Application Support/Vendor/server.json",
    "linux": "$XDG_RUNTIME_DIR/vendor/server.json",
}


def _server_json(os_family: str, **extra: object) -> dict[str, object]:
    return {"kind": "server_json", "path": LIVENESS_PATH[os_family], **extra}


VALID_LIVENESS: dict[str, tuple[str, object, tuple[str, str, str, str, str]]] = {
    "win32-defaults": (
        "win32",
        _server_json("win32"),
        ("server_json", "pid", "http", "token", "/mcp"),
    ),
    "darwin-defaults": (
        "darwin",
        _server_json("darwin"),
        ("server_json", "pid", "http", "token", "/mcp"),
    ),
    "linux-defaults": (
        "linux",
        _server_json("linux"),
        ("server_json", "pid", "http", "token", "/mcp"),
    ),
    "custom-keys": (
        "linux",
        _server_json(
            "linux",
            pid_key="process.id",
            url_key="endpoint-url",
            token_key="TOKEN_1",
            endpoint_path="/v1/mcp/",
        ),
        ("server_json", "process.id", "endpoint-url", "TOKEN_1", "/v1/mcp/"),
    ),
    "null-keys-are-absent": (
        "win32",
        _server_json("win32", pid_key=None, url_key=None, token_key=None, endpoint_path=None),
        ("server_json", "pid", "http", "token", "/mcp"),
    ),
    "none": ("linux", {"kind": "none"}, ("none", "pid", "http", "token", "/mcp")),
    "null": ("linux", None, ("none", "pid", "http", "token", "/mcp")),
    "empty-mapping-defaults-none": ("darwin", {}, ("none", "pid", "http", "token", "/mcp")),
    **{
        f"{kind}-{os_family}": (os_family, {"kind": kind}, (kind, "pid", "http", "token", "/mcp"))
        for kind in ("static", "interactive_session")
        for os_family in ("win32", "darwin", "linux")
    },
}


@pytest.mark.parametrize(
    ("os_family", "liveness", "expected"), rows(VALID_LIVENESS), ids=list(VALID_LIVENESS)
)
def test_valid_liveness(
    os_family: str, liveness: object, expected: tuple[str, str, str, str, str]
) -> None:
    app_def = _app_def(one_os(os_family, liveness=liveness), os_family)
    found = (
        app_def.liveness_kind,
        app_def.liveness_pid_key,
        app_def.liveness_url_key,
        app_def.liveness_token_key,
        app_def.endpoint_path,
    )
    assert found == expected
    if expected[0] == "none":
        assert app_def.liveness_path is None


INVALID_LIVENESS: dict[str, tuple[object, list[tuple[str, str]]]] = {
    "server-json-missing-path": ({"kind": "server_json"}, [("path", "missing_key")]),
    "unknown-kind": ({"kind": "http"}, [("kind", "invalid_choice")]),
    "path-on-none": ({"kind": "none", "path": "/run/x.json"}, [("path", "unknown_key")]),
    "pid-key-on-none": ({"kind": "none", "pid_key": "pid"}, [("pid_key", "unknown_key")]),
    "path-on-static": ({"kind": "static", "path": "/run/x.json"}, [("path", "unknown_key")]),
    "url-on-static": ({"kind": "static", "url": "http://127.0.0.1:1"}, [("url", "unknown_key")]),
    "path-on-interactive-session": (
        {"kind": "interactive_session", "path": "/run/x.json"},
        [("path", "unknown_key")],
    ),
    "display-on-interactive-session": (
        {"kind": "interactive_session", "display": ":0"},
        [("display", "unknown_key")],
    ),
    "kind-typo": ({"kind": "statik"}, [("kind", "invalid_choice")]),
    "string": ("server_json", [("", "wrong_type")]),
    "list": ([], [("", "wrong_type")]),
    "path-int": ({"kind": "server_json", "path": 3}, [("path", "wrong_type")]),
    "pid-key-int": (_server_json("linux", pid_key=3), [("pid_key", "wrong_type")]),
    "endpoint-int": (_server_json("linux", endpoint_path=3), [("endpoint_path", "wrong_type")]),
}


@pytest.mark.parametrize(
    ("liveness", "expected"), rows(INVALID_LIVENESS), ids=list(INVALID_LIVENESS)
)
def test_invalid_liveness(liveness: object, expected: list[tuple[str, str]]) -> None:
    found = issues_of(one_os("linux", liveness=liveness))
    base = "app.linux.liveness"
    assert found == [(f"{base}.{loc}" if loc else base, code) for loc, code in expected]


LIVENESS_KEY_TYPOS: dict[str, tuple[str, str | None]] = {
    "paht": ("paht", "path"),
    "pidkey": ("pidkey", "pid_key"),
    "endpoint": ("endpoint", "endpoint_path"),
    "port": ("port", None),
}


@pytest.mark.parametrize(
    ("key", "suggestion"), rows(LIVENESS_KEY_TYPOS), ids=list(LIVENESS_KEY_TYPOS)
)
def test_liveness_unknown_key(key: str, suggestion: str | None) -> None:
    error = error_of(one_os("linux", liveness=_server_json("linux", **{key: "x"})))
    assert [(i.loc, i.code) for i in error.issues] == [(f"app.linux.liveness.{key}", "unknown_key")]
    _check_suggestion(error.issues[0].message, suggestion)


KEY_NAMES: dict[str, tuple[str, str, str]] = {
    "pid-plain": ("pid_key", "pid", ""),
    "url-dotted": ("url_key", "server.url", ""),
    "token-dash-underscore": ("token_key", "auth-token_2", ""),
    "pid-space": ("pid_key", "p id", "bad_key_name"),
    "url-slash": ("url_key", "server/url", "bad_key_name"),
    "token-colon": ("token_key", "auth:token", "bad_key_name"),
    "pid-non-ascii": ("pid_key", "clé", "bad_key_name"),
    "url-brackets": ("url_key", "servers[0]", "bad_key_name"),
    "token-trailing-newline": ("token_key", "token\n", "bad_key_name"),
    "pid-dollar": ("pid_key", "$pid", "bad_key_name"),
}


@pytest.mark.parametrize(("key", "value", "code"), rows(KEY_NAMES), ids=list(KEY_NAMES))
def test_liveness_key_names(key: str, value: str, code: str) -> None:
    app = one_os("linux", liveness=_server_json("linux", **{key: value}))
    if not code:
        assert getattr(_app_def(app, "linux"), f"liveness_{key}") == value
    else:
        assert issues_of(app) == [(f"app.linux.liveness.{key}", code)]


ENDPOINT_PATHS: dict[str, tuple[str, str]] = {
    "default-form": ("/mcp", ""),
    "root": ("/", ""),
    "nested-trailing-slash": ("/v1/mcp/", ""),
    "all-allowed-chars": ("/a.b_c~d-e/F9", ""),
    "single-dot-segment": ("/a/./mcp", ""),
    "dotdot-inside-name": ("/a/..b/mcp", ""),
    "relative": ("mcp", "bad_endpoint_path"),
    "query": ("/mcp?session=1", "bad_endpoint_path"),
    "fragment": ("/mcp#top", "bad_endpoint_path"),
    "parent-segment": ("/a/../mcp", "bad_endpoint_path"),
    "parent-trailing": ("/mcp/..", "bad_endpoint_path"),
    "space": ("/my mcp", "bad_endpoint_path"),
    "leading-space": (" /mcp", "bad_endpoint_path"),
    "trailing-newline": ("/mcp\n", "bad_endpoint_path"),
    "full-url": ("http://localhost:8080/mcp", "bad_endpoint_path"),
    "userinfo": ("/user@host/mcp", "bad_endpoint_path"),
    "percent-encoding": ("/my%20mcp", "bad_endpoint_path"),
    "backslash": ("\\mcp", "bad_endpoint_path"),
    "non-ascii": ("/mcpé", "bad_endpoint_path"),
}


@pytest.mark.parametrize(("value", "code"), rows(ENDPOINT_PATHS), ids=list(ENDPOINT_PATHS))
def test_endpoint_path(value: str, code: str) -> None:
    app = one_os("win32", liveness=_server_json("win32", endpoint_path=value))
    if not code:
        assert _app_def(app, "win32").endpoint_path == value
    else:
        assert issues_of(app) == [("app.win32.liveness.endpoint_path", code)]


# --- the spec's example app block is valid -----------------------------------------------------


def test_spec_example_app_block() -> None:
    decl = parse(FULL_APP, {"app": True, "min_version": "2.3.0", "gpu": "nvidia"})
    assert decl.app is not None
    assert decl.app.os_families == ("win32", "darwin", "linux")
    win32 = decl.app.for_os("win32")
    assert win32 is not None
    assert win32.version_kind == "pe_resource"
    assert win32.liveness_path == "%LOCALAPPDATA%/Vendor/Vendor App/McpServer/server.json"
    assert len(win32.locations) == 2


# --- null means absent for optional keys and OS blocks, not for unknown keys --------------------


NULL_UNKNOWN_KEYS: dict[str, tuple[object, object, list[tuple[str, str]]]] = {
    "app-macos-null": (
        {"linux": LINUX, "macos": None},
        None,
        [("app.macos", "unknown_key")],
    ),
    "os-block-typo-null": (
        {"linux": {**LINUX, "versoin": None}},
        None,
        [("app.linux.versoin", "unknown_key")],
    ),
    "location-typo-null": (
        one_os("linux", [{"kind": "command", "name": "vendor", "nmae": None}]),
        None,
        [("app.linux.location[0].nmae", "unknown_key")],
    ),
    "version-typo-null": (
        one_os("win32", version={"kind": "pe_resource", "knd": None}),
        None,
        [("app.win32.version.knd", "unknown_key")],
    ),
    "requires-typo-null": (
        {"linux": LINUX},
        {"app": True, "min_versoin": None},
        [("requires.min_versoin", "unknown_key")],
    ),
}


@pytest.mark.parametrize(
    ("raw_app", "raw_requires", "expected"),
    rows(NULL_UNKNOWN_KEYS),
    ids=list(NULL_UNKNOWN_KEYS),
)
def test_unknown_key_with_null_value_is_still_unknown(
    raw_app: object, raw_requires: object, expected: list[tuple[str, str]]
) -> None:
    assert issues_of(raw_app, raw_requires) == expected


NULL_VS_EMPTY: dict[str, tuple[dict[str, object], list[tuple[str, str]]]] = {
    "darwin-null-is-no-block": ({"darwin": None, "linux": LINUX}, []),
    "darwin-empty-mapping-is-a-block": (
        {"darwin": {}, "linux": LINUX},
        [("app.darwin.presence", "missing_key"), ("app.darwin.location", "missing_key")],
    ),
    "darwin-empty-string-is-not-absent": (
        {"darwin": "", "linux": LINUX},
        [("app.darwin", "wrong_type")],
    ),
    "darwin-empty-list-is-not-absent": (
        {"darwin": [], "linux": LINUX},
        [("app.darwin", "wrong_type")],
    ),
    "version-null-is-absent": ({"linux": {**LINUX, "version": None}}, []),
    "version-empty-string": (
        {"linux": {**LINUX, "version": ""}},
        [("app.linux.version", "wrong_type")],
    ),
    "liveness-null-is-absent": ({"linux": {**LINUX, "liveness": None}}, []),
    "liveness-empty-list": (
        {"linux": {**LINUX, "liveness": []}},
        [("app.linux.liveness", "wrong_type")],
    ),
    "location-empty-list": (
        {"linux": {**LINUX, "location": []}},
        [("app.linux.location", "empty")],
    ),
    "location-empty-string": (
        {"linux": {**LINUX, "location": ""}},
        [("app.linux.location", "blank")],
    ),
}


@pytest.mark.parametrize(("raw_app", "expected"), rows(NULL_VS_EMPTY), ids=list(NULL_VS_EMPTY))
def test_null_is_absent_empty_is_not(
    raw_app: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    if expected:
        assert sorted(issues_of(raw_app)) == sorted(expected)
    else:
        assert parse(raw_app).app is not None


@pytest.mark.parametrize(
    ("liveness", "message"),
    [
        ({"kind": "statik"}, "must be 'none', 'static', 'interactive_session' or 'server_json'"),
        ({"kind": "static", "endpoint_path": "/mcp"}, "unknown key (expected 'kind')"),
        ({"kind": "interactive_session", "pid_key": "pid"}, "unknown key (expected 'kind')"),
    ],
    ids=["kind-typo", "static-endpoint-path", "interactive-pid-key"],
)
def test_the_kinds_without_keys_name_what_they_accept(liveness: object, message: str) -> None:
    error = error_of(one_os("linux", liveness=liveness))
    assert len(error.issues) == 1
    assert error.issues[0].message.startswith(message), error.issues[0].message
