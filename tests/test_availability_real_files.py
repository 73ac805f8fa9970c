"""Availability over real files: a rooted tree in tmp_path, and the live host on hostile trees."""

from __future__ import annotations

import os
import plistlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.live_host import LiveHost
from hermes_decl.resolver.rooted_host import RootedHost

FIXTURES = Path(__file__).parent / "fixtures"
VERSION64 = (FIXTURES / "pe" / "version64.exe").read_bytes()  # file version 2.3.0.12594

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="real POSIX file trees")

if sys.platform == "win32":

    def make_fifo(path: Path) -> None:
        raise NotImplementedError

    def is_root() -> bool:
        return False

else:

    def make_fifo(path: Path) -> None:
        os.mkfifo(path)

    def is_root() -> bool:
        return os.geteuid() == 0


def decl(app: dict[str, Any], **requires: Any) -> Declaration:
    return parse_declaration("thing", app, {"app": True, **requires}, where="test")


def write(path: Path, data: bytes = b"") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_variables_and_home_expand_in_a_rooted_tree(tmp_path: Path) -> None:
    write(tmp_path / "home/u/apps/thing")
    write(tmp_path / "opt/thing/bin/thing")
    host = RootedHost(tmp_path, env={"THING_HOME": "/opt/thing"}, home="/home/u")
    by_var = availability(
        decl({"linux": {"presence": "executable", "location": "${THING_HOME}/bin/thing"}}),
        host=host,
    )
    assert (by_var.state, by_var.path) == ("available", "/opt/thing/bin/thing")
    by_home = availability(
        decl({"linux": {"presence": "executable", "location": "~/apps/thing"}}), host=host
    )
    assert (by_home.state, by_home.path) == ("available", "/home/u/apps/thing")


def test_star_folders_are_tried_newest_first(tmp_path: Path) -> None:
    for folder in ["Thing 2.9", "Thing 2.10", "Thing 10.0b"]:
        write(tmp_path / "opt" / folder / "thing")
    host = RootedHost(tmp_path)
    result = availability(
        decl({"linux": {"presence": "executable", "location": "/opt/Thing */thing"}}), host=host
    )
    assert (result.state, result.path) == ("available", "/opt/Thing 10.0b/thing")


def test_with_a_minimum_an_old_copy_listed_first_loses(tmp_path: Path) -> None:
    write(tmp_path / "C" / "Old" / "thing.exe", b"MZ not a real executable")  # C:\ is <root>/C
    write(tmp_path / "C" / "New" / "thing.exe", VERSION64)
    host = RootedHost(tmp_path, os_family="win32")
    app = {
        "win32": {
            "presence": "executable",
            "location": ["C:/Old/thing.exe", "C:/New/thing.exe"],
            "version": {"kind": "pe_resource"},
        }
    }

    result = availability(decl(app, min_version="2.3"), host=host)
    assert (result.state, result.path, result.version) == (
        "available",
        "C:\\New\\thing.exe",
        "2.3.0.12594",
    )
    assert [(c.path, c.version) for c in result.trace] == [
        ("C:\\Old\\thing.exe", None),
        ("C:\\New\\thing.exe", "2.3.0.12594"),
    ]


def test_a_command_on_path(tmp_path: Path) -> None:
    write(tmp_path / "usr/local/bin/other")
    write(tmp_path / "usr/bin/thing")
    host = RootedHost(tmp_path, env={"PATH": "/usr/local/bin::relative:/usr/bin"})
    result = availability(
        decl(
            {"linux": {"presence": "executable", "location": {"kind": "command", "name": "thing"}}}
        ),
        host=host,
    )
    assert (result.state, result.path) == ("available", "/usr/bin/thing")


def test_a_flatpak_export_under_xdg_data_home(tmp_path: Path) -> None:
    write(tmp_path / "data/u/flatpak/exports/bin/com.thing.App")
    host = RootedHost(tmp_path, env={"XDG_DATA_HOME": "/data/u"}, home="/home/u")
    app = {
        "linux": {
            "presence": "executable",
            "location": {"kind": "flatpak", "app_id": "com.thing.App"},
        }
    }
    result = availability(decl(app), host=host)
    assert (result.state, result.path) == ("available", "/data/u/flatpak/exports/bin/com.thing.App")


def test_a_bundle_with_a_binary_plist(tmp_path: Path) -> None:
    info = plistlib.dumps({"CFBundleShortVersionString": "4.2.1"}, fmt=plistlib.FMT_BINARY)
    write(tmp_path / "Applications/Thing.app/Contents/Info.plist", info)
    host = RootedHost(tmp_path, os_family="darwin", home="/Users/u")
    app = {
        "darwin": {
            "presence": "bundle",
            "location": {"kind": "app_bundle", "name": "Thing.app"},
            "version": {"kind": "plist"},
        }
    }
    result = availability(decl(app, min_version="4.2"), host=host)
    assert (result.state, result.path, result.version) == (
        "available",
        "/Applications/Thing.app",
        "4.2.1",
    )


# -- hostile trees, through the live host --------------------------------------------------------


def fifo_as_plist(root: Path) -> dict[str, Any]:
    (root / "Thing.app/Contents").mkdir(parents=True)
    make_fifo(root / "Thing.app/Contents/Info.plist")  # a bundle needs a regular Info.plist
    return {
        "darwin": {
            "presence": "bundle",
            "location": str(root / "Thing.app"),
            "version": {"kind": "plist"},
        }
    }


def fifo_as_executable(root: Path) -> dict[str, Any]:
    make_fifo(root / "thing")
    return {"linux": {"presence": "executable", "location": str(root / "thing")}}


def symlink_loop(root: Path) -> dict[str, Any]:
    (root / "a").symlink_to(root / "b")
    (root / "b").symlink_to(root / "a")
    return {"linux": {"presence": "executable", "location": str(root / "a")}}


def directory_as_file(root: Path) -> dict[str, Any]:
    (root / "thing").mkdir()
    return {"linux": {"presence": "executable", "location": str(root / "thing")}}


def sparse_pe(root: Path) -> dict[str, Any]:
    (root / "C").mkdir()
    with (root / "C" / "thing.exe").open("wb") as file:
        file.truncate(1 << 30)
    return {
        "win32": {
            "presence": "executable",
            "location": "C:/thing.exe",
            "version": {"kind": "pe_resource"},
        }
    }


def unreadable_plist(root: Path) -> dict[str, Any]:
    plist = write(root / "Thing.app/Contents/Info.plist", plistlib.dumps({"CFBundleVersion": "9"}))
    plist.chmod(0)
    (root / "Thing.app/Contents").chmod(0o311)  # listable by no one, readable by root only
    return {
        "darwin": {
            "presence": "bundle",
            "location": str(root / "Thing.app"),
            "version": {"kind": "plist"},
        }
    }


def non_utf8_names(root: Path) -> dict[str, Any]:
    folder = os.fsencode(root) + b"/Thing \xff\xfe 2.0"
    os.mkdir(folder)
    with open(folder + b"/thing", "wb"):
        pass
    write(root / "Thing 1.0" / "thing")
    return {"linux": {"presence": "executable", "location": str(root / "Thing *" / "thing")}}


HOSTILE: dict[str, tuple[Callable[[Path], dict[str, Any]], dict[str, str], str]] = {
    "fifo-as-info-plist": (fifo_as_plist, {"min_version": "1"}, "missing_app"),
    "fifo-as-executable": (fifo_as_executable, {}, "missing_app"),
    "symlink-loop": (symlink_loop, {}, "missing_app"),
    "directory-as-file": (directory_as_file, {}, "missing_app"),
    "sparse-1gib-pe": (sparse_pe, {"min_version": "1"}, "version_too_old"),
    "unreadable-plist": (
        unreadable_plist,
        {"min_version": "1"},
        "available" if is_root() else "version_too_old",
    ),
    "non-utf8-names": (non_utf8_names, {}, "available"),
}


@pytest.mark.parametrize(("build", "requires", "state"), list(HOSTILE.values()), ids=list(HOSTILE))
def test_hostile_trees_give_a_state_quickly(
    tmp_path: Path, build: Callable[[Path], dict[str, Any]], requires: dict[str, str], state: str
) -> None:
    app = build(tmp_path)
    host: Any = RootedHost(tmp_path, os_family="win32") if "win32" in app else LiveHost()
    started = time.monotonic()
    os_family: OsFamily = "win32" if "win32" in app else "darwin" if "darwin" in app else "linux"
    result = availability(decl(app, **requires), host=host, os_family=os_family)
    assert result.state == state
    assert time.monotonic() - started < 5
