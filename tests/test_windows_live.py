"""The resolver on a running Windows: the real registry, environment, PATHEXT and kernel32."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_decl import declaration
from hermes_decl.declaration import Declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.live_host import LiveHost
from tests.windows_reg import reg

pytestmark = pytest.mark.skipif(sys.platform != "win32", reason="needs a running Windows")

UNINSTALL_KEY = r"HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall"


@pytest.fixture
def uninstall_entry() -> Iterator[str]:
    """A fresh per-user uninstall key's path, deleted after the test."""
    key = f"{UNINSTALL_KEY}\\HermesDeclLive-{uuid.uuid4().hex}"
    yield key
    reg("delete", key, "/f")


def win32_decl(location: object, **block: object) -> Declaration:
    """A declaration that needs the application at ``location`` on Windows."""
    return declaration.parse_declaration(
        "live-server",
        raw_app={"win32": {"presence": "executable", "location": location, **block}},
        raw_requires={"app": True, "min_version": "2.4"},
        where="test",
    )


def test_an_uninstall_entry_written_with_reg_is_found_with_its_version(
    uninstall_entry: str, tmp_path: Path
) -> None:
    (tmp_path / "Studio.exe").write_bytes(b"MZ")
    name = f"Hermes Live Studio {uuid.uuid4().hex[:8]}"
    reg("add", uninstall_entry, "/v", "DisplayName", "/d", name, "/f")
    reg("add", uninstall_entry, "/v", "DisplayVersion", "/d", "2.4.1", "/f")
    reg("add", uninstall_entry, "/v", "InstallLocation", "/d", str(tmp_path), "/f")
    decl = win32_decl(
        [{"kind": "uninstall_registry", "display_name_prefix": name, "file": "studio.exe"}],
        version={"kind": "uninstall_registry", "display_name_prefix": name},
    )
    result = availability(decl, host=LiveHost())
    assert (result.state, result.version) == ("available", "2.4.1")
    # The declared file name joined to InstallLocation; the filesystem ignores its case.
    assert result.path == f"{tmp_path}\\studio.exe"
    assert os.path.samefile(result.path, tmp_path / "Studio.exe")
    assert [(c.outcome, c.via, c.version) for c in result.trace] == [
        ("present", "uninstall_entry", "2.4.1")
    ]


def test_an_uninstall_entry_too_old_is_version_too_old(
    uninstall_entry: str, tmp_path: Path
) -> None:
    (tmp_path / "studio.exe").write_bytes(b"MZ")
    name = f"Hermes Live Studio {uuid.uuid4().hex[:8]}"
    reg("add", uninstall_entry, "/v", "DisplayName", "/d", name, "/f")
    reg("add", uninstall_entry, "/v", "DisplayVersion", "/d", "2.3.9", "/f")
    reg("add", uninstall_entry, "/v", "InstallLocation", "/d", str(tmp_path), "/f")
    decl = win32_decl(
        [{"kind": "uninstall_registry", "display_name_prefix": name, "file": "studio.exe"}],
        version={"kind": "uninstall_registry", "display_name_prefix": name},
    )
    result = availability(decl, host=LiveHost())
    assert (result.state, result.version) == ("version_too_old", "2.3.9")


def test_an_uninstall_entry_is_read_back_as_written(uninstall_entry: str, tmp_path: Path) -> None:
    name = f"Hermes Live Studio {uuid.uuid4().hex[:8]}"
    reg("add", uninstall_entry, "/v", "DisplayName", "/d", name, "/f")
    reg("add", uninstall_entry, "/v", "InstallLocation", "/d", str(tmp_path), "/f")
    (entry,) = (e for e in LiveHost().uninstall_entries() if e.display_name == name)
    assert (entry.display_version, entry.install_location) == (None, str(tmp_path))


@pytest.fixture
def local_app_data_folder() -> Iterator[Path]:
    """A fresh folder under the real ``%LOCALAPPDATA%``, removed after the test."""
    folder = Path(os.environ["LOCALAPPDATA"]) / f"HermesDeclLive-{uuid.uuid4().hex}"
    folder.mkdir()
    yield folder
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()


def test_localappdata_is_expanded_from_the_real_environment(local_app_data_folder: Path) -> None:
    (local_app_data_folder / "tool.exe").write_bytes(b"MZ")
    decl = declaration.parse_declaration(
        "live-server",
        raw_app={
            "win32": {
                "presence": "executable",
                "location": f"%localappdata%/{local_app_data_folder.name}/TOOL.exe",
            }
        },
        raw_requires={"app": True},
        where="test",
    )
    result = availability(decl, host=LiveHost())
    assert result.state == "available"
    assert result.path is not None
    assert os.path.samefile(result.path, local_app_data_folder / "tool.exe")


def test_pathext_finds_cmd_and_exe_files_in_any_case(tmp_path: Path) -> None:
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    (tmp_path / "first" / "Tool.CMD").write_text("@echo off\r\n")
    (tmp_path / "second" / "other.exe").write_bytes(b"MZ")
    host = LiveHost(search_path=f"{tmp_path / 'first'};{tmp_path / 'second'}")
    assert ".CMD" in os.environ["PATHEXT"].upper().split(";")
    for name in ("tool", "TOOL", "tool.cmd"):
        found = host.which(name)
        assert found is not None, name
        assert os.path.samefile(found, tmp_path / "first" / "Tool.CMD")
    other = host.which("Other")
    assert other is not None
    assert os.path.samefile(other, tmp_path / "second" / "other.exe")
    assert host.which("tool.exe") is None
    assert host.which("missing") is None


def test_a_command_location_finds_the_tool_through_pathext(tmp_path: Path) -> None:
    (tmp_path / "vendor-tool.exe").write_bytes(b"MZ")
    decl = declaration.parse_declaration(
        "live-server",
        raw_app={
            "win32": {
                "presence": "executable",
                "location": {"kind": "command", "name": "vendor-tool"},
            }
        },
        raw_requires={"app": True},
        where="test",
    )
    result = availability(decl, host=LiveHost(search_path=str(tmp_path)))
    assert result.state == "available"
    assert result.path is not None
    assert os.path.samefile(result.path, tmp_path / "vendor-tool.exe")


def test_the_native_machine_is_the_one_windows_names() -> None:
    named = os.environ.get("PROCESSOR_ARCHITEW6432") or os.environ["PROCESSOR_ARCHITECTURE"]
    expected = {"AMD64": "x86_64", "ARM64": "arm64"}[named.upper()]
    assert LiveHost().native_machine() == expected


def test_the_os_version_is_the_running_windows_version() -> None:
    version = LiveHost().os_version()
    if sys.platform == "win32":
        # python.exe's manifest declares Windows 10 and 11, so GetVersionEx is not shimmed for it.
        running = sys.getwindowsversion()
        assert version == f"{running.major}.{running.minor}.{running.build}"
