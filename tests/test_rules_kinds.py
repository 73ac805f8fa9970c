"""Location kinds of SPEC 3.2: the kinds table, bare names, ``file``, lone mappings, lists.

Written from SPEC.md: a kind under the wrong OS or whose presence differs from the block's
``presence`` is reported at the list item (``location[1]``) or, for a lone mapping, at
``location``; an unknown or missing ``kind`` at ``location[i].kind``; a bad key value at the key.
"""

from __future__ import annotations

import pytest

from hermes_decl.models import AppDef, KindLocation, PathLocation
from tests.rules_helpers import PRESENCE, ROOTED, error_of, one_os, parse, rows
from tests.rules_helpers import issues as issues_of

ALL_OS = ("win32", "darwin", "linux")
OTHER_PRESENCE = {"executable": "bundle", "bundle": "executable"}

#: SPEC 3.2's table: kind -> (OS it is valid under, key, presence it yields, a valid mapping).
KINDS: dict[str, tuple[tuple[str, ...], str, str, dict[str, object]]] = {
    "command": (ALL_OS, "name", "executable", {"kind": "command", "name": "vendor"}),
    "uninstall_registry": (
        ("win32",),
        "display_name_prefix",
        "executable",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor App", "file": "vendor.exe"},
    ),
    "app_bundle": (("darwin",), "name", "bundle", {"kind": "app_bundle", "name": "Vendor.app"}),
    "flatpak": (
        ("linux",),
        "app_id",
        "executable",
        {"kind": "flatpak", "app_id": "com.vendor.App"},
    ),
    "snap": (("linux",), "name", "executable", {"kind": "snap", "name": "vendor"}),
}

#: Which OS block each kind's key-value cases run under.
HOME_OS = {
    kind: valid_os[0] if kind != "command" else "linux" for kind, (valid_os, *_) in KINDS.items()
}


def _app_def(raw_app: object, os_family: str) -> AppDef:
    decl = parse(raw_app)
    assert decl.app is not None
    app_def = decl.app.for_os(os_family)
    assert app_def is not None
    return app_def


def _kind_block(os_family: str, item: object, presence: str) -> dict[str, object]:
    return {os_family: {"presence": presence, "location": [ROOTED[os_family], item]}}


# --- the kinds table: valid OS, presence --------------------------------------------------------

KIND_TABLE: dict[str, tuple[str, str, str, str]] = {}
for _kind, (_valid_os, _key, _presence, _) in KINDS.items():
    for _os in ALL_OS:
        if _os in _valid_os:
            KIND_TABLE[f"{_kind}-under-{_os}"] = (_kind, _os, _presence, "")
            KIND_TABLE[f"{_kind}-under-{_os}-presence-{OTHER_PRESENCE[_presence]}"] = (
                _kind,
                _os,
                OTHER_PRESENCE[_presence],
                "presence_mismatch",
            )
        else:
            KIND_TABLE[f"{_kind}-under-{_os}"] = (_kind, _os, _presence, "kind_wrong_os")


@pytest.mark.parametrize(
    ("kind", "os_family", "presence", "code"), rows(KIND_TABLE), ids=list(KIND_TABLE)
)
def test_kind_os_and_presence(kind: str, os_family: str, presence: str, code: str) -> None:
    _, key, _, sample = KINDS[kind]
    app = _kind_block(os_family, dict(sample), presence)
    if not code:
        location = _app_def(app, os_family).locations[1]
        assert isinstance(location, KindLocation)
        assert location.kind == kind
        assert getattr(location, key) == sample[key]
        return
    error = error_of(app)
    expected = [(f"app.{os_family}.location[1]", code)]
    if presence == "bundle" and os_family != "darwin":
        # The presence is refused, so no location is compared with it.
        kept = [] if code == "presence_mismatch" else expected
        refused = "bundle_on_linux" if os_family == "linux" else "bundle_on_windows"
        expected = [(f"app.{os_family}.presence", refused), *kept]
    assert [(i.loc, i.code) for i in error.issues] == expected
    if code == "kind_wrong_os":
        (valid_os,) = KINDS[kind][0]
        assert error.issues[-1].message == f"kind '{kind}' is only valid under app.{valid_os}"


# --- a kind under the wrong OS still has its own fields checked, so one round fixes all ------

WRONG_OS_AND_OWN_FIELDS: dict[str, tuple[dict[str, object], list[tuple[str, str]]]] = {
    "flatpak-under-win32-bad-app-id": (
        one_os("win32", ["C:\\v.exe", {"kind": "flatpak", "app_id": "a/b"}]),
        [
            ("app.win32.location[1]", "kind_wrong_os"),
            ("app.win32.location[1].app_id", "bad_flatpak_id"),
        ],
    ),
    "snap-under-darwin-missing-name": (
        {"darwin": {"presence": "executable", "location": [{"kind": "snap"}]}},
        [
            ("app.darwin.location[0]", "kind_wrong_os"),
            ("app.darwin.location[0].name", "missing_key"),
        ],
    ),
    "app-bundle-under-linux-unknown-key": (
        one_os("linux", {"kind": "app_bundle", "name": "V.app", "file": "x"}),
        [("app.linux.location", "kind_wrong_os"), ("app.linux.location.file", "unknown_key")],
    ),
    "uninstall-under-linux-bad-file": (
        one_os("linux", [{"kind": "uninstall_registry", "display_name_prefix": "V", "file": "/x"}]),
        [("app.linux.location[0]", "kind_wrong_os"), ("app.linux.location[0].file", "bad_file")],
    ),
    "pe-resource-under-darwin-unknown-key": (
        {
            "darwin": {
                "presence": "bundle",
                "location": "/Applications/V.app",
                "version": {"kind": "pe_resource", "display_name_prefix": "V"},
            }
        },
        [
            ("app.darwin.version.kind", "kind_wrong_os"),
            ("app.darwin.version.display_name_prefix", "unknown_key"),
        ],
    ),
    "wrong-os-with-valid-fields-reports-the-os-alone": (
        one_os("win32", ["C:\\v.exe", {"kind": "flatpak", "app_id": "com.vendor.App"}]),
        [("app.win32.location[1]", "kind_wrong_os")],
    ),
}


@pytest.mark.parametrize(
    ("app", "expected"), WRONG_OS_AND_OWN_FIELDS.values(), ids=list(WRONG_OS_AND_OWN_FIELDS)
)
def test_a_kind_under_the_wrong_os_still_has_its_fields_checked(
    app: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    assert issues_of(app) == expected


# --- kind / key shape of a mapping -----------------------------------------------------------

SHAPE: dict[str, tuple[str, dict[str, object], list[tuple[str, str]]]] = {
    "missing-kind": ("linux", {"name": "vendor"}, [("location[1].kind", "missing_key")]),
    "empty-mapping": ("linux", {}, [("location[1].kind", "missing_key")]),
    "unknown-kind": (
        "linux",
        {"kind": "exe", "name": "v"},
        [("location[1].kind", "invalid_choice")],
    ),
    "kind-wrong-case": (
        "linux",
        {"kind": "Command", "name": "vendor"},
        [("location[1].kind", "invalid_choice")],
    ),
    "kind-with-space": (
        "linux",
        {"kind": " command", "name": "vendor"},
        [("location[1].kind", "invalid_choice")],
    ),
    "kind-path-is-not-a-kind": (
        "linux",
        {"kind": "path", "path": "/opt/vendor"},
        [("location[1].kind", "invalid_choice")],
    ),
    "kind-macos-alias": (
        "darwin",
        {"kind": "macos_bundle", "name": "Vendor.app"},
        [("location[1].kind", "invalid_choice")],
    ),
    "command-missing-name": ("linux", {"kind": "command"}, [("location[1].name", "missing_key")]),
    "app-bundle-missing-name": (
        "darwin",
        {"kind": "app_bundle"},
        [("location[1].name", "missing_key")],
    ),
    "flatpak-missing-app-id": (
        "linux",
        {"kind": "flatpak"},
        [("location[1].app_id", "missing_key")],
    ),
    "snap-missing-name": ("linux", {"kind": "snap"}, [("location[1].name", "missing_key")]),
    "uninstall-missing-file": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor"},
        [("location[1].file", "missing_key")],
    ),
    "uninstall-missing-prefix": (
        "win32",
        {"kind": "uninstall_registry", "file": "vendor.exe"},
        [("location[1].display_name_prefix", "missing_key")],
    ),
    "uninstall-missing-both": (
        "win32",
        {"kind": "uninstall_registry"},
        [
            ("location[1].display_name_prefix", "missing_key"),
            ("location[1].file", "missing_key"),
        ],
    ),
}


@pytest.mark.parametrize(("os_family", "item", "expected"), rows(SHAPE), ids=list(SHAPE))
def test_kind_mapping_shape(
    os_family: str, item: dict[str, object], expected: list[tuple[str, str]]
) -> None:
    app = _kind_block(os_family, item, PRESENCE[os_family])
    found = issues_of(app)
    assert sorted(found) == sorted((f"app.{os_family}.{loc}", code) for loc, code in expected)


# --- unknown keys on the variants of the location union ---------------------------------------

UNKNOWN_KEYS: dict[str, tuple[str, dict[str, object], str, str | None]] = {
    "file-on-snap": ("linux", {"kind": "snap", "name": "vendor", "file": "x"}, "file", None),
    "file-on-command": ("linux", {"kind": "command", "name": "v", "file": "v"}, "file", None),
    "file-on-app-bundle": (
        "darwin",
        {"kind": "app_bundle", "name": "Vendor.app", "file": "Contents/MacOS/vendor"},
        "file",
        None,
    ),
    "app-id-on-app-bundle": (
        "darwin",
        {"kind": "app_bundle", "name": "Vendor.app", "app_id": "com.vendor"},
        "app_id",
        None,
    ),
    "path-on-command": ("linux", {"kind": "command", "name": "v", "path": "/x"}, "path", None),
    "typo-nmae": ("linux", {"kind": "command", "name": "v", "nmae": "w"}, "nmae", "name"),
    "typo-appid": (
        "linux",
        {"kind": "flatpak", "app_id": "com.vendor.App", "appid": "x"},
        "appid",
        "app_id",
    ),
    "typo-files": (
        "win32",
        {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "v.exe", "files": "w"},
        "files",
        "file",
    ),
    "typo-display-name": (
        "win32",
        {
            "kind": "uninstall_registry",
            "display_name_prefix": "V",
            "file": "v.exe",
            "display_name": "V",
        },
        "display_name",
        "display_name_prefix",
    ),
}


@pytest.mark.parametrize(
    ("os_family", "item", "key", "suggestion"), rows(UNKNOWN_KEYS), ids=list(UNKNOWN_KEYS)
)
def test_unknown_key_on_location_variant(
    os_family: str, item: dict[str, object], key: str, suggestion: str | None
) -> None:
    error = error_of(_kind_block(os_family, item, PRESENCE[os_family]))
    assert [(i.loc, i.code) for i in error.issues] == [
        (f"app.{os_family}.location[1].{key}", "unknown_key")
    ]
    message = error.issues[0].message
    if suggestion is None:
        assert "did you mean" not in message
    else:
        assert message.endswith(f"(did you mean '{suggestion}'?)")


def test_flatpak_with_name_instead_of_app_id() -> None:
    item = {"kind": "flatpak", "name": "com.vendor.App"}
    found = issues_of(_kind_block("linux", item, "executable"))
    assert sorted(found) == [
        ("app.linux.location[1].app_id", "missing_key"),
        ("app.linux.location[1].name", "unknown_key"),
    ]


# --- bare names: name, app_id, display_name_prefix ----------------------------------------------

VALID_NAMES: dict[str, str] = {
    "plain": "vendor",
    "dotted": "com.vendor.App",
    "with-spaces": "Vendor App",
    "dash-underscore-digit": "vendor-cli_2",
    "bundle-suffix": "Vendor.app",
    "three-dots": "...",
    "dotdot-prefix": "..vendor",
    "non-ascii": "Vëndor Ä",
}

INVALID_NAMES: dict[str, tuple[str, str]] = {
    "slash": ("vendor/bin", "bad_name"),
    "leading-slash": ("/vendor", "bad_name"),
    "trailing-slash": ("vendor/", "bad_name"),
    "backslash": ("vendor\\bin", "bad_name"),
    "colon": ("vendor:2", "bad_name"),
    "drive": ("C:", "bad_name"),
    "dotdot": ("..", "bad_name"),
    "url": ("https://vendor.example", "bad_name"),
    "empty": ("", "blank"),
    "spaces": ("   ", "blank"),
}

NAME_CASES: dict[str, tuple[str, str, str]] = {}
# A Flatpak app id keeps the Flatpak id rule of its install hint (tests/test_author_mistakes.py).
for _kind in (kind for kind in KINDS if kind != "flatpak"):
    for _id, _value in VALID_NAMES.items():
        if _kind == "app_bundle" and not _value.endswith(".app"):
            _value += ".app"  # a bundle's folder name ends in .app
        NAME_CASES[f"{_kind}-valid-{_id}"] = (_kind, _value, "")
    for _id, (_value, _code) in INVALID_NAMES.items():
        NAME_CASES[f"{_kind}-{_id}"] = (_kind, _value, _code)


@pytest.mark.parametrize(("kind", "value", "code"), rows(NAME_CASES), ids=list(NAME_CASES))
def test_bare_name_rules(kind: str, value: str, code: str) -> None:
    _, key, presence, sample = KINDS[kind]
    os_family = HOME_OS[kind]
    item = {**sample, key: value}
    app = _kind_block(os_family, item, presence)
    if not code:
        location = _app_def(app, os_family).locations[1]
        assert isinstance(location, KindLocation)
        assert getattr(location, key) == value
    else:
        assert issues_of(app) == [(f"app.{os_family}.location[1].{key}", code)]


NON_STRING_NAMES: dict[str, tuple[str, object]] = {
    "command-int": ("command", 3),
    "command-bytes": ("command", b"vendor"),
    "flatpak-list": ("flatpak", ["com.vendor.App"]),
    "snap-bool": ("snap", True),
    "app-bundle-mapping": ("app_bundle", {"name": "Vendor.app"}),
    "uninstall-float": ("uninstall_registry", 1.5),
}


@pytest.mark.parametrize(("kind", "value"), rows(NON_STRING_NAMES), ids=list(NON_STRING_NAMES))
def test_non_string_name_is_wrong_type(kind: str, value: object) -> None:
    _, key, presence, sample = KINDS[kind]
    os_family = HOME_OS[kind]
    app = _kind_block(os_family, {**sample, key: value}, presence)
    assert issues_of(app) == [(f"app.{os_family}.location[1].{key}", "wrong_type")]


# --- `file` of uninstall_registry ------------------------------------------------------------

FILES: dict[str, tuple[object, str]] = {
    "plain": ("vendor.exe", ""),
    "backslash-dirs": ("bin\\vendor.exe", ""),
    "slash-dirs": ("bin/vendor.exe", ""),
    "spaces": ("Vendor App\\bin\\vendor.exe", ""),
    "dotdot-prefix": ("..vendor.exe", ""),
    "dotdot-inside-name": ("vendor..exe", ""),
    "empty": ("", "blank"),
    "spaces-only": ("   ", "blank"),
    "leading-backslash": ("\\vendor.exe", "bad_file"),
    "leading-slash": ("/vendor.exe", "bad_file"),
    "double-backslash": ("bin\\\\vendor.exe", "bad_file"),
    "double-slash": ("bin//vendor.exe", "bad_file"),
    "mixed-double-separator": ("bin\\/vendor.exe", "bad_file"),
    "trailing-separator": ("bin/", "bad_file"),
    "parent-backslash": ("..\\vendor.exe", "bad_file"),
    "parent-slash-inside": ("bin/../vendor.exe", "bad_file"),
    "parent-trailing": ("bin\\..", "bad_file"),
    "drive-absolute": ("C:\\vendor.exe", "bad_file"),
    "drive-relative": ("C:vendor.exe", "bad_file"),
    "alternate-data-stream": ("vendor.exe:stream", "bad_file"),
    "ads-data": ("vendor.exe::$DATA", "bad_file"),
    "unc": ("\\\\server\\share\\vendor.exe", "bad_file"),
    "device": ("NUL", "path_device"),
    "device-folder": ("bin\\com1\\vendor.exe", "path_device"),
    "device-extension-any-case": ("Con.exe", "path_device"),
    "device-trailing-dots": ("bin/LPT1..", "path_device"),
    "device-trailing-spaces": ("aux  ", "path_device"),
    "console-is-no-device": ("bin/CONSOLE.exe", ""),
    "int": (5, "wrong_type"),
    "bytes": (b"vendor.exe", "wrong_type"),
}


@pytest.mark.parametrize(("value", "code"), rows(FILES), ids=list(FILES))
def test_uninstall_registry_file_rules(value: object, code: str) -> None:
    item = {"kind": "uninstall_registry", "display_name_prefix": "Vendor App", "file": value}
    app = _kind_block("win32", item, "executable")
    if not code:
        location = _app_def(app, "win32").locations[1]
        assert isinstance(location, KindLocation)
        assert getattr(location, "file") == value  # noqa: B009
    else:
        assert issues_of(app) == [("app.win32.location[1].file", code)]


# --- a single kind mapping is a list of one; errors in it carry no index -----------------------

LONE: dict[str, tuple[str, str, object, list[tuple[str, str]]]] = {
    "command-valid": ("linux", "executable", {"kind": "command", "name": "vendor"}, []),
    "app-bundle-valid": ("darwin", "bundle", {"kind": "app_bundle", "name": "Vendor.app"}, []),
    "uninstall-valid": (
        "win32",
        "executable",
        {"kind": "uninstall_registry", "display_name_prefix": "Vendor", "file": "v.exe"},
        [],
    ),
    "wrong-os": (
        "darwin",
        "bundle",
        {"kind": "flatpak", "app_id": "com.vendor.App"},
        [("app.darwin.location", "kind_wrong_os")],
    ),
    "presence-mismatch": (
        "darwin",
        "bundle",
        {"kind": "command", "name": "vendor"},
        [("app.darwin.location", "presence_mismatch")],
    ),
    "bundle-as-executable": (
        "darwin",
        "executable",
        {"kind": "app_bundle", "name": "Vendor.app"},
        [("app.darwin.location", "presence_mismatch")],
    ),
    "missing-name": (
        "linux",
        "executable",
        {"kind": "command"},
        [("app.linux.location.name", "missing_key")],
    ),
    "unknown-kind": (
        "linux",
        "executable",
        {"kind": "deb", "name": "vendor"},
        [("app.linux.location.kind", "invalid_choice")],
    ),
    "missing-kind": (
        "linux",
        "executable",
        {"name": "vendor"},
        [("app.linux.location.kind", "missing_key")],
    ),
    "empty-mapping": ("linux", "executable", {}, [("app.linux.location.kind", "missing_key")]),
    "bad-name": (
        "linux",
        "executable",
        {"kind": "snap", "name": "a/b"},
        [("app.linux.location.name", "bad_name")],
    ),
    "unknown-key": (
        "linux",
        "executable",
        {"kind": "snap", "name": "vendor", "file": "x"},
        [("app.linux.location.file", "unknown_key")],
    ),
    "bad-file": (
        "win32",
        "executable",
        {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "..\\v.exe"},
        [("app.win32.location.file", "bad_file")],
    ),
}


@pytest.mark.parametrize(("os_family", "presence", "raw", "expected"), rows(LONE), ids=list(LONE))
def test_lone_kind_mapping(
    os_family: str, presence: str, raw: object, expected: list[tuple[str, str]]
) -> None:
    app = {os_family: {"presence": presence, "location": raw}}
    if expected:
        assert issues_of(app) == expected
        return
    app_def = _app_def(app, os_family)
    assert len(app_def.locations) == 1
    location = app_def.locations[0]
    assert isinstance(location, KindLocation)
    assert isinstance(raw, dict)
    assert location.kind == raw["kind"]


# --- the list itself -------------------------------------------------------------------------

LIST_SHAPES: dict[str, tuple[object, list[tuple[str, str]]]] = {
    "empty-list": ([], [("app.linux.location", "empty")]),
    "empty-string": ("", [("app.linux.location", "blank")]),
    "missing": (None, [("app.linux.location", "missing_key")]),
    "int": (3, [("app.linux.location", "wrong_type")]),
    "bool": (False, [("app.linux.location", "wrong_type")]),
    "int-item": ([3], [("app.linux.location[0]", "wrong_type")]),
    "empty-string-item": (["/opt/v", ""], [("app.linux.location[1]", "blank")]),
    "several-bad-items": (
        [
            "opt/vendor",
            {"kind": "app_bundle", "name": "Vendor.app"},
            "/opt/vendor",
            {"kind": "snap", "name": ".."},
            {"kind": "dpkg"},
        ],
        [
            ("app.linux.location[0]", "path_not_rooted"),
            ("app.linux.location[1]", "kind_wrong_os"),
            ("app.linux.location[3].name", "bad_name"),
            ("app.linux.location[4].kind", "invalid_choice"),
        ],
    ),
}


@pytest.mark.parametrize(("raw", "expected"), rows(LIST_SHAPES), ids=list(LIST_SHAPES))
def test_location_list_shapes(raw: object, expected: list[tuple[str, str]]) -> None:
    block: dict[str, object] = {"presence": "executable"}
    if raw is not None:
        block["location"] = raw
    assert issues_of({"linux": block}) == expected


def test_mixed_list_keeps_order() -> None:
    raw = [
        {"kind": "command", "name": "vendor"},
        "/opt/vendor/bin/vendor",
        {"kind": "flatpak", "app_id": "com.vendor.App"},
        {"kind": "snap", "name": "vendor"},
    ]
    app_def = _app_def(one_os("linux", raw), "linux")
    kinds = [
        loc.kind if isinstance(loc, KindLocation) else "path"
        for loc in app_def.locations
        if isinstance(loc, (KindLocation, PathLocation))
    ]
    assert kinds == ["command", "path", "flatpak", "snap"]
    assert isinstance(app_def.locations, tuple)
