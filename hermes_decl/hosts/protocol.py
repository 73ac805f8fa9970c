"""The host seam: everything the resolver learns about a machine, it asks a ``Host``.

``Host`` is a small protocol made of facets (``HostFiles``, ``HostEnvironment``,
``HostProcesses``, ``HostSockets``, ``HostRegistry``, ``HostHardware``; ``HostDrives`` is
optional), so code that needs one facet can ask for it and a test can fake only that. This
module holds the protocol, the values it answers with and the bounds policy code needs; it
imports no implementation, so every implementation imports it and never the other way round.
``hosts.live.LiveHost`` is the only code that touches the real machine and ``hosts.default`` is
where ``host=None`` becomes it; ``hosts.rooted.RootedHost`` reads a directory tree as if it were
``/`` (fixture trees); ``hosts.fake.FakeHost`` is an in-memory host for tests. Paths are strings
in the host OS's own form; a method never raises because of what it finds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from hermes_decl.models import OsFamily

__all__ = [
    "MAX_ANCESTRY",
    "MAX_DIR_ENTRIES",
    "MAX_PID",
    "MAX_SUBKEYS",
    "FileRead",
    "FolderFacts",
    "Host",
    "HostDrives",
    "HostEnvironment",
    "HostFiles",
    "HostHardware",
    "HostProcesses",
    "HostRegistry",
    "HostSockets",
    "Listing",
    "ProcessInfo",
    "TcpListener",
    "UninstallEntries",
    "UninstallEntry",
    "valid_pid",
]

MAX_PID = 2**31 - 1
"""The highest process id ever asked about; a larger (or non-positive) one is never alive."""

MAX_DIR_ENTRIES = 100_000
"""The most entry names of one directory that a host lists and the resolver reads."""

MAX_ANCESTRY = 64
"""At most this many folders above a file, or parents above a process, are ever looked at."""

MAX_SUBKEYS = 4096
"""At most this many subkeys of one registry key are read; past it the answer is truncated."""


def valid_pid(pid: object) -> bool:
    """Whether ``pid`` is an int (not a bool) in ``1..MAX_PID``: the only ids ever asked about."""
    return not isinstance(pid, bool) and isinstance(pid, int) and 1 <= pid <= MAX_PID


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
class FileRead:
    """A regular file's bytes and what ``fstat`` said of the very descriptor they were read from.

    Owner, mode and time come from that one descriptor, so they describe the bytes read even if
    the path is replaced a moment later.
    """

    data: bytes
    owner: str | None
    """The owner in the host's own form (a POSIX user id in decimal, a Windows SID); None when
    it cannot be read."""
    mtime: float | None
    """When it was last modified, in seconds since the epoch; None when it cannot be read."""
    mode: int | None = None
    """Its POSIX permission bits (``st_mode & 0o7777``); None where the OS has none (Windows)."""


@dataclass(frozen=True)
class FolderFacts:
    """Who owns a folder and its POSIX permission bits (None where the OS has none)."""

    path: str
    owner: str | None
    mode: int | None = None


@dataclass(frozen=True)
class TcpListener:
    """A TCP socket listening where a loopback connection could reach, and who holds it."""

    user: str | None
    """Its owner in the host's own form; None when the OS does not say."""
    pids: tuple[int, ...] | None
    """The processes holding it; None when the OS does not say which."""


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
class HostFiles(Protocol):
    """The files of a machine: what exists, what a directory lists, bounded reads."""

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

    def file_mtime(self, path: str) -> float | None:
        """When a regular file was last modified, in seconds since the epoch; None if not one."""
        ...

    def read_file_facts(self, path: str, size: int) -> FileRead | None:
        """At most ``size`` bytes of a regular file with the ``fstat`` of the same descriptor;
        None if not one or unreadable. Never blocks, as ``read_file``."""
        ...

    def folders_above(self, path: str) -> tuple[FolderFacts, ...] | None:
        """Each folder above ``path``, its own folder first, links resolved, at most
        ``MAX_ANCESTRY``; None when they cannot be read."""
        ...


@runtime_checkable
class HostEnvironment(Protocol):
    """The environment a machine's user sees: variables, homes and the command search path."""

    def getenv(self, name: str) -> str | None:
        """An environment variable, or None when unset (case-insensitive on Windows)."""
        ...

    def home(self) -> str | None:
        """The user's home directory, or None when it cannot be told."""
        ...

    def user_home(self, user: str) -> str | None:
        """Another user's home directory (for ``~user``), or None."""
        ...

    def which(self, name: str) -> str | None:
        """A command found on the host's search path (PATH, or one the host was given), or None.

        PATHEXT applies on Windows.
        """
        ...


@runtime_checkable
class SearchesFolders(Protocol):
    """A host whose ``which`` searches a list of folders by ``pathsearch``'s rules, and says
    which: the resolver then does not look again for a command in a folder ``which`` searched.

    Optional: a host without it has every known folder searched, whatever its ``which`` did.
    """

    def searched_folders(self) -> tuple[str, ...]:
        """The folders ``which`` searches, in order, as ``pathsearch.searched_folders`` gives."""
        ...


@runtime_checkable
class HostProcesses(Protocol):
    """The processes of a machine and the desktop session the host itself runs in."""

    def process_alive(self, pid: int) -> bool:
        """Whether a process with this id exists (another user's counts); never raises."""
        ...

    def process_info(self, pid: int) -> ProcessInfo | None:
        """The owner, session and start time of a running process; None when there is none."""
        ...

    def own_process(self) -> ProcessInfo:
        """The owner and session of the host's own process, which a runtime file's must match."""
        ...

    def process_parent(self, pid: int) -> int | None:
        """The id of a running process's parent; None when there is none or it cannot be read."""
        ...

    def interactive_session(self) -> bool | None:
        """Whether the host runs inside a logged-in desktop session; None when it cannot tell.

        Linux: ``WAYLAND_DISPLAY``, ``DISPLAY`` or ``XDG_SESSION_TYPE``; macOS: the console
        user's Aqua session; Windows: a session other than 0.
        """
        ...


@runtime_checkable
class HostSockets(Protocol):
    """The TCP sockets listening on this machine's loopback addresses."""

    def tcp_listeners(self, address: str, port: int) -> tuple[TcpListener, ...] | None:
        """Every socket listening that a TCP connection to ``address`` and ``port`` could reach
        (that address or a wildcard one); None when the OS does not tell."""
        ...


@runtime_checkable
class HostRegistry(Protocol):
    """What a Windows machine's registry says; empty on other systems."""

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


@runtime_checkable
class HostHardware(Protocol):
    """The machine itself: its CPU architecture and its OS's version."""

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


@runtime_checkable
class HostDrives(Protocol):
    """Which drives of a Windows machine are network drives: an optional facet, since a host
    without it has none (``Host`` does not require it, so a custom host keeps working)."""

    def drive_is_remote(self, path: str) -> bool:
        """Whether the drive a Windows path starts at (``Z:\\``) is a network drive, as
        ``GetDriveTypeW``'s ``DRIVE_REMOTE`` says; False for any other path and elsewhere.

        It asks about the drive letter only and never touches the path.
        """
        ...


@runtime_checkable
class Host(
    HostFiles, HostEnvironment, HostProcesses, HostSockets, HostRegistry, HostHardware, Protocol
):
    """What the resolver may ask of a machine: every facet, and which OS family it is."""

    @property
    def os_family(self) -> OsFamily | None:
        """The machine's OS family; None for an OS that is none of the three (FreeBSD, AIX…)."""
        ...
