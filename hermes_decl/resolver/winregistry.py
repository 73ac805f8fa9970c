"""This module moved to ``hermes_decl.hosts.live.windows``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.live.windows import (
    DISPLAY_CLASS_KEY,
    MAX_SUBKEYS,
    MAX_VALUE_CHARS,
    UNINSTALL_KEY,
    HandleT,
    RegistryApi,
    read_display_device_ids,
    read_uninstall_entries,
)

__all__ = [
    "DISPLAY_CLASS_KEY",
    "MAX_SUBKEYS",
    "MAX_VALUE_CHARS",
    "UNINSTALL_KEY",
    "HandleT",
    "RegistryApi",
    "read_display_device_ids",
    "read_uninstall_entries",
]
