"""Where the OS-version readers used to live: ``hermes_decl.hosts.os_version`` and the live host."""

from __future__ import annotations

from hermes_decl.hosts.live.windows import live_windows_version
from hermes_decl.hosts.os_version import (
    MACOS_COMPATIBILITY_VERSION,
    MAX_SYSTEM_VERSION_BYTES,
    SYSTEM_VERSION_PLIST,
    FileReader,
    macos_version,
    product_version,
    windows_version_text,
)
from hermes_decl.resolver.readers import plist_string

__all__ = [
    "MACOS_COMPATIBILITY_VERSION",
    "MAX_SYSTEM_VERSION_BYTES",
    "SYSTEM_VERSION_PLIST",
    "FileReader",
    "live_windows_version",
    "macos_version",
    "plist_string",
    "product_version",
    "windows_version_text",
]
