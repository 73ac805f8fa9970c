"""This module moved to ``hermes_decl.hosts.snapshot``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.snapshot import (
    HostSnapshot,
    SnapshotBundle,
    SnapshotFile,
    SnapshotPciDevice,
    SnapshotProcess,
    SnapshotUninstallEntry,
    host_from_snapshot,
    load_snapshot_file,
)

__all__ = [
    "HostSnapshot",
    "SnapshotBundle",
    "SnapshotFile",
    "SnapshotPciDevice",
    "SnapshotProcess",
    "SnapshotUninstallEntry",
    "host_from_snapshot",
    "load_snapshot_file",
]
