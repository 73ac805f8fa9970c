"""Where the Windows process checks used to live; they are in ``hermes_decl.hosts.live.windows``."""

from __future__ import annotations

import sys

from hermes_decl.hosts.live._windows_api import PROCESS_QUERY_LIMITED_INFORMATION
from hermes_decl.hosts.live.windows import (
    ERROR_ACCESS_DENIED,
    FILETIME_EPOCH,
    MAX_SID_CHARS,
    STILL_ACTIVE,
    HandleT,
    ProcessApi,
    ProcessFactsApi,
    filetime_to_epoch,
    process_running,
    windows_interactive_session,
    windows_own_process,
    windows_process_info,
)
from hermes_decl.hosts.protocol import ProcessInfo

if sys.platform == "win32":
    from hermes_decl.hosts.live._windows_api import Kernel32Processes as Kernel32Processes
    from hermes_decl.hosts.live._windows_api import live_process_api as live_process_api
    from hermes_decl.hosts.live.windows import pid_exists

    windows_pid_exists = pid_exists

__all__ = [
    "ERROR_ACCESS_DENIED",
    "FILETIME_EPOCH",
    "MAX_SID_CHARS",
    "PROCESS_QUERY_LIMITED_INFORMATION",
    "STILL_ACTIVE",
    "HandleT",
    "ProcessApi",
    "ProcessFactsApi",
    "ProcessInfo",
    "filetime_to_epoch",
    "process_running",
    "windows_interactive_session",
    "windows_own_process",
    "windows_process_info",
]
