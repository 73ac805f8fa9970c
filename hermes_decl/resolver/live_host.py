"""This module moved to ``hermes_decl.hosts.live.host``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.live.host import (
    MAX_PID,
    READ_CHUNK,
    LiveHost,
    current_os_family,
    default_host,
    file_modified,
    is_absolute_here,
    list_dir_names,
    live_interactive_session,
    live_own_process,
    live_process_info,
    os_family_of,
    path_is_dir,
    path_is_file,
    pid_exists,
    posix_pid_exists,
    read_link,
    read_regular_file,
    valid_pid,
)

__all__ = [
    "MAX_PID",
    "READ_CHUNK",
    "LiveHost",
    "current_os_family",
    "default_host",
    "file_modified",
    "is_absolute_here",
    "list_dir_names",
    "live_interactive_session",
    "live_own_process",
    "live_process_info",
    "os_family_of",
    "path_is_dir",
    "path_is_file",
    "pid_exists",
    "posix_pid_exists",
    "read_link",
    "read_regular_file",
    "valid_pid",
]
