"""The host seam's old address: the protocol and its values live in ``hermes_decl.hosts.protocol``.

``LiveHost`` and ``default_host`` can still be imported from here: they are loaded on first
use, so importing the protocol never loads an implementation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hermes_decl.hosts.protocol import (
    Host,
    HostDrives,
    HostEnvironment,
    HostFiles,
    HostHardware,
    HostProcesses,
    HostRegistry,
    Listing,
    ProcessInfo,
    UninstallEntries,
    UninstallEntry,
)

if TYPE_CHECKING:
    from hermes_decl.hosts.default import default_host, use_host
    from hermes_decl.hosts.live.host import LiveHost

__all__ = [
    "Host",
    "HostDrives",
    "HostEnvironment",
    "HostFiles",
    "HostHardware",
    "HostProcesses",
    "HostRegistry",
    "Listing",
    "LiveHost",
    "ProcessInfo",
    "UninstallEntries",
    "UninstallEntry",
    "default_host",
    "use_host",
]


def __getattr__(name: str) -> Any:
    """Load the live host's names from their own modules on first use."""
    if name == "LiveHost":
        from hermes_decl.hosts.live.host import LiveHost

        return LiveHost
    if name in ("default_host", "use_host"):
        from hermes_decl.hosts import default

        return getattr(default, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
