"""RootedHost: a directory tree read as a machine's ``/``, never escaping it."""

from __future__ import annotations

import os
import plistlib
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_decl.resolver.host import Host, Listing, ProcessInfo, UninstallEntries, UninstallEntry
from hermes_decl.resolver.rooted_host import MAX_SYMLINK_HOPS, RootedHost

HOSTS = Path(__file__).parent / "fixtures" / "hosts"

needs_symlinks = pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges")


def test_rooted_host_satisfies_the_protocol() -> None:
    rooted: Host = RootedHost(HOSTS / "no-sysfs")
    assert isinstance(rooted, Host)
    assert rooted.os_family == "linux"


def test_flatpak_tree_files_and_listing() -> None:
    host = RootedHost(HOSTS / "linux-flatpak", env={"HOME": "/home/dev"})
    assert host.is_file("/var/lib/flatpak/exports/bin/org.vendor.Studio")
    assert host.is_dir("/var/lib/flatpak/exports/bin")
    assert host.list_dir("/var/lib/flatpak/exports/bin") == ("org.vendor.Studio",)
    assert host.list_dir("/") == ("etc", "home", "snap", "usr", "var")
    assert host.is_file("/home/dev/.local/share/flatpak/exports/bin/org.example.Tool")
    assert not host.is_file("/var/lib/flatpak/exports/bin")
    assert not host.is_dir("/var/lib/flatpak/exports/bin/org.vendor.Studio")
    studio = host.read_file("/var/lib/flatpak/exports/bin/org.vendor.Studio", 9)
    assert studio == b"#!/bin/sh"


def test_home_comes_from_the_argument_then_the_given_environment() -> None:
    tree = HOSTS / "linux-flatpak"
    assert RootedHost(tree, env={"HOME": "/home/dev"}).home() == "/home/dev"
    assert RootedHost(tree, env={"HOME": "/home/dev"}, home="/root").home() == "/root"
    assert RootedHost(tree).home() is None
    assert RootedHost(tree, "win32", env={"userprofile": r"C:\Users\dev"}).home() == (
        r"C:\Users\dev"
    )


def test_user_home_reads_the_trees_passwd() -> None:
    host = RootedHost(HOSTS / "linux-flatpak")
    assert host.user_home("dev") == "/home/dev"
    assert host.user_home("root") == "/root"
    assert host.user_home("nobody") is None
    for odd in ("", "de/v", "dev:x", "a\nb", "a\0b"):
        assert host.user_home(odd) is None
    assert RootedHost(HOSTS / "no-sysfs").user_home("root") is None


def test_darwin_tree_bundles_and_user_home() -> None:
    host = RootedHost(HOSTS / "darwin-apps", "darwin", home="/Users/dev", native_machine="ARM64")
    plist = host.read_file("/Applications/Vendor.app/Contents/Info.plist", 1 << 16)
    assert plist is not None
    assert plist.startswith(b"bplist00")
    assert plistlib.loads(plist)["CFBundleShortVersionString"] == "2.4.1"
    assert host.list_dir("/Applications") == ("NoVersion.app", "Vendor.app")
    assert host.is_dir("/Users/dev/Applications/Tool.app")
    assert host.user_home("dev") == "/Users/dev"
    assert host.user_home("guest") is None
    assert host.native_machine() == "arm64"


def test_environment_is_only_what_was_given() -> None:
    host = RootedHost(HOSTS / "linux-flatpak")
    assert "PATH" in os.environ
    assert host.getenv("PATH") is None
    linux = RootedHost(HOSTS / "linux-flatpak", env={"Path": "/usr/bin"})
    assert linux.getenv("PATH") is None
    assert linux.getenv("Path") == "/usr/bin"
    win = RootedHost(HOSTS / "linux-flatpak", "win32", env={"Path": r"C:\Tools"})
    assert win.getenv("PATH") == r"C:\Tools"


def test_which_searches_the_given_path_inside_the_tree() -> None:
    env = {"PATH": "/usr/local/bin:/snap/bin:/usr/bin:/var/lib/flatpak/exports/bin"}
    host = RootedHost(HOSTS / "linux-flatpak", env=env)
    assert host.which("vendor-cli") == "/usr/bin/vendor-cli"
    assert host.which("vendor-snap") == "/snap/bin/vendor-snap"
    assert host.which("org.vendor.Studio") == "/var/lib/flatpak/exports/bin/org.vendor.Studio"
    assert host.which("sh") is None  # the real machine's /bin/sh is not in the tree
    assert RootedHost(HOSTS / "linux-flatpak").which("vendor-cli") is None


@pytest.mark.parametrize("path", ["", "relative/etc/passwd", "etc/passwd", "./etc/passwd", "a\0b"])
def test_paths_not_rooted_are_absent(path: str) -> None:
    host = RootedHost(HOSTS / "linux-flatpak")
    assert not host.is_file(path)
    assert not host.is_dir(path)
    assert host.list_dir(path) == ()
    assert host.read_file(path, 10) is None


def test_dot_dot_never_climbs_above_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "secret").write_text("inside")
    (tmp_path / "secret").write_text("outside")
    host = RootedHost(root)
    assert host.read_file("/../secret", 100) is None
    assert host.read_file("/../../../etc/secret", 100) == b"inside"
    assert host.read_file("/etc/../../etc/./secret", 100) == b"inside"
    assert host.real_path("/../..") == str(root)


@needs_symlinks
def test_absolute_symlinks_are_resolved_inside_the_tree(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "opt" / "vendor" / "bin").mkdir(parents=True)
    (root / "opt" / "vendor" / "bin" / "tool").write_text("the tree's tool")
    (root / "usr" / "bin").mkdir(parents=True)
    (root / "usr" / "bin" / "tool").symlink_to("/opt/vendor/bin/tool")
    (root / "etc").mkdir()
    (root / "etc" / "shadow-link").symlink_to("/etc/passwd")  # the real one is not in the tree
    host = RootedHost(root, env={"PATH": "/usr/bin"})
    assert host.read_file("/usr/bin/tool", 100) == b"the tree's tool"
    assert host.which("tool") == "/usr/bin/tool"
    assert host.real_path("/usr/bin/tool") == str(root / "opt" / "vendor" / "bin" / "tool")
    assert not host.is_file("/etc/shadow-link")
    assert host.read_file("/etc/shadow-link", 100) is None


@needs_symlinks
def test_relative_symlinks_are_clamped_at_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "a" / "b").mkdir(parents=True)
    (tmp_path / "outside.txt").write_text("outside")
    (root / "outside.txt").write_text("inside")
    (root / "a" / "b" / "up").symlink_to("../../../../../../outside.txt")
    (root / "a" / "b" / "dir-up").symlink_to("../..")
    host = RootedHost(root)
    assert host.read_file("/a/b/up", 100) == b"inside"
    assert host.list_dir("/a/b/dir-up") == ("a", "outside.txt")
    assert host.read_file("/a/b/dir-up/../../outside.txt", 100) == b"inside"


@needs_symlinks
def test_flatpak_style_relative_links_work(tmp_path: Path) -> None:
    root = tmp_path / "root"
    exports = root / "var" / "lib" / "flatpak" / "exports" / "bin"
    app_bin = root / "var" / "lib" / "flatpak" / "app" / "org.vendor.Studio" / "current"
    (app_bin / "active" / "export" / "bin").mkdir(parents=True)
    (app_bin / "active" / "export" / "bin" / "org.vendor.Studio").write_text("#!/bin/sh\n")
    exports.mkdir(parents=True)
    (exports / "org.vendor.Studio").symlink_to(
        "../../app/org.vendor.Studio/current/active/export/bin/org.vendor.Studio"
    )
    host = RootedHost(root)
    assert host.is_file("/var/lib/flatpak/exports/bin/org.vendor.Studio")


@needs_symlinks
def test_symlink_loops_give_up(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "self").symlink_to("self")
    (root / "ping").symlink_to("/pong")
    (root / "pong").symlink_to("ping")
    chain = root / "chain"
    chain.mkdir()
    for index in range(MAX_SYMLINK_HOPS + 5):
        (chain / f"l{index}").symlink_to(f"l{index + 1}")
    (chain / f"l{MAX_SYMLINK_HOPS + 5}").write_text("end")
    host = RootedHost(root)
    for path in ("/self", "/ping", "/self/x", "/chain/l0"):
        assert host.real_path(path) is None
        assert not host.is_file(path)
        assert not host.is_dir(path)
        assert host.list_dir(path) == ()
        assert host.read_file(path, 10) is None
    assert host.read_file(f"/chain/l{6}", 10) == b"end"


@pytest.mark.skipif(sys.platform == "win32", reason="FIFOs are POSIX")
def test_fifo_in_the_tree_is_refused_without_blocking(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "proc" / "driver" / "nvidia").mkdir(parents=True)
    if sys.platform != "win32":
        os.mkfifo(root / "proc" / "driver" / "nvidia" / "version")
    host = RootedHost(root)
    assert not host.is_file("/proc/driver/nvidia/version")
    assert host.read_file("/proc/driver/nvidia/version", 64) is None


def test_win32_tree_maps_drive_letters(tmp_path: Path) -> None:
    tools = tmp_path / "C" / "Tools"
    tools.mkdir(parents=True)
    (tools / "tool.EXE").write_bytes(b"MZ")
    (tmp_path / "C" / "Program Files" / "Vendor").mkdir(parents=True)
    host = RootedHost(tmp_path, "win32", env={"Path": r"C:\Windows;c:/Tools"})
    assert host.is_file(r"C:\Tools\tool.EXE")
    assert host.is_file("c:/Tools/tool.EXE")
    assert host.is_dir(r"C:\Program Files\Vendor")
    assert host.list_dir("C:\\") == ("Program Files", "Tools")
    assert host.which("tool") == r"c:/Tools\tool.EXE"
    for odd in (r"\Tools\tool.EXE", r"C:Tools\tool.EXE", r"\\server\share\x", r"\\?\C:\Tools"):
        assert not host.is_file(odd)
        assert host.real_path(odd) is None
    assert host.real_path(r"C:\..\..\Tools") == str(tools)
    (tmp_path / "D").mkdir()
    assert host.real_path(r"C:\..\D") == str(tmp_path / "C" / "D")  # never onto another drive


def test_registry_answers_are_given_and_only_for_win32() -> None:
    entry = UninstallEntry("Vendor Studio", "24.1", r"C:\Program Files\Vendor")
    win = RootedHost(
        HOSTS / "no-sysfs",
        "win32",
        uninstall_entries=[entry],
        display_device_ids=[r"PCI\VEN_10DE&DEV_2684"],
    )
    assert win.uninstall_entries() == (entry,)
    assert win.display_device_ids() == (r"PCI\VEN_10DE&DEV_2684",)
    linux = RootedHost(HOSTS / "no-sysfs", uninstall_entries=[entry], display_device_ids=["x"])
    assert linux.uninstall_entries() == ()
    assert linux.display_device_ids() == ()


def test_root_accepts_pathlike_and_relative(tmp_path: Path) -> None:
    host = RootedHost(HOSTS / "no-sysfs")
    assert host.root == str(HOSTS / "no-sysfs")
    assert Path(RootedHost(os.path.relpath(HOSTS / "no-sysfs")).root) == HOSTS / "no-sysfs"
    assert "no-sysfs" in repr(host)


SEGMENTS = st.sampled_from(["..", ".", "", "a", "b", "up", "abs", "loop", "etc", "x"])


@pytest.fixture(scope="module")
def escape_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tree full of links that point up, out and around."""
    base = tmp_path_factory.mktemp("escape")
    root = base / "root"
    (root / "a" / "b").mkdir(parents=True)
    (root / "etc").mkdir()
    (root / "a" / "up").symlink_to("../../../../..")
    (root / "a" / "b" / "up").symlink_to("../../..")
    (root / "abs").symlink_to("/..")
    (root / "a" / "abs").symlink_to(str(base))
    (root / "loop").symlink_to("loop/..")
    (root / "x").symlink_to("a/b/up/a")
    return root


@needs_symlinks
@settings(max_examples=300, deadline=None)
@given(segments=st.lists(SEGMENTS, max_size=12))
def test_no_path_ever_resolves_outside_the_root(escape_tree: Path, segments: list[str]) -> None:
    host = RootedHost(escape_tree)
    real = host.real_path("/" + "/".join(segments))
    if real is not None:
        assert os.path.commonpath([real, str(escape_tree)]) == str(escape_tree)


def test_live_processes_are_the_ones_given() -> None:
    host = RootedHost(HOSTS / "no-sysfs", live_pids=[4242, 7])
    assert host.process_alive(4242)
    assert host.process_alive(7)
    assert not host.process_alive(1)
    assert not host.process_alive(os.getpid()) or os.getpid() in (4242, 7)
    assert not RootedHost(HOSTS / "no-sysfs").process_alive(1)


def test_a_bool_is_not_a_process_id() -> None:
    assert not RootedHost(HOSTS / "no-sysfs", live_pids=[1]).process_alive(True)


def test_runtime_facts_come_from_the_constructor_and_the_tree(tmp_path: Path) -> None:
    runtime = tmp_path / "run" / "server.json"
    runtime.parent.mkdir()
    runtime.write_text("{}")
    os.utime(runtime, (1_600_000_000, 1_600_000_050))
    facts = ProcessInfo("501", 1_600_000_000.0, None)
    host = RootedHost(tmp_path, live_pids=[7], processes={8: facts}, user="501")
    assert host.process_info(7) == ProcessInfo("501", 0.0, None)
    assert host.process_info(8) == facts
    assert host.process_alive(8) is True
    assert host.process_info(9) is None
    assert host.own_process() == ProcessInfo("501", None, None)
    assert host.file_mtime("/run/server.json") == 1_600_000_050
    assert host.file_mtime("/run") is None
    assert host.interactive_session() is False
    assert RootedHost(tmp_path, env={"WAYLAND_DISPLAY": "w"}).interactive_session() is True
    assert RootedHost(tmp_path, "darwin").interactive_session() is None
    assert RootedHost(tmp_path, "win32", interactive_session=True).interactive_session() is True


def test_registry_answers_given_as_cut_keep_their_mark(tmp_path: Path) -> None:
    entries = UninstallEntries([UninstallEntry("Vendor", "1.0", "C:\\Vendor")], truncated=True)
    host = RootedHost(tmp_path, "win32", display_device_ids=Listing(["x"], truncated=True))
    assert host.display_device_ids().truncated is True  # type: ignore[attr-defined]
    cut = RootedHost(tmp_path, "win32", uninstall_entries=entries).uninstall_entries()
    assert (cut, getattr(cut, "truncated", None)) == (entries, True)
    whole = RootedHost(tmp_path, "win32", uninstall_entries=list(entries)).uninstall_entries()
    assert getattr(whole, "truncated", False) is False
