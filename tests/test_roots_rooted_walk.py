"""A fixture tree cannot be raced out of: a folder or file swapped for a link between the walk's
steps makes the next open fail, never read the real machine."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from hermes_decl.hosts import rooted_walk
from hermes_decl.hosts.rooted import RootedHost

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or not rooted_walk.AVAILABLE, reason="the walk needs openat"
)

INSIDE = b"root:x:0:0:inside the tree:/root:/bin/sh\n"
OUTSIDE = b"root:x:0:0:the real machine:/root:/bin/sh\n"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_bytes(INSIDE)
    (root / "app" / "bin").mkdir(parents=True)
    (root / "app" / "bin" / "tool").write_bytes(b"#!/bin/sh\n")
    (root / "app" / "etc").mkdir()
    (root / "app" / "etc" / "passwd").write_bytes(INSIDE)
    outside = tmp_path / "outside"
    (outside / "bin").mkdir(parents=True)
    (outside / "bin" / "tool").write_bytes(OUTSIDE)
    (outside / "passwd").write_bytes(OUTSIDE)
    return root, outside


def _swap_for_link(place: Path, target: Path) -> None:
    if place.is_dir() and not place.is_symlink():
        place.rename(place.with_name(place.name + ".moved"))
    else:
        place.unlink()
    place.symlink_to(target)


RACES: dict[str, tuple[str, str, str, str]] = {
    # (path asked, name at whose step the swap happens, what is swapped, its new target)
    "folder-to-outside": ("/app/bin/tool", "app", "app", "{outside}"),
    "folder-to-real-root": ("/app/etc/passwd", "app", "app", "/"),
    "file-to-outside": ("/etc/passwd", "passwd", "etc/passwd", "{outside}/passwd"),
    "folder-to-real-etc": ("/etc/passwd", "etc", "etc", "/etc"),
}


@pytest.mark.parametrize(("path", "step", "swapped", "target"), RACES.values(), ids=list(RACES))
def test_a_link_swapped_in_between_steps_is_never_followed(
    tmp_path: Path, path: str, step: str, swapped: str, target: str
) -> None:
    root, outside = _tree(tmp_path)
    armed = [True]

    def before_step(name: str) -> None:
        if armed[0] and name == step:
            armed[0] = False
            _swap_for_link(root / swapped, Path(target.format(outside=outside)))

    host = RootedHost(root, before_step=before_step)
    assert host.read_file(path, 1000) is None
    assert armed == [False]
    # Once swapped, the link is followed by hand, inside the tree: never to the real machine.
    after = RootedHost(root)
    assert after.read_file(path, 1000) != OUTSIDE


def test_every_step_of_a_read_is_seen_by_the_hook(tmp_path: Path) -> None:
    root, _outside = _tree(tmp_path)
    (root / "lib").symlink_to("app")
    steps: list[str] = []
    host = RootedHost(root, before_step=steps.append)
    assert host.read_file("/lib/bin/tool", 100) == b"#!/bin/sh\n"
    assert steps == ["app", "bin", "tool"]


def test_a_walk_leaves_no_descriptor_open(tmp_path: Path) -> None:
    root, _outside = _tree(tmp_path)
    host = RootedHost(root)
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    for _ in range(50):
        host.read_file("/app/bin/tool", 10)
        host.list_dir("/app")
        host.is_file("/etc/passwd")
        host.read_file("/missing/x", 10)
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before
