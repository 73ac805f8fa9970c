"""This module moved to ``hermes_decl.hosts.machine``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.machine import (
    ARCHITECTURES,
    IMAGE_FILE_MACHINES,
    MAX_MACHINE_CHARS,
    ArchitectureApi,
    LiveArchitecture,
    native_machine,
    normalise_machine,
)

__all__ = [
    "ARCHITECTURES",
    "IMAGE_FILE_MACHINES",
    "MAX_MACHINE_CHARS",
    "ArchitectureApi",
    "LiveArchitecture",
    "native_machine",
    "normalise_machine",
]
