"""The in-memory machine under ``FakeHost``: its state, call log and path keys (never the real
machine).

``FakeMachine`` holds what every part of the fake shares: the state the setup methods fill (its
folders and files as a ``fake_tree.Tree``), the count of protocol calls, and how a path becomes
a root and names to look up (case-folded on win32, ``.`` and ``..`` applied lexically).
``FakeHost`` builds on it; nothing here is a protocol method.
"""

from __future__ import annotations

from collections import Counter

from hermes_decl.hosts.fake_tree import Node, Tree
from hermes_decl.hosts.protocol import ProcessInfo, TcpListener
from hermes_decl.models import OsFamily

__all__ = ["FakeMachine"]


class FakeMachine:
    """The state of an in-memory machine and the helpers that read it without counting."""

    _os_family: OsFamily | None
    _user: str
    _session: int | None
    _tree: Tree
    _processes: dict[int, ProcessInfo]
    _parents: dict[int, int]
    _listeners: dict[tuple[str, int], list[TcpListener]]
    calls: Counter[str]
    call_log: list[tuple[str, tuple[object, ...]]]

    def _record(self, method: str, *args: object) -> None:
        """Count one protocol call."""
        self.calls[method] += 1
        self.call_log.append((method, args))

    def _posix_mode(self, mode: int | None, default: int) -> int | None:
        """A file's or folder's mode as this host tells it: none on win32."""
        if self._os_family == "win32":
            return None
        return default if mode is None else mode

    def _require(self, os_family: OsFamily, method: str) -> None:
        """Refuse a setup method that makes no sense for this host's OS."""
        if self._os_family != os_family:
            raise ValueError(f"{method} is for {os_family} hosts; this host is {self._os_text()}")

    def _os_text(self) -> str:
        """The host's OS family for messages (a POSIX OS none of the three has no family)."""
        return self._os_family or "POSIX (no OS family)"

    def _root_key(self, drive: str = "c") -> str:
        """The key of the filesystem root (``/``, or a drive's root on win32)."""
        return f"{drive.lower()}:\\" if self._os_family == "win32" else "/"

    def _join(self, path: str, *names: str) -> str:
        """``path`` with ``names`` appended using the host's separator."""
        if self._os_family == "win32":
            return "\\".join([path.rstrip("\\/"), *names])
        return "/".join([path.rstrip("/"), *names])

    def _split(self, path: str) -> tuple[str, list[str]] | None:
        """The root key and the normalized names below it, or None when ``path`` is not absolute.

        ``.`` segments are dropped and ``..`` removes the previous name (lexically).
        """
        if not path or "\0" in path:
            return None
        if self._os_family == "win32":
            if not (
                len(path) >= 3
                and path[0].isascii()
                and path[0].isalpha()
                and path[1] == ":"
                and path[2] in "\\/"
            ):
                return None
            root, rest = self._root_key(path[0]), path[3:].replace("/", "\\").split("\\")
        else:
            if not path.startswith("/"):
                return None
            root, rest = "/", path.split("/")
        names: list[str] = []
        for name in rest:
            if name in ("", "."):
                continue
            if name == "..":
                if names:
                    names.pop()
                continue
            names.append(name)
        return root, names

    def _node(self, path: str) -> Node | None:
        """The node added at ``path``, or None (also when it is not absolute for the OS)."""
        split = self._split(path)
        return None if split is None else self._tree.find(*split)

    def _split_for_setup(self, path: str) -> tuple[str, list[str]]:
        """``path``'s root key and names for a setup method, which insists on an absolute path."""
        split = self._split(path)
        if split is None or not split[1]:
            raise ValueError(f"not an absolute {self._os_text()} path below the root: {path!r}")
        return split
