"""Whether a Windows process id is alive, through a small kernel32-like seam so it runs on every OS.

``LiveHost`` uses ``Kernel32Processes`` (``OpenProcess`` with ``PROCESS_QUERY_LIMITED_INFORMATION``
and ``GetExitCodeProcess`` through ``ctypes``) on Windows; tests pass a fake object with the same
four methods. The only module besides ``winregistry`` that talks to Windows APIs; it loads
``kernel32`` only, never a driver library, and starts no process.
"""

from __future__ import annotations

import sys
from typing import Protocol, TypeVar

PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
"""The least access right that lets ``GetExitCodeProcess`` read a process."""

STILL_ACTIVE = 259
"""The exit code Windows reports for a process that has not exited."""

ERROR_ACCESS_DENIED = 5
"""``OpenProcess`` failed because the process belongs to a more privileged user: it exists."""

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


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    class Kernel32Processes:
        """``ProcessApi`` over the real kernel32, with explicit argument and result types."""

        def __init__(self) -> None:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            self._open = kernel32.OpenProcess
            self._open.argtypes = (wintypes.DWORD, wintypes.BOOL, wintypes.DWORD)
            self._open.restype = wintypes.HANDLE
            self._exit_code = kernel32.GetExitCodeProcess
            self._exit_code.argtypes = (wintypes.HANDLE, ctypes.POINTER(wintypes.DWORD))
            self._exit_code.restype = wintypes.BOOL
            self._close = kernel32.CloseHandle
            self._close.argtypes = (wintypes.HANDLE,)
            self._close.restype = wintypes.BOOL

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

    def windows_pid_exists(pid: int) -> bool:
        """Whether ``pid`` is alive on this Windows machine; never raises."""
        try:
            api = Kernel32Processes()
        except (OSError, AttributeError):
            return False
        return process_running(pid, api)
