"""Whether what listens at an endpoint is the application: proven before the token is sent.

A genuine runtime file names a loopback port, but any user's process may hold that port (the
application not listening yet, crashed, or a squatter). So once a probe is connected, and before
a byte is sent, every socket listening where that connection could have gone (the address itself
and the wildcards, from ``Host.tcp_listeners``) must belong to this host's user and, where the
OS tells which processes hold it, one of them must be the runtime file's process or one of its
descendants (``Host.process_parent``, at most ``MAX_ANCESTRY`` steps up). Anything unproven, an
OS that does not tell included, is not the application: the token is never sent on a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hermes_decl._logging import get_logger
from hermes_decl.hosts.protocol import MAX_ANCESTRY, HostProcesses, HostSockets

__all__ = ["ListenerCheck", "ListenerHost", "descends_from", "listener_check", "listener_problem"]

logger = get_logger("hermes_decl.resolver.probe")  # the probe's logger, which hosts configure

ListenerCheck = Callable[[str, int], bool]
"""Asked by a probe driver once connected to an address and port: may the request be sent?"""


class ListenerHost(HostSockets, HostProcesses, Protocol):
    """The host facets the listener proof asks: sockets, and processes with their parents."""


def descends_from(host: HostProcesses, pid: int, ancestor: int) -> bool:
    """Whether process ``pid`` is ``ancestor`` or one of its descendants."""
    current: int | None = pid
    for _ in range(MAX_ANCESTRY):
        if current is None:
            return False
        if current == ancestor:
            return True
        parent = host.process_parent(current)
        current = None if parent == current else parent
    return False


def listener_problem(host: ListenerHost, address: str, port: int, pid: int | None) -> str | None:
    """Why what listens at ``address`` and ``port`` is not proven to be process ``pid`` (or its
    descendant) of this host's user; None when it is. With no ``pid`` (an endpoint not read
    from a runtime file) only the owner is proven."""
    own = host.own_process().user
    if own is None:
        return "this host's own user is unknown"
    listeners = host.tcp_listeners(address, port)
    if listeners is None:
        return "the system does not tell who listens there"
    if not listeners:
        return "no listening socket of this user's can be seen there"
    for listener in listeners:
        if listener.user is None:
            return "the owner of a socket listening there cannot be read"
        if listener.user != own:
            return "another user's socket listens there"
        if pid is None or listener.pids is None:
            continue
        if not any(descends_from(host, holder, pid) for holder in listener.pids):
            return f"a socket listening there is held by no process of {pid}'s own"
    return None


def listener_check(host: ListenerHost, pid: int | None) -> ListenerCheck:
    """The check a probe driver asks after connecting: the listener proven (see the module)."""

    def proven(address: str, port: int) -> bool:
        problem = listener_problem(host, address, port, pid)
        if problem is not None:
            logger.debug("listener at %s port %d not proven: %s", address, port, problem)
        return problem is None

    return proven
