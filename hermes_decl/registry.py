"""The process-wide registry of declarations by configured server name (SPEC 5).

Changes happen under a lock; subscribers are told after each change, outside the lock, so a
subscriber may read the registry (or change it) without deadlocking.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from hermes_decl.models import Declaration

ChangeAction = Literal["register", "unregister", "clear"]


@dataclass(frozen=True)
class RegistryChange:
    """What changed: a name registered or replaced, a name removed, or everything cleared."""

    action: ChangeAction
    name: str | None
    """The server name, or None for ``clear``."""


Subscriber = Callable[[RegistryChange], None]

_lock = threading.Lock()
_declarations: dict[str, Declaration] = {}
_subscribers: list[Subscriber] = []


def _notify(change: RegistryChange) -> None:
    with _lock:
        subscribers = tuple(_subscribers)
    for subscriber in subscribers:
        try:
            subscriber(change)
        except Exception:
            from hermes_decl._logging import get_logger  # only now: registering logs nothing

            get_logger().exception("a registry subscriber failed on %s", change)


def register(server_name: str, decl: Declaration) -> None:
    """Store ``decl`` under ``server_name``, replacing any earlier registration."""
    if not isinstance(server_name, str) or not server_name:
        raise TypeError(f"server_name must be a non-empty string (got {server_name!r})")
    if not isinstance(decl, Declaration):
        raise TypeError(f"decl must be a Declaration (got {type(decl).__name__})")
    with _lock:
        _declarations[server_name] = decl
    _notify(RegistryChange("register", server_name))


def unregister(server_name: str) -> bool:
    """Remove one registration; True when there was one."""
    with _lock:
        removed = _declarations.pop(server_name, None) is not None
    if removed:
        _notify(RegistryChange("unregister", server_name))
    return removed


def lookup(server_name: str) -> Declaration | None:
    """The declaration registered under ``server_name``, or None."""
    with _lock:
        return _declarations.get(server_name)


def registered() -> dict[str, Declaration]:
    """A snapshot of every registration."""
    with _lock:
        return dict(_declarations)


def clear() -> None:
    """Remove every registration (not a per-plugin unload)."""
    with _lock:
        had_any = bool(_declarations)
        _declarations.clear()
    if had_any:
        _notify(RegistryChange("clear", None))


def subscribe(subscriber: Subscriber) -> Callable[[], None]:
    """Call ``subscriber`` after every change; returns a function that ends the subscription."""
    with _lock:
        _subscribers.append(subscriber)

    def unsubscribe() -> None:
        with _lock:
            if subscriber in _subscribers:
                _subscribers.remove(subscriber)

    return unsubscribe
