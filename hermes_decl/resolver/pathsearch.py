"""This module moved to ``hermes_decl.hosts.pathsearch``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.pathsearch import (
    DEFAULT_PATHEXT,
    MAX_PATH_ENTRIES,
    MAX_PATHEXT_ENTRIES,
    find_in_folder,
    search_path,
)

__all__ = [
    "DEFAULT_PATHEXT",
    "MAX_PATHEXT_ENTRIES",
    "MAX_PATH_ENTRIES",
    "find_in_folder",
    "search_path",
]
