"""Pausing the cyclic garbage collector while a bounded document is read and parsed."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused_collection() -> Iterator[None]:
    """Pause the cyclic garbage collector for a document's reading and parsing, then restore it.

    Reading and parsing allocate a few objects per node and per server, nearly all alive until
    the declarations are built: a collection in between frees nothing, yet on a large file the
    collector's passes cost as much as the work itself and grow faster than the file. The work
    stays bounded by ``MAX_BYTES`` and the alias budget; the collector is enabled again only if
    it was enabled before, so a caller that paused it keeps it paused.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
