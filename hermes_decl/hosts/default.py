"""What ``host=None`` means: the one place where no host given becomes the live machine.

Every caller that was given no host asks ``default_host()``, so what "no host" means is decided
in that one function; today it is always the process's one live host.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hermes_decl.hosts.live.host import LiveHost
    from hermes_decl.hosts.protocol import Host

__all__ = ["default_host", "host_or_default"]

_live_host_lock = threading.Lock()
_live_host: LiveHost | None = None


def default_host() -> Host:
    """The host ``host=None`` stands for: the process's one live host, created on first use.

    Sharing one object lets per-host caches such as ``gpu_class``'s serve every caller.
    """
    return _the_live_host()


def host_or_default(host: Host | None) -> Host:
    """``host`` itself, or ``default_host()`` when none is given."""
    return default_host() if host is None else host


def _the_live_host() -> LiveHost:
    """The one ``LiveHost`` of this process; the live code is imported only when first needed."""
    global _live_host
    with _live_host_lock:
        if _live_host is None:
            from hermes_decl.hosts.live.host import LiveHost

            _live_host = LiveHost()
        return _live_host
