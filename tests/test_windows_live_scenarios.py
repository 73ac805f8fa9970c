"""Whole declarations evaluated on a running Windows, each checked against Windows' own answer.

Machine-wide uninstall entries in both registry views, version resources of real executables
(against ``GetFileVersionInfoW``), ``%ProgramFiles%`` folders found through a ``*`` segment in
any case, this user's processes (against the SID and session Windows reports for this one), and
the display-adapter survey (against the ``MatchingDeviceId`` values ``reg query`` lists).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_decl import declaration
from hermes_decl.declaration import Declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.gpu import _read_gpu_class
from hermes_decl.resolver.live_host import LiveHost
from hermes_decl.testing import FakeHost
from tests.process_starts import popen_started
from tests.windows_reg import reg

pytestmark = pytest.mark.skipif(sys.platform != "win32", reason="needs a running Windows")

MACHINE_UNINSTALL_KEY = r"HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall"
DISPLAY_CLASS_KEY = (
    r"HKLM\SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}"
)


def win32_decl(location: object, min_version: str | None = None, **block: object) -> Declaration:
    """A declaration of a Windows application at ``location``, at ``min_version`` or newer."""
    requires: dict[str, object] = {"app": True}
    if min_version is not None:
        requires["min_version"] = min_version
    return declaration.parse_declaration(
        "live-server",
        raw_app={"win32": {"presence": "executable", "location": location, **block}},
        raw_requires=requires,
        where="test",
    )


@pytest.mark.parametrize("view", ["/reg:64", "/reg:32"], ids=["64-bit-view", "32-bit-view"])
def test_a_machine_wide_entry_is_found_in_either_registry_view(view: str, tmp_path: Path) -> None:
    (tmp_path / "Studio.exe").write_bytes(b"MZ")
    key = f"{MACHINE_UNINSTALL_KEY}\\HermesDeclLive-{uuid.uuid4().hex}"
    name = f"Hermes Machine Studio {uuid.uuid4().hex[:8]}"
    try:
        reg("add", key, "/v", "DisplayName", "/d", name, "/f", view)
        reg("add", key, "/v", "DisplayVersion", "/d", "2.5.0", "/f", view)
        reg("add", key, "/v", "InstallLocation", "/d", str(tmp_path), "/f", view)
        decl = win32_decl(
            [{"kind": "uninstall_registry", "display_name_prefix": name, "file": "studio.exe"}],
            "2.4",
            version={"kind": "uninstall_registry", "display_name_prefix": name},
        )
        result = availability(decl, host=LiveHost())
    finally:
        reg("delete", key, "/f", view)
    assert (result.state, result.version) == ("available", "2.5.0")
    assert result.path is not None
    assert os.path.samefile(result.path, tmp_path / "Studio.exe")


def _windows_file_version(path: str) -> str | None:
    """The fixed file version ``GetFileVersionInfoW`` reads from ``path``, or None."""
    if sys.platform == "win32":
        import ctypes
        from ctypes import wintypes

        version_api = ctypes.WinDLL("version")
        size = version_api.GetFileVersionInfoSizeW(path, None)
        if not size:
            return None
        data = ctypes.create_string_buffer(size)
        if not version_api.GetFileVersionInfoW(path, 0, size, data):
            return None
        fixed = ctypes.c_void_p()
        length = wintypes.UINT()
        if not version_api.VerQueryValueW(data, "\\", ctypes.byref(fixed), ctypes.byref(length)):
            return None
        signature, _, most, least = (ctypes.c_uint32 * 4).from_address(fixed.value or 0)
        if signature != 0xFEEF04BD:
            return None
        return f"{most >> 16}.{most & 0xFFFF}.{least >> 16}.{least & 0xFFFF}"
    else:
        return None


@pytest.mark.parametrize(
    "path",
    [sys.executable, os.path.join(os.environ.get("SYSTEMROOT", r"C:\Windows"), "regedit.exe")],
    ids=["python-exe", "regedit-exe"],
)
def test_the_version_resource_of_a_real_executable_is_the_one_windows_reads(path: str) -> None:
    expected = _windows_file_version(path)
    assert expected is not None, f"Windows reads no version resource from {path}"
    result = availability(win32_decl(path, version={"kind": "pe_resource"}), host=LiveHost())
    assert (result.state, result.version) == ("available", expected)


@pytest.fixture(params=["ProgramFiles", "ProgramFiles(x86)"])
def program_files_app(request: pytest.FixtureRequest) -> Iterator[tuple[str, Path]]:
    """A vendor folder ``Studio 4.2`` with ``studio.exe`` under the real program-files folder
    the parameter names, removed after the test."""
    variable: str = request.param
    vendor = Path(os.environ[variable]) / f"HermesDeclLive-{uuid.uuid4().hex}"
    (vendor / "Studio 4.2").mkdir(parents=True)
    (vendor / "Studio 4.2" / "studio.exe").write_bytes(b"MZ")
    yield variable, vendor
    shutil.rmtree(vendor)


def test_a_program_files_folder_is_found_through_a_star_in_any_case(
    program_files_app: tuple[str, Path],
) -> None:
    variable, vendor = program_files_app
    decl = win32_decl(f"%{variable.lower()}%/{vendor.name.upper()}/studio */STUDIO.EXE")
    result = availability(decl, host=LiveHost())
    assert result.state == "available"
    assert result.path is not None
    assert os.path.samefile(result.path, vendor / "Studio 4.2" / "studio.exe")


def test_a_child_process_is_this_users_in_this_session_until_it_ends() -> None:
    host = LiveHost()
    own = host.own_process()
    assert own.user is not None and own.user.startswith("S-1-5-")
    before = time.time()
    child = popen_started([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        info = host.process_info(child.pid)
        assert info is not None
        assert (info.user, info.session) == (own.user, own.session)
        assert info.started is not None
        assert before - 2 <= info.started <= time.time() + 2
        assert host.process_alive(child.pid)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert host.process_info(child.pid) is None
    assert not host.process_alive(child.pid)


def _listed_matching_device_ids() -> tuple[str, ...]:
    """The display adapters' ``MatchingDeviceId`` values, as ``reg`` lists them."""
    try:
        listing = reg("query", DISPLAY_CLASS_KEY, "/s", "/v", "MatchingDeviceId")
    except subprocess.CalledProcessError:
        return ()
    return tuple(
        line.split("REG_SZ", 1)[1].strip()
        for line in listing.splitlines()
        if line.strip().startswith("MatchingDeviceId") and "REG_SZ" in line
    )


def test_the_display_adapter_survey_reads_what_the_registry_lists() -> None:
    listed = _listed_matching_device_ids()
    live = LiveHost()
    assert sorted(live.display_device_ids()) == sorted(listed)
    same_ids = FakeHost(os_family="win32")
    for matching_device_id in listed:
        same_ids.add_display_device(matching_device_id)
    assert _read_gpu_class(live) == _read_gpu_class(same_ids)
