"""Whether this machine can say who holds a listening socket, which the probe must prove before
it sends a token; tests of the probe against real loopback servers on the live host need it.

Wine 8's ``GetExtendedTcpTable`` names no owning process (it answers pid 0), so there no
listener can be proven and every live probe is refused unsent (``unverified_listener``): those
tests skip there, saying so. ``tests/test_listener.py`` tests the refusal itself everywhere.
"""

from __future__ import annotations

import functools
import os
import socket

import pytest

from hermes_decl.resolver.live_host import LiveHost

WHY_NOT = (
    "this Windows (Wine) names no process holding a listening socket (GetExtendedTcpTable "
    "answers pid 0), so no live listener can be proven and the probe never sends"
)


@functools.cache
def listeners_provable() -> bool:
    """Whether the live host names this process as the holder of a socket it listens on."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        found = LiveHost().tcp_listeners("127.0.0.1", port)
    if not found:
        return False
    return all(listener.pids is not None and os.getpid() in listener.pids for listener in found)


@pytest.fixture
def live_listener_proof() -> None:
    """Skips a test that probes a real server on the live host where no listener is provable."""
    if not listeners_provable():
        pytest.skip(WHY_NOT)
