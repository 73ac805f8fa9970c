"""Test helpers for host integrators: ``FakeHost``, an in-memory machine (``hosts.fake``)."""

from __future__ import annotations

from hermes_decl.hosts._pe_image import build_pe
from hermes_decl.hosts.desktop_session import desktop_session_from_env
from hermes_decl.hosts.fake import (
    DEFAULT_FILE_MTIME,
    DEFAULT_PROCESS_START,
    DEFAULT_USER,
    NVIDIA_PROC_VERSION,
    FakeHost,
)
from hermes_decl.hosts.machine import normalise_machine
from hermes_decl.hosts.os_version import macos_version
from hermes_decl.hosts.pathsearch import search_path
from hermes_decl.hosts.protocol import (
    MAX_DIR_ENTRIES,
    MAX_SUBKEYS,
    Listing,
    ProcessInfo,
    UninstallEntries,
    UninstallEntry,
)
from hermes_decl.models import OsFamily

__all__ = [
    "DEFAULT_FILE_MTIME",
    "DEFAULT_PROCESS_START",
    "DEFAULT_USER",
    "MAX_DIR_ENTRIES",
    "MAX_SUBKEYS",
    "NVIDIA_PROC_VERSION",
    "FakeHost",
    "Listing",
    "OsFamily",
    "ProcessInfo",
    "UninstallEntries",
    "UninstallEntry",
    "build_pe",
    "desktop_session_from_env",
    "macos_version",
    "normalise_machine",
    "search_path",
]
