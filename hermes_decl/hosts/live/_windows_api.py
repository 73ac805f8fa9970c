"""The Windows API seam: kernel32, advapi32 and ntdll through ``ctypes``, with explicit types.

``Kernel32Processes`` answers ``windows.ProcessFactsApi`` for the real machine; ``RtlGetVersion``
gives the real OS version (no compatibility shim rewrites it), ``IsWow64Process2`` the native
machine and ``GetDriveTypeW`` whether a drive letter is a network drive. Everything here but the
one constant is defined on Windows only; the decisions over these calls live in ``windows``,
which tests run on every OS. Nothing here loads a driver library or starts a process.
"""

from __future__ import annotations

import sys

from hermes_decl.hosts.os_version import windows_version_text

PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
"""The least access right that lets ``GetExitCodeProcess`` read a process."""


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

    SE_FILE_OBJECT = 1
    """``SE_OBJECT_TYPE`` of a file handle."""

    OWNER_SECURITY_INFORMATION = 0x00000001
    """Ask ``GetSecurityInfo`` for the owner only."""

    def descriptor_owner_sid(fd: int) -> str | None:
        """The owner SID of an open file descriptor (``GetSecurityInfo``), or None on failure."""
        try:
            import msvcrt

            handle = msvcrt.get_osfhandle(fd)
            advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            get_security_info = advapi32.GetSecurityInfo
            get_security_info.argtypes = (
                wintypes.HANDLE,
                ctypes.c_int,
                wintypes.DWORD,
                ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_void_p),
                ctypes.POINTER(ctypes.c_void_p),
            )
            get_security_info.restype = wintypes.DWORD
            sid_string = advapi32.ConvertSidToStringSidW
            sid_string.argtypes = (ctypes.c_void_p, ctypes.POINTER(wintypes.LPWSTR))
            sid_string.restype = wintypes.BOOL
            local_free = kernel32.LocalFree
            local_free.argtypes = (wintypes.HLOCAL,)
            local_free.restype = wintypes.HLOCAL
            owner, descriptor = ctypes.c_void_p(), ctypes.c_void_p()
            status = get_security_info(
                handle,
                SE_FILE_OBJECT,
                OWNER_SECURITY_INFORMATION,
                ctypes.byref(owner),
                None,
                None,
                None,
                ctypes.byref(descriptor),
            )
            if status != 0 or not owner.value:
                return None
            try:
                text = wintypes.LPWSTR()
                if not sid_string(owner, ctypes.byref(text)):
                    return None
                try:
                    return text.value
                finally:
                    local_free(ctypes.cast(text, wintypes.HLOCAL))
            finally:
                local_free(ctypes.cast(descriptor, wintypes.HLOCAL))
        except (OSError, AttributeError, ValueError, TypeError):
            return None

    def live_process_api() -> Kernel32Processes | None:
        """The real kernel32 and advapi32, or None when they cannot be loaded."""
        try:
            return Kernel32Processes()
        except (OSError, AttributeError):
            return None

    class _OsVersionInfo(ctypes.Structure):
        """``RTL_OSVERSIONINFOW``."""

        _fields_ = (
            ("dwOSVersionInfoSize", wintypes.DWORD),
            ("dwMajorVersion", wintypes.DWORD),
            ("dwMinorVersion", wintypes.DWORD),
            ("dwBuildNumber", wintypes.DWORD),
            ("dwPlatformId", wintypes.DWORD),
            ("szCSDVersion", wintypes.WCHAR * 128),
        )

    def rtl_get_version() -> str | None:
        """``RtlGetVersion`` from ntdll, which no compatibility shim rewrites."""
        try:
            ntdll = ctypes.WinDLL("ntdll")
            rtl_get_version = ntdll.RtlGetVersion
            rtl_get_version.argtypes = (ctypes.POINTER(_OsVersionInfo),)
            rtl_get_version.restype = ctypes.c_long
            info = _OsVersionInfo()
            info.dwOSVersionInfoSize = ctypes.sizeof(info)
            if rtl_get_version(ctypes.byref(info)) != 0:  # an NTSTATUS other than success
                return None
            return windows_version_text(
                int(info.dwMajorVersion), int(info.dwMinorVersion), int(info.dwBuildNumber)
            )
        except (OSError, AttributeError, ValueError):
            return None

    def get_drive_type(root: str) -> int | None:
        """``GetDriveTypeW`` of a drive root (``Z:\\``); it reads the drive table, not the drive."""
        try:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            drive_type = kernel32.GetDriveTypeW
            drive_type.argtypes = (wintypes.LPCWSTR,)
            drive_type.restype = wintypes.UINT
            return int(drive_type(root))
        except (OSError, AttributeError, ValueError):
            return None

    def windows_native_machine_code() -> int | None:
        """``IsWow64Process2``'s native machine; None before Windows 10 1709 or on failure."""
        try:
            kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
            is_wow64_process2 = kernel32.IsWow64Process2
            is_wow64_process2.argtypes = (
                wintypes.HANDLE,
                ctypes.POINTER(wintypes.USHORT),
                ctypes.POINTER(wintypes.USHORT),
            )
            is_wow64_process2.restype = wintypes.BOOL
            current_process = kernel32.GetCurrentProcess
            current_process.argtypes = ()
            current_process.restype = wintypes.HANDLE
            process, native = wintypes.USHORT(0), wintypes.USHORT(0)
            if not is_wow64_process2(
                current_process(), ctypes.byref(process), ctypes.byref(native)
            ):
                return None
            return int(native.value)
        except (OSError, AttributeError, ValueError):
            return None
