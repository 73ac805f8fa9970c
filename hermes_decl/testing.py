"""This module moved to ``hermes_decl.hosts.fake``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.fake import (
    DEFAULT_FILE_MTIME,
    DEFAULT_PROCESS_START,
    DEFAULT_USER,
    NVIDIA_PROC_VERSION,
    FakeHost,
)

__all__ = [
    "DEFAULT_FILE_MTIME",
    "DEFAULT_PROCESS_START",
    "DEFAULT_USER",
    "NVIDIA_PROC_VERSION",
    "FakeHost",
]
