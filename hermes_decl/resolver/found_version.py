"""Reading the version of a present copy through the host (SPEC 6.4).

The readers themselves are pure functions over bytes (``readers``); this module hands them what
the host reads, in bounded pieces, and never raises because of what it finds.
"""

from __future__ import annotations

import io
from typing import BinaryIO

from hermes_decl.models import AppDef, OsFamily
from hermes_decl.resolver.expand import join
from hermes_decl.resolver.host import Host
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


def uninstall_version(host: Host, prefix: str) -> str | None:
    """DisplayVersion of the first uninstall entry whose DisplayName starts with ``prefix``."""
    for entry in host.uninstall_entries():
        if (entry.display_name or "").startswith(prefix):
            version = (entry.display_version or "").strip()
            return version or None
    return None


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


def read_version(app_def: AppDef, path: str, os_family: OsFamily, host: Host) -> str | None:
    """The version of the copy at ``path``, from the OS block's version source, or None."""
    kind = app_def.version_kind
    if kind == "plist":
        plist = info_plist_of(path, app_def.presence, os_family)
        data = host.read_file(plist, MAX_PLIST_BYTES + 1) if plist is not None else None
        return plist_version(data) if data is not None else None
    if kind == "pe_resource":
        with open_host_file(host, path) as file:
            return pe_file_version(file)
    if kind == "uninstall_registry" and app_def.version_arg is not None:
        return uninstall_version(host, app_def.version_arg)
    return None
