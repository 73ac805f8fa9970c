"""This module moved to ``hermes_decl.hosts.os_version``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.os_version import (
    MACOS_COMPATIBILITY_VERSION,
    MAX_SYSTEM_VERSION_BYTES,
    SYSTEM_VERSION_PLIST,
    FileReader,
    live_windows_version,
    macos_version,
    product_version,
    windows_version_text,
)

__all__ = [
    "MACOS_COMPATIBILITY_VERSION",
    "MAX_SYSTEM_VERSION_BYTES",
    "SYSTEM_VERSION_PLIST",
    "FileReader",
    "live_windows_version",
    "macos_version",
    "product_version",
    "windows_version_text",
]
