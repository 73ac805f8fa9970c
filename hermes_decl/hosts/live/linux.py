"""A Linux process's owner and start time, read from ``/proc`` through a bounded file reader.

The owner is the effective user id on the ``Uid:`` line of ``/proc/<pid>/status`` (the owner of
``/proc/<pid>`` itself reads as root for a process that made itself non-dumpable, so the status
file is the one that cannot be fooled that way). The start time is field 22 of
``/proc/<pid>/stat`` (clock ticks after boot) added to the boot time, which is the wall clock
less ``/proc/uptime`` (``btime`` of ``/proc/stat`` is whole seconds and sits after a line that
grows with the machine's interrupts). The parsers take bytes and never raise, so they are tested
on every OS. The module-level functions at the end are what ``LiveHost`` asks on Linux (and on a
POSIX OS that is none of the three).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

from hermes_decl.hosts.desktop_session import desktop_session_from_env
from hermes_decl.hosts.live.file_primitives import read_regular_file
from hermes_decl.hosts.live.linux_sockets import tcp_listeners
from hermes_decl.hosts.live.posix import home, own_process, pid_exists, user_home
from hermes_decl.hosts.protocol import HostFiles, ProcessInfo, UninstallEntry

__all__ = [
    "MAX_PROC_FILE_BYTES",
    "display_device_ids",
    "drive_is_remote",
    "effective_uid",
    "exited_state",
    "home",
    "interactive_session",
    "linux_process_info",
    "os_version",
    "own_process",
    "parent_pid",
    "pid_exists",
    "proc_translated",
    "process_info",
    "process_parent",
    "start_ticks",
    "tcp_listeners",
    "uninstall_entries",
    "uptime",
    "user_home",
    "wow64_native_machine",
]

MAX_PROC_FILE_BYTES = 64 * 1024
"""At most this much of one ``/proc`` file is read."""

MAX_FIELD_DIGITS = 20
"""A numeric field longer than this is not believed."""

_START_TIME_FIELD = 22
"""``starttime`` in proc(5)'s numbering of ``/proc/<pid>/stat`` fields (the first is 1)."""


def _number(text: bytes) -> int | None:
    """A non-negative decimal number of at most ``MAX_FIELD_DIGITS`` ASCII digits, or None."""
    if not text or len(text) > MAX_FIELD_DIGITS or not text.isdigit():
        return None
    return int(text)


def effective_uid(status: bytes) -> int | None:
    """The effective user id from a ``/proc/<pid>/status`` file, or None when unreadable."""
    for line in status.split(b"\n"):
        if line.startswith(b"Uid:"):
            fields = line[4:].split()
            return _number(fields[1]) if len(fields) == 4 else None
    return None


def exited_state(status: bytes) -> bool:
    """Whether a ``/proc/<pid>/status`` file's ``State:`` line says the process has exited but
    is not yet reaped (``Z``, a zombie) or is being torn down (``X``): such a process still
    answers ``kill(pid, 0)``, yet it runs nothing."""
    for line in status.split(b"\n"):
        if line.startswith(b"State:"):
            fields = line[6:].split()
            return bool(fields) and fields[0] in (b"Z", b"X")
    return False


def start_ticks(stat: bytes) -> int | None:
    """Field 22 (``starttime``, clock ticks after boot) of a ``/proc/<pid>/stat`` file, or None.

    The command name (field 2) is in parentheses and may itself hold spaces and parentheses, so
    the fields are counted after its last ``)``.
    """
    end_of_name = stat.rfind(b")")
    if end_of_name < 0:
        return None
    fields = stat[end_of_name + 1 :].split()
    index = _START_TIME_FIELD - 3  # the fields after the name start at field 3
    return _number(fields[index]) if len(fields) > index else None


def parent_pid(stat: bytes) -> int | None:
    """Field 4 (``ppid``) of a ``/proc/<pid>/stat`` file, counted after the name; None when
    unreadable or 0 (no parent)."""
    end_of_name = stat.rfind(b")")
    fields = stat[end_of_name + 1 :].split() if end_of_name >= 0 else []
    found = _number(fields[1]) if len(fields) > 1 else None
    return found or None


def uptime(proc_uptime: bytes) -> float | None:
    """Seconds since boot, the first field of ``/proc/uptime`` (``12345.67 54321.00``), or None."""
    fields = proc_uptime.split()
    if not fields:
        return None
    whole, dot, fraction = fields[0].partition(b".")
    seconds = _number(whole)
    if seconds is None or (dot and _number(fraction) is None):
        return None
    return float(fields[0])


def linux_process_info(
    pid: int, read: Callable[[str, int], bytes | None], ticks_per_second: int, now: float
) -> ProcessInfo | None:
    """The owner and start time of process ``pid``; None when ``/proc`` has no such process, or
    when the same read of its status says it has exited (a zombie).

    ``read(path, size)`` reads at most ``size`` bytes of a regular file (None when it cannot);
    ``now`` is the wall clock, in seconds since the epoch.
    """
    status = read(f"/proc/{pid}/status", MAX_PROC_FILE_BYTES)
    if status is None or exited_state(status):
        return None
    uid = effective_uid(status)
    started: float | None = None
    stat = read(f"/proc/{pid}/stat", MAX_PROC_FILE_BYTES)
    since_boot = read("/proc/uptime", MAX_PROC_FILE_BYTES)
    ticks = start_ticks(stat) if stat is not None else None
    up = uptime(since_boot) if since_boot is not None else None
    if ticks is not None and up is not None and ticks_per_second > 0:
        started = now - up + ticks / ticks_per_second
    return ProcessInfo(user=None if uid is None else str(uid), started=started)


# -- what LiveHost asks on Linux -------------------------------------------------------------


def process_info(pid: int) -> ProcessInfo | None:
    """Who owns process ``pid`` here and since when, from ``/proc``; None when there is none."""
    if sys.platform == "win32":
        ticks_per_second = 0
    else:
        try:
            ticks_per_second = os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError):
            ticks_per_second = 0
    return linux_process_info(pid, read_regular_file, ticks_per_second, time.time())


def process_parent(pid: int) -> int | None:
    """The parent of process ``pid`` from ``/proc/<pid>/stat``; None when unreadable."""
    stat = read_regular_file(f"/proc/{pid}/stat", MAX_PROC_FILE_BYTES)
    return None if stat is None else parent_pid(stat)


def interactive_session(getenv: Callable[[str], str | None]) -> bool | None:
    """Whether the environment read through ``getenv`` belongs to a desktop session."""
    return desktop_session_from_env(getenv)


def uninstall_entries() -> tuple[UninstallEntry, ...]:
    """Empty: the registry is Windows'."""
    return ()


def display_device_ids() -> tuple[str, ...]:
    """Empty: the registry is Windows'."""
    return ()


def os_version(files: HostFiles) -> str | None:
    """None: Linux distributions share no OS version to compare against."""
    return None


def proc_translated() -> int | None:
    """None: Rosetta is macOS's."""
    return None


def wow64_native_machine() -> int | None:
    """None: emulation of another architecture is read on Windows only."""
    return None


def drive_is_remote(path: str) -> bool:
    """False: drive letters are Windows'."""
    return False
