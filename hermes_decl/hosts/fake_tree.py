"""The folders and files of a ``FakeHost``: a tree of nodes, one per name, below each root.

Each name is stored once, in its folder's node, so a path costs its own length to add or look up
and a deep path does not store a copy of every ancestor's path; a folder's sorted listing is kept
until something is added to it.
"""

from __future__ import annotations

from collections.abc import Sequence


class Node:
    """One folder (``children`` is a dict) or regular file (``children`` is None)."""

    __slots__ = ("_sorted", "children", "data", "mode", "mtime", "name", "owner")

    def __init__(self, name: str, *, folder: bool) -> None:
        self.name = name
        """The name as first added (Windows keeps the case a folder was created with)."""
        self.children: dict[str, Node] | None = {} if folder else None
        """The folder's entries by folded name; None for a file."""
        self.data = b""
        self.mtime = 0.0
        self.owner: str | None = None
        """The user it belongs to; None when the host's default applies."""
        self.mode: int | None = None
        """Its POSIX permission bits; None when the host's default applies."""
        self._sorted: tuple[str, ...] | None = None

    def listing(self) -> tuple[str, ...]:
        """The names in this folder, sorted (empty for a file)."""
        if self.children is None:
            return ()
        if self._sorted is None:
            self._sorted = tuple(sorted(child.name for child in self.children.values()))
        return self._sorted

    def child(self, name: str, key: str, *, folder: bool) -> tuple[Node, bool]:
        """The entry ``key`` of this folder, added as ``name`` when there is none yet; and
        whether it was added."""
        assert self.children is not None
        found = self.children.get(key)
        if found is not None:
            return found, False
        found = self.children[key] = Node(name, folder=folder)
        self._sorted = None
        return found, True


class Tree:
    """Every root's tree, with names folded for lookup when the host ignores case."""

    def __init__(self, *, ignore_case: bool) -> None:
        self._ignore_case = ignore_case
        self._roots: dict[str, Node] = {}
        self.files = 0
        self.folders = 0

    def fold(self, name: str) -> str:
        """The lookup key of a name."""
        return name.casefold() if self._ignore_case else name

    def add_root(self, root: str) -> Node:
        """The folder at a root key, made when it is new."""
        found = self._roots.get(root)
        if found is None:
            found = self._roots[root] = Node(root, folder=True)
            self.folders += 1
        return found

    def find(self, root: str, names: Sequence[str]) -> Node | None:
        """The node at ``names`` below ``root``, or None when nothing was added there."""
        node = self._roots.get(root)
        for name in names:
            if node is None or node.children is None:
                return None
            node = node.children.get(self.fold(name))
        return node

    def trail(self, root: str, names: Sequence[str]) -> tuple[Node | None, ...]:
        """The node at ``root`` and at each of ``names`` in turn below it, None from the first
        place where nothing was added."""
        node = self._roots.get(root)
        found = [node]
        for name in names:
            children = None if node is None else node.children
            node = None if children is None else children.get(self.fold(name))
            found.append(node)
        return tuple(found)

    def add(self, path: str, root: str, names: Sequence[str], *, folder: bool) -> Node:
        """The node at ``names`` (a folder, or a file), its folders made on the way.

        Raises ``ValueError`` when a folder is asked for where a file is, a file where a folder
        is, or a name above it is a file (``path`` is how the messages name the place).
        """
        node = self.add_root(root)
        last = len(names) - 1
        for depth, name in enumerate(names):
            if node.children is None:
                raise ValueError(f"cannot add {path!r}: {names[depth - 1]!r} above it is a file")
            is_folder = folder or depth < last
            node, added = node.child(name, self.fold(name), folder=is_folder)
            if added and is_folder:
                self.folders += 1
            elif added:
                self.files += 1
        if (node.children is None) == folder:
            # Found there already, as the other kind: its parents existed, so nothing was added.
            raise ValueError(f"{path!r} is already {'a file' if folder else 'a directory'}")
        return node
