"""The machine-architecture rules' old address: ``hermes_decl.hosts.machine`` and the live host."""

from __future__ import annotations

from hermes_decl.hosts.live.host import LiveArchitecture
from hermes_decl.hosts.machine import (
    ARCHITECTURES,
    IMAGE_FILE_MACHINES,
    MAX_MACHINE_CHARS,
    ArchitectureApi,
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
