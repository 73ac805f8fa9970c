"""Process owners, start times and desktop sessions: the parsers and per-OS logic on every OS."""

from __future__ import annotations

import os
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_decl.resolver import procfs
from hermes_decl.resolver.desktop_session import desktop_session_from_env
from hermes_decl.resolver.host import ProcessInfo
from hermes_decl.resolver.live_host import LiveHost, file_modified, live_process_info
from hermes_decl.resolver.macprocess import (
    BSD_INFO_SIZE,
    SESSION_HAS_GRAPHIC_ACCESS,
    darwin_interactive_session,
    darwin_process_info,
    parse_bsd_info,
)
from tests.process_starts import output_of, popen_started

needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX user ids")


def own_uid() -> str:
    """This process's effective user id, as the live host writes an owner."""
    if sys.platform == "win32":
        raise NotImplementedError("POSIX only")
    else:
        return str(os.geteuid())


# -- the Linux desktop-session rule --------------------------------------------------------------

SESSIONS: dict[str, tuple[dict[str, str], bool]] = {
    "nothing": ({}, False),
    "x11-display": ({"DISPLAY": ":0"}, True),
    "wayland-display": ({"WAYLAND_DISPLAY": "wayland-0"}, True),
    "blank-display": ({"DISPLAY": "  ", "WAYLAND_DISPLAY": ""}, False),
    "session-type-x11": ({"XDG_SESSION_TYPE": "x11"}, True),
    "session-type-wayland-upper": ({"XDG_SESSION_TYPE": "Wayland"}, True),
    "session-type-tty": ({"XDG_SESSION_TYPE": "tty"}, False),
    "session-type-unspecified": ({"XDG_SESSION_TYPE": "unspecified"}, False),
    "tty-with-forwarded-x": ({"XDG_SESSION_TYPE": "tty", "DISPLAY": "localhost:10.0"}, True),
}


@pytest.mark.parametrize(("env", "expected"), list(SESSIONS.values()), ids=list(SESSIONS))
def test_a_linux_desktop_session_is_read_from_the_environment(
    env: dict[str, str], expected: bool
) -> None:
    assert desktop_session_from_env(env.get) is expected


# -- /proc ---------------------------------------------------------------------------------------

STATUS = b"Name:\tvendor\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t1000\t1001\t1002\t1003\n"
STAT_FIELDS = " ".join(str(n) for n in range(3, 53))  # field n holds the number n


def stat_of(name: bytes, start: int = 12345) -> bytes:
    fields = STAT_FIELDS.split()
    fields[22 - 3] = str(start)
    return b"4242 (" + name + b") " + " ".join(fields).encode() + b"\n"


def test_the_owner_is_the_effective_uid() -> None:
    assert procfs.effective_uid(STATUS) == 1001
    assert procfs.effective_uid(b"Name:\tx\n") is None
    assert procfs.effective_uid(b"Uid:\t1000\t1000\n") is None
    assert procfs.effective_uid(b"Uid:\t1000\t-1\t1\t1\n") is None
    assert procfs.effective_uid(b"Uid:\t1\t" + b"9" * 21 + b"\t1\t1\n") is None


@pytest.mark.parametrize(
    "name",
    [b"vendor", b"ven dor", b"a) (b", b"))", b""],
    ids=["plain", "space", "parens", "two", "empty"],
)
def test_the_start_is_counted_after_the_last_parenthesis(name: bytes) -> None:
    assert procfs.start_ticks(stat_of(name, 777)) == 777


@pytest.mark.parametrize(
    "data",
    [b"", b"4242 vendor 1 2 3", b"4242 (x) S 1 2", b"4242 (x) " + b"-1 " * 30],
    ids=["empty", "no-name", "short", "negative"],
)
def test_an_unreadable_stat_has_no_start(data: bytes) -> None:
    assert procfs.start_ticks(data) is None


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"12345.67 54321.00\n", 12345.67),
        (b"12 1\n", 12.0),
        (b"", None),
        (b"x.5 1", None),
        (b"1.x 1", None),
        (b"-1.0 1", None),
    ],
)
def test_uptime(data: bytes, expected: float | None) -> None:
    assert procfs.uptime(data) == expected


def fake_proc(files: dict[str, bytes]) -> Callable[[str, int], bytes | None]:
    def read(path: str, size: int) -> bytes | None:
        assert size == procfs.MAX_PROC_FILE_BYTES
        data = files.get(path)
        return None if data is None else data[:size]

    return read


def test_linux_process_info_adds_the_start_ticks_to_the_boot_time() -> None:
    read = fake_proc(
        {
            "/proc/4242/status": STATUS,
            "/proc/4242/stat": stat_of(b"vendor", start=500),
            "/proc/uptime": b"100.00 50.00\n",
        }
    )
    # booted at 1000 - 100 = 900; started 500 ticks of 1/100 s later
    assert procfs.linux_process_info(4242, read, 100, now=1000.0) == ProcessInfo("1001", 905.0)


def test_linux_process_info_without_the_process_or_its_times() -> None:
    assert procfs.linux_process_info(4242, fake_proc({}), 100, now=1.0) is None
    only_status = fake_proc({"/proc/4242/status": STATUS})
    assert procfs.linux_process_info(4242, only_status, 100, now=1.0) == ProcessInfo("1001", None)
    no_ticks = fake_proc(
        {"/proc/4242/status": STATUS, "/proc/4242/stat": stat_of(b"x"), "/proc/uptime": b"1 1"}
    )
    assert procfs.linux_process_info(4242, no_ticks, 0, now=1.0) == ProcessInfo("1001", None)


@needs_linux
def test_the_live_host_reads_a_child_process() -> None:
    before = time.time()
    child = popen_started([sys.executable, "-c", "import time; time.sleep(20)"])
    try:
        info = LiveHost().process_info(child.pid)
        assert info is not None
        assert info.user == own_uid()
        assert info.started is not None
        assert before - 1.5 < info.started < time.time() + 1.5
        assert info.session is None
    finally:
        child.kill()
        child.wait(10)
    assert LiveHost().process_info(child.pid) is None


@needs_posix
def test_the_live_host_knows_its_own_user() -> None:
    assert LiveHost().own_process() == ProcessInfo(own_uid(), None)


@pytest.mark.parametrize("pid", [0, -1, True, 2**31, 2**64])
def test_impossible_pids_are_never_asked_about(pid: int) -> None:
    assert live_process_info(pid) is None
    assert LiveHost().process_info(pid) is None


def test_the_live_host_dates_regular_files_only(tmp_path: Path) -> None:
    path = tmp_path / "server.json"
    path.write_text("{}")
    os.utime(path, (1_600_000_000, 1_600_000_123.5))
    assert LiveHost().file_mtime(str(path)) == 1_600_000_123.5
    assert file_modified(str(tmp_path)) is None
    assert file_modified(str(tmp_path / "missing")) is None
    assert file_modified("relative/server.json") is None


def interactive_in(env: dict[str, str]) -> str:
    """What a live host in a fresh process with exactly ``env`` says about its session."""
    code = (
        "from hermes_decl.resolver.live_host import LiveHost; "
        "print(LiveHost().interactive_session())"
    )
    return output_of([sys.executable, "-c", code], env=env)


@needs_linux
@pytest.mark.parametrize(
    ("extra", "expected"),
    [({}, "False"), ({"DISPLAY": ":0"}, "True"), ({"XDG_SESSION_TYPE": "wayland"}, "True")],
    ids=["service", "x11", "wayland"],
)
def test_the_live_linux_host_reads_its_own_environment(
    extra: dict[str, str], expected: str
) -> None:
    base = {name: os.environ[name] for name in ("PATH", "PYTHONPATH") if name in os.environ}
    assert interactive_in({**base, **extra}) == expected


# -- macOS ---------------------------------------------------------------------------------------


def bsd_info(
    pid: int = 4242, uid: int = 501, seconds: int = 1_700_000_000, micros: int = 250_000
) -> bytes:
    ids = [0, 0, 0, pid, 1, uid, 20, uid, 20, uid, 20, 0]
    data = struct.pack(
        "=12I16s32s5Ii2Q", *ids, b"vendor", b"Vendor", 3, 4, 0, 0, 0, 0, seconds, micros
    )
    assert len(data) == BSD_INFO_SIZE
    return data


def test_a_bsd_info_gives_the_owner_and_start() -> None:
    assert parse_bsd_info(bsd_info(), 4242) == (501, 1_700_000_000.25)
    assert parse_bsd_info(bsd_info() + b"extra", 4242) == (501, 1_700_000_000.25)
    assert parse_bsd_info(bsd_info()[:-1], 4242) is None
    assert parse_bsd_info(bsd_info(pid=7), 4242) is None
    assert parse_bsd_info(bsd_info(micros=1_000_000), 4242) is None
    assert parse_bsd_info(bsd_info(seconds=1 << 41), 4242) is None


class FakeDarwin:
    def __init__(self, info: bytes | None = None, attributes: int | None = None) -> None:
        self.info, self.attributes = info, attributes

    def bsd_info(self, pid: int) -> bytes | None:
        return self.info

    def session_attributes(self) -> int | None:
        return self.attributes


def kill_raising(error: type[BaseException] | None) -> Callable[[int, int], None]:
    def kill(pid: int, signal: int) -> None:
        assert signal == 0
        if error is not None:
            raise error()

    return kill


DARWIN: dict[str, tuple[type[BaseException] | None, bytes | None, int, ProcessInfo | None]] = {
    "no-such-process": (ProcessLookupError, bsd_info(), 501, None),
    "eperm-is-another-user": (PermissionError, bsd_info(), 501, ProcessInfo(None, None)),
    "other-error": (OSError, bsd_info(), 501, None),
    "owner-and-start-from-bsd-info": (
        None,
        bsd_info(uid=502),
        501,
        ProcessInfo("502", 1_700_000_000.25),
    ),
    "root-reads-the-owner": (None, bsd_info(uid=501), 0, ProcessInfo("501", 1_700_000_000.25)),
    "signalable-without-root-is-mine": (None, None, 501, ProcessInfo("501", None)),
    "root-without-bsd-info-knows-no-owner": (None, None, 0, ProcessInfo(None, None)),
}


@pytest.mark.parametrize(
    ("kill_error", "info", "own_uid", "expected"), list(DARWIN.values()), ids=list(DARWIN)
)
def test_darwin_process_info(
    kill_error: type[BaseException] | None,
    info: bytes | None,
    own_uid: int,
    expected: ProcessInfo | None,
) -> None:
    assert (
        darwin_process_info(4242, FakeDarwin(info), kill_raising(kill_error), own_uid) == expected
    )


def test_darwin_process_info_without_libsystem() -> None:
    assert darwin_process_info(4242, None, kill_raising(None), 501) == ProcessInfo("501", None)


AQUA: dict[str, tuple[int | None, int | None, bool | None]] = {
    "aqua-console-user": (SESSION_HAS_GRAPHIC_ACCESS | 0x8000, 501, True),
    "no-graphic-access": (0x8000, 501, False),
    "someone-else-at-the-console": (SESSION_HAS_GRAPHIC_ACCESS, 502, False),
    "login-window": (SESSION_HAS_GRAPHIC_ACCESS, 0, False),
    "attributes-only": (SESSION_HAS_GRAPHIC_ACCESS, None, True),
    "console-only": (None, 501, True),
    "nothing-readable": (None, None, None),
}


@pytest.mark.parametrize(("attributes", "console", "expected"), list(AQUA.values()), ids=list(AQUA))
def test_darwin_interactive_session(
    attributes: int | None, console: int | None, expected: bool | None
) -> None:
    assert darwin_interactive_session(attributes, console, 501) is expected
