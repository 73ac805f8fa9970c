"""Reading the version of a present copy through the host (SPEC 6.4).

The readers themselves are pure functions over bytes (``readers``); this module hands them what
the host reads, in bounded pieces, and never raises because of what it finds.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import BinaryIO

from hermes_decl.hosts.protocol import Host, UninstallEntries, UninstallEntry
from hermes_decl.models import AppDef, OsFamily
from hermes_decl.resolver.app import Candidate, Lookup
from hermes_decl.resolver.expand import join
from hermes_decl.resolver.readers import MAX_PLIST_BYTES, pe_file_version, plist_version


class HostFile(io.RawIOBase):
    """A read-only, seekable view of one host file, read in bounded pieces through ``Host``."""

    def __init__(self, host: Host, path: str) -> None:
        super().__init__()
        self._host = host
        self._path = path
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence != io.SEEK_SET:
            raise OSError("only absolute seeks are supported")
        if offset < 0:
            raise ValueError("negative seek position")
        self._position = offset
        return offset

    def tell(self) -> int:
        return self._position

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self._host.read_file(self._path, len(buffer), self._position)
        if data is None:
            raise OSError(f"cannot read {self._path}")
        count = len(data)
        buffer[:count] = data
        self._position += count
        return count


def open_host_file(host: Host, path: str) -> BinaryIO:
    """A buffered binary file over a host file, for readers that seek."""
    return io.BufferedReader(HostFile(host, path), buffer_size=4096)


@dataclass(frozen=True)
class FoundVersion:
    """A copy's version, or None, and where it came from or why it could not be read."""

    version: str | None
    detail: str | None = None


def _folded(path: str) -> str:
    """A Windows path compared as Windows does: either separator, any case, no trailing one."""
    return path.strip().strip('"').replace("/", "\\").rstrip("\\").casefold()


def _contains(folder: str | None, path: str) -> bool:
    """Whether an InstallLocation ``folder`` holds ``path`` (or is it)."""
    if not folder or not folder.strip().strip('"'):
        return False
    inside, outer = _folded(path), _folded(folder)
    return inside == outer or inside.startswith(outer + "\\")


def _display_version(entry: UninstallEntry, how: str) -> FoundVersion:
    version = (entry.display_version or "").strip() or None
    name = entry.display_name or ""
    if version is None:
        return FoundVersion(None, f"the uninstall entry {name!r} {how} has no DisplayVersion")
    return FoundVersion(version, f"DisplayVersion of the uninstall entry {name!r} {how}")


def uninstall_version(
    path: str,
    found_through: UninstallEntry | None,
    prefix: str,
    entries: UninstallEntries,
) -> FoundVersion:
    """A copy's version from the uninstall entries (SPEC 6.4), each copy credited on its own.

    The entry the copy was found through; else the matching entry (DisplayName starting with
    ``prefix``) whose InstallLocation holds the copy, the deepest such folder when several do;
    else the one entry matching ``prefix`` when there is exactly one (in entries the host read
    whole: a ``truncated`` list may hide another); otherwise unreadable.
    """
    if found_through is not None:
        return _display_version(found_through, "it was found through")
    matching = [entry for entry in entries if (entry.display_name or "").startswith(prefix)]
    holding = [entry for entry in matching if _contains(entry.install_location, path)]
    if holding:
        depth = max(len(_folded(entry.install_location or "")) for entry in holding)
        deepest = [e for e in holding if len(_folded(e.install_location or "")) == depth]
        versions = {(entry.display_version or "").strip() for entry in deepest}
        if len(versions) > 1:
            names = " and ".join(repr(entry.display_name) for entry in deepest[:2])
            return FoundVersion(None, f"uninstall entries {names} hold it, with different versions")
        return _display_version(deepest[0], "whose InstallLocation holds it")
    if len(matching) == 1 and not entries.truncated:
        return _display_version(matching[0], f"(the only one matching {prefix!r})")
    if len(matching) == 1:
        return FoundVersion(
            None,
            f"the uninstall entry {matching[0].display_name!r} matches {prefix!r} without an "
            "InstallLocation holding it, and the host read only part of the entries, so it may "
            "not be the only one",
        )
    if not matching:
        return FoundVersion(None, f"no uninstall entry's DisplayName starts with {prefix!r}")
    return FoundVersion(
        None,
        f"{len(matching)} uninstall entries match {prefix!r} and none has an InstallLocation "
        "holding it",
    )


def info_plist_of(path: str, presence: str, os_family: OsFamily) -> str | None:
    """The Info.plist that versions a copy: the bundle's own, or that of the ``.app`` holding it.

    An executable found inside a bundle (``Vendor.app/Contents/MacOS/vendor``) is versioned by
    its enclosing bundle; an executable outside any bundle has no Info.plist.
    """
    if presence == "bundle":
        return join(os_family, path, "Contents", "Info.plist")
    segments = path.split("/")
    for end in range(len(segments) - 1, 0, -1):
        if segments[end - 1].lower().endswith(".app"):
            return join(os_family, "/".join(segments[:end]), "Contents", "Info.plist")
    return None


def read_version(app_def: AppDef, candidate: Candidate, lookup: Lookup) -> FoundVersion:
    """The version of a present copy from the OS block's version source, and its provenance."""
    kind, host, path = app_def.version_kind, lookup.host, candidate.path
    if path is None or kind == "none":
        return FoundVersion(None)
    if kind == "plist":
        plist = info_plist_of(path, app_def.presence, lookup.os_family)
        if plist is None:
            return FoundVersion(None, "it is not inside an .app bundle, so it has no Info.plist")
        data = host.read_file(plist, MAX_PLIST_BYTES + 1)
        version = plist_version(data) if data is not None else None
        if version is None:
            return FoundVersion(None, f"{plist} has no readable version")
        return FoundVersion(version)
    if kind == "pe_resource":
        with open_host_file(host, path) as file:
            version = pe_file_version(file)
        return FoundVersion(version, None if version else "it has no readable version resource")
    prefix = app_def.version_display_name_prefix
    if kind == "uninstall_registry" and prefix is not None:
        return uninstall_version(path, candidate.entry, prefix, lookup.uninstall_entries)
    return FoundVersion(None)
