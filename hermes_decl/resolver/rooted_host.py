"""``RootedHost``, a directory tree seen as a machine; it lives in ``hermes_decl.hosts.rooted``."""

from __future__ import annotations

from hermes_decl.hosts.desktop_session import desktop_session_from_env
from hermes_decl.hosts.live.file_primitives import (
    file_modified,
    list_dir_names,
    path_is_dir,
    path_is_file,
    read_link,
    read_regular_file,
)
from hermes_decl.hosts.machine import normalise_machine
from hermes_decl.hosts.os_version import macos_version
from hermes_decl.hosts.pathsearch import search_path
from hermes_decl.hosts.protocol import Listing, ProcessInfo, UninstallEntries, UninstallEntry
from hermes_decl.hosts.rooted import MAX_PASSWD_BYTES, MAX_SYMLINK_HOPS, ROOTED_USER, RootedHost
from hermes_decl.models import OsFamily

__all__ = [
    "MAX_PASSWD_BYTES",
    "MAX_SYMLINK_HOPS",
    "ROOTED_USER",
    "Listing",
    "OsFamily",
    "ProcessInfo",
    "RootedHost",
    "UninstallEntries",
    "UninstallEntry",
    "desktop_session_from_env",
    "file_modified",
    "list_dir_names",
    "macos_version",
    "normalise_machine",
    "path_is_dir",
    "path_is_file",
    "read_link",
    "read_regular_file",
    "search_path",
]
