"""How every host names the machine's CPU architecture, and what the OS answers mean (pure).

``platform.machine()`` describes the process: an x86_64 Python translated by Rosetta on an
Apple-silicon Mac says ``x86_64``, and so does an x64 Python emulated on an arm64 Windows machine.
The machine is what decides which applications and GPUs it has, so ``native_machine`` asks the OS
what it translates or emulates: ``sysctl.proc_translated`` (``sysctlbyname``) on macOS, and the
native machine of ``IsWow64Process2`` on Windows. Both calls go through ``ArchitectureApi``, a
small seam that tests fill in and ``hosts.live.LiveArchitecture`` implements with ``ctypes`` (the
C library on macOS, kernel32 on Windows; never a driver library, never a process).
"""

from __future__ import annotations

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
