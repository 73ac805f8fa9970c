"""The file primitives every live host shares: stat, list, bounded reads, links. Never raise.

They are module functions so ``RootedHost`` reuses them on the real paths its tree maps to.
A path that is not absolute on this machine is never touched.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable, Iterable

from hermes_decl._regular_file import open_regular
from hermes_decl.hosts.protocol import (
    MAX_ANCESTRY,
    MAX_DIR_ENTRIES,
    FileRead,
    FolderFacts,
    Listing,
)

if sys.platform == "win32":
    from hermes_decl.hosts.live._windows_api import descriptor_owner_sid

__all__ = [
    "READ_CHUNK",
    "file_modified",
    "folder_chain",
    "is_absolute_here",
    "list_dir_names",
    "path_is_dir",
    "path_is_file",
    "read_link",
    "read_regular_file",
    "read_regular_file_facts",
]

READ_CHUNK = 1 << 20
"""``read_file`` reads in chunks of at most this many bytes, so a huge ``size`` costs nothing."""

_PATH_ERRORS = (OSError, ValueError, OverflowError)
"""What the os module raises for a path it cannot use: missing, denied, NUL byte, too long."""


def is_absolute_here(path: str) -> bool:
    """Whether ``path`` is absolute on this machine; a relative one is never touched.

    A relative path would be resolved against the current directory, which no declaration means
    (a ``C:\\x`` asked about on Linux, say, when ``os_family`` is forced).
    """
    if sys.platform == "win32":
        drive, rest = os.path.splitdrive(path)
        return len(drive) == 2 and rest[:1] in ("\\", "/")
    else:
        return path.startswith("/")


def path_is_file(path: str) -> bool:
    """Whether ``path`` is a regular file, symlinks followed; never raises."""
    return _mode_matches(path, stat.S_ISREG)


def path_is_dir(path: str) -> bool:
    """Whether ``path`` is a directory, symlinks followed; never raises."""
    return _mode_matches(path, stat.S_ISDIR)


def _mode_matches(path: str, is_kind: Callable[[int], bool]) -> bool:
    """Whether an absolute ``path`` exists and its mode, symlinks followed, passes ``is_kind``."""
    if not is_absolute_here(path):
        return False
    try:
        return is_kind(os.stat(path).st_mode)
    except _PATH_ERRORS:
        return False


def list_dir_names(path: str, limit: int = MAX_DIR_ENTRIES) -> Listing:
    """Up to ``limit`` entry names of a directory, sorted; empty when it cannot be listed.

    When the directory holds more, the first ``limit`` names the OS yields come back marked
    ``truncated``. On POSIX a name that is not valid UTF-8 comes back surrogate-escaped (as
    ``os.listdir`` gives it) and still works as a path component for the other primitives.
    """
    if not is_absolute_here(path):
        return Listing()
    try:
        with os.scandir(path) as entries:
            return listing_of(entries, limit)
    except _PATH_ERRORS:
        return Listing()


def listing_of(entries: Iterable[os.DirEntry[str]], limit: int) -> Listing:
    """Up to ``limit`` of a folder's entry names, sorted; marked ``truncated`` when it holds
    more (the rest is never read)."""
    names: list[str] = []
    for entry in entries:
        if len(names) >= limit:
            return Listing(sorted(names), truncated=True)
        names.append(entry.name)
    return Listing(sorted(names))


def read_regular_file(path: str, size: int, offset: int = 0) -> bytes | None:
    """At most ``size`` bytes from ``offset`` of a regular file; None otherwise. Never raises.

    The path is stat'ed first, so a device or a FIFO is normally never even opened; as the path
    may be swapped after that check, the open itself never blocks and never takes a terminal
    (``open_regular``), and the open descriptor is fstat'ed: anything but a regular file is
    refused before a single byte is read. Files whose reported size is zero (``/proc``) are
    still read, up to ``size`` bytes.
    """
    if size < 0 or offset < 0:
        return None
    if not path_is_file(path):
        return None
    try:
        fd = open_regular(path)
    except _PATH_ERRORS:
        return None
    try:
        return _read_at(fd, size, offset)
    except _PATH_ERRORS:
        return None
    finally:
        os.close(fd)


def _read_at(fd: int, size: int, offset: int) -> bytes:
    """Up to ``size`` bytes of ``fd`` from ``offset``, in bounded chunks, stopping at the end."""
    chunks: list[bytes] = []
    remaining = size
    if sys.platform == "win32":
        os.lseek(fd, offset, os.SEEK_SET)
        while remaining > 0:
            chunk = os.read(fd, min(remaining, READ_CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    else:
        position = offset
        while remaining > 0:
            chunk = os.pread(fd, min(remaining, READ_CHUNK), position)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            position += len(chunk)
    return b"".join(chunks)


def file_modified(path: str) -> float | None:
    """When a regular file was last modified (seconds since the epoch, links followed), or None."""
    if not is_absolute_here(path):
        return None
    try:
        found = os.stat(path)
    except _PATH_ERRORS:
        return None
    return found.st_mtime if stat.S_ISREG(found.st_mode) else None


def read_link(path: str) -> str | None:
    """The target text of a symbolic link, or None when ``path`` is not one (or is unreadable)."""
    try:
        return os.readlink(path)
    except _PATH_ERRORS:
        return None


def _descriptor_owner(fd: int, found: os.stat_result) -> str | None:
    """The owner of an open file: its user id on POSIX, its owner SID on Windows."""
    if sys.platform == "win32":
        return descriptor_owner_sid(fd)
    else:
        return str(found.st_uid)


def _permission_bits(found: os.stat_result) -> int | None:
    """POSIX permission bits; None on Windows, whose modes only mirror the read-only flag."""
    if sys.platform == "win32":
        return None
    else:
        return stat.S_IMODE(found.st_mode)


def read_regular_file_facts(path: str, size: int) -> FileRead | None:
    """At most ``size`` bytes of a regular file and the ``fstat`` of the descriptor they were
    read from (owner, mode, modification time); None otherwise. Never raises.

    Opened as ``read_regular_file`` opens, so it never blocks; owner, mode and time describe the
    bytes read even if the path is swapped right after.
    """
    if size < 0 or not path_is_file(path):
        return None
    try:
        fd = open_regular(path)
    except _PATH_ERRORS:
        return None
    try:
        found = os.fstat(fd)
        data = _read_at(fd, size, 0)
        owner = _descriptor_owner(fd, found)
    except _PATH_ERRORS:
        return None
    finally:
        os.close(fd)
    return FileRead(data, owner=owner, mtime=found.st_mtime, mode=_permission_bits(found))


def folder_chain(path: str) -> tuple[FolderFacts, ...] | None:
    """The owner and mode of each folder above ``path``, links resolved, its own folder first;
    None when one cannot be read. Empty on Windows, whose folders' rights are ACLs, not modes."""
    if sys.platform == "win32":
        return ()
    else:
        if not is_absolute_here(path):
            return None
        try:
            folder = os.path.dirname(os.path.realpath(path))
        except _PATH_ERRORS:
            return None
        chain: list[FolderFacts] = []
        for _ in range(MAX_ANCESTRY):
            try:
                found = os.stat(folder)
            except _PATH_ERRORS:
                return None
            chain.append(FolderFacts(folder, str(found.st_uid), _permission_bits(found)))
            above = os.path.dirname(folder)
            if above == folder:
                return tuple(chain)
            folder = above
        return None
