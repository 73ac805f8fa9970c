"""Windows network drives: whether the drive a path starts at is a mapped share, asked of
``GetDriveTypeW`` by drive letter only, so the path itself is never touched."""

from __future__ import annotations

import sys
from collections.abc import Callable

if sys.platform == "win32":
    from hermes_decl.hosts.live._windows_api import get_drive_type

DRIVE_REMOTE = 4
"""What ``GetDriveTypeW`` answers for a network drive (a mapped share)."""


def drive_root(path: str) -> str | None:
    """The root of a Windows path's drive, as ``GetDriveTypeW`` takes it (``Z:\\``), else None."""
    if len(path) >= 2 and path[0].isascii() and path[0].isalpha() and path[1] == ":":
        return path[0].upper() + ":\\"
    return None


def remote_drive(path: str, drive_type: Callable[[str], int | None]) -> bool:
    """Whether ``drive_type`` says the drive of ``path`` is ``DRIVE_REMOTE``; never raises."""
    root = drive_root(path)
    if root is None:
        return False
    try:
        return drive_type(root) == DRIVE_REMOTE
    except (OSError, AttributeError, TypeError, ValueError):
        return False


def drive_is_remote(path: str) -> bool:
    """Whether the drive a path starts at is a network drive on this Windows machine."""
    if sys.platform == "win32":
        return remote_drive(path, get_drive_type)
    else:
        return False
