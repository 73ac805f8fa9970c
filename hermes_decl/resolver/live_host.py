"""The live host's old address: ``LiveHost`` is in ``hermes_decl.hosts.live``, ``default_host``
in ``hermes_decl.hosts.default``."""

from __future__ import annotations

from hermes_decl._regular_file import open_regular
from hermes_decl.hosts.default import default_host
from hermes_decl.hosts.desktop_session import desktop_session_from_env
from hermes_decl.hosts.live.file_primitives import (
    READ_CHUNK,
    file_modified,
    is_absolute_here,
    list_dir_names,
    path_is_dir,
    path_is_file,
    read_link,
    read_regular_file,
)
from hermes_decl.hosts.live.host import (
    LiveArchitecture,
    LiveHost,
    current_os_family,
    live_interactive_session,
    live_own_process,
    live_process_info,
    os_family_of,
    pid_exists,
)
from hermes_decl.hosts.live.posix import posix_pid_exists
from hermes_decl.hosts.machine import ArchitectureApi, native_machine
from hermes_decl.hosts.os_version import macos_version
from hermes_decl.hosts.pathsearch import search_path
from hermes_decl.hosts.protocol import MAX_DIR_ENTRIES, MAX_PID, Listing, ProcessInfo, valid_pid
from hermes_decl.models import OS_FAMILIES, OsFamily
from hermes_decl.resolver.os_version import live_windows_version

__all__ = [
    "MAX_DIR_ENTRIES",
    "MAX_PID",
    "OS_FAMILIES",
    "READ_CHUNK",
    "ArchitectureApi",
    "Listing",
    "LiveArchitecture",
    "LiveHost",
    "OsFamily",
    "ProcessInfo",
    "current_os_family",
    "default_host",
    "desktop_session_from_env",
    "file_modified",
    "is_absolute_here",
    "list_dir_names",
    "live_interactive_session",
    "live_own_process",
    "live_process_info",
    "live_windows_version",
    "macos_version",
    "native_machine",
    "open_regular",
    "os_family_of",
    "path_is_dir",
    "path_is_file",
    "pid_exists",
    "posix_pid_exists",
    "read_link",
    "read_regular_file",
    "search_path",
    "valid_pid",
]
