"""Opening a file someone else named: never blocking, and only when it is a regular file.

A path may name a FIFO (whose open waits for a writer), a terminal (which an open may make the
controlling one), a device or a directory, or be swapped for one between a check and the open. So
the path is opened without blocking and without taking a terminal, and the open descriptor, not
the path, is checked: anything but a regular file is closed unread.
"""

from __future__ import annotations

import os
import stat
import sys

if sys.platform == "win32":
    OPEN_FLAGS = os.O_RDONLY | os.O_BINARY | os.O_NOINHERIT
else:
    # O_NOFOLLOW is deliberately not used: symlinks are followed, like every other host method.
    OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
"""Read-only, never blocking on open, never a controlling terminal, not inherited by children."""


class NotRegularFile(OSError):
    """The path opened, but what it names is not a regular file (``kind`` says what it is)."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"not a regular file: {kind}")
        self.kind = kind


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words: ``a directory``, ``a FIFO``…"""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISREG(mode):
        return "a regular file"
    return "an unknown kind of file"


def open_regular(path: str | bytes | os.PathLike[str]) -> int:
    """A read-only descriptor of the regular file at ``path`` (the caller closes it).

    Raises ``NotRegularFile`` (closing what it opened) when the path names anything else, and
    whatever ``os.open`` raises when it cannot be opened.
    """
    fd = os.open(path, OPEN_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
    except BaseException:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotRegularFile(file_kind(mode))
    return fd
