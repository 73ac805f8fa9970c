"""Expanding declared paths at lookup and matching ``*`` segments (SPEC 6.2), under FakeHost."""

from __future__ import annotations

import pytest

from hermes_decl.models import OsFamily
from hermes_decl.resolver.expand import MAX_MATCHES, Expansion, expand, match_pattern, star_text
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


STARS = [
    ("Vendor App *", "Vendor App 2.10", "2.10"),
    ("Vendor App *", "Vendor App ", ""),
    ("Vendor App *", "Vendor Ap", None),
    ("a*b*c", "axxbyyc", "xx"),
    ("a*b*c", "abbc", ""),
    ("a*a", "a", None),
    ("*", "anything", "anything"),
    ("*.app", "X.app", "X"),
    ("x*" + "*y" * 0 + "z", "x" + "q" * 10_000 + "z", "q" * 10_000),
]


@pytest.mark.parametrize(
    ("segment", "name", "expected"), STARS, ids=[f"{s}~{n[:12]}" for s, n, _ in STARS]
)
def test_star_text(segment: str, name: str, expected: str | None) -> None:
    assert star_text(segment, name, ignore_case=False) == expected


def test_a_home_of_slash_is_not_a_network_path() -> None:
    host = FakeHost("linux", env={"HOME": "/"}, home="/")
    assert expand("~/x", "linux", host) == Expansion("/x")
    assert expand("~/.local/share/flatpak/exports/bin", "linux", host).path == (
        "/.local/share/flatpak/exports/bin"
    )


def test_star_text_ignores_case_on_windows_only() -> None:
    assert star_text("VENDOR *", "vendor 2", ignore_case=True) == "2"
    assert star_text("VENDOR *", "vendor 2", ignore_case=False) is None


def test_matches_are_newest_first_then_by_name_unreadable_last() -> None:
    host = FakeHost("linux")
    for name in [
        "Thing 2.9",
        "Thing 2.10",
        "Thing 10.0b",
        "Thing beta",
        "Thing alpha",
        "Thing 2.10.0",
        "Other 99",
    ]:
        host.add_executable(f"/opt/{name}/bin/thing")
    matches = match_pattern("/opt/Thing */bin/thing", "linux", host)
    assert matches == (
        "/opt/Thing 10.0b/bin/thing",
        "/opt/Thing 2.10/bin/thing",
        "/opt/Thing 2.10.0/bin/thing",
        "/opt/Thing 2.9/bin/thing",
        "/opt/Thing alpha/bin/thing",
        "/opt/Thing beta/bin/thing",
    )


def test_several_star_segments_and_the_match_budget() -> None:
    host = FakeHost("linux")
    for outer in range(20):
        for inner in range(20):
            host.add_executable(f"/opt/v{outer}/r{inner}/app")
    matches = match_pattern("/opt/v*/r*/app", "linux", host)
    assert len(matches) == MAX_MATCHES  # 400 would match: the first 256, newest folders first
    assert matches[0] == "/opt/v19/r19/app"
    assert matches[-1] == "/opt/v7/r0/app"
    assert host.calls["list_dir"] == 1 + 13  # listing stops once the second '*' has 256


def test_the_first_star_cannot_starve_the_second() -> None:
    host = FakeHost("linux")
    for number in range(MAX_MATCHES):
        host.add_dir(f"/o/d{number:03}")
    host.add_executable("/o/d100/bin/app-2.0")
    assert match_pattern("/o/*/bin/app*", "linux", host) == ("/o/d100/bin/app-2.0",)
    host.reset_calls()
    for number in range(300):
        host.add_dir(f"/p/e{number:03}/s1")
    assert len(match_pattern("/p/*/s*", "linux", host)) == MAX_MATCHES
    assert host.calls["list_dir"] == 1 + MAX_MATCHES


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
