"""The OS version every host answers (``Host.os_version``), for ``min_os_version``.

macOS reads ``ProductVersion`` of ``SystemVersion.plist`` through the host, ignoring the
``10.16`` compatibility answer; Windows asks ``RtlGetVersion`` (on Windows only); Linux and any
other OS answer None. Fake and rooted hosts take the version as given, and a darwin one without
a version reads its own ``SystemVersion.plist``, as a Mac does.
"""

from __future__ import annotations

import plistlib
import re
import sys
from pathlib import Path

import pytest

from hermes_decl.resolver.host import Host
from hermes_decl.resolver.live_host import LiveHost
from hermes_decl.resolver.os_version import (
    MAX_SYSTEM_VERSION_BYTES,
    SYSTEM_VERSION_PLIST,
    live_windows_version,
    macos_version,
    product_version,
    windows_version_text,
)
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.snapshot import host_from_snapshot
from hermes_decl.testing import FakeHost
from tests.rules_helpers import rows


def _plist(**values: object) -> bytes:
    return plistlib.dumps({"ProductName": "macOS", **values})


PRODUCT_VERSIONS: dict[str, tuple[bytes, str | None]] = {
    "xml": (_plist(ProductVersion="13.6.1"), "13.6.1"),
    "binary": (plistlib.dumps({"ProductVersion": "14.4"}, fmt=plistlib.FMT_BINARY), "14.4"),
    "padded": (_plist(ProductVersion=" 12.7 "), "12.7"),
    "compatibility-answer": (_plist(ProductVersion="10.16"), None),
    "catalina": (_plist(ProductVersion="10.15.7"), "10.15.7"),
    "missing-key": (_plist(ProductBuildVersion="22G313"), None),
    "blank": (_plist(ProductVersion="  "), None),
    "not-text": (_plist(ProductVersion=13), None),
    "top-level-list": (plistlib.dumps(["13.0"]), None),
    "garbage": (b"\x00\xffnot a plist", None),
    "empty": (b"", None),
}


@pytest.mark.parametrize(("data", "version"), rows(PRODUCT_VERSIONS), ids=list(PRODUCT_VERSIONS))
def test_product_version(data: bytes, version: str | None) -> None:
    assert product_version(data) == version


def test_macos_version_reads_a_bounded_plist_through_the_host() -> None:
    host = FakeHost("darwin").add_file(SYSTEM_VERSION_PLIST, _plist(ProductVersion="13.6.1"))
    assert macos_version(host) == "13.6.1"
    assert host.call_log == [("read_file", (SYSTEM_VERSION_PLIST, MAX_SYSTEM_VERSION_BYTES, 0))]
    assert macos_version(FakeHost("darwin")) is None


def test_windows_version_text() -> None:
    assert windows_version_text(10, 0, 19045) == "10.0.19045"
    assert windows_version_text(6, 3, 9600) == "6.3.9600"


# --- FakeHost -----------------------------------------------------------------------------------

FAKE_HOSTS: dict[str, tuple[FakeHost, str | None]] = {
    "given-windows": (FakeHost("win32", os_version="10.0.19045"), "10.0.19045"),
    "given-mac-wins-over-its-plist": (
        FakeHost("darwin", os_version="14.4").add_file(
            SYSTEM_VERSION_PLIST, _plist(ProductVersion="12.0")
        ),
        "14.4",
    ),
    "mac-reads-its-plist": (
        FakeHost("darwin").add_file(SYSTEM_VERSION_PLIST, _plist(ProductVersion="12.7.4")),
        "12.7.4",
    ),
    "mac-without-plist": (FakeHost("darwin"), None),
    "windows-without": (FakeHost("win32"), None),
    "linux-without": (FakeHost("linux"), None),
    "linux-given": (FakeHost("linux", os_version="6.1"), "6.1"),
    "other-os": (FakeHost(None), None),
}


@pytest.mark.parametrize(("host", "version"), rows(FAKE_HOSTS), ids=list(FAKE_HOSTS))
def test_fake_host_os_version(host: FakeHost, version: str | None) -> None:
    assert isinstance(host, Host)
    assert host.os_version() == version
    assert host.calls["os_version"] == 1


def test_a_fake_linux_host_never_reads_a_plist() -> None:
    host = FakeHost("linux").add_file(SYSTEM_VERSION_PLIST, _plist(ProductVersion="13.0"))
    assert host.os_version() is None
    assert host.calls["read_file"] == 0


# --- RootedHost -------------------------------------------------------------------------------


def _mac_tree(root: Path, version: str) -> Path:
    plist = root / SYSTEM_VERSION_PLIST.lstrip("/")
    plist.parent.mkdir(parents=True)
    plist.write_bytes(_plist(ProductVersion=version))
    return root


def test_a_rooted_mac_reads_its_tree(tmp_path: Path) -> None:
    host = RootedHost(_mac_tree(tmp_path, "13.5"), "darwin")
    assert host.os_version() == "13.5"
    assert RootedHost(tmp_path, "darwin", os_version="14.0").os_version() == "14.0"


def test_a_rooted_mac_without_the_plist_has_no_version(tmp_path: Path) -> None:
    assert RootedHost(tmp_path, "darwin").os_version() is None


def test_rooted_windows_and_linux_take_the_version_given(tmp_path: Path) -> None:
    _mac_tree(tmp_path, "13.5")
    assert RootedHost(tmp_path, "win32", os_version="10.0.22631").os_version() == "10.0.22631"
    assert RootedHost(tmp_path, "win32").os_version() is None
    assert RootedHost(tmp_path, "linux").os_version() is None


# --- snapshots ----------------------------------------------------------------------------------


def test_a_snapshot_gives_its_os_version() -> None:
    host = host_from_snapshot({"os_family": "win32", "os_version": "10.0.19045"}, where="s")
    assert host.os_version() == "10.0.19045"
    assert host_from_snapshot({"os_family": "darwin"}, where="s").os_version() is None


# --- LiveHost ---------------------------------------------------------------------------------


def test_the_live_host_answers_only_for_the_os_it_runs_on() -> None:
    if sys.platform != "win32":
        assert LiveHost("win32").os_version() is None
        assert live_windows_version() is None
    if sys.platform != "darwin":
        assert LiveHost("darwin").os_version() is None
    assert LiveHost("linux").os_version() is None


def test_the_live_host_asks_once() -> None:
    host = LiveHost()
    assert host.os_version() == host.os_version()
    assert host._os_version is not None


@pytest.mark.skipif(sys.platform != "darwin", reason="reads the running macOS's own version")
def test_a_live_mac_reads_its_product_version() -> None:
    version = LiveHost().os_version()
    assert version is not None
    assert re.fullmatch(r"[0-9]+(\.[0-9]+)+", version)
    assert version != "10.16"


@pytest.mark.skipif(sys.platform != "win32", reason="asks the running Windows for its version")
def test_live_windows_reports_its_real_version() -> None:
    version = LiveHost().os_version()
    assert version is not None
    major, minor, build = (int(part) for part in version.split("."))
    assert (major, minor) >= (6, 1)
    assert build > 0
