"""The live host: the only code that touches the real machine.

It reads the real filesystem (``files``), ``os.environ``, and whatever the running OS tells:
the OS's own module is picked once, here, the way each OS's live code sits in one module
(``windows``: the registry through ``winreg``, processes through kernel32; ``macos``:
libSystem and the Security framework; ``linux``: ``/proc``; ``posix``: ``kill(pid, 0)`` and the
user database, shared by the last two). Each of them is importable on every OS, with its
``ctypes`` and ``winreg`` calls behind positive ``sys.platform`` guards that mypy understands.
"""

from __future__ import annotations

import os
import platform
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from hermes_decl.hosts.live.file_primitives import (
    file_modified,
    folder_chain,
    list_dir_names,
    path_is_dir,
    path_is_file,
    read_regular_file,
    read_regular_file_facts,
)
from hermes_decl.hosts.machine import ArchitectureApi, native_machine
from hermes_decl.hosts.pathsearch import SearchesCommands
from hermes_decl.hosts.protocol import (
    FileRead,
    FolderFacts,
    Listing,
    ProcessInfo,
    TcpListener,
    valid_pid,
)
from hermes_decl.models import OS_FAMILIES, OsFamily

if sys.platform == "win32":
    from hermes_decl.hosts.live import windows as this_os
elif sys.platform == "darwin":
    from hermes_decl.hosts.live import macos as this_os
else:
    from hermes_decl.hosts.live import linux as this_os

if TYPE_CHECKING:
    from hermes_decl.hosts.protocol import UninstallEntry

__all__ = [
    "LiveArchitecture",
    "LiveHost",
    "current_os_family",
    "live_interactive_session",
    "live_own_process",
    "live_process_info",
    "os_family_of",
    "pid_exists",
]


def os_family_of(platform: str, *, android: bool = False) -> OsFamily | None:
    """The OS family a ``sys.platform`` value names; None for an OS that is none of the three.

    FreeBSD, AIX, Cygwin, iOS, WebAssembly and Android are not Linux, macOS or Windows: their
    paths, registries and package folders differ, so nothing declared for the three applies.
    Android reports ``linux`` before Python 3.13, hence ``android``.
    """
    if platform == "win32":
        return "win32"
    if platform == "darwin":
        return "darwin"
    if platform.startswith("linux") and not android:
        return "linux"
    return None


def current_os_family() -> OsFamily | None:
    """The OS family this Python runs on; None when it is none of win32, darwin and linux."""
    return os_family_of(sys.platform, android=hasattr(sys, "getandroidapilevel"))


def pid_exists(pid: int) -> bool:
    """Whether a process with this id exists on this machine (another user's counts); never raises.

    Ids outside ``1..MAX_PID`` (and bools) are refused before the OS is asked, so ``0`` and
    negative ids can never reach ``kill``'s process-group forms. POSIX: ``kill(pid, 0)``, where
    EPERM means the process exists; Windows: ``OpenProcess`` and ``GetExitCodeProcess``.
    """
    return valid_pid(pid) and this_os.pid_exists(pid)


def live_process_info(pid: int) -> ProcessInfo | None:
    """Who owns process ``pid`` here and since when; None when there is no such process."""
    return this_os.process_info(pid) if valid_pid(pid) else None


def live_own_process() -> ProcessInfo:
    """This process's owner (effective user id on POSIX, SID on Windows) and Windows session."""
    return this_os.own_process()


def live_interactive_session(getenv: Callable[[str], str | None]) -> bool | None:
    """Whether this process runs in a logged-in desktop session; None when that cannot be told.

    Windows: a session other than 0; macOS: the Aqua session of the console user; elsewhere the
    environment (``desktop_session_from_env``), read through ``getenv``.
    """
    return this_os.interactive_session(getenv)


class LiveArchitecture:
    """``ArchitectureApi`` for the machine this Python runs on."""

    def process_machine(self) -> str:
        """``platform.machine()``."""
        return platform.machine()

    def proc_translated(self) -> int | None:
        """``sysctl.proc_translated`` through ``sysctlbyname`` on macOS; None elsewhere."""
        return this_os.proc_translated()

    def wow64_native_machine(self) -> int | None:
        """The native machine from ``IsWow64Process2`` on Windows; None elsewhere."""
        return this_os.wow64_native_machine()


class LiveHost(SearchesCommands):
    """The machine this Python runs on.

    ``os_family`` defaults to the running OS (None on an OS that is none of the three); forcing
    another one changes how the host answers (environment case, PATH separator, PATHEXT) but not
    what it reads. The registry is only read when actually running on Windows. ``search_path``
    replaces the process's PATH for ``which``: a host launched from a desktop can pass the PATH of
    the user's login shell, which its own environment lacks. ``architecture`` is what the OS says
    about the process and the machine (``LiveArchitecture`` unless given).
    """

    def __init__(
        self,
        os_family: OsFamily | None = None,
        *,
        search_path: str | None = None,
        architecture: ArchitectureApi | None = None,
    ) -> None:
        if os_family is not None and os_family not in OS_FAMILIES:
            raise ValueError(
                f"os_family must be one of {', '.join(OS_FAMILIES)} (got {os_family!r})"
            )
        self._os_family: OsFamily | None = os_family or current_os_family()
        self._search_path = search_path
        self._architecture = architecture if architecture is not None else LiveArchitecture()
        self._native_machine: str | None = None
        self._os_version: tuple[str | None] | None = None

    def __repr__(self) -> str:
        return f"LiveHost(os_family={self._os_family!r})"

    @property
    def os_family(self) -> OsFamily | None:
        """The OS family this host answers for; None on an OS that is none of the three."""
        return self._os_family

    @property
    def search_path(self) -> str | None:
        """The search path ``which`` uses instead of PATH, when one was given."""
        return self._search_path

    def getenv(self, name: str) -> str | None:
        """An environment variable, or None; case-insensitive when the host is win32."""
        if not name or "\0" in name or "=" in name:
            return None
        if self._os_family == "win32" and sys.platform != "win32":
            wanted = name.upper()
            return next((v for k, v in os.environ.items() if k.upper() == wanted), None)
        return os.environ.get(name)

    def home(self) -> str | None:
        """The current user's home: HOME (or USERPROFILE on Windows), else the user database."""
        return this_os.home()

    def user_home(self, user: str) -> str | None:
        """Another user's home from the user database on POSIX; None on Windows or when unknown."""
        if not user or "\0" in user or "/" in user:
            return None
        return this_os.user_home(user)

    def drive_is_remote(self, path: str) -> bool:
        """Whether a Windows path's drive is a network drive (``GetDriveTypeW``); else False."""
        return self._os_family == "win32" and this_os.drive_is_remote(path)

    def is_file(self, path: str) -> bool:
        """Whether ``path`` is a regular file (symlinks followed); never raises."""
        return path_is_file(path)

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory (symlinks followed); never raises."""
        return path_is_dir(path)

    def list_dir(self, path: str) -> Listing:
        """Entry names of a directory, sorted, at most ``MAX_DIR_ENTRIES``; empty on error."""
        return list_dir_names(path)

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None:
        """At most ``size`` bytes from ``offset`` of a regular file; None when not one."""
        return read_regular_file(path, size, offset)

    def uninstall_entries(self) -> tuple[UninstallEntry, ...]:
        """Uninstall entries from the real registry on Windows; empty elsewhere."""
        return this_os.uninstall_entries()

    def display_device_ids(self) -> tuple[str, ...]:
        """Display adapters' ``MatchingDeviceId`` from the real registry on Windows; else empty."""
        return this_os.display_device_ids()

    def native_machine(self) -> str:
        """The machine's architecture, through Rosetta and Windows emulation (asked once)."""
        if self._native_machine is None:
            self._native_machine = native_machine(self._architecture)
        return self._native_machine

    def os_version(self) -> str | None:
        """The running OS's version (asked once): macOS through ``SystemVersion.plist`` read
        like any file, Windows through ``RtlGetVersion``; None on Linux, on any other OS, and
        when this host answers for an OS other than the one running."""
        if self._os_version is None:
            running = self._os_family == current_os_family()
            self._os_version = (this_os.os_version(self) if running else None,)
        return self._os_version[0]

    def process_alive(self, pid: int) -> bool:
        """Whether a process with this id runs on this machine (``pid_exists``); never raises."""
        return pid_exists(pid)

    # -- runtime status (SPEC 11) ------------------------------------------------------------

    def process_info(self, pid: int) -> ProcessInfo | None:
        """Who owns a running process and since when (``live_process_info``); never raises."""
        return live_process_info(pid)

    def own_process(self) -> ProcessInfo:
        """This process's own owner and session: what a runtime file's process must match."""
        return live_own_process()

    def process_parent(self, pid: int) -> int | None:
        """The parent of a running process (``/proc``, ``proc_bsdinfo``, or the process's basic
        information on Windows); None when it cannot be read."""
        return this_os.process_parent(pid) if valid_pid(pid) else None

    def file_mtime(self, path: str) -> float | None:
        """When a regular file was last modified (seconds since the epoch), or None."""
        return file_modified(path)

    def read_file_facts(self, path: str, size: int) -> FileRead | None:
        """At most ``size`` bytes of a regular file and the ``fstat`` of their descriptor."""
        return read_regular_file_facts(path, size)

    def folders_above(self, path: str) -> tuple[FolderFacts, ...] | None:
        """Owner and mode of each folder above ``path``, links resolved (none on Windows)."""
        return folder_chain(path)

    def tcp_listeners(self, address: str, port: int) -> tuple[TcpListener, ...] | None:
        """Who holds the sockets a connection to a loopback ``address`` and ``port`` could
        reach: ``/proc/net/tcp`` on Linux, ``GetExtendedTcpTable`` on Windows, each process's
        socket descriptors on macOS; None when the OS does not tell."""
        return this_os.tcp_listeners(address, port)

    def interactive_session(self) -> bool | None:
        """Whether this process runs in a logged-in desktop session; None when it cannot tell."""
        return live_interactive_session(self.getenv)
