"""The process-wide registry of declarations by configured server name (SPEC 5, 12).

Each registration may have an owner (the plugin that declared it): a name owned by one owner is
never silently taken by another. Changes happen under a lock; subscribers are told after each
change, outside the lock, so a subscriber may read the registry (or change it) without
deadlocking.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from hermes_decl.models import Declaration

ChangeAction = Literal["register", "unregister", "clear"]

_NOTHING: Mapping[str, Declaration] = MappingProxyType({})


@dataclass(frozen=True)
class RegistryChange:
    """What changed: names registered or replaced, names removed, or everything cleared.

    One change is one notification: ``register_many`` and ``unregister_owner`` each make one,
    however many names they touch.
    """

    action: ChangeAction
    name: str | None
    """The server name when the change touched exactly one, else None (``clear``, batches)."""
    names: tuple[str, ...] = ()
    """Every server name the change touched, in the order given."""
    owner: str | None = None
    """The owner that made the change (None for an ownerless registration and for ``clear``)."""
    old: Mapping[str, Declaration] = field(default_factory=lambda: _NOTHING)
    """Each touched name's declaration before the change, for names that had one."""
    new: Mapping[str, Declaration] = field(default_factory=lambda: _NOTHING)
    """Each touched name's declaration after the change, for names that have one."""

    def __hash__(self) -> int:
        return hash((self.action, self.names, self.owner))


class RegistrationConflict(ValueError):
    """A server name is already registered by another owner; nothing was changed."""

    def __init__(self, name: str, owner: str | None, registered_by: str | None) -> None:
        self.name = name
        self.owner = owner
        self.registered_by = registered_by
        super().__init__(
            f"server {name!r} is already registered by {_owner_text(registered_by)}; "
            f"{_owner_text(owner)} cannot register it (unregister it first)"
        )


def _owner_text(owner: str | None) -> str:
    return "no owner" if owner is None else f"owner {owner!r}"


Subscriber = Callable[[RegistryChange], None]

_lock = threading.Lock()
_declarations: dict[str, Declaration] = {}
_owners: dict[str, str | None] = {}
_subscribers: list[Subscriber] = []


def _notify(change: RegistryChange) -> None:
    with _lock:
        subscribers = tuple(_subscribers)
    for subscriber in subscribers:
        try:
            subscriber(change)
        except Exception:
            from hermes_decl._logging import get_logger  # only now: registering logs nothing

            get_logger().exception(
                "a registry subscriber failed on %s of %s", change.action, ", ".join(change.names)
            )


def _checked(server_name: object, decl: object) -> tuple[str, Declaration]:
    if not isinstance(server_name, str) or not server_name:
        raise TypeError(f"server_name must be a non-empty string (got {server_name!r})")
    if not isinstance(decl, Declaration):
        raise TypeError(f"decl must be a Declaration (got {type(decl).__name__})")
    return server_name, decl


def _checked_owner(owner: object) -> str | None:
    if owner is not None and (not isinstance(owner, str) or not owner):
        raise TypeError(f"owner must be a non-empty string or None (got {owner!r})")
    return owner


def _change(
    action: ChangeAction,
    names: tuple[str, ...],
    owner: str | None,
    old: dict[str, Declaration],
    new: dict[str, Declaration],
) -> RegistryChange:
    return RegistryChange(
        action,
        names[0] if len(names) == 1 else None,
        names,
        owner,
        MappingProxyType(old),
        MappingProxyType(new),
    )


def _store(entries: Mapping[str, Declaration], owner: str | None) -> RegistryChange:
    """Store every entry under ``owner`` at once, or none when one name has another owner."""
    checked = dict(_checked(name, decl) for name, decl in entries.items())
    old: dict[str, Declaration] = {}
    with _lock:
        for name in checked:
            if name in _declarations and _owners[name] != owner:
                raise RegistrationConflict(name, owner, _owners[name])
        for name, decl in checked.items():
            replaced = _declarations.get(name)
            if replaced is not None:
                old[name] = replaced
            _declarations[name] = decl
            _owners[name] = owner
    return _change("register", tuple(checked), owner, old, checked)


def register(server_name: str, decl: Declaration, *, owner: str | None = None) -> None:
    """Store ``decl`` under ``server_name``, replacing an earlier registration of the same owner.

    A name registered by another owner (no owner counts as one) raises ``RegistrationConflict``
    and changes nothing.
    """
    change = _store({server_name: decl}, _checked_owner(owner))
    _notify(change)


def register_many(decls: Mapping[str, Declaration], *, owner: str | None) -> None:
    """Register every server of one plugin at once, with one notification.

    Atomic: when one name is registered by another owner, ``RegistrationConflict`` is raised and
    nothing is registered. An empty mapping changes nothing and notifies no one.
    """
    if not isinstance(decls, Mapping):
        raise TypeError(f"decls must be a mapping of server name to Declaration (got {decls!r})")
    if not decls:
        return
    change = _store(decls, _checked_owner(owner))
    _notify(change)


def unregister(server_name: str) -> bool:
    """Remove one registration, whoever owns it; True when there was one."""
    with _lock:
        removed = _declarations.pop(server_name, None)
        owner = _owners.pop(server_name, None)
    if removed is None:
        return False
    _notify(_change("unregister", (server_name,), owner, {server_name: removed}, {}))
    return True


def unregister_owner(owner: str) -> tuple[str, ...]:
    """Remove every server ``owner`` registered, with one notification; the names removed."""
    if not isinstance(owner, str) or not owner:
        raise TypeError(f"owner must be a non-empty string (got {owner!r})")
    with _lock:
        names = tuple(name for name, by in _owners.items() if by == owner)
        removed = {name: _declarations.pop(name) for name in names}
        for name in names:
            del _owners[name]
    if names:
        _notify(_change("unregister", names, owner, removed, {}))
    return names


def lookup(server_name: str) -> Declaration | None:
    """The declaration registered under ``server_name``, or None."""
    with _lock:
        return _declarations.get(server_name)


def owner_of(server_name: str) -> str | None:
    """The owner of ``server_name``'s registration, or None (unregistered, or no owner)."""
    with _lock:
        return _owners.get(server_name)


def registered(*, owner: str | None = None) -> dict[str, Declaration]:
    """A snapshot of every registration, or only ``owner``'s when one is given."""
    with _lock:
        if owner is None:
            return dict(_declarations)
        return {name: decl for name, decl in _declarations.items() if _owners[name] == owner}


def clear() -> None:
    """Remove every registration of every owner (not a per-plugin unload)."""
    with _lock:
        removed = dict(_declarations)
        _declarations.clear()
        _owners.clear()
    if removed:
        _notify(RegistryChange("clear", None, tuple(removed), None, MappingProxyType(removed)))


def subscribe(subscriber: Subscriber) -> Callable[[], None]:
    """Call ``subscriber`` after every change; returns a function that ends the subscription."""
    with _lock:
        _subscribers.append(subscriber)

    def unsubscribe() -> None:
        with _lock:
            if subscriber in _subscribers:
                _subscribers.remove(subscriber)

    return unsubscribe
