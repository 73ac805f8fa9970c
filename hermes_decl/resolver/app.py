"""Locating the application: the location kinds table and one locator per kind (SPEC 3.2, 6.3).

``LOCATION_KINDS`` is built from the model variants (their OS, key and presence) plus one
locator per kind, so the table and the union cannot drift. Locating is lazy: it yields one
``Candidate`` per place examined, so a caller can stop at the first hit. Each candidate says
where its location came from (the declaration or the user overrides file) and how the place was
reached (the search path, a known folder, an uninstall entry).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Literal, NamedTuple

from hermes_decl._quick_init import quick_init
from hermes_decl.hosts.pathsearch import first_file, searched_file_names
from hermes_decl.hosts.protocol import Host, UninstallEntries, UninstallEntry
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
from hermes_decl.resolver.budget import WorkBudget
from hermes_decl.resolver.evaluation_pass import (
    CommandFolder,
    EvaluationPass,
    command_folder,
    searched_keys,
)
from hermes_decl.resolver.expand import Expansion, expand, host_refusal, join, normalise
from hermes_decl.resolver.expand import unsafe_reason as unsafe_reason
from hermes_decl.resolver.known_dirs import known_dirs
from hermes_decl.resolver.matching import search_pattern
from hermes_decl.resolver.template import read_template

Outcome = Literal["present", "absent", "no_match", "incomplete", "refused"]

Source = Literal["declaration", "overrides"]
"""Where a location came from: the OS block's ``location`` list, or the user overrides file."""

Via = Literal["search_path", "known_folder", "uninstall_entry"]
"""How a locator reached a place: the host's search path (PATH), a known folder, an uninstall
entry's InstallLocation; None for a path location."""


@quick_init
@dataclass(frozen=True)
class Candidate:
    """One place examined: which location produced it, where it is, and what was found there."""

    index: int
    """The location's index in its list: the OS block's ``location``, or the overrides'."""
    kind: str
    """The location's kind: ``path`` or a location kind."""
    path: str | None
    """The place: an expanded path, a ``*`` pattern, a bare command name; None when refused, and
    for an incomplete read of the uninstall entries (which have no place to name)."""
    outcome: Outcome
    """``present``, ``absent``, ``no_match`` (a pattern matched nothing), ``incomplete`` (a
    pattern's search, or the host's uninstall entries, were cut short by a bound, so more may
    match than was tried) or ``refused``."""
    detail: str | None = None
    """Why a place was refused, or what it was."""
    version: str | None = None
    """The version read from a present copy, when one was read."""
    source: Source = "declaration"
    """Where the location came from: ``declaration`` or ``overrides`` (the user overrides file)."""
    via: Via | None = None
    """How the place was reached: ``search_path``, ``known_folder`` or ``uninstall_entry``."""
    entry: UninstallEntry | None = None
    """The uninstall entry the place was found through, for ``via == "uninstall_entry"``."""
    version_detail: str | None = None
    """Where the version came from when that is not the copy itself, or why it is unreadable."""

    def with_version(self, version: str | None, detail: str | None) -> Candidate:
        """This candidate with the version read from it (and where that came from, or why not)."""
        return replace(self, version=version, version_detail=detail)


class Look(NamedTuple):
    """A place a locator proposes; ``path`` is None when it was refused."""

    path: str | None
    detail: str | None = None
    pattern: bool = False
    incomplete: bool = False
    """A pattern's search, or the uninstall entries, were cut short: ``detail`` says where."""
    present: bool | None = None
    """Whether the locator already saw the application there; None: it must be checked."""
    via: Via | None = None
    entry: UninstallEntry | None = None


class Lookup:
    """One evaluation's view of a host: the host, the OS family evaluated, and facts read once.

    Given the ``EvaluationPass`` it belongs to, it asks the pass, which shares each answer with
    the pass's other evaluations; without one, it asks the host.
    """

    __slots__ = ("_entries", "budget", "host", "os_family", "shared")

    def __init__(
        self, host: Host, os_family: OsFamily, shared: EvaluationPass | None = None
    ) -> None:
        self.host = host
        self.os_family = os_family
        self.budget = WorkBudget()
        self.shared = shared
        self._entries: UninstallEntries | None = None

    def is_file(self, path: str) -> bool:
        """The host's ``is_file``, charged to the evaluation's budget as one place checked."""
        self.budget.places_checked += 1
        shared = self.shared
        return self.host.is_file(path) if shared is None else shared.is_file(path)

    def expand(self, template: str) -> Expansion:
        """``expand`` of a path template on this lookup's host and OS family."""
        as_written = read_template(template, self.os_family).as_written
        if as_written is not None:
            return Expansion(as_written)  # what ``expand`` gives, with nothing to ask the host
        shared = self.shared
        if shared is None:
            return expand(template, self.os_family, self.host)
        return shared.expanded(template, self.os_family)

    def command_folder(self, template: str) -> CommandFolder:
        """A known bin folder's template expanded and read as a command's search reads it."""
        shared = self.shared
        if shared is None:
            return command_folder(self.expand(template), self.os_family)
        return shared.command_folder(template, self.os_family)

    def known_dirs(self, kind: str) -> tuple[str, ...]:
        """The folder templates a location kind looks in on this lookup's OS family."""
        shared = self.shared
        if shared is None:
            return known_dirs(kind, self.os_family, self.host.getenv)
        return shared.kind_dirs(kind, self.os_family)

    def which(self, name: str) -> str | None:
        """The host's ``which`` of a command name, as the host answered it."""
        shared = self.shared
        return self.host.which(name) if shared is None else shared.which(name)

    def searched_keys(self) -> frozenset[str]:
        """The folders the host's ``which`` searches, as ``folder_key`` writes them."""
        shared = self.shared
        if shared is None:
            return searched_keys(self.host, self.os_family)
        return shared.searched_keys(self.os_family)

    @property
    def uninstall_entries(self) -> UninstallEntries:
        """The host's uninstall entries, asked for at most once per evaluation; ``truncated``
        when the host stopped reading them at a bound (a plain tuple is whole)."""
        if self._entries is None:
            entries = self.host.uninstall_entries()
            cut = getattr(entries, "truncated", False) is True
            self._entries = UninstallEntries(entries, truncated=cut)
        return self._entries


Locator = Callable[[KindLocation, Lookup], Iterator[Look]]


@dataclass(frozen=True)
class LocationKind:
    """One location kind: where it is valid, which key names what to find, what it yields."""

    kind: str
    valid_os: tuple[OsFamily, ...]
    key: str
    presence: Presence
    model: type[KindLocation]
    locate: Locator


def _look_in_known_dirs(location: KindLocation, lookup: Lookup) -> Iterator[Look]:
    os_family, target = lookup.os_family, location.target
    for template in lookup.known_dirs(location.KIND):
        directory = lookup.expand(template)
        if directory.path is None:
            yield Look(None, directory.refused, via="known_folder")
        else:
            yield Look(join(os_family, directory.path, target), via="known_folder")


def _look_for_command(location: KindLocation, lookup: Lookup) -> Iterator[Look]:
    """The host's search path first, then the known bin folders a desktop session may lack."""
    os_family, host, name = lookup.os_family, lookup.host, location.target
    found = lookup.which(name)
    refusal = _search_path_refusal(found, os_family, host)
    if refusal is not None:
        found = None
        yield Look(None, refusal, via="search_path")
    elif found:
        yield Look(found, present=True, via="search_path")
    else:
        yield Look(name, present=False, via="search_path")
    pathext = host.getenv("PATHEXT") if os_family == "win32" else None
    # A folder ``which`` searched without finding the command cannot hold it: no second look.
    searched = lookup.searched_keys() if found is None else frozenset()
    file_names = searched_file_names(name, os_family=os_family, pathext=pathext)
    for template in lookup.known_dirs("command"):
        folder = lookup.command_folder(template)
        if folder.path is None:
            yield Look(None, folder.refused, via="known_folder")
            continue
        if folder.key in searched:
            yield Look(join(os_family, folder.path, name), present=False, via="known_folder")
            continue
        # ``find_in_folder``, with the name and the folder each read once.
        hit = (
            first_file(folder.path, file_names, os_family=os_family, is_file=lookup.is_file)
            if file_names and folder.usable
            else None
        )
        if hit is None:
            yield Look(join(os_family, folder.path, name), present=False, via="known_folder")
        elif found is None or not _same_place(hit, found, os_family):
            yield Look(normalise(os_family, hit), present=True, via="known_folder")
        # else: a folder that is also on the search path gives nothing new


def _search_path_refusal(found: object, os_family: OsFamily, host: Host) -> str | None:
    """Why a path the host's ``which`` answered must not be used, or None (also for no answer).

    The host wrote that path, not the declaration: like a listed name, it is re-checked before
    anything reads it, so a host can never lead the resolver to a relative, UNC or device path.
    """
    if found is None or found == "":
        return None
    if not isinstance(found, str):
        return f"the search path gave a {type(found).__name__}, not a path"
    reason = host_refusal(found, os_family, host)
    return None if reason is None else f"the search path gave {found!r}, which {reason}"


def _same_place(first: str, second: str, os_family: OsFamily) -> bool:
    """Whether two paths name the same place (Windows: either separator, any case)."""
    if os_family == "win32":
        return normalise(os_family, first).casefold() == normalise(os_family, second).casefold()
    return first == second


def _look_in_uninstall_entries(location: KindLocation, lookup: Lookup) -> Iterator[Look]:
    file = getattr(location, "file", "")
    entries = lookup.uninstall_entries
    via: Via = "uninstall_entry"
    matched = False
    for entry in entries:
        if not (entry.display_name or "").startswith(location.target):
            continue
        matched = True
        folder = (entry.install_location or "").strip().strip('"')
        if not folder:
            yield Look(None, "it has no InstallLocation", present=False, via=via, entry=entry)
            continue
        if starts_with_two_separators(folder):
            yield Look(None, f"install location {folder} is a UNC path", via=via, entry=entry)
            continue
        candidate = join("win32", folder, file)
        reason = host_refusal(candidate, "win32", lookup.host)
        if reason:
            yield Look(None, f"{candidate} {reason}", via=via, entry=entry)
        else:
            yield Look(candidate, via=via, entry=entry)
    if not matched and not entries.truncated:
        detail = f"no entry starts with {location.target!r}"
        yield Look(None, detail, present=False, via=via)
    if entries.truncated:
        detail = (
            f"the host read only {len(entries)} uninstall entries, stopping at a bound; "
            f"an entry past them may match {location.target!r}"
        )
        yield Look(None, detail, incomplete=True, via="uninstall_entry")


_LOCATORS: dict[str, Locator] = {
    "command": _look_for_command,
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


def _look_at_path(location: PathLocation, lookup: Lookup) -> Iterable[Look]:
    expansion = lookup.expand(location.path)
    if expansion.path is None:
        return (Look(None, expansion.refused),)
    if "*" in expansion.path:
        return _look_for_matches(expansion.path, lookup)
    return (Look(expansion.path),)


def _look_for_matches(pattern: str, lookup: Lookup) -> Iterator[Look]:
    search = search_pattern(
        pattern, lookup.os_family, lookup.host, lookup.budget, shared=lookup.shared
    )
    for match in search.paths:
        yield Look(match)
    for refusal in search.refused:
        yield Look(None, refusal)
    if search.cut_short:
        found = "matches were tried" if search.paths else "no folder matched what was seen"
        detail = f"{found}, but the search was cut short: {'; '.join(search.cut_short)}"
        yield Look(pattern, detail, pattern=True, incomplete=True)
    elif not search.paths:
        yield Look(pattern, "no folder matches the pattern", pattern=True)


def _looks(location: LocationSpec, lookup: Lookup) -> Iterable[Look]:
    if isinstance(location, PathLocation):
        return _look_at_path(location, lookup)
    return LOCATION_KINDS[location.KIND].locate(location, lookup)


def is_present(path: str, presence: Presence, os_family: OsFamily, host: Host) -> bool:
    """Whether the application is at ``path``: a regular file, or a bundle with an Info.plist."""
    if presence == "executable":
        return host.is_file(path)
    return host.is_dir(path) and host.is_file(join(os_family, path, "Contents", "Info.plist"))


def _presence_refusal(location: LocationSpec, presence: Presence) -> str | None:
    """Why an override's location kind cannot find this block's presence, or None.

    The declaration's own locations were checked against their block when it was parsed.
    """
    if isinstance(location, KindLocation) and presence != location.PRESENCE:
        return (
            f"kind {location.KIND!r} finds a{'n' if location.PRESENCE == 'executable' else ''} "
            f"{location.PRESENCE}, but the declaration's presence is {presence!r}"
        )
    return None


def locate(
    app_def: AppDef,
    lookup: Lookup,
    overrides: tuple[LocationSpec, ...] = (),
) -> Iterator[Candidate]:
    """Every place the overrides' and then the OS block's locations lead to, in order.

    Each place comes with what was found there. An override whose kind finds another presence
    than the block's (a bundle for an executable) is refused, not looked at. Once the lookup's
    work budget is spent, one ``incomplete`` candidate says so and nothing more is looked at.
    """
    sources: tuple[tuple[Source, tuple[LocationSpec, ...]], ...] = (
        ("overrides", overrides),
        ("declaration", app_def.locations),
    )
    presence, budget = app_def.presence, lookup.budget
    shared = lookup.shared
    # The executable's check, shared with the pass when there is one (a bundle's is two).
    is_file = lookup.host.is_file if shared is None else shared.is_file
    for source, locations in sources:
        for index, location in enumerate(locations):
            kind = location.kind
            refusal = _presence_refusal(location, presence) if source == "overrides" else None
            if refusal is not None:
                yield Candidate(index, kind, None, "refused", refusal, source=source)
                continue
            for path, detail, pattern, incomplete, present, via, entry in _looks(location, lookup):
                outcome: Outcome
                if incomplete:
                    outcome = "incomplete"
                else:
                    spent = budget.spent()
                    if spent is not None:
                        yield _budget_spent(index, kind, source, spent)
                        return
                    if path is None:
                        # Nothing to look at: an uninstall entry said the application is not
                        # there, or a place was refused.
                        outcome = "absent" if present is False else "refused"
                    elif pattern:
                        outcome = "no_match"
                    else:
                        if present is None:
                            budget.places_checked += 1
                            present = (
                                is_file(path)
                                if presence == "executable"
                                else is_present(path, presence, lookup.os_family, lookup.host)
                            )
                        outcome = "present" if present else "absent"
                budget.candidates += 1
                # Positional: a call with keywords costs twice as much, once per place.
                yield Candidate(index, kind, path, outcome, detail, None, source, via, entry)


def _budget_spent(index: int, kind: str, source: Source, spent: str) -> Candidate:
    """The candidate that ends a trace cut by the work budget: later places may match."""
    detail = f"stopped at the evaluation's work budget ({spent}); later places were not examined"
    return Candidate(index, kind, None, "incomplete", detail, source=source)
