"""The ``requires`` block of SPEC 3.3, its cross-field rules, and the error rendering of SPEC 4.

Written from SPEC.md: ``requires.app`` true without an app block is reported at ``requires.app``;
every ``min_version`` rule at ``requires.min_version``; cross-field rules run only when both blocks
are otherwise valid, while each block's own errors are always all reported.
"""

from __future__ import annotations

import pytest

from hermes_decl.declaration import DeclarationError, parse_declaration
from tests.rules_helpers import WHERE, error_of, os_block, parse, rows, rows1
from tests.rules_helpers import issues as issues_of

WIN32_PE = os_block("win32", version={"kind": "pe_resource"})
WIN32_UNINSTALL = os_block(
    "win32", version={"kind": "uninstall_registry", "display_name_prefix": "Vendor App"}
)
WIN32_NONE = os_block("win32")
DARWIN_PLIST = os_block("darwin", version={"kind": "plist"})
DARWIN_NONE = os_block("darwin", version={"kind": "none"})
LINUX = os_block("linux")

#: An app block under which a well-formed ``min_version`` with ``app: true`` is valid.
VERSIONED = {"win32": WIN32_PE}


# --- valid requires blocks and their defaults ---------------------------------------------------

VALID: dict[str, tuple[object, object, tuple[bool, str | None, str | None]]] = {
    "absent": (None, None, (False, None, None)),
    "empty-mapping": (None, {}, (False, None, None)),
    "app-false-no-block": (None, {"app": False}, (False, None, None)),
    "app-null-is-absent": (None, {"app": None}, (False, None, None)),
    "gpu-null-is-absent": (None, {"gpu": None}, (False, None, None)),
    "min-version-null-is-absent": ({"linux": LINUX}, {"min_version": None}, (False, None, None)),
    "gpu-without-app": (None, {"gpu": "nvidia"}, (False, None, "nvidia")),
    "app-true": ({"linux": LINUX}, {"app": True}, (True, None, None)),
    "app-true-gpu": ({"linux": LINUX}, {"app": True, "gpu": "nvidia"}, (True, None, "nvidia")),
    "app-false-with-block": ({"linux": LINUX}, {"app": False}, (False, None, None)),
    "app-block-without-requires": ({"linux": LINUX}, None, (False, None, None)),
    "spec-example": (
        {"win32": WIN32_PE, "darwin": DARWIN_PLIST, "linux": LINUX},
        {"app": True, "min_version": "2.3.0", "gpu": "nvidia"},
        (True, "2.3.0", "nvidia"),
    ),
}


@pytest.mark.parametrize(("raw_app", "raw_requires", "expected"), rows(VALID), ids=list(VALID))
def test_valid_requires(
    raw_app: object, raw_requires: object, expected: tuple[bool, str | None, str | None]
) -> None:
    requires = parse(raw_app, raw_requires).requires
    assert (requires.app, requires.min_version, requires.gpu) == expected


# --- min_version: ASCII dotted numeric, each part at most 9 digits -----------------------------

MIN_VERSIONS: dict[str, tuple[str, bool]] = {
    "major": ("2", True),
    "major-minor": ("2.3", True),
    "three-parts": ("2.3.0", True),
    "four-parts": ("2.3.0.12594", True),
    "zero": ("0", True),
    "leading-zeros": ("010.0", True),
    "nine-digits": ("123456789", True),
    "nine-digits-inner": ("1.999999999.0", True),
    "ten-digits": ("1234567890", False),
    "ten-digits-inner": ("1.1234567890", False),
    "fullwidth-digit": ("２.3", False),
    "arabic-indic-digits": ("٢.٣", False),
    "superscript-digit": ("²", False),
    "pre-release": ("2.3-beta", False),
    "build-suffix": ("2.3.0+build", False),
    "v-prefix": ("v2.3", False),
    "double-dot": ("2..3", False),
    "leading-dot": (".2", False),
    "trailing-dot": ("2.", False),
    "comma": ("2,3", False),
    "letter-part": ("2.x", False),
    "underscore": ("2_3", False),
    "negative": ("-1", False),
    "plus": ("+2", False),
    "exponent": ("1e3", False),
    "leading-space": (" 2.3", False),
    "trailing-space": ("2.3 ", False),
    "trailing-newline": ("2.3\n", False),
    "empty": ("", False),
}


@pytest.mark.parametrize(("value", "valid"), rows(MIN_VERSIONS), ids=list(MIN_VERSIONS))
def test_min_version_form(value: str, valid: bool) -> None:
    raw_requires = {"app": True, "min_version": value}
    if valid:
        assert parse(VERSIONED, raw_requires).requires.min_version == value
    else:
        assert issues_of(VERSIONED, raw_requires) == [("requires.min_version", "bad_version")]


# --- no coercion ---------------------------------------------------------------------------------

WRONG_TYPES: dict[str, tuple[str, object]] = {
    "app-string-true": ("app", "true"),
    "app-string-yes": ("app", "yes"),
    "app-one": ("app", 1),
    "app-zero": ("app", 0),
    "app-float": ("app", 1.0),
    "app-list": ("app", [True]),
    "app-mapping": ("app", {}),
    "min-version-float": ("min_version", 2.3),
    "min-version-int": ("min_version", 2),
    "min-version-list": ("min_version", ["2.3"]),
    "min-version-bool": ("min_version", True),
    "min-version-bytes": ("min_version", b"2.3"),
    "gpu-bool": ("gpu", True),
    "gpu-int": ("gpu", 1),
    "gpu-list": ("gpu", ["nvidia"]),
    "gpu-bytes": ("gpu", b"nvidia"),
}


@pytest.mark.parametrize(("key", "value"), rows(WRONG_TYPES), ids=list(WRONG_TYPES))
def test_requires_value_of_wrong_type(key: str, value: object) -> None:
    raw_requires: dict[str, object] = {"app": True, "min_version": "2"}
    raw_requires[key] = value
    assert issues_of(VERSIONED, raw_requires) == [(f"requires.{key}", "wrong_type")]


GPUS: dict[str, object] = {
    "amd": "amd",
    "intel": "intel",
    "capitalised": "NVIDIA",
    "apple-silicon": "apple_silicon",
    "none-word": "none",
    "unknown-word": "unknown",
    "empty": "",
    "leading-space": " nvidia",
}


@pytest.mark.parametrize("value", rows1(GPUS), ids=list(GPUS))
def test_gpu_accepts_only_nvidia(value: str) -> None:
    assert issues_of(None, {"gpu": value}) == [("requires.gpu", "invalid_choice")]


REQUIRES_SHAPES: dict[str, object] = {
    "string": "app",
    "list": [],
    "bool": True,
    "int": 1,
}


@pytest.mark.parametrize("raw_requires", rows1(REQUIRES_SHAPES), ids=list(REQUIRES_SHAPES))
def test_requires_must_be_a_mapping(raw_requires: object) -> None:
    assert issues_of({"linux": LINUX}, raw_requires) == [("requires", "wrong_type")]


def test_requires_non_string_key() -> None:
    found = issues_of(None, {"app": False, 1: True})
    assert [code for _, code in found] == ["non_string_key"]
    assert found[0][0].startswith("requires")


UNKNOWN_KEYS: dict[str, tuple[str, str | None]] = {
    "min-versoin": ("min_versoin", "min_version"),
    "version": ("version", "min_version"),
    "minversion": ("minversion", "min_version"),
    "gpus": ("gpus", "gpu"),
    "apps": ("apps", "app"),
    "foo": ("foo", None),
    "requires-app": ("requires_app", None),
    "vendor": ("vendor", None),
}


@pytest.mark.parametrize(("key", "suggestion"), rows(UNKNOWN_KEYS), ids=list(UNKNOWN_KEYS))
def test_requires_unknown_key(key: str, suggestion: str | None) -> None:
    error = error_of(None, {key: "2.3"})
    assert [(i.loc, i.code) for i in error.issues] == [(f"requires.{key}", "unknown_key")]
    message = error.issues[0].message
    assert message.startswith("unknown key")
    if suggestion is None:
        assert "did you mean" not in message
    else:
        assert message.endswith(f"(did you mean '{suggestion}'?)")


# --- cross-field rules ----------------------------------------------------------------------------

CROSS: dict[str, tuple[object, object, list[tuple[str, str]]]] = {
    # requires.app needs an app block
    "app-true-without-block": (None, {"app": True}, [("requires.app", "app_block_required")]),
    "app-true-gpu-without-block": (
        None,
        {"app": True, "gpu": "nvidia"},
        [("requires.app", "app_block_required")],
    ),
    "app-true-min-version-without-block": (
        None,
        {"app": True, "min_version": "2"},
        [("requires.app", "app_block_required")],
    ),
    # min_version needs app: true
    "min-version-without-app-or-block": (
        None,
        {"min_version": "2"},
        [("requires.min_version", "min_version_needs_app")],
    ),
    "min-version-app-false": (
        VERSIONED,
        {"app": False, "min_version": "2"},
        [("requires.min_version", "min_version_needs_app")],
    ),
    "min-version-app-absent": (
        VERSIONED,
        {"min_version": "2"},
        [("requires.min_version", "min_version_needs_app")],
    ),
    "min-version-app-null": (
        VERSIONED,
        {"app": None, "min_version": "2.3"},
        [("requires.min_version", "min_version_needs_app")],
    ),
    # a version source for every OS block it applies to
    "win32-pe-resource": ({"win32": WIN32_PE}, {"app": True, "min_version": "2"}, []),
    "win32-uninstall-registry": (
        {"win32": WIN32_UNINSTALL},
        {"app": True, "min_version": "2"},
        [],
    ),
    "darwin-plist": ({"darwin": DARWIN_PLIST}, {"app": True, "min_version": "2"}, []),
    "win32-and-darwin": (
        {"win32": WIN32_UNINSTALL, "darwin": DARWIN_PLIST},
        {"app": True, "min_version": "2"},
        [],
    ),
    "linux-exempt-with-win32": (
        {"win32": WIN32_PE, "linux": LINUX},
        {"app": True, "min_version": "2"},
        [],
    ),
    "linux-exempt-with-darwin": (
        {"darwin": DARWIN_PLIST, "linux": LINUX},
        {"app": True, "min_version": "2"},
        [],
    ),
    "win32-none": (
        {"win32": WIN32_NONE},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_no_version_source")],
    ),
    "darwin-none": (
        {"darwin": DARWIN_NONE},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_no_version_source")],
    ),
    "darwin-none-with-win32": (
        {"win32": WIN32_PE, "darwin": DARWIN_NONE},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_no_version_source")],
    ),
    "win32-none-with-linux": (
        {"win32": WIN32_NONE, "linux": LINUX},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_no_version_source")],
    ),
    "both-none-with-linux-one-issue": (
        {"win32": WIN32_NONE, "darwin": DARWIN_NONE, "linux": LINUX},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_no_version_source")],
    ),
    # a linux-only declaration cannot have a minimum
    "linux-only": (
        {"linux": LINUX},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_linux_only")],
    ),
    "linux-only-other-blocks-null": (
        {"win32": None, "darwin": None, "linux": LINUX},
        {"app": True, "min_version": "2"},
        [("requires.min_version", "min_version_linux_only")],
    ),
    # cross-field rules wait until both blocks are otherwise valid
    "skipped-when-requires-gpu-invalid": (
        None,
        {"app": True, "gpu": "amd"},
        [("requires.gpu", "invalid_choice")],
    ),
    "skipped-when-requires-app-wrong-type": (
        None,
        {"app": "true"},
        [("requires.app", "wrong_type")],
    ),
    "skipped-when-min-version-malformed": (
        {"win32": WIN32_NONE},
        {"app": True, "min_version": "2.x"},
        [("requires.min_version", "bad_version")],
    ),
    "skipped-when-requires-unknown-key": (
        {"win32": WIN32_NONE},
        {"app": True, "min_version": "2", "gpus": "nvidia"},
        [("requires.gpus", "unknown_key")],
    ),
    "skipped-when-app-presence-invalid": (
        {"win32": {**WIN32_NONE, "presence": "exe"}},
        {"app": True, "min_version": "2"},
        [("app.win32.presence", "invalid_choice")],
    ),
    "skipped-when-linux-location-invalid": (
        {"linux": {**LINUX, "location": "opt/vendor"}},
        {"app": True, "min_version": "2"},
        [("app.linux.location", "path_not_rooted")],
    ),
    "skipped-when-app-has-no-os-block": (
        {},
        {"app": True, "min_version": "2"},
        [("app", "no_os_block")],
    ),
    "skipped-when-app-not-a-mapping": (
        "linux",
        {"app": True},
        [("app", "wrong_type")],
    ),
    "both-blocks-own-errors-reported": (
        {"win32": {**WIN32_NONE, "presence": "exe"}},
        {"app": "yes", "min_version": "2"},
        [("app.win32.presence", "invalid_choice"), ("requires.app", "wrong_type")],
    ),
}


@pytest.mark.parametrize(("raw_app", "raw_requires", "expected"), rows(CROSS), ids=list(CROSS))
def test_cross_field_rules(
    raw_app: object, raw_requires: object, expected: list[tuple[str, str]]
) -> None:
    if expected:
        assert issues_of(raw_app, raw_requires) == expected
    else:
        assert parse(raw_app, raw_requires).requires.min_version is not None


NAMED_BLOCKS: dict[str, tuple[dict[str, object], tuple[str, ...], tuple[str, ...]]] = {
    "win32-only-missing": ({"win32": WIN32_NONE, "darwin": DARWIN_PLIST}, ("win32",), ("darwin",)),
    "darwin-only-missing": ({"win32": WIN32_PE, "darwin": DARWIN_NONE}, ("darwin",), ("win32",)),
    "both-missing-linux-exempt": (
        {"win32": WIN32_NONE, "darwin": DARWIN_NONE, "linux": LINUX},
        ("win32", "darwin"),
        ("linux",),
    ),
}


@pytest.mark.parametrize(
    ("raw_app", "named", "not_named"), rows(NAMED_BLOCKS), ids=list(NAMED_BLOCKS)
)
def test_no_version_source_names_every_block_lacking_one(
    raw_app: dict[str, object], named: tuple[str, ...], not_named: tuple[str, ...]
) -> None:
    issue = error_of(raw_app, {"app": True, "min_version": "2"}).issues
    assert len(issue) == 1
    message = issue[0].message
    for os_family in named:
        assert os_family in message, message
    for os_family in not_named:
        assert os_family not in message, message


# --- several errors at once, in order of appearance ---------------------------------------------

MANY: dict[str, tuple[object, object, list[tuple[str, str]]]] = {
    "everything-wrong": (
        {
            "win32": {
                "presence": "exe",
                "location": [
                    "relative.exe",
                    {"kind": "app_bundle", "name": "Vendor.app"},
                    {"kind": "uninstall_registry", "display_name_prefix": "A/B", "file": "..\\v"},
                ],
                "version": {"kind": "plist"},
            },
            "linux": {
                "presence": "executable",
                "location": "/opt/../vendor",
                "liveness": {"kind": "server_json", "path": "/run/*/s.json", "pid_key": "p id"},
            },
        },
        {"app": "true", "min_versoin": "2", "gpu": "amd"},
        [
            ("app.win32.presence", "invalid_choice"),
            ("app.win32.location[0]", "path_not_rooted"),
            ("app.win32.location[1]", "kind_wrong_os"),
            ("app.win32.location[2].display_name_prefix", "bad_name"),
            ("app.win32.location[2].file", "bad_file"),
            ("app.win32.version.kind", "kind_wrong_os"),
            ("app.linux.location", "path_parent"),
            ("app.linux.liveness.path", "path_star"),
            ("app.linux.liveness.pid_key", "bad_key_name"),
            ("requires.app", "wrong_type"),
            ("requires.min_versoin", "unknown_key"),
            ("requires.gpu", "invalid_choice"),
        ],
    ),
    "every-path-rule-in-one-list": (
        {
            "darwin": {
                "presence": "bundle",
                "location": [
                    "Applications/Vendor.app",
                    "%HOME%/Vendor.app",
                    "//server/Vendor.app",
                    "/Applications/../Vendor.app",
                    "/Applications/http://Vendor.app",
                    "/Applications/**/Vendor.app",
                    "  ",
                    "/Applications/Vendor *.app",
                ],
            }
        },
        None,
        [
            ("app.darwin.location[0]", "path_not_rooted"),
            ("app.darwin.location[1]", "path_windows_variable"),
            ("app.darwin.location[2]", "path_network"),
            ("app.darwin.location[3]", "path_parent"),
            ("app.darwin.location[4]", "path_url"),
            ("app.darwin.location[5]", "path_double_star"),
            ("app.darwin.location[6]", "blank"),
        ],
    ),
    "three-os-blocks": (
        {
            "win32": {"presence": "executable", "location": []},
            "darwin": {"presence": "bundle", "location": [{"kind": "command", "name": "v"}]},
            "linux": {"presence": "executable", "location": {"kind": "snap", "name": ""}},
        },
        {"app": True},
        [
            ("app.win32.location", "empty"),
            ("app.darwin.location[0]", "presence_mismatch"),
            ("app.linux.location.name", "blank"),
        ],
    ),
    "unknown-keys-everywhere": (
        {
            "linux": {
                "presence": "executable",
                "location": [{"kind": "snap", "name": "vendor", "file": "x"}],
                "version": {"kind": "none", "display_name_prefix": "V"},
                "liveness": {"kind": "none", "path": "/run/x.json"},
                "versoin": {},
            },
            "macos": {},
        },
        {"min_versoin": "2"},
        [
            ("app.linux.location[0].file", "unknown_key"),
            ("app.linux.version.display_name_prefix", "unknown_key"),
            ("app.linux.liveness.path", "unknown_key"),
            ("app.linux.versoin", "unknown_key"),
            ("app.macos", "unknown_key"),
            ("requires.min_versoin", "unknown_key"),
        ],
    ),
}


@pytest.mark.parametrize(("raw_app", "raw_requires", "expected"), rows(MANY), ids=list(MANY))
def test_all_issues_reported_in_order(
    raw_app: object, raw_requires: object, expected: list[tuple[str, str]]
) -> None:
    assert issues_of(raw_app, raw_requires) == expected


# --- str(error): one line per issue, each starting with `where` ---------------------------------

CANONICAL: dict[str, tuple[object, object, str]] = {
    "presence": (
        {"win32": {"presence": "exe", "location": "C:\\Vendor\\vendor.exe"}},
        None,
        f"{WHERE}: app.win32.presence: must be 'executable' or 'bundle' (got 'exe')",
    ),
    "kind-wrong-os": (
        {
            "win32": {
                "presence": "executable",
                "location": ["C:\\Vendor\\vendor.exe", {"kind": "app_bundle", "name": "V.app"}],
            }
        },
        None,
        f"{WHERE}: app.win32.location[1]: kind 'app_bundle' is only valid under app.darwin",
    ),
    "kind-wrong-os-win32-only": (
        {
            "linux": {
                "presence": "executable",
                "location": [
                    {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "v.exe"}
                ],
            }
        },
        None,
        f"{WHERE}: app.linux.location[0]: kind 'uninstall_registry' is only valid under app.win32",
    ),
    "unknown-key-suggestion": (
        None,
        {"min_versoin": "2.3.0"},
        f"{WHERE}: requires.min_versoin: unknown key (did you mean 'min_version'?)",
    ),
    "spec-section-4-example": (
        {
            "win32": {
                "presence": "exe",
                "location": ["C:\\Vendor\\vendor.exe", {"kind": "app_bundle", "name": "V.app"}],
            }
        },
        {"min_versoin": "2.3.0"},
        "\n".join(
            [
                f"{WHERE}: app.win32.presence: must be 'executable' or 'bundle' (got 'exe')",
                f"{WHERE}: app.win32.location[1]: kind 'app_bundle' is only valid under app.darwin",
                f"{WHERE}: requires.min_versoin: unknown key (did you mean 'min_version'?)",
            ]
        ),
    ),
}


@pytest.mark.parametrize(("raw_app", "raw_requires", "text"), rows(CANONICAL), ids=list(CANONICAL))
def test_canonical_message_text(raw_app: object, raw_requires: object, text: str) -> None:
    error = error_of(raw_app, raw_requires)
    assert str(error) == text
    assert isinstance(error, ValueError)


def test_every_line_starts_with_where() -> None:
    error = error_of(*MANY["everything-wrong"][:2])
    lines = str(error).split("\n")
    assert len(lines) == len(error.issues)
    for line, issue in zip(lines, error.issues, strict=True):
        assert line == f"{WHERE}: {issue.loc}: {issue.message}"
        assert issue.line is None
        assert issue.column is None


@pytest.mark.parametrize(
    ("requires", "expected"),
    [
        (
            {"min_version": "1", "gpu": "amd"},
            [("requires.min_version", "min_version_needs_app"), ("requires.gpu", "invalid_choice")],
        ),
        (
            {"min_version": "1", "extra": 1},
            [("requires.min_version", "min_version_needs_app"), ("requires.extra", "unknown_key")],
        ),
        ({"app": "yes", "min_version": "1"}, [("requires.app", "wrong_type")]),
    ],
    ids=["beside-a-bad-gpu", "beside-an-unknown-key", "app-itself-invalid"],
)
def test_the_blocks_own_rule_is_reported_beside_other_errors(
    requires: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    with pytest.raises(DeclarationError) as caught:
        parse_declaration("s", None, requires, where="w")
    assert [(issue.loc, issue.code) for issue in caught.value.issues] == expected
