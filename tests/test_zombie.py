"""A process that has exited but is not yet reaped (a zombie) is not running, on every OS."""

from __future__ import annotations

import json
import os
import struct
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.live.host import LiveHost, current_os_family
from hermes_decl.hosts.live.linux import exited_state, linux_process_info
from hermes_decl.hosts.live.macos import (
    BSD_INFO_SIZE,
    SZOMB,
    bsd_info_zombie,
    darwin_process_info,
)
from hermes_decl.hosts.live.windows import STILL_ACTIVE, windows_process_info
from hermes_decl.hosts.protocol import ProcessInfo
from hermes_decl.models import AppDef
from hermes_decl.runtime.liveness import NoEndpoint, NoEndpointCode, read_endpoint

needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

# -- Linux: the State line of the same status read ----------------------------------------------

STATUS_LINES: dict[str, tuple[bytes, bool]] = {
    "running": (b"State:\tR (running)", False),
    "sleeping": (b"State:\tS (sleeping)", False),
    "disk-sleep": (b"State:\tD (disk sleep)", False),
    "stopped": (b"State:\tT (stopped)", False),
    "zombie": (b"State:\tZ (zombie)", True),
    "dead": (b"State:\tX (dead)", True),
    "no-state-line": (b"", False),
    "empty-state": (b"State:", False),
}


@pytest.mark.parametrize(("line", "exited"), list(STATUS_LINES.values()), ids=list(STATUS_LINES))
def test_the_state_line_tells_an_exited_process(line: bytes, exited: bool) -> None:
    status = b"Name:\tstudio\n" + line + b"\nUid:\t1001\t1001\t1001\t1001\n"
    assert exited_state(status) is exited
    files = {"/proc/4242/status": status}
    found = linux_process_info(4242, lambda path, size: files.get(path), 100, 1.0)
    assert found == (None if exited else ProcessInfo("1001", None))


# -- macOS: pbi_status of the same proc_bsdinfo ------------------------------------------------


def bsd_info(status: int, pid: int = 4242) -> bytes:
    ids = [0, status, 0, pid, 1, 501, 20, 501, 20, 501, 20, 0]
    data = struct.pack("=12I16s32s5Ii2Q", *ids, b"studio", b"Studio", 3, 4, 0, 0, 0, 0, 1, 0)
    assert len(data) == BSD_INFO_SIZE
    return data


class OneBsdInfo:
    def __init__(self, info: bytes) -> None:
        self.info = info

    def bsd_info(self, pid: int) -> bytes | None:
        return self.info

    def session_attributes(self) -> int | None:
        return None


def kill_succeeds(pid: int, signal: int) -> None:
    assert signal == 0


BSD_STATES: dict[str, tuple[int, ProcessInfo | None]] = {
    "idle": (1, ProcessInfo("501", 1.0)),
    "running": (2, ProcessInfo("501", 1.0)),
    "sleeping": (3, ProcessInfo("501", 1.0)),
    "stopped": (4, ProcessInfo("501", 1.0)),
    "zombie": (SZOMB, None),
}


@pytest.mark.parametrize(("status", "expected"), list(BSD_STATES.values()), ids=list(BSD_STATES))
def test_a_macos_zombie_is_not_running(status: int, expected: ProcessInfo | None) -> None:
    info = bsd_info(status)
    assert bsd_info_zombie(info) is (status == SZOMB)
    assert darwin_process_info(4242, OneBsdInfo(info), kill_succeeds, 501) == expected


# -- Windows: an exit code other than STILL_ACTIVE ----------------------------------------------


class OneProcess:
    def __init__(self, exit_code: int) -> None:
        self.code = exit_code

    def open_process(self, pid: int) -> int | None:
        return 7

    def last_error(self) -> int:
        return 0

    def exit_code(self, handle: int) -> int | None:
        return self.code

    def close(self, handle: int) -> None:
        pass

    def owner_sid(self, handle: int | None) -> str | None:
        return "S-1-5-21-1"

    def session_id(self, pid: int | None) -> int | None:
        return 1

    def creation_time(self, handle: int) -> int | None:
        return None


@pytest.mark.parametrize(
    ("exit_code", "running"), [(STILL_ACTIVE, True), (0, False), (1, False)], ids=str
)
def test_a_windows_process_with_an_exit_code_is_not_running(exit_code: int, running: bool) -> None:
    found = windows_process_info(4242, OneProcess(exit_code))
    assert found == (ProcessInfo("S-1-5-21-1", None, 1) if running else None)


# -- a real zombie on this machine ---------------------------------------------------------------


@contextmanager
def zombie() -> Iterator[int]:
    """The id of a child that has exited and that this process has not reaped yet."""
    if sys.platform == "win32":
        raise NotImplementedError("POSIX only")
    else:
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        try:
            for _ in range(500):
                status = Path(f"/proc/{pid}/status")
                if not status.exists() or b"\nState:\tZ" in status.read_bytes():
                    break
                time.sleep(0.01)
            yield pid
        finally:
            os.waitpid(pid, 0)


def runtime_app(directory: Path) -> AppDef:
    os_family = current_os_family()
    assert os_family is not None
    decl = parse_declaration(
        "vendor-studio",
        raw_app={
            os_family: {
                "presence": "executable",
                "location": str(directory / "studio"),
                "liveness": {"kind": "server_json", "path": str(directory / "server.json")},
            }
        },
        raw_requires={"app": True},
        where="test",
    )
    found = decl.app_for(os_family)
    assert found is not None
    return found


@needs_linux
def test_a_runtime_file_naming_a_zombie_names_no_running_process(tmp_path: Path) -> None:
    found = runtime_app(tmp_path)
    with zombie() as pid:
        os.kill(pid, 0)  # a zombie still answers kill(pid, 0): the old check said "running"
        (tmp_path / "server.json").write_text(
            json.dumps({"pid": pid, "http": "http://127.0.0.1:5000", "token": "t"})
        )
        result = read_endpoint(found, host=LiveHost())
        assert LiveHost().process_info(pid) is None
    assert isinstance(result, NoEndpoint)
    assert (result.code, result.reason) == (
        NoEndpointCode.DEAD_PROCESS,
        f"runtime file {tmp_path / 'server.json'} names process {pid}, which is not running",
    )
