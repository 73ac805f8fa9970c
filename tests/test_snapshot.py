"""Host snapshots: validated strictly, then loaded into a FakeHost like the machine described."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.snapshot import host_from_snapshot

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
