"""What ``FakeHost`` answers about the processes, listening sockets and trust facts of its machine.

``FakeRuntime`` holds the setup methods and protocol answers the runtime status asks about (SPEC
11): processes and their owners, who listens on a TCP port, and a file's owner and mode read
with its bytes. ``FakeHost`` builds on it, so these are ``FakeHost`` methods like any other.
"""

from __future__ import annotations

from typing import TypeVar

from hermes_decl.hosts.fake_base import FakeMachine
from hermes_decl.hosts.protocol import (
    MAX_ANCESTRY,
    FileRead,
    FolderFacts,
    ProcessInfo,
    TcpListener,
)

__all__ = [
    "DEFAULT_FILE_MODE",
    "DEFAULT_FILE_MTIME",
    "DEFAULT_FOLDER_MODE",
    "DEFAULT_PROCESS_START",
    "FakeRuntime",
]

DEFAULT_PROCESS_START = 1_700_000_000.0
"""When a process added without ``started`` began (seconds since the epoch)."""

DEFAULT_FILE_MTIME = DEFAULT_PROCESS_START + 60
"""When a file added without ``mtime`` was last modified: after every default process started."""

DEFAULT_FILE_MODE = 0o644
"""The POSIX permission bits of a file added without ``mode``: only its owner writes it."""

DEFAULT_FOLDER_MODE = 0o755
"""The POSIX permission bits of a folder added (or implied) without ``mode``."""

_WILDCARDS = {"127.0.0.1": ("0.0.0.0", "::"), "::1": ("::",)}
"""The addresses whose listeners a loopback connection may reach besides its own."""

_Machine = TypeVar("_Machine", bound="FakeRuntime")


class FakeRuntime(FakeMachine):
    """Processes, listeners and file trust facts of an in-memory machine; see ``FakeHost``."""

    def add_listener(
        self: _Machine,
        port: int,
        *,
        pid: int | None,
        user: str | None = None,
        address: str = "127.0.0.1",
    ) -> _Machine:
        """A TCP socket listening on ``address`` and ``port``, held by process ``pid`` (None: the
        OS does not say which process) and owned by ``user`` (default the host's user).

        ``0.0.0.0`` and ``::`` are wildcards: a connection to ``127.0.0.1`` may reach either,
        one to ``::1`` the second.
        """
        owner = self._user if user is None else user
        pids = None if pid is None else (pid,)
        self._listeners.setdefault((address, port), []).append(TcpListener(owner, pids))
        return self

    def add_process(
        self: _Machine,
        pid: int,
        *,
        user: str | None = None,
        started: float | None = DEFAULT_PROCESS_START,
        session: int | None = None,
        parent: int | None = None,
    ) -> _Machine:
        """A running process with this id (``process_alive(pid)`` answers True), started by
        process ``parent`` (None: its parent cannot be read).

        ``user`` and ``session`` default to the host's own; ``started=None`` makes its start time
        unreadable. ``add_process(pid, user=None)`` is the host user's; to make the owner
        unreadable, use ``add_unreadable_process``.
        """
        if isinstance(pid, bool) or not isinstance(pid, int):
            raise TypeError(f"a process id is an int, got {type(pid).__name__}")
        owner = self._user if user is None else user
        in_session = self._session if session is None else session
        self._processes[pid] = ProcessInfo(user=owner, started=started, session=in_session)
        if parent is None:
            self._parents.pop(pid, None)
        else:
            self._parents[pid] = parent
        return self

    def add_unreadable_process(self: _Machine, pid: int) -> _Machine:
        """A running process whose owner, session and start time cannot be read."""
        self.add_process(pid)
        self._processes[pid] = ProcessInfo(user=None, started=None)
        return self

    def end_process(self: _Machine, pid: int) -> _Machine:
        """The process with this id exits (nothing happens when there is none)."""
        self._processes.pop(pid, None)
        return self

    def process_alive(self, pid: int) -> bool:
        """Whether a process with this id was added (and has not ended)."""
        self._record("process_alive", pid)
        return not isinstance(pid, bool) and pid in self._processes

    def process_info(self, pid: int) -> ProcessInfo | None:
        """The owner, session and start time given to ``add_process``; None when not running."""
        self._record("process_info", pid)
        return None if isinstance(pid, bool) else self._processes.get(pid)

    def own_process(self) -> ProcessInfo:
        """The constructor's ``user`` and ``session``."""
        self._record("own_process")
        return ProcessInfo(user=self._user, started=None, session=self._session)

    def process_parent(self, pid: int) -> int | None:
        """The ``parent`` given to ``add_process``; None when not running or not given."""
        self._record("process_parent", pid)
        if isinstance(pid, bool) or pid not in self._processes:
            return None
        return self._parents.get(pid)

    def file_mtime(self, path: str) -> float | None:
        """The modification time given to ``add_file``; None when no file was added there."""
        self._record("file_mtime", path)
        node = self._node(path)
        return None if node is None or node.children is not None else node.mtime

    def read_file_facts(self, path: str, size: int) -> FileRead | None:
        """At most ``size`` bytes of an added file with its time, owner and mode; None when no
        file was added there."""
        self._record("read_file_facts", path, size)
        node = self._node(path)
        if node is None or node.children is not None or size < 0:
            return None
        return FileRead(
            node.data[:size],
            owner=self._user if node.owner is None else node.owner,
            mtime=node.mtime,
            mode=self._posix_mode(node.mode, DEFAULT_FILE_MODE),
        )

    def folders_above(self, path: str) -> tuple[FolderFacts, ...] | None:
        """Each folder above ``path`` with its owner and mode, its own first (empty on win32,
        whose folders' rights are not modes)."""
        self._record("folders_above", path)
        split = self._split(path)
        if self._os_family == "win32" or split is None:
            return ()
        root, names = split
        trail = self._tree.trail(root, names[:-1]) if names else ()
        chain: list[FolderFacts] = []
        for depth in range(len(trail) - 1, max(-1, len(trail) - 1 - MAX_ANCESTRY), -1):
            node = trail[depth]
            owner = None if node is None else node.owner
            mode = None if node is None else node.mode
            default_owner = "0" if depth == 0 else self._user
            chain.append(
                FolderFacts(
                    root + "/".join(names[:depth]),
                    default_owner if owner is None else owner,
                    self._posix_mode(mode, DEFAULT_FOLDER_MODE),
                )
            )
        return tuple(chain)

    def tcp_listeners(self, address: str, port: int) -> tuple[TcpListener, ...] | None:
        """The listeners added on ``port`` that a connection to ``address`` could reach."""
        self._record("tcp_listeners", address, port)
        places = (address, *_WILDCARDS.get(address, ()))
        return tuple(found for place in places for found in self._listeners.get((place, port), ()))
