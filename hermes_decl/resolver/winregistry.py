"""Where the Windows registry reader used to live; it is in ``hermes_decl.hosts.live.windows``."""

from __future__ import annotations

from hermes_decl.hosts.live.windows import (
    DISPLAY_CLASS_KEY,
    MAX_VALUE_CHARS,
    UNINSTALL_KEY,
    HandleT,
    RegistryApi,
    read_display_device_ids,
    read_uninstall_entries,
)
from hermes_decl.hosts.protocol import MAX_SUBKEYS, Listing, UninstallEntries, UninstallEntry

__all__ = [
    "DISPLAY_CLASS_KEY",
    "MAX_SUBKEYS",
    "MAX_VALUE_CHARS",
    "UNINSTALL_KEY",
    "HandleT",
    "Listing",
    "RegistryApi",
    "UninstallEntries",
    "UninstallEntry",
    "read_display_device_ids",
    "read_uninstall_entries",
]
