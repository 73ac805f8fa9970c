"""Windows processes through a small kernel32-like seam, so the logic runs on every OS.

Whether a process id is alive (``OpenProcess`` with ``PROCESS_QUERY_LIMITED_INFORMATION`` and
``GetExitCodeProcess``), and who owns it, in which session, since when (``OpenProcessToken`` and
``GetTokenInformation(TokenUser)``, ``ProcessIdToSessionId``, ``GetProcessTimes``). ``LiveHost``
uses ``Kernel32Processes`` on Windows; tests pass fake objects with the same methods. The only
module besides ``winregistry`` that talks to Windows APIs; it loads ``kernel32`` and
``advapi32`` only, never a driver library, and starts no process.
"""

from __future__ import annotations

import sys
from typing import Protocol, TypeVar

from hermes_decl.resolver.host import ProcessInfo

PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
"""The least access right that lets ``GetExitCodeProcess`` read a process."""

STILL_ACTIVE = 259
"""The exit code Windows reports for a process that has not exited."""

ERROR_ACCESS_DENIED = 5
"""``OpenProcess`` failed because the process belongs to a more privileged user: it exists."""

FILETIME_EPOCH = 116_444_736_000_000_000
"""1970-01-01 as a ``FILETIME``: 100-nanosecond intervals since 1601-01-01."""

MAX_SID_CHARS = 200
"""A SID string longer than this is not believed (real ones are under 190 characters)."""

HandleT = TypeVar("HandleT")


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


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    class Kernel32Processes:
        """``ProcessApi`` over the real kernel32, with explicit argument and result types."""

        def __init__(self) -> None:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
            self._open = kernel32.OpenProcess
            self._open.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
            self._open.restype = wintypes.HANDLE
            self._exit_code = kernel32.GetExitCodeProcess
            self._exit_code.argtypes = (wintypes.HANDLE, ctypes.POINTER(wintypes.DWORD))
            self._exit_code.restype = wintypes.BOOL
            self._close = kernel32.CloseHandle
            self._close.argtypes = (wintypes.HANDLE,)
            self._close.restype = wintypes.BOOL
            self._current_process = kernel32.GetCurrentProcess
            self._current_process.argtypes = ()
            self._current_process.restype = wintypes.HANDLE
            self._current_pid = kernel32.GetCurrentProcessId
            self._current_pid.argtypes = ()
            self._current_pid.restype = wintypes.DWORD
            self._session_of = kernel32.ProcessIdToSessionId
            self._session_of.argtypes = (wintypes.DWORD, ctypes.POINTER(wintypes.DWORD))
            self._session_of.restype = wintypes.BOOL
            self._times = kernel32.GetProcessTimes
            self._times.argtypes = (wintypes.HANDLE, *(ctypes.POINTER(wintypes.FILETIME),) * 4)
            self._times.restype = wintypes.BOOL
            self._local_free = kernel32.LocalFree
            self._local_free.argtypes = (wintypes.HLOCAL,)
            self._local_free.restype = wintypes.HLOCAL
            self._open_token = advapi32.OpenProcessToken
            self._open_token.argtypes = (
                wintypes.HANDLE,
                wintypes.DWORD,
                ctypes.POINTER(wintypes.HANDLE),
            )
            self._open_token.restype = wintypes.BOOL
            self._token_info = advapi32.GetTokenInformation
            self._token_info.argtypes = (
                wintypes.HANDLE,
                ctypes.c_int,
                ctypes.c_void_p,
                wintypes.DWORD,
                ctypes.POINTER(wintypes.DWORD),
            )
            self._token_info.restype = wintypes.BOOL
            self._sid_string = advapi32.ConvertSidToStringSidW
            self._sid_string.argtypes = (ctypes.c_void_p, ctypes.POINTER(wintypes.LPWSTR))
            self._sid_string.restype = wintypes.BOOL

        def open_process(self, pid: int) -> int | None:
            """``OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, pid)``, or None."""
            handle = self._open(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
            return int(handle) if handle else None

        def last_error(self) -> int:
            """``GetLastError()`` as ctypes saved it after the last call."""
            return ctypes.get_last_error()

        def exit_code(self, handle: int) -> int | None:
            """``GetExitCodeProcess``, or None when it fails."""
            code = wintypes.DWORD()
            if not self._exit_code(handle, ctypes.byref(code)):
                return None
            return int(code.value)

        def close(self, handle: int) -> None:
            """``CloseHandle``."""
            self._close(handle)

        def owner_sid(self, handle: int | None) -> str | None:
            """The token user's SID string of a process (this one when ``handle`` is None)."""
            process = self._current_process() if handle is None else handle
            token = wintypes.HANDLE()
            if not self._open_token(process, TOKEN_QUERY, ctypes.byref(token)):
                return None
            try:
                buffer = ctypes.create_string_buffer(TOKEN_USER_BYTES)
                needed = wintypes.DWORD()
                if not self._token_info(
                    token, TOKEN_USER_CLASS, buffer, TOKEN_USER_BYTES, ctypes.byref(needed)
                ):
                    return None
                sid = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_void_p))[0]
                text = wintypes.LPWSTR()
                if not sid or not self._sid_string(sid, ctypes.byref(text)):
                    return None
                try:
                    return text.value
                finally:
                    self._local_free(ctypes.cast(text, wintypes.HLOCAL))
            finally:
                self._close(token)

        def session_id(self, pid: int | None) -> int | None:
            """``ProcessIdToSessionId`` of a process id (this process when ``pid`` is None)."""
            session = wintypes.DWORD()
            wanted = self._current_pid() if pid is None else pid
            if not self._session_of(wanted, ctypes.byref(session)):
                return None
            return int(session.value)

        def creation_time(self, handle: int) -> int | None:
            """``GetProcessTimes``'s creation time as one ``FILETIME`` number, or None."""
            created, exited, kernel, user = (wintypes.FILETIME() for _ in range(4))
            if not self._times(
                handle,
                ctypes.byref(created),
                ctypes.byref(exited),
                ctypes.byref(kernel),
                ctypes.byref(user),
            ):
                return None
            return (int(created.dwHighDateTime) << 32) | int(created.dwLowDateTime)

    TOKEN_QUERY = 0x0008
    """The access right ``GetTokenInformation`` needs."""

    TOKEN_USER_CLASS = 1
    """``TokenUser`` in ``TOKEN_INFORMATION_CLASS``."""

    TOKEN_USER_BYTES = 256
    """Room for a ``TOKEN_USER`` and its SID (a SID is at most 68 bytes)."""

    def live_process_api() -> Kernel32Processes | None:
        """The real kernel32 and advapi32, or None when they cannot be loaded."""
        try:
            return Kernel32Processes()
        except (OSError, AttributeError):
            return None

    def windows_pid_exists(pid: int) -> bool:
        """Whether ``pid`` is alive on this Windows machine; never raises."""
        try:
            api = Kernel32Processes()
        except (OSError, AttributeError):
            return False
        return process_running(pid, api)
