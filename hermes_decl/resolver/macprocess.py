"""Where the macOS process checks used to live; they are in ``hermes_decl.hosts.live.macos``."""

from __future__ import annotations

import sys

from hermes_decl.hosts.live.macos import (
    BSD_INFO_SIZE,
    PROC_PIDTBSDINFO,
    SESSION_HAS_GRAPHIC_ACCESS,
    DarwinApi,
    darwin_interactive_session,
    darwin_process_info,
    parse_bsd_info,
)
from hermes_decl.hosts.protocol import ProcessInfo

if sys.platform == "darwin":
    from hermes_decl.hosts.live.macos import LibSystem as LibSystem
    from hermes_decl.hosts.live.macos import live_darwin_api as live_darwin_api

__all__ = [
    "BSD_INFO_SIZE",
    "PROC_PIDTBSDINFO",
    "SESSION_HAS_GRAPHIC_ACCESS",
    "DarwinApi",
    "ProcessInfo",
    "darwin_interactive_session",
    "darwin_process_info",
    "parse_bsd_info",
]
