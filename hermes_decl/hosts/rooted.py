"""A host that reads a directory tree as if it were the machine's ``/`` (fixture trees, snapshots).

Every absolute path the resolver asks about maps into the tree: ``/a/b`` reads ``<root>/a/b``; for
a win32 host ``C:\\a\\b`` reads ``<root>/C/a/b``. Symbolic links inside the tree are resolved the
way a chroot would: an absolute target restarts at the tree's root and ``..`` never climbs above
it, so no path can ever leave the tree; where the OS has ``openat``, the path is resolved and
opened in one walk (``hosts.rooted_walk``), so a folder swapped for a link mid-way cannot lead
out of it either. Nothing comes from the real machine but the tree's files:
the environment, home, native architecture, search path, Windows registry answers, live
process ids and (but for darwin, whose tree holds ``SystemVersion.plist``) the OS version are
given to the constructor. An ``os_family`` of None stands for an operating system
that is none of the three (FreeBSD, AIX…), with POSIX paths.
"""

from __future__ import annotations

import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TypeVar

from hermes_decl.hosts.desktop_session import desktop_session_from_env
from hermes_decl.hosts.live.file_primitives import (
    file_modified,
    folder_chain,
    list_dir_names,
    path_is_dir,
    path_is_file,
    read_link,
    read_regular_file,
    read_regular_file_facts,
)
from hermes_decl.hosts.machine import normalise_machine
from hermes_decl.hosts.os_version import macos_version
from hermes_decl.hosts.passwd import MAX_PASSWD_BYTES as MAX_PASSWD_BYTES
from hermes_decl.hosts.passwd import passwd_home
from hermes_decl.hosts.pathsearch import SearchesCommands
from hermes_decl.hosts.protocol import (
    MAX_ANCESTRY,
    FileRead,
    FolderFacts,
    Listing,
    ProcessInfo,
    TcpListener,
    UninstallEntries,
    UninstallEntry,
)
from hermes_decl.hosts.rooted_walk import AVAILABLE as WALKS_IN_ONE_STEP
from hermes_decl.hosts.rooted_walk import MAX_SYMLINK_HOPS as MAX_SYMLINK_HOPS
from hermes_decl.hosts.rooted_walk import (
    Place,
    StepHook,
    TreeWalk,
    list_place,
    place_folders,
    place_stat,
    read_place,
    read_place_facts,
)
from hermes_decl.models import OsFamily

_UNSAFE_SEGMENT_CHARS = "\\:" if os.name == "nt" else ""
"""Characters that would make ``os.path.join`` leave the tree on a Windows machine."""

T = TypeVar("T")

ROOTED_USER = "1000"
"""The user a ``RootedHost`` runs as unless told otherwise."""


class RootedHost(SearchesCommands):
    """A directory tree seen as a whole machine of ``os_family``; see the module docstring."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        os_family: OsFamily | None = "linux",
        env: Mapping[str, str] | None = None,
        home: str | None = None,
        native_machine: str = "x86_64",
        *,
        search_path: str | None = None,
        uninstall_entries: Iterable[UninstallEntry] = (),
        display_device_ids: Iterable[str] = (),
        live_pids: Iterable[int] = (),
        processes: Mapping[int, ProcessInfo] | None = None,
        user: str = ROOTED_USER,
        session: int | None = None,
        interactive_session: bool | None = None,
        os_version: str | None = None,
        before_step: StepHook | None = None,
        listeners: Mapping[int, Iterable[TcpListener]] | None = None,
    ) -> None:
        self._root = os.path.abspath(os.fspath(root))
        # ``before_step`` is for tests: it runs before each name of a walk is opened.
        self._walk = TreeWalk(self._root, before_step=before_step)
        self._os_family: OsFamily | None = os_family
        self._env = dict(env or {})
        self._home = home
        self._native_machine = normalise_machine(native_machine)
        self._search_path = search_path
        # A cut answer given as UninstallEntries or Listing keeps its mark.
        self._uninstall_entries = (
            uninstall_entries
            if isinstance(uninstall_entries, UninstallEntries)
            else tuple(uninstall_entries)
        )
        self._display_device_ids = (
            display_device_ids
            if isinstance(display_device_ids, Listing)
            else tuple(display_device_ids)
        )
        # A live pid given without facts is the host user's, started before any file was written.
        self._processes = {
            pid: ProcessInfo(user=user, started=0.0, session=session) for pid in live_pids
        }
        self._processes.update(processes or {})
        self._user = user
        self._session = session
        self._interactive_session = interactive_session
        self._os_version = os_version
        self._listeners = {port: tuple(found) for port, found in (listeners or {}).items()}

    def __repr__(self) -> str:
        return f"RootedHost({self._root!r}, os_family={self._os_family!r})"

    @property
    def root(self) -> str:
        """The real directory that stands for the host's ``/``."""
        return self._root

    @property
    def os_family(self) -> OsFamily | None:
        """The OS family the tree stands for; None for one that is none of the three."""
        return self._os_family

    def getenv(self, name: str) -> str | None:
        """A variable of the given environment (case-insensitive for win32); never os.environ."""
        if self._os_family != "win32":
            return self._env.get(name)
        wanted = name.upper()
        return next((v for k, v in self._env.items() if k.upper() == wanted), None)

    def home(self) -> str | None:
        """The given home, else HOME (USERPROFILE for win32) from the given environment."""
        if self._home is not None:
            return self._home
        return self.getenv("USERPROFILE" if self._os_family == "win32" else "HOME") or None

    def user_home(self, user: str) -> str | None:
        """``~user``: the tree's ``/etc/passwd`` on Linux, ``/Users/<user>`` on macOS, else None."""
        if not user or any(c in user for c in "/\\:\0\n"):
            return None
        if self._os_family == "darwin":
            users_dir = "/Users/" + user
            return users_dir if self.is_dir(users_dir) else None
        if self._os_family != "linux":
            return None
        return passwd_home(self.read_file, user=user)

    def is_file(self, path: str) -> bool:
        """Whether ``path`` is a regular file in the tree (links resolved inside the tree)."""
        if WALKS_IN_ONE_STEP:
            found = self._stat(path)
            return found is not None and stat.S_ISREG(found.st_mode)
        real = self.real_path(path)
        return real is not None and path_is_file(real)

    def is_dir(self, path: str) -> bool:
        """Whether ``path`` is a directory in the tree (links resolved inside the tree)."""
        if WALKS_IN_ONE_STEP:
            found = self._stat(path)
            return found is not None and stat.S_ISDIR(found.st_mode)
        real = self.real_path(path)
        return real is not None and path_is_dir(real)

    def list_dir(self, path: str) -> Listing:
        """Entry names of a directory in the tree, sorted; bounded and marked as the live host."""
        if WALKS_IN_ONE_STEP:
            return self._at(path, list_place, Listing())
        real = self.real_path(path)
        return Listing() if real is None else list_dir_names(real)

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None:
        """Bounded read of a regular file in the tree, exactly as the live host reads one."""
        if size < 0 or offset < 0:
            return None
        if WALKS_IN_ONE_STEP:
            return self._at(path, lambda place: read_place(place, size, offset), None)
        real = self.real_path(path)
        return None if real is None else read_regular_file(real, size, offset)

    def uninstall_entries(self) -> tuple[UninstallEntry, ...]:
        """The uninstall entries given to the constructor (win32 only; empty elsewhere)."""
        return self._uninstall_entries if self._os_family == "win32" else ()

    def display_device_ids(self) -> tuple[str, ...]:
        """The display device ids given to the constructor (win32 only; empty elsewhere)."""
        return self._display_device_ids if self._os_family == "win32" else ()

    def native_machine(self) -> str:
        """The architecture given to the constructor, normalised (``aarch64`` is ``arm64``)."""
        return self._native_machine

    def os_version(self) -> str | None:
        """The OS version given to the constructor; else, for darwin, the tree's
        ``SystemVersion.plist`` (as a Mac reads its own); else None."""
        if self._os_version is not None:
            return self._os_version
        return macos_version(self) if self._os_family == "darwin" else None

    def process_alive(self, pid: int) -> bool:
        """Whether ``pid`` is one of the live process ids given to the constructor."""
        return not isinstance(pid, bool) and pid in self._processes

    # -- runtime status (SPEC 11) ------------------------------------------------------------

    def process_info(self, pid: int) -> ProcessInfo | None:
        """The facts given for a live process id (``processes``, or ``live_pids``), else None."""
        return None if isinstance(pid, bool) else self._processes.get(pid)

    def own_process(self) -> ProcessInfo:
        """The constructor's ``user`` and ``session``."""
        return ProcessInfo(user=self._user, started=None, session=self._session)

    def process_parent(self, pid: int) -> int | None:
        """None: a tree's processes are given without their parents."""
        return None

    def file_mtime(self, path: str) -> float | None:
        """The modification time of a regular file in the tree, or None."""
        if WALKS_IN_ONE_STEP:
            found = self._stat(path)
            return found.st_mtime if found is not None and stat.S_ISREG(found.st_mode) else None
        real = self.real_path(path)
        return None if real is None else file_modified(real)

    def read_file_facts(self, path: str, size: int) -> FileRead | None:
        """At most ``size`` bytes of a regular file in the tree, with its descriptor's time and
        mode; a file the running user owns is the host user's (whoever made the tree)."""
        if size < 0:
            return None
        if WALKS_IN_ONE_STEP:
            found = self._at(path, lambda place: read_place_facts(place, size), None)
        else:
            real = self.real_path(path)
            found = None if real is None else read_regular_file_facts(real, size)
        if found is None:
            return None
        return replace(found, owner=self._tree_owner(found.owner))

    def folders_above(self, path: str) -> tuple[FolderFacts, ...] | None:
        """Each folder above ``path`` inside the tree, links resolved inside it, its own first;
        folders the running user owns are the host user's, as files are."""
        if WALKS_IN_ONE_STEP:
            walked = self._at(path, place_folders, None)
            if walked is None:
                return None
            return tuple(replace(found, owner=self._tree_owner(found.owner)) for found in walked)
        real = self.real_path(path)
        if real is None:
            return None
        chain = folder_chain(real)
        if chain is None:
            return None
        top = os.path.realpath(self._root)
        inside = [found for found in chain if os.path.commonpath((top, found.path)) == top]
        return tuple(
            replace(
                found, path=self._tree_path(top, found.path), owner=self._tree_owner(found.owner)
            )
            for found in inside[:MAX_ANCESTRY]
        )

    def tcp_listeners(self, address: str, port: int) -> tuple[TcpListener, ...] | None:
        """The listeners given for ``port`` to the constructor; None (a tree has no sockets)
        when none were."""
        return self._listeners.get(port)

    def _tree_owner(self, owner: str | None) -> str | None:
        """A real owner as the tree's machine sees it: the running user's files are its user's."""
        if sys.platform == "win32":
            return self._user
        else:
            return self._user if owner == str(os.geteuid()) else owner

    def _tree_path(self, top: str, real: str) -> str:
        """The path on the tree's machine of a real path inside the tree whose real root is
        ``top``."""
        inner = os.path.relpath(real, top).replace(os.sep, "/")
        return "/" if inner == "." else "/" + inner

    def interactive_session(self) -> bool | None:
        """The constructor's ``interactive_session``; when not given, a Linux tree reads its
        environment as the live host does and other systems cannot tell (None)."""
        if self._interactive_session is not None:
            return self._interactive_session
        if self._os_family == "linux":
            return desktop_session_from_env(self.getenv)
        return None

    def real_path(self, path: str) -> str | None:
        """The real path inside the tree that ``path`` stands for, or None when it cannot be one.

        Relative paths, UNC and device paths, NUL bytes and symlink loops give None. Links are
        resolved component by component inside the tree, so the result never leaves it; for a
        win32 host ``..`` and absolute links also stay on the path's drive.
        """
        split = self._split(path)
        if split is None:
            return None
        top, segments = split
        pending = deque(segments)
        resolved = list(top)
        hops = 0
        while pending:
            segment = pending.popleft()
            if segment in ("", "."):
                continue
            if any(c in segment for c in _UNSAFE_SEGMENT_CHARS):
                return None
            if segment == "..":
                if len(resolved) > len(top):
                    resolved.pop()
                continue
            target = read_link(os.path.join(self._root, *resolved, segment))
            if target is None:
                resolved.append(segment)
                continue
            hops += 1
            if hops > MAX_SYMLINK_HOPS or "\0" in target:
                return None
            if target.startswith("/"):
                resolved = list(top)  # an absolute link starts again at the tree's root
            pending.extendleft(reversed(target.split("/")))
        return os.path.join(self._root, *resolved)

    def _at(self, path: str, use: Callable[[Place], T], otherwise: T) -> T:
        """``use`` applied to the place ``path`` names, reached in one walk; else ``otherwise``."""
        split = self._split(path)
        if split is None:
            return otherwise
        with self._walk.place(*split) as place:
            return otherwise if place is None else use(place)

    def _stat(self, path: str) -> os.stat_result | None:
        return self._at(path, place_stat, None)

    def _split(self, path: str) -> tuple[list[str], list[str]] | None:
        """The fixed top segments (a win32 drive) and the rest, or None when not rooted."""
        if not path or "\0" in path:
            return None
        if self._os_family != "win32":
            return ([], path.split("/")) if path.startswith("/") else None
        drive_rooted = (
            len(path) >= 3
            and path[0].isascii()
            and path[0].isalpha()
            and path[1] == ":"
            and path[2] in "\\/"
        )
        if not drive_rooted:
            return None  # relative, drive-relative, UNC (\\server\share) and device (\\?\) paths
        return [path[0].upper()], path[3:].replace("\\", "/").split("/")
