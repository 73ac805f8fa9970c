"""Where PATH lookup used to live; it is in ``hermes_decl.hosts.pathsearch``."""

from __future__ import annotations

from hermes_decl.hosts.pathsearch import (
    DEFAULT_PATHEXT,
    MAX_PATH_ENTRIES,
    MAX_PATHEXT_ENTRIES,
    find_in_folder,
    search_path,
)
from hermes_decl.models import OsFamily
from hermes_decl.models.rules import device_segment, windows_device_name

__all__ = [
    "DEFAULT_PATHEXT",
    "MAX_PATHEXT_ENTRIES",
    "MAX_PATH_ENTRIES",
    "OsFamily",
    "device_segment",
    "find_in_folder",
    "search_path",
    "windows_device_name",
]
