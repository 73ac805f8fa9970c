"""The live host, the machine this Python runs on; each OS's code is in its own module here."""

from __future__ import annotations

from hermes_decl.hosts.live.host import (
    LiveArchitecture,
    LiveHost,
    current_os_family,
    os_family_of,
)

__all__ = ["LiveArchitecture", "LiveHost", "current_os_family", "os_family_of"]
