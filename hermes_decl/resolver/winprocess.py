"""This module moved to ``hermes_decl.hosts.live._windows_api``; its names are re-exported here."""

from __future__ import annotations

import sys

from hermes_decl.hosts.live._windows_api import (
    ERROR_ACCESS_DENIED,
    FILETIME_EPOCH,
    MAX_SID_CHARS,
    PROCESS_QUERY_LIMITED_INFORMATION,
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

if sys.platform == "win32":
    from hermes_decl.hosts.live._windows_api import Kernel32Processes as Kernel32Processes
    from hermes_decl.hosts.live._windows_api import live_process_api as live_process_api
    from hermes_decl.hosts.live._windows_api import windows_pid_exists as windows_pid_exists

__all__ = [
    "ERROR_ACCESS_DENIED",
    "FILETIME_EPOCH",
    "MAX_SID_CHARS",
    "PROCESS_QUERY_LIMITED_INFORMATION",
    "STILL_ACTIVE",
    "HandleT",
    "ProcessApi",
    "ProcessFactsApi",
    "filetime_to_epoch",
    "process_running",
    "windows_interactive_session",
    "windows_own_process",
    "windows_process_info",
]
