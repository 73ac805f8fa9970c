"""``command``: the host's search path, then the well-known bin folders of each OS (SPEC 6.3)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.known_dirs import COMMAND_DIRS, known_dirs
from hermes_decl.resolver.live_host import LiveHost
from hermes_decl.resolver.pathsearch import find_in_folder
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.testing import FakeHost

PRESENCE_VERSION: dict[OsFamily, dict[str, Any]] = {
    "linux": {},
    "darwin": {},
    "win32": {"version": {"kind": "pe_resource"}},
}


def decl(os_family: OsFamily, name: str = "tool", **requires: Any) -> Declaration:
    block = {
        "presence": "executable",
        "location": {"kind": "command", "name": name},
        **PRESENCE_VERSION[os_family],
    }
    return parse_declaration("tool-mcp", {os_family: block}, {"app": True, **requires}, where="t")


FOLDER_TABLE: list[tuple[str, OsFamily, dict[str, str], tuple[str, ...]]] = [
    (
        "linux",
        "linux",
        {},
        (
            "~/.local/bin",
            "/usr/local/bin",
            "~/.cargo/bin",
            "/snap/bin",
            "~/bin",
            "/home/linuxbrew/.linuxbrew/bin",
            "~/.nix-profile/bin",
            "/nix/var/nix/profiles/default/bin",
            "/usr/bin",
        ),
    ),
    (
        "darwin",
        "darwin",
        {},
        (
            "/opt/homebrew/bin",
            "/usr/local/bin",
            "~/.local/bin",
            "~/.cargo/bin",
            "/opt/local/bin",
            "~/.nix-profile/bin",
            "/nix/var/nix/profiles/default/bin",
            "~/bin",
        ),
    ),
    (
        "win32",
        "win32",
        {},
        (
            "%LOCALAPPDATA%\\Microsoft\\WinGet\\Links",
            "%ProgramFiles%\\WinGet\\Links",
            "~\\scoop\\shims",
            "%ProgramData%\\scoop\\shims",
            "%ProgramData%\\chocolatey\\bin",
            "~\\.cargo\\bin",
            "~\\.local\\bin",
        ),
    ),
    (
        "linux-cargo-home",
        "linux",
        {"CARGO_HOME": "/opt/rust/cargo"},
        ("~/.local/bin", "/usr/local/bin", "$CARGO_HOME/bin"),
    ),
    ("linux-relative-cargo-home-is-ignored", "linux", {"CARGO_HOME": "cargo"}, ()),
    (
        "win32-scoop-and-chocolatey",
        "win32",
        {"SCOOP": "D:\\Scoop", "SCOOP_GLOBAL": "/scoop", "ChocolateyInstall": "C:/Choco"},
        (
            "%LOCALAPPDATA%\\Microsoft\\WinGet\\Links",
            "%ProgramFiles%\\WinGet\\Links",
            "$SCOOP\\shims",
            "%ProgramData%\\scoop\\shims",  # a POSIX path is not absolute on Windows
            "$ChocolateyInstall\\bin",
        ),
    ),
]


@pytest.mark.parametrize(
    ("os_family", "env", "expected"),
    [row[1:] for row in FOLDER_TABLE],
    ids=[row[0] for row in FOLDER_TABLE],
)
def test_the_known_bin_folders_in_order(
    os_family: OsFamily, env: dict[str, str], expected: tuple[str, ...]
) -> None:
    folders = known_dirs("command", os_family, env.get)
    if env and expected:
        assert folders[: len(expected)] == expected
    elif env:
        no_env: dict[str, str] = {}
        assert folders == known_dirs("command", os_family, no_env.get)  # the variable is ignored
    else:
        assert folders == expected
    assert len(folders) == len(COMMAND_DIRS[os_family])


FOUND: list[tuple[str, OsFamily, dict[str, str], str]] = [
    (
        "gui-path-without-local-bin",
        "linux",
        {"PATH": "/usr/bin:/bin", "HOME": "/home/u"},
        "/home/u/.local/bin/tool",
    ),
    ("linux-cargo", "linux", {"PATH": "/usr/bin", "HOME": "/home/u"}, "/home/u/.cargo/bin/tool"),
    ("linux-snap", "linux", {"PATH": "/usr/bin", "HOME": "/home/u"}, "/snap/bin/tool"),
    ("linux-no-path-at-all", "linux", {"HOME": "/home/u"}, "/usr/bin/tool"),
    (
        "mac-gui-path-without-homebrew",
        "darwin",
        {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/Users/u"},
        "/opt/homebrew/bin/tool",
    ),
    (
        "mac-macports",
        "darwin",
        {"PATH": "/usr/bin", "HOME": "/Users/u"},
        "/opt/local/bin/tool",
    ),
    (
        "windows-winget-links",
        "win32",
        {"PATH": "C:\\Windows", "LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local"},
        "C:\\Users\\u\\AppData\\Local\\Microsoft\\WinGet\\Links\\tool.EXE",
    ),
    (
        "windows-scoop-shims",
        "win32",
        {"PATH": "C:\\Windows", "USERPROFILE": "C:\\Users\\u"},
        "C:\\Users\\u\\scoop\\shims\\tool.EXE",
    ),
    (
        "windows-relocated-scoop",
        "win32",
        {"PATH": "C:\\Windows", "USERPROFILE": "C:\\Users\\u", "SCOOP": "D:\\Apps\\Scoop"},
        "D:\\Apps\\Scoop\\shims\\tool.EXE",
    ),
]


@pytest.mark.parametrize(
    ("os_family", "env", "where"), [row[1:] for row in FOUND], ids=[row[0] for row in FOUND]
)
def test_a_command_missing_from_the_search_path_is_found_in_a_known_folder(
    os_family: OsFamily, env: dict[str, str], where: str
) -> None:
    host = FakeHost(os_family, env=env)
    if os_family == "win32":
        host.add_pe(where, "1.0.0.0")
    else:
        host.add_executable(where)
    result = availability(decl(os_family), host=host)
    assert (result.state, result.path) == ("available", where)
    first, last = result.trace[0], result.trace[-1]
    assert (first.kind, first.path, first.outcome, first.via) == (
        "command",
        "tool",
        "absent",
        "search_path",
    )
    assert (last.path, last.outcome, last.via, last.source) == (
        where,
        "present",
        "known_folder",
        "declaration",
    )
    assert {c.outcome for c in result.trace[1:-1]} <= {"absent", "refused"}


def test_the_search_path_comes_first() -> None:
    host = FakeHost("linux", env={"PATH": "/opt/tools/bin", "HOME": "/home/u"})
    host.add_executable("/opt/tools/bin/tool").add_executable("/home/u/.local/bin/tool")
    result = availability(decl("linux"), host=host)
    assert (result.path, [c.via for c in result.trace]) == ("/opt/tools/bin/tool", ["search_path"])
    assert host.calls["is_file"] == 0  # which() alone: the known folders are never looked at


def test_a_missing_command_reports_its_bare_name_and_every_folder() -> None:
    host = FakeHost("linux", env={"PATH": "/usr/bin"}, home="/home/u")
    result = availability(decl("linux"), host=host)
    assert (result.state, result.path) == ("missing_app", "tool")
    assert [(c.path, c.outcome) for c in result.trace] == [
        ("tool", "absent"),
        ("/home/u/.local/bin/tool", "absent"),
        ("/usr/local/bin/tool", "absent"),
        ("/home/u/.cargo/bin/tool", "absent"),
        ("/snap/bin/tool", "absent"),
        ("/home/u/bin/tool", "absent"),
        ("/home/linuxbrew/.linuxbrew/bin/tool", "absent"),
        ("/home/u/.nix-profile/bin/tool", "absent"),
        ("/nix/var/nix/profiles/default/bin/tool", "absent"),
        ("/usr/bin/tool", "absent"),
    ]
    # One question per known folder but /usr/bin, which the search path already asked about.
    assert host.calls["is_file"] == 8


class _HostSayingNoFolders:
    """A host like ``base`` whose ``which`` does not say which folders it searched."""

    def __init__(self, base: FakeHost) -> None:
        self._base = base

    def __getattr__(self, name: str) -> Any:
        if name == "searched_folders":
            raise AttributeError(name)
        return getattr(self._base, name)


@pytest.mark.parametrize(
    ("os_family", "env", "questions_saved"),
    [
        # Two folders, one file name each.
        ("linux", {"PATH": "/usr/local/bin/:/usr/bin", "HOME": "/home/u"}, 2),
        (
            "win32",
            {
                "PATH": "c:\\users\\u\\appdata\\local\\microsoft\\winget\\links\\",
                "LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local",
                "ProgramFiles": "C:\\Program Files",
                "ProgramData": "C:\\ProgramData",
                "USERPROFILE": "C:\\Users\\u",
            },
            4,  # one folder, a name for each of PATHEXT's four default extensions
        ),
    ],
    ids=["linux-trailing-slash", "win32-any-case"],
)
def test_a_known_folder_the_search_path_searched_is_not_looked_in_again(
    os_family: OsFamily, env: dict[str, str], questions_saved: int
) -> None:
    searching = FakeHost(os_family, env=env)
    result = availability(decl(os_family), host=searching)
    every_folder = FakeHost(os_family, env=env)
    same = availability(decl(os_family), host=_HostSayingNoFolders(every_folder))
    assert (result.state, result.trace) == (same.state, same.trace)
    assert every_folder.calls["is_file"] - searching.calls["is_file"] == questions_saved


def test_a_folder_that_cannot_be_told_is_refused_not_guessed() -> None:
    host = FakeHost("win32", env={"PATH": "C:\\Windows"})  # no LOCALAPPDATA, no home
    result = availability(decl("win32"), host=host)
    refused = [(c.path, c.detail) for c in result.trace if c.outcome == "refused"]
    assert refused[:3] == [
        (None, "variable LOCALAPPDATA is unset"),
        (None, "variable ProgramFiles is unset"),
        (None, "the home directory of ~ is unknown"),
    ]


def test_with_a_minimum_a_newer_copy_in_a_known_folder_wins() -> None:
    local = "C:\\Users\\u\\AppData\\Local"
    links = f"{local}\\Microsoft\\WinGet\\Links"
    host = FakeHost("win32", env={"PATH": f"C:\\Tools;{links}", "LOCALAPPDATA": local})
    host.add_pe("C:\\Tools\\tool.exe", "1.0.0.0")
    host.add_pe(f"{links}\\tool.exe", "2.0.0.0")
    result = availability(decl("win32", min_version="2.0"), host=host)
    assert (result.state, result.version, result.path) == (
        "available",
        "2.0.0.0",
        f"{links}\\tool.EXE",
    )
    assert [c.via for c in result.trace] == ["search_path", "known_folder"]


@pytest.mark.parametrize(
    "on_path",
    [
        "C:\\Users\\u\\AppData\\Local\\Microsoft\\WinGet\\Links",
        "c:/users/U/appdata/local/microsoft/winget/links",
    ],
    ids=["same-spelling", "other-case-and-separator"],
)
def test_a_known_folder_also_on_the_search_path_is_not_listed_twice(on_path: str) -> None:
    local = "C:\\Users\\u\\AppData\\Local"
    host = FakeHost("win32", env={"PATH": on_path, "LOCALAPPDATA": local})
    host.add_pe(f"{local}\\Microsoft\\WinGet\\Links\\tool.exe", "1.0.0.0")
    result = availability(decl("win32", min_version="2.0"), host=host)
    assert result.state == "version_too_old"
    assert [c.via for c in result.trace if c.outcome == "present"] == ["search_path"]


@pytest.mark.parametrize(
    "make_host",
    [
        lambda root: FakeHost("linux", search_path="/home/u/.login/bin").add_executable(
            "/home/u/.login/bin/tool"
        ),
        lambda root: RootedHost(root, search_path="/home/u/.login/bin"),
        lambda root: LiveHost(search_path=str(root / "home/u/.login/bin")),
    ],
    ids=["fake", "rooted", "live"],
)
def test_a_host_may_supply_its_own_search_path(make_host: Any, tmp_path: Path) -> None:
    tool = tmp_path / "home/u/.login/bin/tool"
    tool.parent.mkdir(parents=True)
    tool.write_bytes(b"#!/bin/sh\n")
    # The live host on Windows finds a command through PATHEXT, so only with an extension.
    tool.with_suffix(".exe").write_bytes(b"MZ")
    host = make_host(tmp_path)
    found = host.which("tool")
    assert found is not None
    # A Linux host answers with "/", the live host on Windows with "\\".
    found_here = found.replace("\\", "/").lower()
    assert found_here.endswith("/home/u/.login/bin/tool") or (
        sys.platform == "win32" and found_here.endswith("/home/u/.login/bin/tool.exe")
    )


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX tree")
def test_a_gui_path_without_local_bin_in_a_rooted_tree(tmp_path: Path) -> None:
    tool = tmp_path / "home/u/.local/bin/tool"
    tool.parent.mkdir(parents=True)
    tool.write_bytes(b"#!/bin/sh\n")
    (tmp_path / "usr/bin").mkdir(parents=True)
    host = RootedHost(tmp_path, env={"PATH": "/usr/bin:/bin"}, home="/home/u")
    result = availability(decl("linux"), host=host)
    assert (result.state, result.path) == ("available", "/home/u/.local/bin/tool")
    assert result.trace[-1].via == "known_folder"


FOLDER_SEARCH: list[tuple[str, OsFamily, str, str, str | None]] = [
    ("posix", "linux", "/opt/bin", "tool", "/opt/bin/tool"),
    ("posix-folder-with-colon", "linux", "/opt/a:b", "tool", "/opt/a:b/tool"),
    ("posix-relative-folder", "linux", "opt/bin", "tool", None),
    ("posix-name-with-separator", "linux", "/opt/bin", "x/tool", None),
    ("win32-pathext", "win32", "C:\\Bin", "tool", "C:\\Bin\\tool.EXE"),
    ("win32-folder-with-semicolon", "win32", "C:\\a;b", "tool", "C:\\a;b\\tool.EXE"),
    ("win32-unc-folder", "win32", "\\\\srv\\share", "tool", None),
]


@pytest.mark.parametrize(
    ("os_family", "folder", "name", "expected"),
    [row[1:] for row in FOLDER_SEARCH],
    ids=[row[0] for row in FOLDER_SEARCH],
)
def test_find_in_folder_takes_one_folder_as_is(
    os_family: OsFamily, folder: str, name: str, expected: str | None
) -> None:
    files = {"/opt/bin/tool", "/opt/a:b/tool", "C:\\Bin\\tool.EXE", "C:\\a;b\\tool.EXE"}
    files |= {"\\\\srv\\share\\tool.EXE"}
    found = find_in_folder(
        name, folder, os_family=os_family, pathext=None, is_file=files.__contains__
    )
    assert found == expected


class AnsweringHost(FakeHost):
    """Someone else's host, whose ``which`` answers whatever it was given to answer."""

    def __init__(self, os_family: OsFamily, answer: object) -> None:
        super().__init__(os_family, home="/home/u" if os_family != "win32" else "C:\\Users\\u")
        self.answer = answer

    def which(self, name: str) -> str | None:
        super().which(name)
        return self.answer  # type: ignore[return-value]


UNSAFE_ANSWERS: list[tuple[str, OsFamily, object, str]] = [
    (
        "relative",
        "linux",
        "bin/tool",
        "the search path gave 'bin/tool', which is not an absolute path after expansion",
    ),
    (
        "parent-segment",
        "linux",
        "/opt/../etc/tool",
        "the search path gave '/opt/../etc/tool', which gained a '..' segment",
    ),
    (
        "unc",
        "win32",
        "\\\\server\\share\\tool.exe",
        "the search path gave '\\\\\\\\server\\\\share\\\\tool.exe', "
        "which became a UNC or device path",
    ),
    (
        "device",
        "win32",
        "C:\\Tools\\CON\\tool.exe",
        "the search path gave 'C:\\\\Tools\\\\CON\\\\tool.exe', "
        "which has a segment Windows opens as a device ('CON')",
    ),
    (
        "nul",
        "linux",
        "/opt/bin/to\0ol",
        "the search path gave '/opt/bin/to\\x00ol', which contains a NUL character",
    ),
    ("bytes", "linux", b"/opt/bin/tool", "the search path gave a bytes, not a path"),
]


@pytest.mark.parametrize(
    ("os_family", "answer", "detail"),
    [row[1:] for row in UNSAFE_ANSWERS],
    ids=[row[0] for row in UNSAFE_ANSWERS],
)
def test_a_search_path_answer_is_re_checked_before_use(
    os_family: OsFamily, answer: object, detail: str
) -> None:
    host = AnsweringHost(os_family, answer)
    host.add_file("/etc/tool" if os_family != "win32" else "C:\\Tools\\tool.exe")
    result = availability(decl(os_family), host=host)
    assert result.state == "missing_app"
    first = result.trace[0]
    assert (first.via, first.path, first.outcome, first.detail) == (
        "search_path",
        None,
        "refused",
        detail,
    )
    touched = {call for call in host.call_log if call[0] in ("is_file", "read_file")}
    assert all(answer not in args for _, args in touched)
