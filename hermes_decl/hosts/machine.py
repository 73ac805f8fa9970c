"""The machine's CPU architecture, seen through Rosetta on macOS and emulation on Windows.

``platform.machine()`` describes the process: an x86_64 Python translated by Rosetta on an
Apple-silicon Mac says ``x86_64``, and so does an x64 Python emulated on an arm64 Windows machine.
The machine is what decides which applications and GPUs it has, so ``native_machine`` asks the OS
what it translates or emulates: ``sysctl.proc_translated`` (``sysctlbyname``) on macOS, and the
native machine of ``IsWow64Process2`` on Windows. Both calls go through ``ArchitectureApi``, a
small seam that tests fill in and ``LiveArchitecture`` implements with ``ctypes`` (the C library
on macOS, kernel32 on Windows; never a driver library, never a process).
"""

from __future__ import annotations

import platform
import sys
from typing import Protocol

ARCHITECTURES = ("x86_64", "arm64")
"""The architectures every host names the same way."""

_ALIASES = {
    "x86_64": "x86_64",
    "amd64": "x86_64",
    "x64": "x86_64",
    "em64t": "x86_64",
    "intel64": "x86_64",
    "arm64": "arm64",
    "arm64e": "arm64",
    "aarch64": "arm64",
    "aarch64_be": "arm64",
}

IMAGE_FILE_MACHINES = {
    0x8664: "x86_64",  # IMAGE_FILE_MACHINE_AMD64
    0xAA64: "arm64",  # IMAGE_FILE_MACHINE_ARM64
    0x014C: "x86",  # IMAGE_FILE_MACHINE_I386
    0x01C4: "arm",  # IMAGE_FILE_MACHINE_ARMNT
}
"""Windows machine codes (``IsWow64Process2``'s native machine) and the names they stand for."""

MAX_MACHINE_CHARS = 64
"""A machine name longer than this is not one (``""``)."""


def normalise_machine(raw: object) -> str:
    """One name per architecture: ``AMD64`` and ``x64`` are ``x86_64``, ``aarch64`` is ``arm64``.

    Other names come back stripped and in lower case; anything that is not a short name is ``""``.
    """
    if not isinstance(raw, str) or len(raw) > MAX_MACHINE_CHARS:
        return ""
    name = raw.strip().lower()
    if not name.isascii() or not name.isprintable():
        return ""
    return _ALIASES.get(name, name)


class ArchitectureApi(Protocol):
    """What the OS says about the process and the machine; each answer may be None (unknown)."""

    def process_machine(self) -> str:
        """The process's architecture as ``platform.machine()`` reports it."""
        ...

    def proc_translated(self) -> int | None:
        """macOS ``sysctl.proc_translated``: 1 under Rosetta, 0 native; None elsewhere."""
        ...

    def wow64_native_machine(self) -> int | None:
        """The machine code ``IsWow64Process2`` gives as native on Windows; None elsewhere."""
        ...


def native_machine(api: ArchitectureApi) -> str:
    """The machine's architecture: what Rosetta or Windows emulation runs on, else the process's."""
    try:
        if api.proc_translated() == 1:
            return "arm64"  # Rosetta translates x86_64 code on Apple silicon only
        native = api.wow64_native_machine()
        if native is not None and native in IMAGE_FILE_MACHINES:
            return IMAGE_FILE_MACHINES[native]
        return normalise_machine(api.process_machine())
    except (OSError, ValueError, TypeError, AttributeError):
        return ""


class LiveArchitecture:
    """``ArchitectureApi`` for the machine this Python runs on."""

    def process_machine(self) -> str:
        """``platform.machine()``."""
        return platform.machine()

    def proc_translated(self) -> int | None:
        """``sysctl.proc_translated`` through ``sysctlbyname`` on macOS; None elsewhere."""
        if sys.platform == "darwin":
            return _darwin_sysctl_int(b"sysctl.proc_translated")
        else:
            return None

    def wow64_native_machine(self) -> int | None:
        """The native machine from ``IsWow64Process2`` on Windows; None elsewhere."""
        if sys.platform == "win32":
            return _windows_native_machine_code()
        else:
            return None


if sys.platform == "darwin":
    import ctypes

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


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    def _windows_native_machine_code() -> int | None:
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
