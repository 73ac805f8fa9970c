"""Host snapshots, machines described in YAML or JSON (now ``hermes_decl.hosts.snapshot``)."""

from __future__ import annotations

from hermes_decl.errors import DeclarationError, Issue, issues_from
from hermes_decl.hosts.fake import DEFAULT_PROCESS_START, DEFAULT_USER, FakeHost
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
from hermes_decl.loader import read_document_file
from hermes_decl.models.app_block import one_of
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, OsFamily, fail

__all__ = [
    "DEFAULT_PROCESS_START",
    "DEFAULT_USER",
    "OS_FAMILIES",
    "DeclarationError",
    "FakeHost",
    "FrozenModel",
    "HostSnapshot",
    "Issue",
    "OsFamily",
    "SnapshotBundle",
    "SnapshotFile",
    "SnapshotPciDevice",
    "SnapshotProcess",
    "SnapshotUninstallEntry",
    "fail",
    "host_from_snapshot",
    "issues_from",
    "load_snapshot_file",
    "one_of",
    "read_document_file",
]
