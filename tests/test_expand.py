"""Expanding declared paths at lookup and matching ``*`` segments (SPEC 6.2), under FakeHost."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_core import PydanticCustomError

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import OS_FAMILIES, OsFamily
from hermes_decl.models.rules import location_path
from hermes_decl.resolver.app import LOCATION_KINDS, Candidate
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.expand import Expansion, expand, normalise, unsafe_reason
from hermes_decl.resolver.known_dirs import config_dir, known_dirs
from hermes_decl.testing import FakeHost

EXPANSIONS: list[tuple[OsFamily, str, dict[str, str], Expansion]] = [
    ("linux", "~/bin/app", {}, Expansion("/home/u/bin/app")),
    ("linux", "~alice/bin/app", {}, Expansion("/home/alice/bin/app")),
    ("linux", "~bob/bin/app", {}, Expansion(None, "the home directory of ~bob is unknown")),
    ("linux", "$OPT/app", {"OPT": "/opt"}, Expansion("/opt/app")),
    ("linux", "${OPT}/app", {"OPT": "/opt"}, Expansion("/opt/app")),
    ("linux", "/x/$A$B", {"A": "a", "B": "b"}, Expansion("/x/ab")),
    ("linux", "/x/$A", {"A": "$B", "B": "no"}, Expansion("/x/$B")),
    ("linux", "/x/%A%/y", {"A": "a"}, Expansion("/x/%A%/y")),
    ("linux", "$MISSING/app", {}, Expansion(None, "variable MISSING is unset")),
    (
        "linux",
        "$OPT/app",
        {"OPT": "opt"},
        Expansion(None, "opt/app is not an absolute path after expansion"),
    ),
    (
        "linux",
        "$OPT/app",
        {"OPT": "//srv/share"},
        Expansion(None, "//srv/share/app became a UNC or device path"),
    ),
    ("linux", "$OPT/app", {"OPT": "/a/.."}, Expansion(None, "/a/../app gained a '..' segment")),
    ("darwin", "~/Applications/X.app", {}, Expansion("/home/u/Applications/X.app")),
    (
        "win32",
        "%ProgramFiles%/Vendor/x.exe",
        {"PROGRAMFILES": "C:\\Program Files"},
        Expansion("C:\\Program Files\\Vendor\\x.exe"),
    ),
    (
        "win32",
        "%ProgramFiles(x86)%\\x.exe",
        {"ProgramFiles(x86)": "C:\\PF86"},
        Expansion("C:\\PF86\\x.exe"),
    ),
    (
        "win32",
        "$LOCALAPPDATA\\x",
        {"LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local"},
        Expansion("C:\\Users\\u\\AppData\\Local\\x"),
    ),
    ("win32", "C:/Vendor/x.exe", {}, Expansion("C:\\Vendor\\x.exe")),
    (
        "win32",
        "%ROOT%\\x",
        {"ROOT": "\\\\?\\C:\\"},
        Expansion(None, "\\\\?\\C:\\x became a UNC or device path"),
    ),
    (
        "win32",
        "%ROOT%x",
        {"ROOT": "C:"},
        Expansion(None, "C:x is not an absolute path after expansion"),
    ),
    (
        "win32",
        "%ROOT%\\x",
        {"ROOT": "C:\\a\\.. "},
        Expansion(None, "C:\\a\\.. \\x gained a '..' segment"),
    ),
    (
        "win32",
        "%ROOT%\\x",
        {"ROOT": "C:\\a\0"},
        Expansion(None, "C:\\a\0\\x contains a NUL character"),
    ),
    ("linux", "$ROOT/x", {"ROOT": "/"}, Expansion("/x")),
    ("linux", "${DATA}/x", {"DATA": "/data/"}, Expansion("/data/x")),
    ("linux", "$STAR/app", {"STAR": "/o*t"}, Expansion(None, "variable STAR holds a '*'")),
    ("win32", "%ROOT%\\x", {"ROOT": "C:\\"}, Expansion("C:\\x")),
]


@pytest.mark.parametrize(
    ("os_family", "template", "env", "expected"), EXPANSIONS, ids=[t for _, t, _, _ in EXPANSIONS]
)
def test_expand(
    os_family: OsFamily, template: str, env: dict[str, str], expected: Expansion
) -> None:
    host = FakeHost(
        os_family,
        env=env,
        home="C:\\Users\\u" if os_family == "win32" else "/home/u",
        users={"alice": "/home/alice"},
    )
    assert expand(template, os_family, host) == expected


def test_a_home_of_slash_is_not_a_network_path() -> None:
    host = FakeHost("linux", env={"HOME": "/"}, home="/")
    assert expand("~/x", "linux", host) == Expansion("/x")
    assert expand("~/.local/share/flatpak/exports/bin", "linux", host).path == (
        "/.local/share/flatpak/exports/bin"
    )


def test_known_dirs_answer_for_the_os_asked_about() -> None:
    def no_env(name: str) -> str | None:
        return None

    assert known_dirs("app_bundle", "darwin", no_env) == ("/Applications", "~/Applications")
    assert known_dirs("app_bundle", "linux", no_env) == ()
    assert known_dirs("flatpak", "linux", no_env) == (
        "/var/lib/flatpak/exports/bin",
        "~/.local/share/flatpak/exports/bin",
    )
    assert known_dirs("flatpak", "linux", {"XDG_DATA_HOME": "/d"}.get) == (
        "/var/lib/flatpak/exports/bin",
        "$XDG_DATA_HOME/flatpak/exports/bin",
    )
    assert known_dirs("snap", "linux", no_env) == ("/snap/bin",)
    assert known_dirs("snap", "win32", no_env) == ()
    assert known_dirs("command", "linux", no_env)[:2] == ("~/.local/bin", "/usr/local/bin")
    assert known_dirs("uninstall_registry", "win32", no_env) == ()


# --- values from the host that would move the path elsewhere: refused, never touched -----------

HOSTILE_VALUES: dict[str, tuple[OsFamily, str, dict[str, str], str | None, str]] = {
    "empty-variable-would-re-root": (
        "linux",
        "$EMPTY/etc/hostname",
        {"EMPTY": ""},
        None,
        "variable EMPTY is set but empty",
    ),
    "blank-braced-variable": (
        "linux",
        "${XDG_DATA_HOME}/vendor/x",
        {"XDG_DATA_HOME": " \t"},
        None,
        "variable XDG_DATA_HOME is set but empty",
    ),
    "empty-variable-inside": (
        "linux",
        "/opt/$EMPTY/bin/x",
        {"EMPTY": ""},
        None,
        "variable EMPTY is set but empty",
    ),
    "empty-windows-variable": (
        "win32",
        "%EMPTY%\\Windows\\notepad.exe",
        {"EMPTY": ""},
        None,
        "variable EMPTY is set but empty",
    ),
    "empty-home": ("linux", "~/bin/x", {}, "", "the home directory of ~ is empty"),
    "blank-home": ("darwin", "~/Applications/X.app", {}, "   ", "the home directory of ~ is empty"),
    "device-folder-from-a-variable": (
        "win32",
        "%DIR%\\x.exe",
        {"DIR": "C:\\CON"},
        None,
        "C:\\CON\\x.exe has a segment Windows opens as a device ('CON')",
    ),
    "device-file-from-a-variable": (
        "win32",
        "C:\\Tools\\%NAME%",
        {"NAME": "nul.exe"},
        None,
        "C:\\Tools\\nul.exe has a segment Windows opens as a device ('nul.exe')",
    ),
    "device-in-the-home": (
        "win32",
        "~\\x.exe",
        {},
        "C:\\Users\\com1 .",
        "C:\\Users\\com1 .\\x.exe has a segment Windows opens as a device ('com1 .')",
    ),
}


@pytest.mark.parametrize(
    ("os_family", "template", "env", "home", "refused"),
    HOSTILE_VALUES.values(),
    ids=list(HOSTILE_VALUES),
)
def test_a_hostile_value_makes_the_place_unresolvable_and_untouched(
    os_family: OsFamily, template: str, env: dict[str, str], home: str | None, refused: str
) -> None:
    host = FakeHost(os_family, env=env, home=home)
    host.add_executable("C:\\Windows\\notepad.exe" if os_family == "win32" else "/etc/hostname")
    assert expand(template, os_family, host) == Expansion(None, refused)
    presence = "bundle" if template.endswith(".app") else "executable"
    app = {os_family: {"presence": presence, "location": template}}
    result = availability(parse_declaration("s", app, {"app": True}, where="t"), host=host)
    assert result.state == "missing_app"
    assert result.trace == (Candidate(0, "path", None, "refused", refused),)
    assert not {"is_file", "is_dir", "list_dir", "read_file"} & set(host.calls)


def test_device_names_are_ordinary_outside_windows() -> None:
    host = FakeHost("linux", env={"DIR": "/srv/CON"}, home="/home/nul")
    assert expand("$DIR/x", "linux", host) == Expansion("/srv/CON/x")
    assert expand("~/aux.txt", "linux", host) == Expansion("/home/nul/aux.txt")


@pytest.mark.parametrize(
    ("install_location", "detail"),
    [
        ("C:\\Program Files\\CON", "C:\\Program Files\\CON\\bin\\v.exe"),
        ("C:\\Vendor\\LPT1.d", "C:\\Vendor\\LPT1.d\\bin\\v.exe"),
    ],
    ids=["device-folder", "device-with-extension"],
)
def test_an_install_location_naming_a_device_is_never_touched(
    install_location: str, detail: str
) -> None:
    host = FakeHost("win32").add_uninstall_entry("Vendor", "1.0", install_location)
    item = {"kind": "uninstall_registry", "display_name_prefix": "Vendor", "file": "bin\\v.exe"}
    app = {"win32": {"presence": "executable", "location": item}}
    result = availability(parse_declaration("s", app, {"app": True}, where="t"), host=host)
    segment = install_location.rsplit("\\", 1)[1]
    assert [(c.kind, c.path, c.outcome, c.detail) for c in result.trace] == [
        (
            "uninstall_registry",
            None,
            "refused",
            f"{detail} has a segment Windows opens as a device ({segment!r})",
        )
    ]
    assert host.calls["is_file"] == 0


# --- a template without a variable: already known safe, so expand does not check it again ------


def _has_variable(template: str, os_family: OsFamily) -> bool:
    return template.startswith("~") or "$" in template or (os_family == "win32" and "%" in template)


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_every_known_folder_without_a_variable_is_safe_as_written(os_family: OsFamily) -> None:
    def no_env(name: str) -> str | None:
        return None

    templates = [t for kind in LOCATION_KINDS for t in known_dirs(kind, os_family, no_env)]
    templates.append(config_dir(os_family, no_env))
    plain = [t for t in templates if not _has_variable(t, os_family)]
    assert plain == [t for t in plain if unsafe_reason(t, os_family) is None]
    assert bool(plain) is (os_family != "win32")  # every Windows folder starts at a variable


UNSAFE_AS_WRITTEN: dict[str, tuple[OsFamily, str, str, str]] = {
    "win32-nul": ("win32", "C:\\a\\x\0", "contains a NUL character", "path_nul"),
    "win32-unc": ("win32", "\\\\srv\\x", "became a UNC or device path", "path_network"),
    "win32-drive-relative": (
        "win32",
        "C:x",
        "is not an absolute path after expansion",
        "path_not_rooted",
    ),
    "win32-dots": ("win32", "C:\\a\\... \\x", "gained a '..' segment", "path_parent"),
    "win32-device": (
        "win32",
        "C:\\CON\\x",
        "has a segment Windows opens as a device ('CON')",
        "path_device",
    ),
    "linux-nul": ("linux", "/a/\0", "contains a NUL character", "path_nul"),
    "linux-network": ("linux", "//srv/x", "became a UNC or device path", "path_network"),
    "linux-relative": (
        "linux",
        "relative/x",
        "is not an absolute path after expansion",
        "path_not_rooted",
    ),
    "darwin-parent": ("darwin", "/a/../x", "gained a '..' segment", "path_parent"),
}


@pytest.mark.parametrize(
    ("os_family", "path", "reason", "code"),
    UNSAFE_AS_WRITTEN.values(),
    ids=list(UNSAFE_AS_WRITTEN),
)
def test_each_refusal_of_a_plain_path_is_the_models_first(
    os_family: OsFamily, path: str, reason: str, code: str
) -> None:
    assert not _has_variable(path, os_family)
    assert unsafe_reason(path, os_family) == reason
    with pytest.raises(PydanticCustomError) as refused:
        location_path(path, os_family)
    assert refused.value.type == code


ROOTS = ("C:\\", "c:/", "C:", "/", "//", "\\", "~/", "$A/", "%A%\\", "")
"""How a generated path starts: every root the rules know, and some they refuse."""
SEGMENT_CHARACTERS = "/\\:. CcOoNnuL~$%*\0ax"


@pytest.mark.parametrize("os_family", OS_FAMILIES)
@settings(max_examples=300, deadline=None, database=None)
@given(raw=st.tuples(st.sampled_from(ROOTS), st.text(SEGMENT_CHARACTERS, max_size=12)).map("".join))
def test_a_path_the_models_accept_without_a_variable_is_safe_as_written(
    os_family: OsFamily, raw: str
) -> None:
    try:
        path = location_path(raw, os_family)
    except PydanticCustomError:
        return
    if not _has_variable(path, os_family):
        assert unsafe_reason(path, os_family) is None
        assert expand(path, os_family, FakeHost(os_family)) == Expansion(normalise(os_family, path))
