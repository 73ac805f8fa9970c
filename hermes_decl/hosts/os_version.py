"""The operating system's own version, for ``min_os_version`` (language 1.1).

macOS keeps it as ``ProductVersion`` in ``/System/Library/CoreServices/SystemVersion.plist``,
read through the host (so a fixture tree or a fake Mac answers the same way). macOS shows a
program built for an old SDK the compatibility answer ``10.16`` instead of the real version; no
release ever carried that number, so it counts as unknown. Windows reports its real version
through ``RtlGetVersion``: ``GetVersionEx`` and ``platform.version()`` can be shimmed to an older
one by the application's compatibility manifest, ``RtlGetVersion`` never is (the live call sits
in ``hosts.live._windows_api``). Linux distributions share no OS version to compare against, so
Linux has none. Unknown means ``None``, which a ``min_os_version`` counts as met.
"""

from __future__ import annotations

from typing import Protocol

from hermes_decl.resolver.readers import plist_string

SYSTEM_VERSION_PLIST = "/System/Library/CoreServices/SystemVersion.plist"
MAX_SYSTEM_VERSION_BYTES = 64 * 1024
"""At most this much of ``SystemVersion.plist`` is read (the real file is under a kilobyte)."""

MACOS_COMPATIBILITY_VERSION = "10.16"
"""What macOS 11 and later tell a program built for an older SDK; never a real release."""


class FileReader(Protocol):
    """The one host method reading the macOS version needs."""

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None: ...


def product_version(data: bytes) -> str | None:
    """``ProductVersion`` of ``SystemVersion.plist``; None when absent or the compatibility one."""
    version = plist_string(data, ("ProductVersion",))
    return None if version == MACOS_COMPATIBILITY_VERSION else version


def macos_version(host: FileReader) -> str | None:
    """The macOS version, read from ``SystemVersion.plist`` through ``host``; None when unknown."""
    data = host.read_file(SYSTEM_VERSION_PLIST, MAX_SYSTEM_VERSION_BYTES)
    return product_version(data) if data is not None else None


def windows_version_text(major: int, minor: int, build: int) -> str:
    """The version as ``min_os_version`` writes it: ``10.0.19045``."""
    return f"{major}.{minor}.{build}"
