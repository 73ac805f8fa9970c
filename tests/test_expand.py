"""Expanding declared paths at lookup and matching ``*`` segments (SPEC 6.2), under FakeHost."""

from __future__ import annotations

import pytest

from hermes_decl.models import OsFamily
from hermes_decl.resolver.expand import Expansion, expand
from hermes_decl.resolver.known_dirs import known_dirs
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
    assert known_dirs("command", "linux", no_env) == ()
