"""The live host: the only code that touches the real machine.

It reads the real filesystem, ``os.environ``, the user database (``pwd`` on POSIX), the
machine's architecture (``native_machine``), whether a process id is alive (``kill(pid, 0)`` on
POSIX, ``OpenProcess`` through ``winprocess`` on Windows), who owns a process and since when
(``/proc`` through ``procfs`` on Linux, ``macprocess`` on macOS, ``winprocess`` on Windows) and,
on Windows only, the registry through ``winreg``. Per-OS code sits in positive
``if sys.platform == "win32":`` blocks so mypy checks each branch for its platform. The file
primitives are module functions so ``RootedHost`` reuses them on its mapped paths.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from hermes_decl._regular_file import open_regular
from hermes_decl.models import OS_FAMILIES, OsFamily
from hermes_decl.resolver.desktop_session import desktop_session_from_env
from hermes_decl.resolver.host import Listing, ProcessInfo
from hermes_decl.resolver.listing import MAX_DIR_ENTRIES
from hermes_decl.resolver.native_machine import ArchitectureApi, LiveArchitecture, native_machine
from hermes_decl.resolver.os_version import live_windows_version, macos_version
from hermes_decl.resolver.pathsearch import search_path

if TYPE_CHECKING:
    from hermes_decl.resolver.host import UninstallEntry


READ_CHUNK = 1 << 20
"""``read_file`` reads in chunks of at most this many bytes, so a huge ``size`` costs nothing."""

MAX_PID = 2**31 - 1
"""The highest process id ever asked about; a larger (or non-positive) one is never alive."""

_PATH_ERRORS = (OSError, ValueError, OverflowError)
"""What the os module raises for a path it cannot use: missing, denied, NUL byte, too long."""


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


def is_absolute_here(path: str) -> bool:
    """Whether ``path`` is absolute on this machine; a relative one is never touched.

    A relative path would be resolved against the current directory, which no declaration means
    (a ``C:\\x`` asked about on Linux, say, when ``os_family`` is forced).
    """
    if sys.platform == "win32":
        drive, rest = os.path.splitdrive(path)
        return len(drive) == 2 and rest[:1] in ("\\", "/")
    else:
        return path.startswith("/")


def path_is_file(path: str) -> bool:
    """Whether ``path`` is a regular file, symlinks followed; never raises."""
    if not is_absolute_here(path):
        return False
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except _PATH_ERRORS:
        return False


def path_is_dir(path: str) -> bool:
    """Whether ``path`` is a directory, symlinks followed; never raises."""
    if not is_absolute_here(path):
        return False
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except _PATH_ERRORS:
        return False


def list_dir_names(path: str, limit: int = MAX_DIR_ENTRIES) -> Listing:
    """Up to ``limit`` entry names of a directory, sorted; empty when it cannot be listed.

    When the directory holds more, the first ``limit`` names the OS yields come back marked
    ``truncated``. On POSIX a name that is not valid UTF-8 comes back surrogate-escaped (as
    ``os.listdir`` gives it) and still works as a path component for the other primitives.
    """
    names: list[str] = []
    truncated = False
    if not is_absolute_here(path):
        return Listing()
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                if len(names) >= limit:
                    truncated = True
                    break
                names.append(entry.name)
    except _PATH_ERRORS:
        return Listing()
    return Listing(sorted(names), truncated=truncated)


def read_regular_file(path: str, size: int, offset: int = 0) -> bytes | None:
    """At most ``size`` bytes from ``offset`` of a regular file; None otherwise. Never raises.

    The path is stat'ed first, so a device or a FIFO is normally never even opened; as the path
    may be swapped after that check, the open itself never blocks and never takes a terminal
    (``open_regular``), and the open descriptor is fstat'ed: anything but a regular file is
    refused before a single byte is read. Files whose reported size is zero (``/proc``) are
    still read, up to ``size`` bytes.
    """
    if size < 0 or offset < 0:
        return None
    if not path_is_file(path):
        return None
    try:
        fd = open_regular(path)
    except _PATH_ERRORS:
        return None
    try:
        return _read_at(fd, size, offset)
    except _PATH_ERRORS:
        return None
    finally:
        os.close(fd)


def _read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to ``size`` bytes of ``fd`` from ``offset``, in bounded chunks, stopping at the end."""
    chunks: list[bytes] = []
    remaining = size
    if sys.platform == "win32":
        os.lseek(fd, offset, os.SEEK_SET)
        while remaining > 0:
            chunk = os.read(fd, min(remaining, READ_CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    else:
        position = offset
        while remaining > 0:
            chunk = os.pread(fd, min(remaining, READ_CHUNK), position)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            position += len(chunk)
    return b"".join(chunks)


def file_modified(path: str) -> float | None:
    """When a regular file was last modified (seconds since the epoch, links followed), or None."""
    if not is_absolute_here(path):
        return None
    try:
        found = os.stat(path)
    except _PATH_ERRORS:
        return None
    return found.st_mtime if stat.S_ISREG(found.st_mode) else None


def read_link(path: str) -> str | None:
    """The target text of a symbolic link, or None when ``path`` is not one (or is unreadable)."""
    try:
        return os.readlink(path)
    except _PATH_ERRORS:
        return None


def pid_exists(pid: int) -> bool:
    """Whether a process with this id exists on this machine (another user's counts); never raises.

    Ids outside ``1..MAX_PID`` (and bools) are refused before the OS is asked, so ``0`` and
    negative ids can never reach ``kill``'s process-group forms. POSIX: ``kill(pid, 0)``, where
    EPERM means the process exists; Windows: ``OpenProcess`` and ``GetExitCodeProcess``
    (``winprocess``).
    """
    if not valid_pid(pid):
        return False
    if sys.platform == "win32":
        from hermes_decl.resolver.winprocess import windows_pid_exists

        return windows_pid_exists(pid)
    else:
        return posix_pid_exists(pid, os.kill)


def valid_pid(pid: object) -> bool:
    """Whether ``pid`` is an int (not a bool) in ``1..MAX_PID``: the only ids ever asked about."""
    return not isinstance(pid, bool) and isinstance(pid, int) and 1 <= pid <= MAX_PID


def live_process_info(pid: int) -> ProcessInfo | None:
    """Who owns process ``pid`` here and since when; None when there is no such process."""
    if not valid_pid(pid):
        return None
    if sys.platform == "win32":
        from hermes_decl.resolver.winprocess import live_process_api, windows_process_info

        api = live_process_api()
        return None if api is None else windows_process_info(pid, api)
    elif sys.platform == "darwin":
        from hermes_decl.resolver.macprocess import darwin_process_info, live_darwin_api

        return darwin_process_info(pid, live_darwin_api(), os.kill, os.geteuid())
    else:
        from hermes_decl.resolver.procfs import linux_process_info

        try:
            ticks_per_second = os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError):
            ticks_per_second = 0
        return linux_process_info(pid, read_regular_file, ticks_per_second, time.time())


def live_own_process() -> ProcessInfo:
    """This process's owner (effective user id on POSIX, SID on Windows) and Windows session."""
    if sys.platform == "win32":
        from hermes_decl.resolver.winprocess import live_process_api, windows_own_process

        api = live_process_api()
        return ProcessInfo(user=None, started=None) if api is None else windows_own_process(api)
    else:
        return ProcessInfo(user=str(os.geteuid()), started=None)


def live_interactive_session(getenv: Callable[[str], str | None]) -> bool | None:
    """Whether this process runs in a logged-in desktop session; None when that cannot be told.

    Windows: a session other than 0; macOS: the Aqua session of the console user; elsewhere the
    environment (``desktop_session_from_env``), read through ``getenv``.
    """
    if sys.platform == "win32":
        from hermes_decl.resolver.winprocess import live_process_api, windows_interactive_session

        api = live_process_api()
        return None if api is None else windows_interactive_session(api)
    elif sys.platform == "darwin":
        from hermes_decl.resolver.macprocess import darwin_interactive_session, live_darwin_api

        darwin_api = live_darwin_api()
        attributes = darwin_api.session_attributes() if darwin_api is not None else None
        try:
            console_uid: int | None = os.stat("/dev/console").st_uid
        except OSError:
            console_uid = None
        return darwin_interactive_session(attributes, console_uid, os.geteuid())
    else:
        return desktop_session_from_env(getenv)


def posix_pid_exists(pid: int, kill: Callable[[int, int], None]) -> bool:
    """Ask ``kill(pid, 0)`` whether a process exists; EPERM means it does, another user's."""
    try:
        kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, ValueError, OverflowError):
        return False
    return True


class LiveHost:
    """The machine this Python runs on.

    ``os_family`` defaults to the running OS (None on an OS that is none of the three); forcing
    another one changes how the host answers (environment case, PATH separator, PATHEXT) but not
    what it reads. The registry is only read when actually running on Windows. ``search_path``
    replaces the process's PATH for ``which``: a host launched from a desktop can pass the PATH of
    the user's login shell, which its own environment lacks. ``architecture`` is what the OS says
    about the process and the machine (``native_machine.LiveArchitecture`` unless given).
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
        if sys.platform == "win32":
            profile = os.environ.get("USERPROFILE")
            if profile:
                return profile
            drive, rest = os.environ.get("HOMEDRIVE", ""), os.environ.get("HOMEPATH", "")
            return drive + rest if drive and rest else None
        else:
            home = os.environ.get("HOME")
            if home:
                return home
            import pwd

            try:
                return pwd.getpwuid(os.getuid()).pw_dir or None
            except (KeyError, OSError):
                return None

    def user_home(self, user: str) -> str | None:
        """Another user's home from the user database on POSIX; None on Windows or when unknown."""
        if not user or "\0" in user or "/" in user:
            return None
        if sys.platform == "win32":
            return None  # Windows has no user database lookup by name without a library call
        else:
            import pwd

            try:
                return pwd.getpwnam(user).pw_dir or None
            except (KeyError, OSError, ValueError):
                return None

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

    def which(self, name: str) -> str | None:
        """A command on the search path given, else PATH (PATHEXT on Windows); any regular file."""
        return search_path(
            name,
            os_family=self._os_family,
            path=self._search_path if self._search_path is not None else self.getenv("PATH"),
            pathext=self.getenv("PATHEXT"),
            is_file=self.is_file,
        )

    def uninstall_entries(self) -> tuple[UninstallEntry, ...]:
        """Uninstall entries from the real registry on Windows; empty elsewhere."""
        if sys.platform == "win32":
            import winreg

            from hermes_decl.resolver.winregistry import read_uninstall_entries

            return read_uninstall_entries(winreg)
        else:
            return ()

    def display_device_ids(self) -> tuple[str, ...]:
        """Display adapters' ``MatchingDeviceId`` from the real registry on Windows; else empty."""
        if sys.platform == "win32":
            import winreg

            from hermes_decl.resolver.winregistry import read_display_device_ids

            return read_display_device_ids(winreg)
        else:
            return ()

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
            version: str | None = None
            if self._os_family == "darwin" and sys.platform == "darwin":
                version = macos_version(self)
            elif self._os_family == "win32":
                version = live_windows_version()
            self._os_version = (version,)
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

    def file_mtime(self, path: str) -> float | None:
        """When a regular file was last modified (seconds since the epoch), or None."""
        return file_modified(path)

    def interactive_session(self) -> bool | None:
        """Whether this process runs in a logged-in desktop session; None when it cannot tell."""
        return live_interactive_session(self.getenv)


_default_host_lock = threading.Lock()
_default_host: LiveHost | None = None


def default_host() -> LiveHost:
    """The process's one live host, what ``host=None`` means everywhere (created on first use).

    Sharing one object lets per-host caches such as ``gpu_class``'s serve every caller.
    """
    global _default_host
    with _default_host_lock:
        if _default_host is None:
            _default_host = LiveHost()
        return _default_host
