"""One pass of many evaluations on one host: what every declaration of the pass shares.

Declarations evaluated together look in the same places: the known folders of their location
kinds, a folder under which several patterns match, the user overrides file, a command two
plugins need. An ``EvaluationPass`` asks the host about each such fact once and answers every
evaluation of the pass from that answer, so a folder is listed once per pass whatever number of
declarations look there. It belongs to its pass alone and is dropped with it: nothing is kept
across passes, so a later pass sees the host as it is then. Work budgets stay per evaluation: a
shared answer is charged to each evaluation that uses it, as if it had asked.
"""

from __future__ import annotations

from typing import NamedTuple

from hermes_decl.hosts.pathsearch import usable_folder
from hermes_decl.hosts.protocol import Host, SearchesFolders
from hermes_decl.models import OsFamily
from hermes_decl.models.rules import network_root
from hermes_decl.resolver.expand import Expansion, expand, normalise
from hermes_decl.resolver.known_dirs import known_dirs
from hermes_decl.resolver.listing import Listed, listed_names
from hermes_decl.resolver.overrides import UserOverrides, user_overrides

__all__ = ["CommandFolder", "EvaluationPass", "command_folder", "folder_key"]


def folder_key(folder: str, os_family: OsFamily) -> str:
    """A folder as compared with a searched one: trailing separators dropped (Windows: either
    separator, any case). Two spellings of one folder may still differ; then it is looked in."""
    if os_family == "win32":
        return normalise(os_family, folder).rstrip("\\").casefold()
    return folder.rstrip("/") or "/"


class CommandFolder(NamedTuple):
    """A known bin folder as a command's search reads it: expanded, keyed and checked once."""

    path: str | None
    """The expanded folder; None when it was refused."""
    refused: str | None
    """Why the folder was refused, when it was."""
    key: str | None
    """The folder as ``folder_key`` writes it, to compare with the folders ``which`` searched."""
    usable: bool
    """Whether ``find_in_folder`` looks in it at all (rooted for its OS)."""


def command_folder(folder: Expansion, os_family: OsFamily) -> CommandFolder:
    """A known bin folder's expansion, read as a command's search reads it."""
    path = folder.path
    if path is None:
        return CommandFolder(None, folder.refused, None, False)
    return CommandFolder(path, None, folder_key(path, os_family), usable_folder(path, os_family))


class EvaluationPass:
    """The host's answers one pass of evaluations shares, each asked for once."""

    __slots__ = (
        "_command_folders",
        "_expansions",
        "_files",
        "_found",
        "_kind_dirs",
        "_listings",
        "_overrides",
        "_roots",
        "_searched",
        "host",
        "matches",
    )

    def __init__(self, host: Host) -> None:
        self.host = host
        self._listings: dict[tuple[str, OsFamily], Listed] = {}
        self._expansions: dict[tuple[str, OsFamily], Expansion] = {}
        self._command_folders: dict[tuple[str, OsFamily], CommandFolder] = {}
        self._kind_dirs: dict[tuple[str, OsFamily], tuple[str, ...]] = {}
        self._overrides: dict[OsFamily, UserOverrides] = {}
        self._searched: dict[OsFamily, frozenset[str]] = {}
        self._files: dict[str, bool] = {}
        self._found: dict[str, str | None] = {}
        self._roots: dict[tuple[str, OsFamily], str | None] = {}
        self.matches: dict[tuple[OsFamily, str, str], tuple[str, ...]] = {}
        """Each folder's names that a ``*`` segment matches, as paths newest first, by
        (OS family, folder, segment): kept by ``matching`` for a scan within every bound."""

    def listed(self, directory: str, os_family: OsFamily) -> Listed:
        """``listed_names`` of ``directory``, listed once per pass."""
        key = (directory, os_family)
        found = self._listings.get(key)
        if found is None:
            found = self._listings[key] = listed_names(self.host, directory, os_family)
        return found

    def expanded(self, template: str, os_family: OsFamily) -> Expansion:
        """``expand`` of a path template, expanded once per pass."""
        key = (template, os_family)
        found = self._expansions.get(key)
        if found is None:
            found = self._expansions[key] = expand(template, os_family, self.host)
        return found

    def command_folder(self, template: str, os_family: OsFamily) -> CommandFolder:
        """``command_folder`` of a known bin folder's template, read once per pass."""
        key = (template, os_family)
        found = self._command_folders.get(key)
        if found is None:
            found = self._command_folders[key] = command_folder(
                self.expanded(template, os_family), os_family
            )
        return found

    def kind_dirs(self, kind: str, os_family: OsFamily) -> tuple[str, ...]:
        """``known_dirs`` of a location kind, read once per pass."""
        key = (kind, os_family)
        found = self._kind_dirs.get(key)
        if found is None:
            found = self._kind_dirs[key] = known_dirs(kind, os_family, self.host.getenv)
        return found

    def overrides(self, os_family: OsFamily) -> UserOverrides:
        """The user overrides for ``os_family``, looked for and read once per pass."""
        found = self._overrides.get(os_family)
        if found is None:
            found = self._overrides[os_family] = user_overrides(self.host, os_family)
        return found

    def searched_keys(self, os_family: OsFamily) -> frozenset[str]:
        """The folders the host's ``which`` searches, as ``folder_key`` writes them, read once."""
        found = self._searched.get(os_family)
        if found is None:
            found = self._searched[os_family] = searched_keys(self.host, os_family)
        return found

    def is_file(self, path: str) -> bool:
        """The host's ``is_file`` of ``path``, asked once per pass."""
        found = self._files.get(path)
        if found is None:
            found = self._files[path] = self.host.is_file(path)
        return found

    def network_root(self, path: str, os_family: OsFamily) -> str | None:
        """``network_root`` of a path (the automounter's root it lies under), told once."""
        key = (path, os_family)
        if key in self._roots:
            return self._roots[key]
        found = self._roots[key] = network_root(path, os_family)
        return found

    def which(self, name: str) -> str | None:
        """The host's ``which`` of ``name``, asked once per pass, its answer as given."""
        if name in self._found:
            return self._found[name]
        found = self._found[name] = self.host.which(name)
        return found


def searched_keys(host: Host, os_family: OsFamily) -> frozenset[str]:
    """The folders the host's ``which`` searched, as ``folder_key`` writes them; none when the
    host does not say (then every known folder is looked in)."""
    if not isinstance(host, SearchesFolders):
        return frozenset()
    folders = host.searched_folders()
    if not isinstance(folders, tuple) or not all(isinstance(f, str) for f in folders):
        return frozenset()
    return frozenset(folder_key(folder, os_family) for folder in folders)
