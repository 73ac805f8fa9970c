"""``FakeHost``: an in-memory machine for testing code that evaluates declarations.

Host integrators build the machine their test needs and pass it as ``host=``; nothing touches
the real filesystem, environment or registry, and every question asked is counted::

    from hermes_decl.testing import FakeHost

    host = FakeHost("win32", env={"PATH": r"C:\\Tools"})
    host.add_pe(r"C:\\Program Files\\Vendor\\studio.exe", "24.1.0.7")
    host.add_uninstall_entry("Vendor Studio", "24.1", r"C:\\Program Files\\Vendor")
    host.add_display_device(r"PCI\\VEN_10DE&DEV_2684")
    host.add_process(4242)
    ...
    assert host.calls["uninstall_entries"] == 1

The host runs as ``user`` (``"1000"`` unless given) in Windows session ``session``; a process
added without an owner is that user's, started at ``DEFAULT_PROCESS_START``, and a file added
without a modification time was written at ``DEFAULT_FILE_MTIME``, a minute later, so a runtime
file is younger than its process unless a test says otherwise. Files and folders belong to that
user (the root folder to ``"0"``) with modes ``DEFAULT_FILE_MODE`` and ``DEFAULT_FOLDER_MODE``
(none on win32) unless given; nothing listens on a TCP port until ``add_listener`` says so.

Paths must be absolute for the host's OS (``/…`` for linux and darwin, ``C:\\…`` for win32). On
win32 they are case-insensitive and accept both ``\\`` and ``/``; elsewhere they are
case-sensitive. Adding a file implies its parent directories. ``FakeHost(None)`` is a machine
whose OS is none of the three (FreeBSD, AIX…), with POSIX paths.
"""

from __future__ import annotations

import plistlib
from collections import Counter
from collections.abc import Mapping

from hermes_decl.hosts._pe_image import build_pe
from hermes_decl.hosts.desktop_session import desktop_session_from_env
from hermes_decl.hosts.fake_drives import FakeDrives
from hermes_decl.hosts.fake_runtime import (
    DEFAULT_FILE_MODE,
    DEFAULT_FILE_MTIME,
    DEFAULT_FOLDER_MODE,
    DEFAULT_PROCESS_START,
    FakeRuntime,
)
from hermes_decl.hosts.fake_tree import Tree
from hermes_decl.hosts.machine import normalise_machine
from hermes_decl.hosts.os_version import macos_version
from hermes_decl.hosts.pathsearch import host_searched_folders, host_which
from hermes_decl.hosts.protocol import (
    MAX_DIR_ENTRIES,
    MAX_SUBKEYS,
    Listing,
    ProcessInfo,
    TcpListener,
    UninstallEntries,
    UninstallEntry,
)
from hermes_decl.models import OsFamily

__all__ = [
    "DEFAULT_FILE_MODE",
    "DEFAULT_FILE_MTIME",
    "DEFAULT_FOLDER_MODE",
    "DEFAULT_PROCESS_START",
    "DEFAULT_USER",
    "FakeHost",
]

DEFAULT_USER = "1000"
"""The user a ``FakeHost`` runs as unless told otherwise."""

NVIDIA_PROC_VERSION = (
    b"NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.14  Thu Feb 22 01:44:30 UTC 2024\n"
    b"GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n"
)
"""What ``add_nvidia_proc`` writes to ``/proc/driver/nvidia/version``."""


class FakeHost(FakeRuntime, FakeDrives):
    """An in-memory ``Host`` (with ``HostDrives``: ``add_remote_drive``) recording every call.

    ``calls`` counts calls by method name and ``call_log`` keeps ``(method, args)`` in order;
    ``reset_calls()`` empties both. Reading the ``os_family`` property is not counted: it is a
    fixed fact of the host, not a question about the machine. ``search_path``, when given, is
    what ``which`` searches instead of PATH (a host's login-shell PATH, say); ``os_version`` is
    what ``os_version()`` answers (a darwin host without one reads an added
    ``SystemVersion.plist``, as a Mac does). Setup methods
    (``add_*``, ``set_env``) are not counted either, and return the host so they can be chained.

    ``list_dir`` lists at most ``max_dir_entries`` names, as the live host does, and then marks
    its ``Listing`` truncated; a small bound stands in for a huge folder. Likewise
    ``uninstall_entries`` and ``display_device_ids`` answer at most ``max_registry_entries``
    (the live host's bound on one registry key's subkeys) and then mark their answer truncated.
    """

    def __init__(
        self,
        os_family: OsFamily | None = "linux",
        *,
        env: Mapping[str, str] | None = None,
        home: str | None = None,
        native_machine: str = "x86_64",
        search_path: str | None = None,
        users: Mapping[str, str] | None = None,
        user: str = DEFAULT_USER,
        session: int | None = None,
        interactive_session: bool | None = None,
        os_version: str | None = None,
        max_dir_entries: int = MAX_DIR_ENTRIES,
        max_registry_entries: int = MAX_SUBKEYS,
    ) -> None:
        if os_family is not None and os_family not in ("win32", "darwin", "linux"):
            raise ValueError(
                f"os_family must be 'win32', 'darwin', 'linux' or None, got {os_family!r}"
            )
        self._os_family: OsFamily | None = os_family
        self._env: dict[str, str] = {}
        for name, value in (env or {}).items():
            self.set_env(name, value)
        self._home = home
        self._native_machine = normalise_machine(native_machine)
        self._search_path = search_path
        self._users = dict(users or {})
        self._user = user
        self._session = session
        self._interactive_session = interactive_session
        self._os_version = os_version
        self._max_dir_entries = max_dir_entries
        self._max_registry_entries = max_registry_entries
        self._tree = Tree(ignore_case=os_family == "win32")
        self._next_pci_slot = 1
        self._listeners: dict[tuple[str, int], list[TcpListener]] = {}
        self._uninstall: list[UninstallEntry] = []
        self._display_ids: list[str] = []
        self._processes: dict[int, ProcessInfo] = {}
        self._parents: dict[int, int] = {}
        self.calls: Counter[str] = Counter()
        self.call_log: list[tuple[str, tuple[object, ...]]] = []
        self._tree.add_root(self._root_key())

    def __repr__(self) -> str:
        tree = self._tree
        return f"FakeHost({self._os_family!r}, files={tree.files}, dirs={tree.folders})"

    # -- setting the machine up --------------------------------------------------------------

    def add_file(
        self,
        path: str,
        data: bytes = b"",
        *,
        mtime: float | None = None,
        owner: str | None = None,
        mode: int | None = None,
    ) -> FakeHost:
        """A regular file with ``data``, modified at ``mtime`` (default ``DEFAULT_FILE_MTIME``),
        owned by ``owner`` (default the host's user) with POSIX ``mode`` (default
        ``DEFAULT_FILE_MODE``; none on win32).

        Its parent directories are implied.
        """
        root, names = self._split_for_setup(path)
        node = self._tree.add(path, root, names, folder=False)
        node.data = bytes(data)
        node.mtime = DEFAULT_FILE_MTIME if mtime is None else mtime
        node.owner, node.mode = owner, mode
        return self

    def add_executable(self, path: str, data: bytes = b"") -> FakeHost:
        """An executable: on every OS that is just a regular file (SPEC 6.3)."""
        return self.add_file(path, data)

    def add_dir(self, path: str, *, owner: str | None = None, mode: int | None = None) -> FakeHost:
        """A directory (and its parents), owned by ``owner`` (default the host's user) with
        POSIX ``mode`` (default ``DEFAULT_FOLDER_MODE``; none on win32)."""
        root, names = self._split_for_setup(path)
        node = self._tree.add(path, root, names, folder=True)
        if owner is not None or mode is not None:
            node.owner, node.mode = owner, mode
        return self

    def add_bundle(self, path: str, version: str | None = None) -> FakeHost:
        """A macOS bundle: a directory with ``Contents/Info.plist`` (XML).

        With ``version`` the plist has ``CFBundleShortVersionString`` and ``CFBundleVersion``;
        without it the plist has no version keys (the bundle is present, its version unreadable).
        """
        name = self._split_for_setup(path)[1][-1].rsplit(".", 1)[0]
        info: dict[str, str] = {"CFBundleName": name, "CFBundlePackageType": "APPL"}
        if version is not None:
            info["CFBundleShortVersionString"] = version
            info["CFBundleVersion"] = version
        self.add_dir(path)
        return self.add_file(self._join(path, "Contents", "Info.plist"), plistlib.dumps(info))

    def add_pe(self, path: str, version: str, *, mtime: float | None = None) -> FakeHost:
        """A minimal valid PE32+ executable whose ``VS_FIXEDFILEINFO`` file version is ``version``.

        ``version`` is one to four dot-separated numbers (``"24.1.0.7"``); ``mtime`` is as for
        ``add_file``.
        """
        return self.add_file(path, build_pe(version), mtime=mtime)

    def add_uninstall_entry(
        self,
        display_name: str | None,
        display_version: str | None = None,
        install_location: str | None = None,
    ) -> FakeHost:
        """A Windows uninstall entry, returned after those added before it (win32 hosts only)."""
        self._require("win32", "add_uninstall_entry")
        self._uninstall.append(UninstallEntry(display_name, display_version, install_location))
        return self

    def add_display_device(self, matching_device_id: str) -> FakeHost:
        """A display adapter's ``MatchingDeviceId`` (``PCI\\VEN_10DE&DEV_…``; win32 only)."""
        self._require("win32", "add_display_device")
        self._display_ids.append(matching_device_id)
        return self

    def add_pci_device(
        self, vendor: str = "0x10de", device_class: str = "0x030000", slot: str | None = None
    ) -> FakeHost:
        """A PCI device under ``/sys/bus/pci/devices/<slot>/`` with ``vendor`` and ``class`` files.

        ``slot`` defaults to the next free ``0000:NN:00.0``. Linux hosts only.
        """
        self._require("linux", "add_pci_device")
        devices = "/sys/bus/pci/devices"
        while slot is None:
            free = f"0000:{self._next_pci_slot:02x}:00.0"
            self._next_pci_slot += 1
            slot = None if self._node(f"{devices}/{free}") is not None else free
        self.add_file(f"{devices}/{slot}/vendor", vendor.encode() + b"\n")
        return self.add_file(f"{devices}/{slot}/class", device_class.encode() + b"\n")

    def add_nvidia_proc(self) -> FakeHost:
        """``/proc/driver/nvidia/version``, as the NVIDIA kernel driver creates it (linux only)."""
        self._require("linux", "add_nvidia_proc")
        return self.add_file("/proc/driver/nvidia/version", NVIDIA_PROC_VERSION)

    def set_env(self, name: str, value: str | None) -> FakeHost:
        """Set an environment variable, or unset it with ``None`` (names ignore case on win32)."""
        key = name.upper() if self._os_family == "win32" else name
        self._env.pop(key, None)
        if value is not None:
            self._env[key] = value
        return self

    def reset_calls(self) -> None:
        """Forget every call recorded so far."""
        self.calls.clear()
        self.call_log.clear()

    # -- the Host protocol -------------------------------------------------------------------

    @property
    def os_family(self) -> OsFamily | None:
        """The OS family given to the constructor (reading it is not counted)."""
        return self._os_family

    def getenv(self, name: str) -> str | None:
        """An environment variable, or None (case-insensitive on win32)."""
        self._record("getenv", name)
        return self._getenv(name)

    def home(self) -> str | None:
        """The given home, else HOME (USERPROFILE on win32) from the environment, else None."""
        self._record("home")
        if self._home is not None:
            return self._home
        return self._getenv("USERPROFILE" if self._os_family == "win32" else "HOME") or None

    def user_home(self, user: str) -> str | None:
        """The home given for ``user`` in the constructor's ``users``, or None."""
        self._record("user_home", user)
        return self._users.get(user)

    def is_file(self, path: str) -> bool:
        """Whether a file was added at ``path``."""
        self._record("is_file", path)
        return self._is_file(path)

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory (added, or implied by what is below it)."""
        self._record("is_dir", path)
        node = self._node(path)
        return node is not None and node.children is not None

    def list_dir(self, path: str) -> Listing:
        """The names directly in a directory, sorted; past ``max_dir_entries``, cut and marked."""
        self._record("list_dir", path)
        return self._list(path)

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None:
        """At most ``size`` bytes from ``offset`` of an added file; None when there is none."""
        self._record("read_file", path, size, offset)
        node = self._node(path)
        if node is None or node.children is not None or size < 0 or offset < 0:
            return None
        return node.data[offset : offset + size]

    def searched_folders(self) -> tuple[str, ...]:
        """The folders ``which`` searches: the search path given, else PATH's."""
        return host_searched_folders(
            os_family=self._os_family, given_path=self._search_path, getenv=self._getenv
        )

    def which(self, name: str) -> str | None:
        """A command on the search path given, else PATH (PATHEXT on win32), among added files."""
        self._record("which", name)
        return host_which(
            name,
            os_family=self._os_family,
            given_path=self._search_path,
            getenv=self._getenv,
            is_file=self._is_file,
        )

    def uninstall_entries(self) -> UninstallEntries:
        """The uninstall entries added, in order (always empty on linux and darwin); past
        ``max_registry_entries``, cut and marked."""
        self._record("uninstall_entries")
        bound = self._max_registry_entries
        entries = self._uninstall[:bound]
        return UninstallEntries(entries, truncated=len(self._uninstall) > bound)

    def display_device_ids(self) -> Listing:
        """The display device ids added, in order (always empty on linux and darwin); past
        ``max_registry_entries``, cut and marked."""
        self._record("display_device_ids")
        bound = self._max_registry_entries
        return Listing(self._display_ids[:bound], truncated=len(self._display_ids) > bound)

    def native_machine(self) -> str:
        """The architecture given to the constructor, normalised (``AMD64`` is ``x86_64``)."""
        self._record("native_machine")
        return self._native_machine

    def os_version(self) -> str | None:
        """The OS version given to the constructor; else, on darwin, ``ProductVersion`` of an
        added ``/System/Library/CoreServices/SystemVersion.plist``; else None."""
        self._record("os_version")
        if self._os_version is not None:
            return self._os_version
        return macos_version(self) if self._os_family == "darwin" else None

    def interactive_session(self) -> bool | None:
        """The constructor's ``interactive_session``; when not given, Linux reads the environment
        as the live host does (``DISPLAY``, ``WAYLAND_DISPLAY``, ``XDG_SESSION_TYPE``) and the
        other systems cannot tell (None)."""
        self._record("interactive_session")
        if self._interactive_session is not None:
            return self._interactive_session
        if self._os_family == "linux":
            return desktop_session_from_env(self._getenv)
        return None

    # -- internals ---------------------------------------------------------------------------

    def _getenv(self, name: str) -> str | None:
        """An environment variable without counting the call."""
        return self._env.get(name.upper() if self._os_family == "win32" else name)

    def _is_file(self, path: str) -> bool:
        """``is_file`` without counting the call (used by ``which``)."""
        node = self._node(path)
        return node is not None and node.children is None

    def _list(self, path: str) -> Listing:
        """``list_dir`` without counting the call."""
        node = self._node(path)
        if node is None or node.children is None:
            return Listing()
        names = node.listing()
        bound = self._max_dir_entries
        return Listing(names[:bound], truncated=len(names) > bound)
