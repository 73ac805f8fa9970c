"""Where the ``/proc`` readers used to live; they are in ``hermes_decl.hosts.live.linux``."""

from __future__ import annotations

from hermes_decl.hosts.live.linux import (
    MAX_FIELD_DIGITS,
    MAX_PROC_FILE_BYTES,
    effective_uid,
    linux_process_info,
    start_ticks,
    uptime,
)
from hermes_decl.hosts.protocol import ProcessInfo

__all__ = [
    "MAX_FIELD_DIGITS",
    "MAX_PROC_FILE_BYTES",
    "ProcessInfo",
    "effective_uid",
    "linux_process_info",
    "start_ticks",
    "uptime",
]
