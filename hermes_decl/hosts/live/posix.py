"""What the live host does the same way on Linux and macOS: ``kill(pid, 0)`` and the user database.

The user database is ``/etc/passwd`` read as a file (``hosts.passwd``), never ``getpwnam`` or
``getpwuid``: those ask the name service, which may ask the network.

Importable on every OS: the calls only POSIX has sit behind ``sys.platform`` guards.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from hermes_decl.hosts.live.file_primitives import read_regular_file
from hermes_decl.hosts.passwd import passwd_home
from hermes_decl.hosts.protocol import ProcessInfo

__all__ = ["home", "own_process", "pid_exists", "posix_pid_exists", "user_home"]


def posix_pid_exists(pid: int, kill: Callable[[int, int], None]) -> bool:
    """Ask ``kill(pid, 0)`` whether a process exists; EPERM means it does, another user's."""
    try:
        kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except (OSError, ValueError, OverflowError):
        return False
    return True


def pid_exists(pid: int) -> bool:
    """Whether a process with this id exists here, through ``kill(pid, 0)``; never raises."""
    return posix_pid_exists(pid, os.kill)


def own_process() -> ProcessInfo:
    """This process's effective user id (no session: that is Windows')."""
    if sys.platform == "win32":
        return ProcessInfo(user=None, started=None)
    else:
        return ProcessInfo(user=str(os.geteuid()), started=None)


def home() -> str | None:
    """HOME, else the current user's entry in ``/etc/passwd``; None when neither tells."""
    found = os.environ.get("HOME")
    if found:
        return found
    if sys.platform == "win32":
        return None
    else:
        return passwd_home(read_regular_file, uid=os.getuid())


def user_home(user: str) -> str | None:
    """Another user's home from ``/etc/passwd`` read as a file; None when it lists none."""
    return passwd_home(read_regular_file, user=user)
