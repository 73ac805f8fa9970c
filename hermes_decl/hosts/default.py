"""What ``host=None`` means: the one place where no host given becomes a machine.

Every caller that was given no host asks ``default_host()``, so what "no host" means is decided
in that one function: the host chosen with ``use_host`` in this thread or asyncio task, else the
process's one live host. The choice is a context variable, so a thread or task sees only its own
(a task created inside ``use_host`` inherits it, as asyncio copies the context).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hermes_decl.hosts.live.host import LiveHost
    from hermes_decl.hosts.protocol import Host

__all__ = ["default_host", "host_or_default", "use_host"]

_chosen: ContextVar[Host | None] = ContextVar("hermes_decl_host", default=None)

_live_host_lock = threading.Lock()
_live_host: LiveHost | None = None


def default_host() -> Host:
    """The host ``host=None`` stands for: the one ``use_host`` chose here, else the process's
    one live host, created on first use.

    Sharing one object lets per-host caches such as ``gpu_class``'s serve every caller.
    """
    chosen = _chosen.get()
    return _the_live_host() if chosen is None else chosen


@contextmanager
def use_host(host: Host) -> Iterator[Host]:
    """Make every ``host=None`` path in this thread or task use ``host`` for the ``with`` block.

    For tests and tools: ``FakeHost`` facts (its GPU included) then apply everywhere, with no
    patching. Choices nest; an explicit ``host=`` still wins.
    """
    if host is None:
        raise TypeError("use_host needs a host (got None)")
    token = _chosen.set(host)
    try:
        yield host
    finally:
        _chosen.reset(token)


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
