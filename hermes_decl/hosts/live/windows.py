"""Everything the live host does on Windows, through small seams so the logic runs on every OS.

The registry is read through a winreg-like seam: ``uninstall_entries`` passes the real ``winreg``
module on Windows, tests a fake object with the same few functions and constants. Every
enumeration is bounded and every access error is skipped: a key that cannot be opened or a value
that cannot be read counts as absent. A key with more subkeys than the bound is read up to it and
the answer is marked ``truncated``, so no reader takes a cut list for the whole one.

Processes go through a kernel32-like seam: whether a process id is alive (``OpenProcess`` with
``PROCESS_QUERY_LIMITED_INFORMATION`` and ``GetExitCodeProcess``), and who owns it, in which
session, since when (``OpenProcessToken`` and ``GetTokenInformation(TokenUser)``,
``ProcessIdToSessionId``, ``GetProcessTimes``); ``_windows_api.Kernel32Processes`` is the real
one. The module-level functions at the end are what ``LiveHost`` asks when it runs on Windows.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, Protocol, TypeVar

from hermes_decl.hosts.live.windows_drives import DRIVE_REMOTE as DRIVE_REMOTE
from hermes_decl.hosts.live.windows_drives import drive_is_remote as drive_is_remote
from hermes_decl.hosts.live.windows_drives import drive_root as drive_root
from hermes_decl.hosts.live.windows_drives import remote_drive as remote_drive
from hermes_decl.hosts.protocol import (
    MAX_SUBKEYS,
    HostFiles,
    Listing,
    ProcessInfo,
    TcpListener,
    UninstallEntries,
    UninstallEntry,
)

if sys.platform == "win32":
    import winreg

    from hermes_decl.hosts.live._windows_api import (
        live_process_api,
        rtl_get_version,
        windows_native_machine_code,
    )
    from hermes_decl.hosts.live.windows_sockets import (
        listening_rows,
        parent_process_id,
        parse_tcp_table,
        tcp_table,
    )

UNINSTALL_KEY = r"SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall"
"""The uninstall key, read under HKLM (both registry views) and HKCU."""

DISPLAY_CLASS_KEY = r"SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}"
"""The display-adapter device class key; each adapter is a four-digit subkey (``0000``…)."""


MAX_VALUE_CHARS = 32768
"""A string value longer than this counts as absent (Windows paths stop at 32767 characters)."""

HandleT = TypeVar("HandleT")


class RegistryApi(Protocol[HandleT]):
    """The part of ``winreg`` this module uses; the real module satisfies it structurally."""

    @property
    def HKEY_LOCAL_MACHINE(self) -> int: ...

    @property
    def HKEY_CURRENT_USER(self) -> int: ...

    @property
    def KEY_READ(self) -> int: ...

    @property
    def KEY_WOW64_64KEY(self) -> int: ...

    @property
    def KEY_WOW64_32KEY(self) -> int: ...

    def OpenKey(
        self, key: HandleT | int, sub_key: str, reserved: int = ..., access: int = ..., /
    ) -> HandleT:
        """Open a subkey; raises ``OSError`` when it is missing or access is denied."""
        ...

    def EnumKey(self, key: HandleT, index: int, /) -> str:
        """The name of the ``index``-th subkey; raises ``OSError`` past the last one."""
        ...

    def QueryValueEx(self, key: HandleT, name: str, /) -> tuple[Any, int]:
        """A value and its registry type; raises ``OSError`` when it is missing."""
        ...

    def CloseKey(self, hkey: HandleT, /) -> None:
        """Close an opened key."""
        ...


class _Enumeration:
    """What enumerating subkeys found out besides the subkeys: whether a bound cut it."""

    def __init__(self) -> None:
        self.truncated = False


def read_uninstall_entries(api: RegistryApi[HandleT]) -> UninstallEntries:
    """Uninstall entries from HKLM's 64-bit view, its 32-bit (WOW6432Node) view, then HKCU.

    Within a view, entries come in the registry's subkey order. On 32-bit Windows both HKLM
    views are the same key, so an entry already read from the first view is not repeated. When
    a view has more than ``MAX_SUBKEYS`` entries, the answer is marked ``truncated``.
    """
    views = (
        (api.HKEY_LOCAL_MACHINE, api.KEY_READ | api.KEY_WOW64_64KEY),
        (api.HKEY_LOCAL_MACHINE, api.KEY_READ | api.KEY_WOW64_32KEY),
        (api.HKEY_CURRENT_USER, api.KEY_READ),
    )
    entries: list[UninstallEntry] = []
    hklm_seen: set[tuple[str, UninstallEntry]] = set()
    enumeration = _Enumeration()
    for root, access in views:
        for subkey_name, entry in _uninstall_view(api, root, access, enumeration):
            if root == api.HKEY_LOCAL_MACHINE:
                if (subkey_name, entry) in hklm_seen:
                    continue
                hklm_seen.add((subkey_name, entry))
            entries.append(entry)
    return UninstallEntries(entries, truncated=enumeration.truncated)


def read_display_device_ids(api: RegistryApi[HandleT]) -> Listing:
    """The ``MatchingDeviceId`` of every display adapter (``PCI\\VEN_10DE&DEV_…``), in key order.

    When the class key has more than ``MAX_SUBKEYS`` subkeys, the answer is marked ``truncated``.
    """
    access = api.KEY_READ | api.KEY_WOW64_64KEY
    ids: list[str] = []
    enumeration = _Enumeration()
    adapters = _subkeys(api, api.HKEY_LOCAL_MACHINE, DISPLAY_CLASS_KEY, access, enumeration)
    for subkey_name, handle in adapters:
        if len(subkey_name) != 4 or not subkey_name.isdigit():
            continue  # "Properties", "Configuration": not adapters
        device_id = _string_value(api, handle, "MatchingDeviceId")
        if device_id is not None:
            ids.append(device_id)
    return Listing(ids, truncated=enumeration.truncated)


def _uninstall_view(
    api: RegistryApi[HandleT], root: int, access: int, enumeration: _Enumeration
) -> Iterator[tuple[str, UninstallEntry]]:
    """Each uninstall subkey of one registry view, with the values the resolver reads."""
    for subkey_name, handle in _subkeys(api, root, UNINSTALL_KEY, access, enumeration):
        yield (
            subkey_name,
            UninstallEntry(
                display_name=_string_value(api, handle, "DisplayName"),
                display_version=_string_value(api, handle, "DisplayVersion"),
                install_location=_string_value(api, handle, "InstallLocation"),
            ),
        )


def _subkeys(
    api: RegistryApi[HandleT], root: int, path: str, access: int, enumeration: _Enumeration
) -> Iterator[tuple[str, HandleT]]:
    """Each openable subkey of ``root\\path`` (at most ``MAX_SUBKEYS``), opened with ``access``.

    The handle is only valid until the iteration moves on; unreadable subkeys are skipped. When
    the key has a subkey past the bound, ``enumeration.truncated`` becomes True.
    """
    parent = _open(api, root, path, access)
    if parent is None:
        return
    try:
        for index in range(MAX_SUBKEYS + 1):
            try:
                name = api.EnumKey(parent, index)
            except OSError:
                break  # ERROR_NO_MORE_ITEMS, or the key went away
            if index == MAX_SUBKEYS:
                enumeration.truncated = True
                break
            if not isinstance(name, str) or not name:
                continue
            child = _open(api, parent, name, access)
            if child is None:
                continue
            try:
                yield name, child
            finally:
                _close(api, child)
    finally:
        _close(api, parent)


def _open(api: RegistryApi[HandleT], key: HandleT | int, path: str, access: int) -> HandleT | None:
    """An opened subkey, or None when it is missing or cannot be opened."""
    try:
        return api.OpenKey(key, path, 0, access)
    except (OSError, ValueError, TypeError):
        return None


def _close(api: RegistryApi[HandleT], handle: HandleT) -> None:
    """Close a key, ignoring errors (a failed close changes nothing we read)."""
    with contextlib.suppress(OSError):
        api.CloseKey(handle)


def _string_value(api: RegistryApi[HandleT], handle: HandleT, name: str) -> str | None:
    """A string value (REG_SZ or REG_EXPAND_SZ, unexpanded); None when missing, blank or odd.

    A value of another type, a blank string, or one longer than ``MAX_VALUE_CHARS`` counts as
    absent; text after an embedded NUL is dropped, as Windows itself would read it.
    """
    try:
        value, _value_type = api.QueryValueEx(handle, name)
    except (OSError, ValueError, TypeError):
        return None
    if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
        return None
    value = value.split("\0", 1)[0]
    return value if value.strip() else None


STILL_ACTIVE = 259
"""The exit code Windows reports for a process that has not exited."""

ERROR_ACCESS_DENIED = 5
"""``OpenProcess`` failed because the process belongs to a more privileged user: it exists."""

FILETIME_EPOCH = 116_444_736_000_000_000
"""1970-01-01 as a ``FILETIME``: 100-nanosecond intervals since 1601-01-01."""

MAX_SID_CHARS = 200
"""A SID string longer than this is not believed (real ones are under 190 characters)."""


class ProcessApi(Protocol[HandleT]):
    """The few kernel32 calls the check needs; each may raise ``OSError`` (counted as not alive)."""

    def open_process(self, pid: int) -> HandleT | None:
        """A query handle to the process, or None when ``OpenProcess`` fails."""
        ...

    def last_error(self) -> int:
        """The thread's last Windows error code, right after a failed call."""
        ...

    def exit_code(self, handle: HandleT) -> int | None:
        """The process's exit code (``STILL_ACTIVE`` while it runs), or None when unreadable."""
        ...

    def close(self, handle: HandleT) -> None:
        """Close a handle from ``open_process``."""
        ...


def process_running(pid: int, api: ProcessApi[HandleT]) -> bool:
    """Whether ``pid`` names a process that exists (another user's counts); never raises.

    A process that exited with code 259 reads as alive: that is what Windows itself answers.
    """
    try:
        handle = api.open_process(pid)
        if handle is None:
            return api.last_error() == ERROR_ACCESS_DENIED
        try:
            return api.exit_code(handle) == STILL_ACTIVE
        finally:
            api.close(handle)
    except (OSError, AttributeError, TypeError, ValueError, OverflowError):
        return False


class ProcessFactsApi(ProcessApi[HandleT], Protocol[HandleT]):
    """The calls that tell who owns a process, in which session, and since when."""

    def owner_sid(self, handle: HandleT | None) -> str | None:
        """The owner's SID as a string (``S-1-5-21-…``) of a process handle, or of this process
        when ``handle`` is None; None when its token cannot be read."""
        ...

    def session_id(self, pid: int | None) -> int | None:
        """The session of a process id, or of this process when ``pid`` is None; or None."""
        ...

    def creation_time(self, handle: HandleT) -> int | None:
        """The process's creation time as a ``FILETIME`` value, or None."""
        ...


def filetime_to_epoch(filetime: int) -> float | None:
    """A ``FILETIME`` value as seconds since the epoch; None for zero or anything before 1970."""
    if filetime <= FILETIME_EPOCH:
        return None
    return (filetime - FILETIME_EPOCH) / 10_000_000


def _checked_sid(sid: str | None) -> str | None:
    """A SID string as Windows writes it (``S-`` then digits and dashes), else None."""
    if not isinstance(sid, str) or not sid.startswith("S-") or len(sid) > MAX_SID_CHARS:
        return None
    return (
        sid if all(char.isascii() and (char.isdigit() or char == "-") for char in sid[2:]) else None
    )


def windows_process_info(pid: int, api: ProcessFactsApi[HandleT]) -> ProcessInfo | None:
    """The owner, session and start of a running process; None when there is none. Never raises.

    A process that cannot even be opened for a limited query belongs to a more privileged user:
    it is reported with no owner, so it never passes for this user's.
    """
    try:
        handle = api.open_process(pid)
        if handle is None:
            if api.last_error() != ERROR_ACCESS_DENIED:
                return None
            return ProcessInfo(user=None, started=None, session=api.session_id(pid))
        try:
            if api.exit_code(handle) != STILL_ACTIVE:
                return None
            created = api.creation_time(handle)
            return ProcessInfo(
                user=_checked_sid(api.owner_sid(handle)),
                started=None if created is None else filetime_to_epoch(created),
                session=api.session_id(pid),
            )
        finally:
            api.close(handle)
    except (OSError, AttributeError, TypeError, ValueError, OverflowError):
        return None


def windows_own_process(api: ProcessFactsApi[HandleT]) -> ProcessInfo:
    """This process's owner SID and session (its start time is not needed). Never raises."""
    try:
        return ProcessInfo(
            user=_checked_sid(api.owner_sid(None)), started=None, session=api.session_id(None)
        )
    except (OSError, AttributeError, TypeError, ValueError, OverflowError):
        return ProcessInfo(user=None, started=None)


def windows_interactive_session(api: ProcessFactsApi[HandleT]) -> bool | None:
    """Whether this process runs in a session other than 0 (services' session); None if unknown."""
    try:
        session = api.session_id(None)
    except (OSError, AttributeError, TypeError, ValueError, OverflowError):
        return None
    return None if session is None else session != 0


# -- what LiveHost asks on Windows ----------------------------------------------------------


def pid_exists(pid: int) -> bool:
    """Whether ``pid`` is alive on this Windows machine; never raises (False elsewhere)."""
    if sys.platform == "win32":
        api = live_process_api()
        return False if api is None else process_running(pid, api)
    else:
        return False


def process_info(pid: int) -> ProcessInfo | None:
    """Who owns process ``pid`` on this Windows machine and since when; None when unknown."""
    if sys.platform == "win32":
        api = live_process_api()
        return None if api is None else windows_process_info(pid, api)
    else:
        return None


def own_process() -> ProcessInfo:
    """This process's owner SID and session on Windows; unknown elsewhere."""
    if sys.platform == "win32":
        api = live_process_api()
        return ProcessInfo(user=None, started=None) if api is None else windows_own_process(api)
    else:
        return ProcessInfo(user=None, started=None)


def process_parent(pid: int) -> int | None:
    """The parent process id Windows recorded for ``pid``; None when it cannot be read."""
    if sys.platform == "win32":
        api = live_process_api()
        handle = None if api is None else api.open_process(pid)
        if api is None or handle is None:
            return None
        try:
            return parent_process_id(handle)
        finally:
            api.close(handle)
    else:
        return None


def tcp_listeners(address: str, port: int) -> tuple[TcpListener, ...] | None:
    """The listening sockets a connection to ``address`` and ``port`` may reach, from both
    listener tables, each with its owning process and that process's owner; None when either
    table cannot be read."""
    if sys.platform == "win32":
        pids: list[int] = []
        for ipv6 in (False, True):
            data = tcp_table(ipv6)
            rows = None if data is None else parse_tcp_table(data, ipv6)
            if rows is None:
                return None
            pids += listening_rows(address, port, rows)
        api = live_process_api()
        found: list[TcpListener] = []
        for pid in pids:
            info = None if api is None else windows_process_info(pid, api)
            found.append(TcpListener(None if info is None else info.user, (pid,)))
        return tuple(found)
    else:
        return None


def interactive_session(getenv: Callable[[str], str | None]) -> bool | None:
    """Whether this process runs in a session other than 0; None when that cannot be told."""
    if sys.platform == "win32":
        api = live_process_api()
        return None if api is None else windows_interactive_session(api)
    else:
        return None


def home() -> str | None:
    """USERPROFILE, else HOMEDRIVE and HOMEPATH together; None when neither is set."""
    profile = os.environ.get("USERPROFILE")
    if profile:
        return profile
    drive, rest = os.environ.get("HOMEDRIVE", ""), os.environ.get("HOMEPATH", "")
    return drive + rest if drive and rest else None


def user_home(user: str) -> str | None:
    """None: Windows has no user database lookup by name without a library call."""
    return None


def uninstall_entries() -> tuple[UninstallEntry, ...]:
    """Uninstall entries from the real registry on Windows; empty elsewhere."""
    if sys.platform == "win32":
        return read_uninstall_entries(winreg)
    else:
        return ()


def display_device_ids() -> tuple[str, ...]:
    """Display adapters' ``MatchingDeviceId`` from the real registry on Windows; else empty."""
    if sys.platform == "win32":
        return read_display_device_ids(winreg)
    else:
        return ()


def live_windows_version() -> str | None:
    """The running Windows' real version through ``RtlGetVersion``; None elsewhere or on failure."""
    if sys.platform == "win32":
        return rtl_get_version()
    else:
        return None


def os_version(files: HostFiles) -> str | None:
    """The real Windows version (``live_windows_version``); no file tells it."""
    return live_windows_version()


def proc_translated() -> int | None:
    """None: Rosetta is macOS's."""
    return None


def wow64_native_machine() -> int | None:
    """The native machine from ``IsWow64Process2`` on Windows; None elsewhere."""
    if sys.platform == "win32":
        return windows_native_machine_code()
    else:
        return None
