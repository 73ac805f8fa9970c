"""Everything the live host does on macOS: processes, the Aqua session, Rosetta, the OS version.

The live calls are ``kill(pid, 0)``, ``proc_pidinfo(PROC_PIDTBSDINFO)`` (``struct proc_bsdinfo``:
owner and start time) from libSystem and ``SessionGetInfo`` from the Security framework, through
``ctypes``, and ``sysctlbyname`` for Rosetta. They sit behind ``DarwinApi`` so the decisions
and the struct parsing are tested on every OS; nothing here starts a process or loads anything
but system libraries. The module-level functions at the end are what ``LiveHost`` asks on macOS.
"""

from __future__ import annotations

import os
import struct
import sys
from collections.abc import Callable
from typing import Protocol

from hermes_decl.hosts.live.macos_sockets import darwin_tcp_listeners
from hermes_decl.hosts.live.posix import home, own_process, pid_exists, user_home
from hermes_decl.hosts.os_version import macos_version
from hermes_decl.hosts.protocol import HostFiles, ProcessInfo, TcpListener, UninstallEntry

__all__ = [
    "BSD_INFO_SIZE",
    "SESSION_HAS_GRAPHIC_ACCESS",
    "SZOMB",
    "DarwinApi",
    "bsd_info_parent",
    "bsd_info_zombie",
    "darwin_interactive_session",
    "darwin_process_info",
    "display_device_ids",
    "drive_is_remote",
    "home",
    "interactive_session",
    "os_version",
    "own_process",
    "parse_bsd_info",
    "pid_exists",
    "proc_translated",
    "process_info",
    "process_parent",
    "tcp_listeners",
    "uninstall_entries",
    "user_home",
    "wow64_native_machine",
]

PROC_PIDTBSDINFO = 3
"""The ``proc_pidinfo`` flavor that fills a ``struct proc_bsdinfo``."""

BSD_INFO_SIZE = 136
"""``sizeof(struct proc_bsdinfo)``: 12 32-bit fields, two names (16 and 32 bytes), 6 more 32-bit
fields, then the start time as two 64-bit fields."""

_BSD_INFO = struct.Struct("=12I16s32s5Ii2Q")
"""``struct proc_bsdinfo`` as laid out by the kernel (native byte order, no padding needed)."""

SZOMB = 5
"""``pbi_status`` of a process that has exited but is not yet reaped (a zombie)."""

SESSION_HAS_GRAPHIC_ACCESS = 0x0010
"""``sessionHasGraphicAccess``: the security session can draw on the console (Aqua)."""


class DarwinApi(Protocol):
    """The system calls the checks need; each answers None when the call fails."""

    def bsd_info(self, pid: int) -> bytes | None:
        """The ``struct proc_bsdinfo`` bytes of a process, or None."""
        ...

    def session_attributes(self) -> int | None:
        """This process's security session attribute bits (``SessionGetInfo``), or None."""
        ...


def parse_bsd_info(data: bytes, pid: int) -> tuple[int, float] | None:
    """The effective user id and start time (seconds since the epoch) in a ``proc_bsdinfo``.

    None when the bytes are too short, describe another process, or hold an impossible time.
    """
    if len(data) < BSD_INFO_SIZE:
        return None
    fields = _BSD_INFO.unpack_from(data)
    found_pid, uid = fields[3], fields[5]
    seconds, microseconds = fields[-2], fields[-1]
    if found_pid != pid or microseconds >= 1_000_000 or seconds >= 1 << 40:
        return None
    return uid, seconds + microseconds / 1_000_000


def bsd_info_zombie(data: bytes) -> bool:
    """Whether a ``proc_bsdinfo``'s ``pbi_status`` says the process is a zombie (``SZOMB``)."""
    return len(data) >= BSD_INFO_SIZE and _BSD_INFO.unpack_from(data)[1] == SZOMB


def bsd_info_parent(data: bytes, pid: int) -> int | None:
    """The parent (``pbi_ppid``) in a ``proc_bsdinfo`` of process ``pid``; None when the bytes
    are too short, describe another process, or name no parent."""
    if len(data) < BSD_INFO_SIZE:
        return None
    fields = _BSD_INFO.unpack_from(data)
    return fields[4] or None if fields[3] == pid else None


def darwin_process_info(
    pid: int, api: DarwinApi | None, kill: Callable[[int, int], None], own_uid: int
) -> ProcessInfo | None:
    """Who owns process ``pid`` and when it started; None when there is no such process.

    ``kill(pid, 0)`` answers first: no such process, or ``EPERM``, which (unless this process is
    root) means it belongs to another user. The owner then comes from ``proc_bsdinfo``; when
    that cannot be read, a process ``kill`` may signal without root privileges is this user's.
    A zombie (``SZOMB`` in the same ``proc_bsdinfo``) still answers ``kill`` and is not running.
    """
    try:
        kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return ProcessInfo(user=None, started=None)  # another user's; its owner is not needed
    except (OSError, ValueError, OverflowError):
        return None
    try:
        data = api.bsd_info(pid) if api is not None else None
    except (OSError, ValueError, TypeError):
        data = None
    parsed = parse_bsd_info(data, pid) if data is not None else None
    if data is not None and parsed is not None and bsd_info_zombie(data):
        return None
    if parsed is not None:
        uid, started = parsed
        return ProcessInfo(user=str(uid), started=started)
    return ProcessInfo(user=None if own_uid == 0 else str(own_uid), started=None)


def darwin_interactive_session(
    attributes: int | None, console_uid: int | None, own_uid: int
) -> bool | None:
    """Whether this process runs in the Aqua session of the user logged in at the console.

    ``attributes`` are this process's security session bits (None when unreadable);
    ``console_uid`` owns ``/dev/console`` (the console user; root at the login window).
    None when neither can be read.
    """
    if attributes is None and console_uid is None:
        return None
    if attributes is not None and not attributes & SESSION_HAS_GRAPHIC_ACCESS:
        return False
    return console_uid is None or console_uid == own_uid


if sys.platform == "darwin":
    import ctypes

    from hermes_decl.hosts.live.macos_sockets import bound_proc_pidinfo, live_socket_api

    class LibSystem:
        """``DarwinApi`` over the real libSystem and Security framework."""

        def __init__(self) -> None:
            libsystem = ctypes.CDLL("/usr/lib/libSystem.B.dylib", use_errno=True)
            self._pidinfo = bound_proc_pidinfo(libsystem)

        def bsd_info(self, pid: int) -> bytes | None:
            """``proc_pidinfo(pid, PROC_PIDTBSDINFO, 0, buffer, BSD_INFO_SIZE)``, or None."""
            buffer = ctypes.create_string_buffer(BSD_INFO_SIZE)
            filled = self._pidinfo(pid, PROC_PIDTBSDINFO, 0, buffer, BSD_INFO_SIZE)
            return buffer.raw if filled == BSD_INFO_SIZE else None

        def session_attributes(self) -> int | None:
            """``SessionGetInfo(callerSecuritySession, …)``'s attribute bits, or None."""
            try:
                security = ctypes.CDLL(
                    "/System/Library/Frameworks/Security.framework/Security", use_errno=True
                )
                get_info = security.SessionGetInfo
            except (OSError, AttributeError):
                return None
            get_info.argtypes = (
                ctypes.c_uint32,
                ctypes.POINTER(ctypes.c_uint32),
                ctypes.POINTER(ctypes.c_uint32),
            )
            get_info.restype = ctypes.c_int32
            session_id, attributes = ctypes.c_uint32(), ctypes.c_uint32()
            caller_session = 0xFFFFFFFF  # callerSecuritySession, (SecuritySessionId)-1
            status = get_info(caller_session, ctypes.byref(session_id), ctypes.byref(attributes))
            return int(attributes.value) if status == 0 else None

    def live_darwin_api() -> DarwinApi | None:
        """The real ``DarwinApi``, or None when libSystem cannot be loaded."""
        try:
            return LibSystem()
        except (OSError, AttributeError):
            return None

    def _darwin_sysctl_int(name: bytes) -> int | None:
        """An integer sysctl, or None when it does not exist (Intel Macs lack this one)."""
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            sysctlbyname = libc.sysctlbyname
            sysctlbyname.argtypes = (
                ctypes.c_char_p,
                ctypes.c_void_p,
                ctypes.POINTER(ctypes.c_size_t),
                ctypes.c_void_p,
                ctypes.c_size_t,
            )
            sysctlbyname.restype = ctypes.c_int
            value = ctypes.c_int(0)
            size = ctypes.c_size_t(ctypes.sizeof(value))
            if sysctlbyname(name, ctypes.byref(value), ctypes.byref(size), None, 0) != 0:
                return None
            return int(value.value)
        except (OSError, AttributeError, ValueError):
            return None


# -- what LiveHost asks on macOS -------------------------------------------------------------


def process_info(pid: int) -> ProcessInfo | None:
    """Who owns process ``pid`` here and since when; None when there is no such process."""
    if sys.platform == "darwin":
        return darwin_process_info(pid, live_darwin_api(), os.kill, os.geteuid())
    else:
        return None


def process_parent(pid: int) -> int | None:
    """The parent of process ``pid`` from its ``proc_bsdinfo``; None when unreadable."""
    if sys.platform == "darwin":
        api = live_darwin_api()
        try:
            data = api.bsd_info(pid) if api is not None else None
        except (OSError, ValueError, TypeError):
            data = None
        return None if data is None else bsd_info_parent(data, pid)
    else:
        return None


def tcp_listeners(address: str, port: int) -> tuple[TcpListener, ...] | None:
    """The listeners a connection to a loopback ``address`` and ``port`` may reach, among the
    processes whose descriptors this one can read; None when they cannot be listed."""
    if sys.platform == "darwin":
        process_api = live_darwin_api()

        def owner(pid: int) -> ProcessInfo | None:
            return darwin_process_info(pid, process_api, os.kill, os.geteuid())

        try:
            return darwin_tcp_listeners(address, port, live_socket_api(), owner)
        except (OSError, ValueError, TypeError, struct.error):
            return None
    else:
        return None


def interactive_session(getenv: Callable[[str], str | None]) -> bool | None:
    """Whether this process runs in the Aqua session of the console user; None when unknown."""
    if sys.platform == "darwin":
        darwin_api = live_darwin_api()
        attributes = darwin_api.session_attributes() if darwin_api is not None else None
        try:
            console_uid: int | None = os.stat("/dev/console").st_uid
        except OSError:
            console_uid = None
        return darwin_interactive_session(attributes, console_uid, os.geteuid())
    else:
        return None


def uninstall_entries() -> tuple[UninstallEntry, ...]:
    """Empty: the registry is Windows'."""
    return ()


def display_device_ids() -> tuple[str, ...]:
    """Empty: the registry is Windows'."""
    return ()


def os_version(files: HostFiles) -> str | None:
    """``ProductVersion`` of ``SystemVersion.plist``, read through ``files``; None when unknown."""
    return macos_version(files)


def proc_translated() -> int | None:
    """``sysctl.proc_translated`` through ``sysctlbyname`` on macOS; None elsewhere."""
    if sys.platform == "darwin":
        return _darwin_sysctl_int(b"sysctl.proc_translated")
    else:
        return None


def wow64_native_machine() -> int | None:
    """None: emulation of another architecture is read on Windows only."""
    return None


def drive_is_remote(path: str) -> bool:
    """False: drive letters are Windows'."""
    return False
