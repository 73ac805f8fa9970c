"""This module moved to ``hermes_decl.hosts.live.linux``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.live.linux import (
    MAX_FIELD_DIGITS,
    MAX_PROC_FILE_BYTES,
    effective_uid,
    linux_process_info,
    start_ticks,
    uptime,
)

__all__ = [
    "MAX_FIELD_DIGITS",
    "MAX_PROC_FILE_BYTES",
    "effective_uid",
    "linux_process_info",
    "start_ticks",
    "uptime",
]
