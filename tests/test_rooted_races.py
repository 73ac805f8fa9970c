"""Every ``RootedHost`` method that touches the tree walks it once: a folder or file swapped for
a link to the real machine between two steps of the walk is never followed, for stat, listing,
reading, dating, a file's facts and the folders above it alike."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hermes_decl.hosts import rooted_walk
from hermes_decl.hosts.protocol import MAX_ANCESTRY, FileRead, FolderFacts, Listing
from hermes_decl.hosts.rooted import ROOTED_USER, RootedHost
from hermes_decl.models import OsFamily
from tests.processes import NOBODY_UID

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not rooted_walk.AVAILABLE, reason="the walk needs openat"
)

INSIDE = b"inside the tree\n"
OUTSIDE = b"the real machine\n"

Ask = Callable[[RootedHost, str], object]

METHODS: dict[str, Ask] = {
    "is_file": lambda host, path: host.is_file(path),
    "is_dir": lambda host, path: host.is_dir(path),
    "list_dir": lambda host, path: host.list_dir(path),
    "read_file": lambda host, path: host.read_file(path, 1000),
    "file_mtime": lambda host, path: host.file_mtime(path),
    "read_file_facts": lambda host, path: host.read_file_facts(path, 1000),
    "folders_above": lambda host, path: host.folders_above(path),
}

RACES: dict[str, tuple[str, str, str, str, object]] = {
    # (method, path asked, name at whose step the swap happens, what is swapped for a link,
    #  what the method answers once the walk met the swapped link)
    "is_file-folder": ("is_file", "/app/bin/tool", "app", "app", False),
    "is_file-file": ("is_file", "/app/bin/tool", "tool", "app/bin/tool", False),
    "is_dir-folder": ("is_dir", "/app/bin", "app", "app", False),
    "is_dir-last-folder": ("is_dir", "/app/bin", "bin", "app/bin", False),
    "list_dir-folder": ("list_dir", "/app/bin", "app", "app", Listing()),
    "list_dir-last-folder": ("list_dir", "/app/bin", "bin", "app/bin", Listing()),
    "read_file-folder": ("read_file", "/app/bin/tool", "app", "app", None),
    "read_file-file": ("read_file", "/app/bin/tool", "tool", "app/bin/tool", None),
    "file_mtime-folder": ("file_mtime", "/app/bin/tool", "bin", "app/bin", None),
    "file_mtime-file": ("file_mtime", "/app/bin/tool", "tool", "app/bin/tool", None),
    "read_file_facts-folder": ("read_file_facts", "/app/bin/tool", "app", "app", None),
    "read_file_facts-last-folder": ("read_file_facts", "/app/bin/tool", "bin", "app/bin", None),
    "read_file_facts-file": ("read_file_facts", "/app/bin/tool", "tool", "app/bin/tool", None),
    "folders_above-folder": ("folders_above", "/app/bin/tool", "app", "app", None),
    "folders_above-last-folder": ("folders_above", "/app/bin/tool", "bin", "app/bin", None),
}

TARGETS = {"outside": "{outside}", "real-root": "/"}


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    """A tree with ``/app/bin/tool``, and beside it a folder of the same shape outside it."""
    root = tmp_path / "root"
    (root / "app" / "bin").mkdir(parents=True)
    (root / "app" / "bin" / "tool").write_bytes(INSIDE)
    outside = tmp_path / "outside"
    (outside / "bin").mkdir(parents=True)
    (outside / "bin" / "tool").write_bytes(OUTSIDE)
    (outside / "tool").write_bytes(OUTSIDE)
    return root, outside


def _swap_for_link(place: Path, target: Path) -> None:
    if place.is_dir() and not place.is_symlink():
        place.rename(place.with_name(place.name + ".moved"))
    else:
        place.unlink()
    place.symlink_to(target)


def _target(swapped: str, where: str, outside: Path) -> Path:
    """Where the link swapped in points: the same place outside the tree, or the real ``/``."""
    if where == "real-root":
        return Path("/")
    return outside / Path(swapped).relative_to("app") if swapped != "app" else outside


@pytest.mark.parametrize("where", list(TARGETS), ids=list(TARGETS))
@pytest.mark.parametrize(
    ("method", "path", "step", "swapped", "answer"), RACES.values(), ids=list(RACES)
)
def test_a_link_swapped_in_mid_walk_is_never_followed(
    tmp_path: Path, where: str, method: str, path: str, step: str, swapped: str, answer: object
) -> None:
    root, outside = _tree(tmp_path)
    armed = [True]

    def before_step(name: str) -> None:
        if armed[0] and name == step:
            armed[0] = False
            _swap_for_link(root / swapped, _target(swapped, where, outside))

    host = RootedHost(root, before_step=before_step)
    assert METHODS[method](host, path) == answer
    assert armed == [False]  # the method walked, and met the swap


def test_every_method_walks_every_step(tmp_path: Path) -> None:
    root, _outside = _tree(tmp_path)
    (root / "lib").symlink_to("app")
    seen: dict[str, list[str]] = {}
    for method, ask in METHODS.items():
        steps: list[str] = []
        ask(RootedHost(root, before_step=steps.append), "/lib/bin/tool")
        seen[method] = steps
    assert seen == {method: ["app", "bin", "tool"] for method in METHODS}


def test_the_walk_answers_what_the_tree_holds(tmp_path: Path) -> None:
    root, _outside = _tree(tmp_path)
    (root / "lib").symlink_to("/app")
    tool = root / "app" / "bin" / "tool"
    tool.chmod(0o640)
    for folder in (root / "app" / "bin", root / "app", root):
        folder.chmod(0o750)
    host = RootedHost(root)
    expected = FileRead(INSIDE, ROOTED_USER, tool.stat().st_mtime, 0o640)
    assert host.read_file_facts("/lib/bin/tool", 1000) == expected
    assert host.read_file_facts("/lib/bin/tool", 6) == FileRead(
        INSIDE[:6], ROOTED_USER, tool.stat().st_mtime, 0o640
    )
    assert host.read_file_facts("/lib/bin/tool", -1) is None
    assert host.read_file_facts("/lib/bin", 10) is None
    chain = tuple(FolderFacts(place, ROOTED_USER, 0o750) for place in ("/app/bin", "/app", "/"))
    assert host.folders_above("/lib/bin/tool") == chain
    assert host.folders_above("/app/bin/../bin/./tool") == chain
    assert host.folders_above("/app/bin/") == chain[1:]
    assert host.folders_above("/app/..") == ()
    assert host.folders_above("/") == ()
    assert host.folders_above("relative/tool") is None
    assert host.folders_above("/missing/tool") is None


def test_the_running_users_files_are_the_host_users(tmp_path: Path) -> None:
    root, _outside = _tree(tmp_path)
    host = RootedHost(root, user="dev")
    found = host.read_file_facts("/app/bin/tool", 100)
    assert found is not None and found.owner == "dev"
    chain = host.folders_above("/app/bin/tool")
    assert chain is not None and [folder.owner for folder in chain] == ["dev", "dev", "dev"]


def test_another_users_file_keeps_its_owner(tmp_path: Path) -> None:
    if sys.platform == "win32":
        raise NotImplementedError  # the module is skipped there
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can give a file to another user")
        root, _outside = _tree(tmp_path)
        os.chown(root / "app" / "bin" / "tool", NOBODY_UID, NOBODY_UID)
        os.chown(root / "app", NOBODY_UID, NOBODY_UID)
        host = RootedHost(root, user="dev")
        found = host.read_file_facts("/app/bin/tool", 100)
        assert found is not None and found.owner == str(NOBODY_UID)
        chain = host.folders_above("/app/bin/tool")
        assert chain is not None
        assert [folder.owner for folder in chain] == ["dev", str(NOBODY_UID), "dev"]


def test_a_tree_deeper_than_the_ancestry_bound_cannot_be_checked(tmp_path: Path) -> None:
    root = tmp_path / "root"
    deepest = root.joinpath(*["d"] * MAX_ANCESTRY)
    deepest.mkdir(parents=True)
    (deepest / "f").write_bytes(b"x")
    (deepest.parent / "f").write_bytes(b"x")
    host = RootedHost(root)
    assert host.folders_above("/" + "/".join(["d"] * MAX_ANCESTRY + ["f"])) is None
    chain = host.folders_above("/" + "/".join(["d"] * (MAX_ANCESTRY - 1) + ["f"]))
    assert chain is not None and len(chain) == MAX_ANCESTRY
    assert (chain[0].path, chain[-1].path) == ("/" + "/".join(["d"] * (MAX_ANCESTRY - 1)), "/")


PLIST = b"""<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict><key>ProductVersion</key><string>%s</string></dict></plist>
"""

BUILT_ON_READS: dict[str, tuple[str, str, str, Callable[[RootedHost], object], object]] = {
    # (the tree's file, the same file outside it, the name at whose step the swap happens,
    #  the question, its answer inside the tree)
    "user_home": (
        "etc/passwd",
        "dev:x:1000:1000::/home/dev:/bin/sh\n",
        "etc",
        lambda host: host.user_home("dev"),
        "/home/dev",
    ),
    "which": (
        "app/bin/tool",
        "#!/bin/sh\n",
        "app",
        lambda host: host.which("tool"),
        "/app/bin/tool",
    ),
    "os_version": (
        "System/Library/CoreServices/SystemVersion.plist",
        (PLIST % b"15.1").decode(),
        "System",
        lambda host: host.os_version(),
        "15.1",
    ),
}


@pytest.mark.parametrize(
    ("file", "text", "step", "ask", "answer"), BUILT_ON_READS.values(), ids=list(BUILT_ON_READS)
)
def test_what_is_built_on_reads_is_never_raced_out_either(
    tmp_path: Path,
    file: str,
    text: str,
    step: str,
    ask: Callable[[RootedHost], object],
    answer: object,
) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    for tree in (root, outside):  # the same file outside: followed, it would give the answer
        (tree / file).parent.mkdir(parents=True)
        (tree / file).write_text(text)
        (tree / file).chmod(0o755)
    os_family: OsFamily = "darwin" if file.startswith("System") else "linux"
    assert ask(RootedHost(root, os_family, search_path="/app/bin")) == answer
    armed = [True]

    def before_step(name: str) -> None:
        if armed[0] and name == step:
            armed[0] = False
            _swap_for_link(root / step, outside / step)

    host = RootedHost(root, os_family, search_path="/app/bin", before_step=before_step)
    assert ask(host) is None
    assert armed == [False]
