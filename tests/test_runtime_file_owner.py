"""The runtime file must be this user's: judged on the descriptor that was read, and its folders."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.hosts.live.file_primitives import folder_chain, read_regular_file_facts
from hermes_decl.hosts.live.host import LiveHost, current_os_family
from hermes_decl.hosts.protocol import FileRead
from hermes_decl.hosts.rooted import RootedHost
from hermes_decl.models import AppDef
from hermes_decl.runtime.liveness import Endpoint, NoEndpoint, NoEndpointCode, read_endpoint
from hermes_decl.testing import FakeHost
from tests.processes import NOBODY_UID
from tests.server_json_app import server_json_app as app_def

needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX owners and modes")

PID = 4242
TOKEN = "runtime-file-owner-token"
RUNTIME = "/home/dev/.vendor/server.json"
WIN_RUNTIME = "C:\\Users\\dev\\AppData\\Local\\Vendor\\server.json"


def runtime(pid: int = PID) -> bytes:
    return json.dumps({"pid": pid, "http": "http://127.0.0.1:5000", "token": TOKEN}).encode()


# -- FakeHost: every hostile publisher -----------------------------------------------------------

FOLDER = "/home/dev/.vendor"

PUBLISHERS: dict[str, tuple[dict[str, Any], dict[str, Any], str | None]] = {
    "this-users-file": ({}, {}, None),
    "owner-only-mode": ({"mode": 0o600}, {}, None),
    "another-users-file": (
        {"owner": "1001"},
        {},
        "belongs to another user, who may have written it",
    ),
    "world-writable-file": ({"mode": 0o666}, {}, "can be written by other users (mode 0666)"),
    "group-writable-file": ({"mode": 0o664}, {}, "can be written by other users (mode 0664)"),
    "world-writable-folder": ({}, {"mode": 0o777}, f"is in {FOLDER}, which other users can write"),
    "sticky-world-writable-folder": ({}, {"mode": 0o1777}, None),
    "another-users-folder": (
        {},
        {"owner": "1001"},
        f"is in {FOLDER}, which belongs to another user",
    ),
    "roots-folder": ({}, {"owner": "0"}, None),
}


@pytest.mark.parametrize(
    ("file", "folder", "reason"), list(PUBLISHERS.values()), ids=list(PUBLISHERS)
)
def test_the_publisher_must_be_this_user(
    file: dict[str, Any], folder: dict[str, Any], reason: str | None
) -> None:
    host = FakeHost("linux", home="/home/dev").add_process(PID)
    host.add_dir(FOLDER, **folder).add_file(RUNTIME, runtime(), **file)
    result = read_endpoint(app_def(), host=host)
    if reason is None:
        assert result == Endpoint("http://127.0.0.1:5000/mcp", TOKEN)
    else:
        assert isinstance(result, NoEndpoint)
        assert (result.code, result.reason) == (
            NoEndpointCode.UNTRUSTED_FILE,
            f"runtime file {RUNTIME} {reason}",
        )
        assert TOKEN not in repr(result)


def test_a_folder_higher_up_that_others_can_write_is_refused() -> None:
    host = FakeHost("linux", home="/home/dev").add_process(PID).add_dir("/home", mode=0o777)
    host.add_file(RUNTIME, runtime())
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.reason == f"runtime file {RUNTIME} is in /home, which other users can write"


def test_an_owner_that_cannot_be_read_is_refused() -> None:
    class NoOwnerHost(FakeHost):
        def read_file_facts(self, path: str, size: int) -> FileRead | None:
            found = super().read_file_facts(path, size)
            return None if found is None else FileRead(found.data, None, found.mtime, found.mode)

    host = NoOwnerHost("linux", home="/home/dev").add_process(PID).add_file(RUNTIME, runtime())
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert (result.code, result.reason) == (
        NoEndpointCode.UNTRUSTED_FILE,
        f"runtime file {RUNTIME} cannot be checked: its owner cannot be read",
    )


@pytest.mark.parametrize(
    ("owner", "trusted"), [("S-1-5-21-7", True), ("S-1-5-21-8", False)], ids=["mine", "theirs"]
)
def test_on_windows_the_owner_sid_is_this_users(owner: str, trusted: bool) -> None:
    host = FakeHost(
        "win32", env={"LOCALAPPDATA": "C:\\Users\\dev\\AppData\\Local"}, user="S-1-5-21-7"
    )
    host.add_process(PID).add_file(WIN_RUNTIME, runtime(), owner=owner)
    result = read_endpoint(app_def("win32", "%LOCALAPPDATA%\\Vendor\\server.json"), host=host)
    assert isinstance(result, Endpoint) is trusted
    assert host.folders_above(WIN_RUNTIME) == ()


def test_the_date_comes_from_the_same_read() -> None:
    host = FakeHost("linux", home="/home/dev").add_process(PID, started=2_000_000_000.0)
    host.add_file(RUNTIME, runtime(), mtime=1_000_000_000.0)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint) and result.code is NoEndpointCode.STALE_FILE
    assert host.calls["file_mtime"] == 0 and host.calls["read_file_facts"] == 1


# -- the live host: fstat of the descriptor read -------------------------------------------------


def live_app(directory: Path) -> AppDef:
    os_family = current_os_family()
    assert os_family is not None
    return app_def(os_family, str(directory / "server.json"))


@needs_posix
def test_the_live_read_reports_the_descriptors_owner_and_mode(tmp_path: Path) -> None:
    path = tmp_path / "server.json"
    path.write_bytes(b"{}")
    path.chmod(0o640)
    found = read_regular_file_facts(str(path), 100)
    assert found is not None
    assert (found.data, found.mode, found.owner) == (b"{}", 0o640, str(os.stat(path).st_uid))
    assert found.mtime == os.stat(path).st_mtime
    chain = folder_chain(str(path))
    assert chain is not None and chain[0].path == os.path.realpath(tmp_path)
    assert chain[-1].path == "/"


LIVE_MODES: dict[str, tuple[int, int, NoEndpointCode | None]] = {
    "owner-only": (0o600, 0o700, None),
    "world-writable-file": (0o666, 0o700, NoEndpointCode.UNTRUSTED_FILE),
    "world-writable-folder": (0o600, 0o777, NoEndpointCode.UNTRUSTED_FILE),
    "sticky-folder": (0o600, 0o1777, None),
}


@needs_posix
@pytest.mark.parametrize(
    ("file_mode", "folder_mode", "code"), list(LIVE_MODES.values()), ids=list(LIVE_MODES)
)
def test_a_live_runtime_file_writable_by_others_is_refused(
    tmp_path: Path, file_mode: int, folder_mode: int, code: NoEndpointCode | None
) -> None:
    folder = tmp_path / "vendor"
    folder.mkdir()
    (folder / "server.json").write_bytes(runtime(os.getpid()))
    (folder / "server.json").chmod(file_mode)
    folder.chmod(folder_mode)
    result = read_endpoint(live_app(folder), host=LiveHost())
    if code is None:
        assert result == Endpoint("http://127.0.0.1:5000/mcp", TOKEN)
    else:
        assert isinstance(result, NoEndpoint) and result.code is code


@needs_posix
def test_a_live_runtime_file_of_another_user_is_refused(tmp_path: Path) -> None:
    if sys.platform == "win32":
        raise NotImplementedError
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can give a file to another user")
        path = tmp_path / "server.json"
        path.write_bytes(runtime(os.getpid()))
        os.chown(path, NOBODY_UID, NOBODY_UID)
        result = read_endpoint(live_app(tmp_path), host=LiveHost())
        assert isinstance(result, NoEndpoint)
        assert (result.code, result.reason) == (
            NoEndpointCode.UNTRUSTED_FILE,
            f"runtime file {path} belongs to another user, who may have written it",
        )


@needs_posix
def test_a_rooted_tree_sees_its_makers_files_as_its_users(tmp_path: Path) -> None:
    folder = tmp_path / "home" / "dev" / ".vendor"
    folder.mkdir(parents=True)
    (folder / "server.json").write_bytes(runtime())
    (folder / "server.json").chmod(0o644)
    for step in (folder, folder.parent, folder.parent.parent, tmp_path):
        step.chmod(0o755)
    host = RootedHost(tmp_path, env={"HOME": "/home/dev"}, live_pids=[PID])
    assert read_endpoint(app_def(), host=host) == Endpoint("http://127.0.0.1:5000/mcp", TOKEN)
    chain = host.folders_above(RUNTIME)
    assert chain is not None
    assert [found.path for found in chain] == ["/home/dev/.vendor", "/home/dev", "/home", "/"]
    folder.chmod(0o777)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.reason == f"runtime file {RUNTIME} is in {FOLDER}, which other users can write"
