"""Availability verdicts a gate may reuse for a while, never past a registry change (SPEC 12).

Only the verdict is kept, never the connection: a gate asks its connection check on every call.
An entry belongs to one server name, one declaration object and one host; it is dropped when it
is older than the gate's ``max_age``, at once when the registry changes that name, and on
``refresh``.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from hermes_decl.hosts.protocol import Host
from hermes_decl.models import Declaration
from hermes_decl.registry import RegistryChange, subscribe


@dataclass(frozen=True)
class _Verdict:
    decl: Declaration
    host: Host
    offerable: bool
    at: float


_lock = threading.Lock()
_verdicts: dict[tuple[str, int], _Verdict] = {}
_listening = False


def checked_max_age(max_age: float | None) -> float | None:
    """``max_age`` as given, when it is None or a finite number of seconds, at least 0."""
    if max_age is None:
        return None
    if (
        isinstance(max_age, bool)
        or not isinstance(max_age, (int, float))
        or not math.isfinite(max_age)
        or max_age < 0
    ):
        raise ValueError(
            f"max_age must be None or a finite number of seconds >= 0 (got {max_age!r})"
        )
    return float(max_age)


def cached(name: str, decl: Declaration, host: Host, max_age: float) -> bool | None:
    """The verdict kept for this name, declaration and host, when it is young enough."""
    with _lock:
        kept = _verdicts.get((name, id(host)))
    if kept is None or kept.decl is not decl or kept.host is not host:
        return None
    if time.monotonic() - kept.at > max_age:
        return None
    return kept.offerable


def keep(name: str, decl: Declaration, host: Host, offerable: bool) -> None:
    """Remember a verdict just reached, listening to the registry from the first one on."""
    global _listening
    with _lock:
        _verdicts[(name, id(host))] = _Verdict(decl, host, offerable, time.monotonic())
        listen = not _listening
        _listening = True
    if listen:
        subscribe(_forget_changed)


def refresh(name: str | None = None) -> None:
    """Drop the kept verdicts of one server name, or of every server."""
    with _lock:
        if name is None:
            _verdicts.clear()
        else:
            for key in [key for key in _verdicts if key[0] == name]:
                del _verdicts[key]


def _forget_changed(change: RegistryChange) -> None:
    if change.action == "clear":
        refresh()
        return
    for name in change.names:
        refresh(name)
