"""Resolving and opening a path inside a fixture tree in one walk, so no swap can leave the tree.

Each folder is opened relative to the one before it (``openat``) with ``O_NOFOLLOW``, and each
link is read relative to its folder and followed by hand: an absolute target restarts at the
tree's root and ``..`` goes back to the folder the walk came from, never above the top. The OS
never follows a link itself, so swapping a folder for a link to ``/`` between two steps makes
the next open fail instead of reading the real machine. Where the OS lacks ``openat`` (Windows),
``AVAILABLE`` is False and ``RootedHost`` resolves the path first and then opens it.
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import NamedTuple

from hermes_decl.hosts.live.file_primitives import READ_CHUNK, listing_of
from hermes_decl.hosts.protocol import MAX_ANCESTRY, MAX_DIR_ENTRIES, FileRead, FolderFacts, Listing

MAX_SYMLINK_HOPS = 40
"""More symbolic links than this while resolving one path means a loop (Linux's own limit)."""

if sys.platform == "win32":
    AVAILABLE = False
    _NOFOLLOW = _DIRECTORY_FLAGS = _FILE_FLAGS = 0
else:
    AVAILABLE = os.open in os.supports_dir_fd and os.readlink in os.supports_dir_fd
    _NOFOLLOW = os.O_NOFOLLOW
    _DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
    _FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
"""Flags of each step: a folder that is not a link, a file opened without following, blocking
or taking a terminal."""

_ERRORS = (OSError, ValueError, OverflowError)

StepHook = Callable[[str], None]
"""Called with each name after it was found not to be a link and before it is opened (tests
swap a folder or a file for a link there)."""


class Folder(NamedTuple):
    """A folder the walk holds open, and its name in the folder before it (``""`` for the top)."""

    fd: int
    name: str


class Place(NamedTuple):
    """Where a walk ended: an open folder and the name in it, or the folder itself (``None``),
    with every folder the walk went through to reach it, the top first."""

    folder: int
    name: str | None
    trail: tuple[Folder, ...] = ()


class TreeWalk:
    """Walks paths below one root folder; see the module docstring."""

    def __init__(self, root: str, *, before_step: StepHook | None = None) -> None:
        self._root = root
        self._before_step = before_step

    @contextlib.contextmanager
    def place(self, top: list[str], segments: list[str]) -> Iterator[Place | None]:
        """The place ``top`` then ``segments`` name in the tree, open while the block runs; None
        when it cannot be reached (missing, a loop, a swapped link, a name that is not a folder)."""
        opened: list[int] = []
        try:
            yield self._walk(top, segments, opened)
        finally:
            for fd in opened:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _open_folder(self, folder: int | None, name: str, opened: list[int]) -> int | None:
        if self._before_step is not None:
            self._before_step(name)
        try:
            fd = os.open(name, _DIRECTORY_FLAGS, dir_fd=folder)
        except _ERRORS:
            return None
        opened.append(fd)
        return fd

    def _descend_top(self, top: list[str], opened: list[int]) -> list[Folder] | None:
        try:  # the root itself may be given through a link; everything below it is walked
            root = os.open(self._root, _DIRECTORY_FLAGS & ~_NOFOLLOW)
        except _ERRORS:
            return None
        opened.append(root)
        stack = [Folder(root, "")]
        for name in top:
            fd = self._open_folder(stack[-1].fd, name, opened)
            if fd is None:
                return None
            stack.append(Folder(fd, name))
        return stack

    def _walk(self, top: list[str], segments: list[str], opened: list[int]) -> Place | None:
        stack = self._descend_top(top, opened)
        if stack is None:
            return None
        floor = len(stack)
        pending = deque(segments)
        hops = 0
        while pending:
            name = pending.popleft()
            if name in ("", "."):
                continue
            if name == "..":
                if len(stack) > floor:
                    stack.pop()
                continue
            try:
                target: str | None = os.readlink(name, dir_fd=stack[-1].fd)
            except _ERRORS:
                target = None  # not a link (or missing: the open below says which)
            if target is not None:
                hops += 1
                if hops > MAX_SYMLINK_HOPS or "\0" in target:
                    return None
                if target.startswith("/"):
                    stack = stack[:floor]  # an absolute link starts again at the top
                pending.extendleft(reversed(target.split("/")))
                continue
            if not any(part not in ("", ".") for part in pending):
                if self._before_step is not None:
                    self._before_step(name)
                return Place(stack[-1].fd, name, tuple(stack))
            fd = self._open_folder(stack[-1].fd, name, opened)
            if fd is None:
                return None
            stack.append(Folder(fd, name))
        return Place(stack[-1].fd, None, tuple(stack))


def place_stat(place: Place) -> os.stat_result | None:
    """What the place is, never following a link (a link swapped in reads as a link)."""
    try:
        if place.name is None:
            return os.fstat(place.folder)
        return os.stat(place.name, dir_fd=place.folder, follow_symlinks=False)
    except _ERRORS:
        return None


def open_place(place: Place, flags: int) -> int | None:
    """A descriptor of the place opened with ``flags`` and never following a link, or None."""
    try:
        if place.name is None:
            return os.dup(place.folder)
        return os.open(place.name, flags, dir_fd=place.folder)
    except _ERRORS:
        return None


def _read_regular(place: Place, size: int, offset: int) -> tuple[bytes, os.stat_result] | None:
    """At most ``size`` bytes from ``offset`` of a regular file at the place, with the ``fstat``
    of the descriptor they were read from; None when it is no regular file or cannot be read.

    As the live host does, a device or FIFO is normally never even opened: the place is stat'ed
    first, and the open descriptor checked again.
    """
    found = place_stat(place)
    if found is None or not stat.S_ISREG(found.st_mode):
        return None
    fd = open_place(place, _FILE_FLAGS)
    if fd is None:
        return None
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            return None
        os.lseek(fd, offset, os.SEEK_SET)
        chunks: list[bytes] = []
        while size > 0:
            chunk = os.read(fd, min(size, READ_CHUNK))
            if not chunk:
                break
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks), opened
    except _ERRORS:
        return None
    finally:
        os.close(fd)


def read_place(place: Place, size: int, offset: int) -> bytes | None:
    """At most ``size`` bytes from ``offset`` of a regular file at the place, else None."""
    found = _read_regular(place, size, offset)
    return None if found is None else found[0]


def read_place_facts(place: Place, size: int) -> FileRead | None:
    """At most ``size`` bytes of a regular file at the place, with the owner (a POSIX user id),
    mode and time its descriptor's ``fstat`` gives; None when it is no regular file."""
    found = _read_regular(place, size, 0)
    if found is None:
        return None
    data, opened = found
    return FileRead(data, str(opened.st_uid), opened.st_mtime, stat.S_IMODE(opened.st_mode))


def place_folders(place: Place) -> tuple[FolderFacts, ...] | None:
    """The owner (a POSIX user id) and mode of each folder above the place, its own first, each
    named by its path from the top (``/`` for the top itself); None when one cannot be read or
    there are more than ``MAX_ANCESTRY``.

    Each comes from the ``fstat`` of the folder the walk holds open, so a folder swapped after
    the walk went through it is never the one described.
    """
    trail = place.trail if place.name is not None else place.trail[:-1]
    if len(trail) > MAX_ANCESTRY:
        return None
    chain: list[FolderFacts] = []
    names: list[str] = []
    for folder in trail:
        if folder.name:
            names.append(folder.name)
        try:
            found = os.fstat(folder.fd)
        except _ERRORS:
            return None
        chain.append(
            FolderFacts("/" + "/".join(names), str(found.st_uid), stat.S_IMODE(found.st_mode))
        )
    return tuple(reversed(chain))


def list_place(place: Place, limit: int = MAX_DIR_ENTRIES) -> Listing:
    """Up to ``limit`` entry names of a folder at the place, sorted; empty when it is none."""
    fd = open_place(place, _DIRECTORY_FLAGS)
    if fd is None:
        return Listing()
    try:
        with os.scandir(fd) as entries:
            return listing_of(entries, limit)
    except _ERRORS:
        return Listing()
    finally:
        os.close(fd)
