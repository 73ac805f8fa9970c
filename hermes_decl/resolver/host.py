"""The host seam: everything the resolver learns about a machine, it asks a ``Host``.

``Host`` is a small protocol. ``LiveHost`` is the only code that touches the real machine (the
filesystem, ``os.environ``, sysfs, ``winreg``); ``RootedHost`` reads a directory tree as if it
were ``/`` (fixture trees); ``hermes_decl.testing.FakeHost`` is an in-memory host for tests.
Paths are strings in the host OS's own form; a method never raises because of what it finds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from hermes_decl.models import OsFamily
from hermes_decl.resolver.live_host import LiveHost, default_host
from hermes_decl.resolver.runtime_facts import ProcessInfo

__all__ = ["Host", "LiveHost", "ProcessInfo", "UninstallEntry", "default_host"]


@dataclass(frozen=True)
class UninstallEntry:
    """One Windows uninstall entry: the values the resolver reads from it."""

    display_name: str | None
    display_version: str | None
    install_location: str | None


@runtime_checkable
class Host(Protocol):
    """What the resolver may ask of a machine."""

    @property
    def os_family(self) -> OsFamily:
        """The machine's OS family."""
        ...

    def getenv(self, name: str) -> str | None:
        """An environment variable, or None when unset (case-insensitive on Windows)."""
        ...

    def home(self) -> str | None:
        """The user's home directory, or None when it cannot be told."""
        ...

    def user_home(self, user: str) -> str | None:
        """Another user's home directory (for ``~user``), or None."""
        ...

    def is_file(self, path: str) -> bool:
        """Whether ``path`` is a regular file (symlinks followed)."""
        ...

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory (symlinks followed)."""
        ...

    def list_dir(self, path: str) -> tuple[str, ...]:
        """The entry names of a directory, sorted; empty when it cannot be listed."""
        ...

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None:
        """At most ``size`` bytes from ``offset`` of a regular file; None if not one or unreadable.

        Never blocks on a FIFO or device and never reads more than asked.
        """
        ...

    def which(self, name: str) -> str | None:
        """The path of a command found on the host's PATH (with PATHEXT on Windows), or None."""
        ...

    def uninstall_entries(self) -> tuple[UninstallEntry, ...]:
        """Windows uninstall entries: HKLM, its WOW6432Node twin, then HKCU; empty elsewhere."""
        ...

    def display_device_ids(self) -> tuple[str, ...]:
        """Windows display adapters' ``MatchingDeviceId`` values; empty elsewhere."""
        ...

    def machine(self) -> str:
        """The CPU architecture as the OS names it (``x86_64``, ``arm64``, ``AMD64``…)."""
        ...

    def process_alive(self, pid: int) -> bool:
        """Whether a process with this id exists (another user's counts); never raises."""
        ...

    # -- runtime status (SPEC 11): who runs the application, and where ----------------------

    def process_info(self, pid: int) -> ProcessInfo | None:
        """The owner, session and start time of a running process; None when there is none."""
        ...

    def own_process(self) -> ProcessInfo:
        """The owner and session of the host's own process, which a runtime file's must match."""
        ...

    def file_mtime(self, path: str) -> float | None:
        """When a regular file was last modified, in seconds since the epoch; None if not one."""
        ...

    def interactive_session(self) -> bool | None:
        """Whether the host runs inside a logged-in desktop session; None when it cannot tell.

        Linux: ``WAYLAND_DISPLAY``, ``DISPLAY`` or ``XDG_SESSION_TYPE``; macOS: the console
        user's Aqua session; Windows: a session other than 0.
        """
        ...
