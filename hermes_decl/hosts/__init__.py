"""The host seam and every host: the protocol, the live machine, a rooted tree, an in-memory fake.

Importing this package loads the protocol only; each implementation is a module of its own
(``live``, ``rooted``, ``fake``) and ``default`` decides what ``host=None`` means.
"""

from __future__ import annotations

from hermes_decl.hosts.protocol import (
    MAX_ANCESTRY,
    MAX_DIR_ENTRIES,
    MAX_PID,
    MAX_SUBKEYS,
    FileRead,
    FolderFacts,
    Host,
    HostDrives,
    HostEnvironment,
    HostFiles,
    HostHardware,
    HostProcesses,
    HostRegistry,
    HostSockets,
    Listing,
    ProcessInfo,
    TcpListener,
    UninstallEntries,
    UninstallEntry,
    valid_pid,
)

__all__ = [
    "MAX_ANCESTRY",
    "MAX_DIR_ENTRIES",
    "MAX_PID",
    "MAX_SUBKEYS",
    "FileRead",
    "FolderFacts",
    "Host",
    "HostDrives",
    "HostEnvironment",
    "HostFiles",
    "HostHardware",
    "HostProcesses",
    "HostRegistry",
    "HostSockets",
    "Listing",
    "ProcessInfo",
    "TcpListener",
    "UninstallEntries",
    "UninstallEntry",
    "valid_pid",
]
