"""Real processes for the live-host tests, each stopped by the test and by itself."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from tests.process_starts import popen_started

NOBODY_UID = 65534
"""The unprivileged user a root test starts its foreign process as."""

LIFETIME_S = 30
"""A started process exits by itself after this many seconds."""


@contextmanager
def another_users_process() -> Iterator[int]:
    """The id of a live process of another user than this one.

    Run as root, a ``sleep`` started as ``nobody``; otherwise ``init`` (process 1), root's.
    (``sleep`` rather than this Python, which may sit where ``nobody`` cannot read.)
    """
    if sys.platform == "win32":
        raise NotImplementedError("POSIX only")
    else:
        if os.geteuid() != 0:
            yield 1
            return
        sleep = shutil.which("sleep")
        assert sleep is not None, "a POSIX machine has sleep"
        child = popen_started(
            [sleep, str(LIFETIME_S)],
            user=NOBODY_UID,
            group=NOBODY_UID,
            extra_groups=[],
        )
        try:
            yield child.pid
        finally:
            child.kill()
            child.wait(10)
