"""Locating the application: the location kinds table and one locator per kind (SPEC 3.2, 6.3).

``LOCATION_KINDS`` is built from the model variants (their OS, key and presence) plus one
locator per kind, so the table and the union cannot drift. Locating is lazy: it yields one
``Candidate`` per place examined, so a caller can stop at the first hit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from hermes_decl.models import (
    KIND_LOCATIONS,
    AppDef,
    KindLocation,
    LocationSpec,
    OsFamily,
    PathLocation,
    Presence,
)
from hermes_decl.models.rules import starts_with_two_separators
from hermes_decl.resolver.expand import expand, join, unsafe_reason
from hermes_decl.resolver.host import Host
from hermes_decl.resolver.known_dirs import known_dirs
from hermes_decl.resolver.matching import search_pattern

Outcome = Literal["present", "absent", "no_match", "incomplete", "refused"]


@dataclass(frozen=True)
class Candidate:
    """One place examined: which location produced it, where it is, and what was found there."""

    index: int
    """The location's index in the OS block's ``location`` list."""
    kind: str
    """The location's kind: ``path`` or a location kind."""
    path: str | None
    """The place: an expanded path, a ``*`` pattern, a bare command name; None when refused."""
    outcome: Outcome
    """``present``, ``absent``, ``no_match`` (a pattern matched nothing), ``incomplete`` (a
    pattern's search was cut short by a bound, so more may match than was tried) or ``refused``."""
    detail: str | None = None
    """Why a place was refused, or what it was."""
    version: str | None = None
    """The version read from a present copy, when one was read."""


@dataclass(frozen=True)
class Look:
    """A place a locator proposes; ``path`` is None when it was refused."""

    path: str | None
    detail: str | None = None
    pattern: bool = False
    incomplete: bool = False
    """A pattern's search was cut short: ``detail`` says where."""
    known_present: bool = False
    """The locator already saw a regular file there (a PATH search), so it is not checked again."""


Locator = Callable[[KindLocation, OsFamily, Host], Iterator[Look]]


@dataclass(frozen=True)
class LocationKind:
    """One location kind: where it is valid, which key names what to find, what it yields."""

    kind: str
    valid_os: tuple[OsFamily, ...]
    key: str
    presence: Presence
    model: type[KindLocation]
    locate: Locator


def _look_in_known_dirs(location: KindLocation, os_family: OsFamily, host: Host) -> Iterator[Look]:
    for template in known_dirs(location.KIND, os_family, host.getenv):
        directory = expand(template, os_family, host)
        if directory.path is None:
            yield Look(None, directory.refused)
        else:
            yield Look(join(os_family, directory.path, location.target))


def _look_on_path(location: KindLocation, os_family: OsFamily, host: Host) -> Iterator[Look]:
    found = host.which(location.target)
    if found:
        yield Look(found, known_present=True)
    else:
        yield Look(location.target, "not found on PATH")


def _look_in_uninstall_entries(
    location: KindLocation, os_family: OsFamily, host: Host
) -> Iterator[Look]:
    file = getattr(location, "file", "")
    for entry in host.uninstall_entries():
        folder = (entry.install_location or "").strip().strip('"')
        if not (entry.display_name or "").startswith(location.target) or not folder:
            continue
        if starts_with_two_separators(folder):
            yield Look(None, f"install location {folder} is a UNC path")
            continue
        candidate = join("win32", folder, file)
        reason = unsafe_reason(candidate, "win32")
        yield Look(None, f"{candidate} {reason}") if reason else Look(candidate)


_LOCATORS: dict[str, Locator] = {
    "command": _look_on_path,
    "uninstall_registry": _look_in_uninstall_entries,
    "app_bundle": _look_in_known_dirs,
    "flatpak": _look_in_known_dirs,
    "snap": _look_in_known_dirs,
}

LOCATION_KINDS: MappingProxyType[str, LocationKind] = MappingProxyType(
    {
        variant.KIND: LocationKind(
            kind=variant.KIND,
            valid_os=variant.VALID_OS,
            key=variant.KEY,
            presence=variant.PRESENCE,
            model=variant,
            locate=_LOCATORS[variant.KIND],
        )
        for variant in KIND_LOCATIONS
    }
)
"""Every location kind by name."""


def _look_at_path(location: PathLocation, os_family: OsFamily, host: Host) -> Iterator[Look]:
    expansion = expand(location.path, os_family, host)
    if expansion.path is None:
        yield Look(None, expansion.refused)
    elif "*" in expansion.path:
        search = search_pattern(expansion.path, os_family, host)
        for match in search.paths:
            yield Look(match)
        if search.cut_short:
            found = "matches were tried" if search.paths else "no folder matched what was seen"
            detail = f"{found}, but the search was cut short: {'; '.join(search.cut_short)}"
            yield Look(expansion.path, detail, pattern=True, incomplete=True)
        elif not search.paths:
            yield Look(expansion.path, "no folder matches the pattern", pattern=True)
    else:
        yield Look(expansion.path)


def _looks(location: LocationSpec, os_family: OsFamily, host: Host) -> Iterator[Look]:
    if isinstance(location, PathLocation):
        return _look_at_path(location, os_family, host)
    return LOCATION_KINDS[location.KIND].locate(location, os_family, host)


def is_present(path: str, presence: Presence, os_family: OsFamily, host: Host) -> bool:
    """Whether the application is at ``path``: a regular file, or a bundle with an Info.plist."""
    if presence == "executable":
        return host.is_file(path)
    return host.is_dir(path) and host.is_file(join(os_family, path, "Contents", "Info.plist"))


def locate(app_def: AppDef, os_family: OsFamily, host: Host) -> Iterator[Candidate]:
    """Every place the OS block's locations lead to, in order, each with what was found there."""
    for index, location in enumerate(app_def.locations):
        for look in _looks(location, os_family, host):
            if look.path is None:
                outcome: Outcome = "refused"
            elif look.incomplete:
                outcome = "incomplete"
            elif look.pattern:
                outcome = "no_match"
            elif look.known_present or (
                look.detail is None and is_present(look.path, app_def.presence, os_family, host)
            ):
                outcome = "present"
            else:
                outcome = "absent"
            yield Candidate(index, location.kind, look.path, outcome, look.detail)
