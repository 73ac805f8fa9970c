"""The host seam moved to ``hermes_decl.hosts.protocol``; its names are re-exported here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_decl.hosts.protocol import (
    Host,
    Listing,
    ProcessInfo,
    UninstallEntries,
    UninstallEntry,
)
from hermes_decl.hosts.protocol import __getattr__ as _load_implementation

if TYPE_CHECKING:
    from hermes_decl.hosts.protocol import LiveHost, default_host

__all__ = [
    "Host",
    "Listing",
    "LiveHost",
    "ProcessInfo",
    "UninstallEntries",
    "UninstallEntry",
    "default_host",
]


def __getattr__(name: str) -> Any:
    """Load the live host from its own module on first use."""
    return _load_implementation(name)
