"""The host seam: everything the resolver learns about a machine, it asks a ``Host``.

``Host`` is a small protocol, and this module holds only it and the value types it answers with:
it imports no implementation, so every implementation imports it and never the other way round.
``live_host.LiveHost`` is the only code that touches the real machine (the filesystem,
``os.environ``, sysfs, ``winreg``) and ``live_host.default_host()`` is what ``host=None`` means;
``rooted_host.RootedHost`` reads a directory tree as if it were ``/`` (fixture trees);
``hermes_decl.testing.FakeHost`` is an in-memory host for tests. Paths are strings in the host
OS's own form; a method never raises because of what it finds.

``LiveHost`` and ``default_host`` can still be imported from here: they are loaded from
``live_host`` on first use, so importing the protocol never loads an implementation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from hermes_decl.models import OsFamily
    from hermes_decl.resolver.live_host import LiveHost, default_host

__all__ = [
    "Host",
    "Listing",
    "LiveHost",
    "ProcessInfo",
    "UninstallEntries",
    "UninstallEntry",
    "default_host",
]

_IMPLEMENTATIONS = frozenset({"LiveHost", "default_host"})


def __getattr__(name: str) -> Any:
    """Load the live host from its own module on first use (it imports this one)."""
    if name in _IMPLEMENTATIONS:
        from hermes_decl.resolver import live_host

        return getattr(live_host, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class ProcessInfo:
    """Who owns a running process, in which session, and since when, as far as the host can tell."""

    user: str | None
    """The owner in the host's own form (a POSIX user id in decimal, a Windows SID); None when
    it cannot be read."""
    started: float | None
    """When the process started, in seconds since the epoch; None when it cannot be read."""
    session: int | None = None
    """The Windows session id; None on other systems or when it cannot be read."""


@dataclass(frozen=True)
class UninstallEntry:
    """One Windows uninstall entry: the values the resolver reads from it."""

    display_name: str | None
    display_version: str | None
    install_location: str | None


class Listing(tuple[str, ...]):
    """Names a host read, and whether it stopped before the end: the entry names of a
    directory (sorted), or the display adapters' device ids of a registry key (in key order).

    It is a tuple of names, so a host that never stops early may return a plain tuple instead.
    """

    truncated: bool
    """True when there are more names than the host read (a bound was hit)."""

    def __new__(cls, names: Iterable[str] = (), *, truncated: bool = False) -> Listing:
        listing = super().__new__(cls, names)
        listing.truncated = truncated
        return listing

    def __repr__(self) -> str:
        return f"Listing({tuple(self)!r}, truncated={self.truncated!r})"


class UninstallEntries(tuple[UninstallEntry, ...]):
    """Windows uninstall entries in the order read, and whether the host stopped before the end.

    It is a tuple of entries, so a host that never stops early may return a plain tuple instead.
    """

    truncated: bool
    """True when a registry key has more entries than the host read (a bound was hit)."""

    def __new__(
        cls, entries: Iterable[UninstallEntry] = (), *, truncated: bool = False
    ) -> UninstallEntries:
        read = super().__new__(cls, entries)
        read.truncated = truncated
        return read

    def __repr__(self) -> str:
        return f"UninstallEntries({tuple(self)!r}, truncated={self.truncated!r})"


@runtime_checkable
class Host(Protocol):
    """What the resolver may ask of a machine."""

    @property
    def os_family(self) -> OsFamily | None:
        """The machine's OS family; None for an OS that is none of the three (FreeBSD, AIX…)."""
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
        """The entry names of a directory, sorted; empty when it cannot be listed.

        A host that stops listing at a bound returns a ``Listing`` with ``truncated=True`` (a
        plain tuple means the listing is whole), so the resolver's trace can say a place may
        hold more than was seen. The resolver re-checks every name before joining it to a path.
        """
        ...

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None:
        """At most ``size`` bytes from ``offset`` of a regular file; None if not one or unreadable.

        Never blocks on a FIFO or device and never reads more than asked.
        """
        ...

    def which(self, name: str) -> str | None:
        """A command found on the host's search path (PATH, or one the host was given), or None.

        PATHEXT applies on Windows.
        """
        ...

    def uninstall_entries(self) -> tuple[UninstallEntry, ...]:
        """Windows uninstall entries: HKLM, its WOW6432Node twin, then HKCU; empty elsewhere.

        A host that stops reading at a bound returns ``UninstallEntries`` with
        ``truncated=True``, so the resolver never reads a cut list as complete.
        """
        ...

    def display_device_ids(self) -> tuple[str, ...]:
        """Windows display adapters' ``MatchingDeviceId`` values; empty elsewhere.

        A host that stops reading at a bound returns a ``Listing`` with ``truncated=True``, so
        the GPU survey never reads a cut list as complete.
        """
        ...

    def native_machine(self) -> str:
        """The machine's CPU architecture, not the process's: ``x86_64`` or ``arm64``.

        A process translated by Rosetta or emulated on Windows still answers for the machine.
        Any other architecture is answered in lower case as the OS names it (``riscv64``), and
        ``""`` when it cannot be told.
        """
        ...

    def os_version(self) -> str | None:
        """The OS's own version (macOS ``13.6.1``, Windows ``10.0.19045``); None when unknown.

        macOS answers ``ProductVersion`` of ``SystemVersion.plist``; Windows its real version,
        not one a compatibility shim reports; Linux, and any other OS, None.
        """
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
