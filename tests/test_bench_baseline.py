"""The benchmark's plain-Python baseline parser agrees with hermes_decl, so the comparison is fair.

For each input both parsers must agree on the verdict (valid or not) and, when invalid, on every
issue's location and code, in order; the three benchmark inputs come first.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench import baseline_parser
from bench.parse import FULL, INVALID, MINIMAL
from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.resolver.app import LOCATION_KINDS

NAME = "vendor-server"
Found = list[tuple[str, str]] | None

LINUX = {"presence": "executable", "location": "/opt/vendor/bin/vendor"}
WIN32_PE = {
    "presence": "executable",
    "location": "C:/Vendor/v.exe",
    "version": {"kind": "pe_resource"},
}

CASES: dict[str, tuple[Any, Any]] = {
    "bench-minimal": MINIMAL,
    "bench-full": FULL,
    "bench-invalid": INVALID,
    "paths-per-os": (
        {
            "win32": {
                "presence": "executable",
                "location": ["%ProgramFiles(x86)%\\V\\v.exe", "/opt/v", "\\\\srv\\share\\v.exe"],
            },
            "linux": {
                "presence": "executable",
                "location": ["%HOME%/v", "$HOME/../v", "/opt/**/v", "~/s3://b/v", "  "],
            },
        },
        None,
    ),
    "valid-paths-stripped": (
        {
            "darwin": {
                "presence": "bundle",
                "location": ["  ~/Applications/V *.app ", "${HOME}/V.app"],
            }
        },
        None,
    ),
    "kinds-per-os-and-presence": (
        {
            "darwin": {
                "presence": "bundle",
                "location": [
                    {"kind": "flatpak", "app_id": "com.v.App"},
                    {"kind": "command", "name": "v"},
                    {"kind": "app_bundle", "name": "V.app"},
                ],
            }
        },
        None,
    ),
    "kind-shapes": (
        {
            "win32": {
                "presence": "executable",
                "location": [
                    {"name": "v"},
                    {"kind": "comand", "name": "v"},
                    {"kind": "uninstall_registry", "display_name_prefix": "A:B", "file": "..\\v"},
                    {"kind": "command", "name": 3, "file": "x"},
                    7,
                ],
            }
        },
        None,
    ),
    "presence-and-lone-mapping": (
        {"linux": {"presence": "exe", "location": {"kind": "snap", "name": ".."}}},
        None,
    ),
    "version-and-liveness-kinds": (
        {
            "win32": {
                "presence": "executable",
                "location": "C:/V/v.exe",
                "version": {"kind": "plist"},
                "liveness": {"kind": "server_json"},
            },
            "darwin": {
                "presence": "bundle",
                "location": "/Applications/V.app",
                "version": {"kind": "uninstall_registry", "display_name_prefix": " "},
                "liveness": {"kind": "http"},
            },
        },
        None,
    ),
    "liveness-keys-and-endpoint": (
        {
            "linux": {
                **LINUX,
                "liveness": {
                    "kind": "server_json",
                    "path": "/run/v-*/server.json",
                    "pid_key": "p id",
                    "url_key": "url",
                    "token_key": 5,
                    "endpoint_path": "/mcp?x=1",
                    "paht": "/x",
                },
            }
        },
        None,
    ),
    "valid-liveness-defaults": (
        {"win32": {**WIN32_PE, "liveness": {"kind": "server_json", "path": "%APPDATA%\\s.json"}}},
        {"app": True, "min_version": "2.3"},
    ),
    "requires-values": (
        None,
        {"app": "true", "min_version": "2.x", "gpu": "amd", "min_versoin": 1},
    ),
    "requires-app-without-block": (None, {"app": True}),
    "min-version-needs-app": ({"win32": WIN32_PE}, {"min_version": "2"}),
    "min-version-linux-only": ({"linux": LINUX}, {"app": True, "min_version": "2"}),
    "min-version-no-source": (
        {
            "win32": {**WIN32_PE, "version": None},
            "darwin": {"presence": "bundle", "location": "/A"},
        },
        {"app": True, "min_version": "2"},
    ),
    "cross-rules-wait-for-valid-blocks": (
        {"win32": {**WIN32_PE, "version": {"kind": "none"}, "presense": 1}},
        {"app": True, "min_version": "2"},
    ),
    "unknown-os-and-null-means-absent": (
        {"macos": None, "darwin": None, "linux": {**LINUX, "version": None, "versoin": None}},
        {"gpu": None, "app": None},
    ),
    "shapes-and-key-types": ({"linux": {**LINUX, 1: 2}, "win32": []}, ["app"]),
    "empty-blocks": ({"linux": {}}, {}),
    "windows-device-names": (
        {
            "win32": {
                "presence": "executable",
                "location": [
                    "C:\\Vendor\\CON\\v.exe",
                    "%APPDATA%/nul.txt",
                    "C:\\x\\com1 .",
                    "C:\\x\\CONSOLE\\COM10.exe",
                    "C:\\x\\con\u0131n$",
                    {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "bin/aux"},
                    {
                        "kind": "uninstall_registry",
                        "display_name_prefix": "V",
                        "file": "LPT\u00b9.x",
                    },
                ],
            },
            "linux": {"presence": "executable", "location": "/opt/CON/nul"},
        },
        None,
    ),
}


def _hermes(raw_app: Any, raw_requires: Any) -> Found:
    try:
        parse_declaration(NAME, raw_app, raw_requires, where="w")
    except DeclarationError as error:
        return [(issue.loc, issue.code) for issue in error.issues]
    return None


def _baseline(raw_app: Any, raw_requires: Any) -> Found:
    try:
        baseline_parser.parse_declaration(NAME, raw_app, raw_requires, where="w")
    except baseline_parser.BaselineError as error:
        return [(problem.loc, problem.code) for problem in error.problems]
    return None


@pytest.mark.parametrize(("raw_app", "raw_requires"), list(CASES.values()), ids=list(CASES))
def test_baseline_agrees_with_hermes_decl(raw_app: Any, raw_requires: Any) -> None:
    assert _baseline(raw_app, raw_requires) == _hermes(raw_app, raw_requires)


def test_benchmark_inputs_have_the_expected_verdicts() -> None:
    assert _hermes(*MINIMAL) is None
    assert _hermes(*FULL) is None
    invalid = _hermes(*INVALID)
    assert invalid is not None and len(invalid) == 3


def test_unknown_key_messages_suggest_the_same_key() -> None:
    with pytest.raises(baseline_parser.BaselineError) as caught:
        baseline_parser.parse_declaration(NAME, None, {"min_versoin": "2"}, where="w")
    assert caught.value.problems[0].message.endswith("(did you mean 'min_version'?)")


def test_baseline_values_match_the_models() -> None:
    decl = parse_declaration(NAME, *FULL, where="w")
    base = baseline_parser.parse_declaration(NAME, *FULL, where="w")
    assert decl.app is not None and base.app is not None
    for os_family in ("win32", "darwin", "linux"):
        model, plain = decl.app.for_os(os_family), getattr(base.app, os_family)
        assert model is not None and plain is not None
        assert (plain.app_id, plain.presence, plain.version.kind) == (
            model.app_id,
            model.presence,
            model.version_kind,
        )
        assert [location.kind for location in plain.locations] == [
            location.kind for location in model.locations
        ]
    win32 = decl.app.for_os("win32")
    assert win32 is not None and base.app.win32 is not None
    assert base.app.win32.liveness.path == win32.liveness_path
    assert base.app.win32.liveness.endpoint_path == win32.endpoint_path
    assert (base.requires.app, base.requires.min_version, base.requires.gpu) == (
        decl.requires.app,
        decl.requires.min_version,
        decl.requires.gpu,
    )


def test_baseline_location_kinds_match_the_table() -> None:
    assert {
        kind: (spec.valid_os, spec.key, spec.presence)
        for kind, spec in baseline_parser.LOCATION_KINDS.items()
    } == {kind: (spec.valid_os, spec.key, spec.presence) for kind, spec in LOCATION_KINDS.items()}


@pytest.mark.parametrize("key", ["path", "none", "plist", "kind_"])
def test_unknown_key_named_like_a_tag_under_linux_version(key: str) -> None:
    app = {"linux": {**LINUX, "version": {"kind": "none", key: "/x"}}}
    assert _hermes(app, None) == [(f"app.linux.version.{key}", "unknown_key")]
    baseline_app = {"linux": {**LINUX, "version": {key: "/x"}}}
    assert _hermes(baseline_app, None) == [(f"app.linux.version.{key}", "unknown_key")]
