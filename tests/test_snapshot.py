"""Host snapshots: validated strictly, then loaded into a FakeHost like the machine described."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.host import ProcessInfo
from hermes_decl.snapshot import host_from_snapshot
from hermes_decl.testing import DEFAULT_PROCESS_START

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_the_example_windows_snapshot() -> None:
    data = yaml.safe_load((EXAMPLES / "hosts" / "windows-old-studio.yaml").read_text())
    host = host_from_snapshot(data, where="windows-old-studio.yaml")
    assert host.os_family == "win32"
    assert host.getenv("programfiles") == "C:\\Program Files"
    app = {
        "win32": {
            "presence": "executable",
            "location": {
                "kind": "uninstall_registry",
                "display_name_prefix": "Vendor Studio",
                "file": "studio.exe",
            },
            "version": {"kind": "pe_resource"},
        }
    }
    result = availability(
        parse_declaration("studio", app, {"app": True, "min_version": "2.3.0"}, where="t"),
        host=host,
    )
    assert (result.state, result.version) == ("version_too_old", "2.2.7.4410")


def test_running_processes_are_part_of_a_snapshot() -> None:
    host = host_from_snapshot({"os_family": "linux", "processes": [4242]}, where="s.yaml")
    assert host.process_alive(4242) is True
    assert host.process_alive(4243) is False


def test_snapshot_problems_are_all_reported() -> None:
    with pytest.raises(DeclarationError) as caught:
        host_from_snapshot({"os_family": "macos", "files": [1], "envv": {}}, where="s.yaml")
    assert [(i.loc, i.code) for i in caught.value.issues] == [
        ("os_family", "invalid_choice"),
        ("files[0]", "wrong_type"),
        ("envv", "unknown_key"),
    ]


def test_a_setup_that_does_not_fit_the_os_is_refused() -> None:
    with pytest.raises(DeclarationError) as caught:
        host_from_snapshot(
            {"os_family": "darwin", "pci_devices": [{"vendor": "0x10de"}]}, where="s.yaml"
        )
    assert [i.code for i in caught.value.issues] == ["bad_snapshot"]


def test_a_snapshot_describes_processes_users_file_contents_and_the_session() -> None:
    host = host_from_snapshot(
        {
            "os_family": "win32",
            "user": "S-1-5-21-1",
            "session": 1,
            "interactive_session": True,
            "files": [
                {"path": "C:\\run\\server.json", "text": '{"pid": 7}', "mtime": 1_700_000_100},
                "C:\\empty.txt",
            ],
            "processes": [7, {"pid": 8, "user": "S-1-5-18", "started": 5.5, "session": 0}],
        },
        where="s.yaml",
    )
    assert host.own_process() == ProcessInfo("S-1-5-21-1", None, 1)
    assert host.process_info(7) == ProcessInfo("S-1-5-21-1", DEFAULT_PROCESS_START, 1)
    assert host.process_info(8) == ProcessInfo("S-1-5-18", 5.5, 0)
    assert host.read_file("C:\\run\\server.json", 100) == b'{"pid": 7}'
    assert host.file_mtime("C:\\run\\server.json") == 1_700_000_100
    assert host.read_file("C:\\empty.txt", 100) == b""
    assert host.interactive_session() is True


def test_a_pe_file_keeps_its_modification_time() -> None:
    host = host_from_snapshot(
        {
            "os_family": "win32",
            "files": [{"path": "C:\\v.exe", "pe_version": "2.4.0.1", "mtime": 1_600_000_000}],
        },
        where="s.yaml",
    )
    assert host.file_mtime("C:\\v.exe") == 1_600_000_000
    assert host.read_file("C:\\v.exe", 2) == b"MZ"


def test_a_file_has_a_pe_version_or_text_not_both() -> None:
    with pytest.raises(DeclarationError) as caught:
        host_from_snapshot(
            {"os_family": "win32", "files": [{"path": "C:\\v.exe", "pe_version": "2", "text": ""}]},
            where="s.yaml",
        )
    assert [(i.loc, i.code, i.message) for i in caught.value.issues] == [
        ("files[0]", "content_conflict", "a file has pe_version or text, not both")
    ]


def test_snapshot_processes_are_strict() -> None:
    with pytest.raises(DeclarationError) as caught:
        host_from_snapshot(
            {"os_family": "linux", "processes": [True, {"pid": 1, "uid": 0}, "7"]}, where="s.yaml"
        )
    assert [(i.loc, i.code) for i in caught.value.issues] == [
        ("processes[0]", "wrong_type"),
        ("processes[1].uid", "unknown_key"),
        ("processes[2]", "wrong_type"),
    ]
