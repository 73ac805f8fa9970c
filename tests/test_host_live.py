"""LiveHost on the real filesystem under tmp_path: never raises, never blocks, reads bounded."""

from __future__ import annotations

import os
import platform
import shutil
import sys
from pathlib import Path

import pytest

from hermes_decl.resolver.host import Host, Listing
from hermes_decl.resolver.listing import MAX_DIR_ENTRIES
from hermes_decl.resolver.live_host import (
    MAX_PID,
    LiveHost,
    current_os_family,
    default_host,
    list_dir_names,
    pid_exists,
    read_regular_file,
)
from hermes_decl.resolver.native_machine import ARCHITECTURES, normalise_machine
from tests.process_starts import popen_started, run_started


@pytest.fixture
def host() -> LiveHost:
    return LiveHost()


def test_live_host_satisfies_the_protocol() -> None:
    live: Host = LiveHost()
    assert isinstance(live, Host)


def test_os_family_defaults_to_the_running_os_and_can_be_forced() -> None:
    assert LiveHost().os_family == current_os_family()
    assert LiveHost("darwin").os_family == "darwin"
    if sys.platform.startswith("linux"):
        assert current_os_family() == "linux"


def test_regular_file(host: LiveHost, tmp_path: Path) -> None:
    path = tmp_path / "file.bin"
    path.write_bytes(b"0123456789")
    assert host.is_file(str(path))
    assert not host.is_dir(str(path))
    assert host.read_file(str(path), 4) == b"0123"
    assert host.read_file(str(path), 4, offset=8) == b"89"
    assert host.read_file(str(path), 100) == b"0123456789"
    assert host.read_file(str(path), 0) == b""
    assert host.read_file(str(path), 10, offset=1000) == b""


@pytest.mark.parametrize(("size", "offset"), [(-1, 0), (4, -1), (-5, -5)])
def test_negative_size_or_offset_is_none(
    host: LiveHost, tmp_path: Path, size: int, offset: int
) -> None:
    path = tmp_path / "file"
    path.write_bytes(b"data")
    assert host.read_file(str(path), size, offset) is None


def test_offset_beyond_what_the_os_accepts_is_none(host: LiveHost, tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_bytes(b"data")
    assert host.read_file(str(path), 4, offset=1 << 70) is None


def test_directory(host: LiveHost, tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a.txt").write_text("x")
    (tmp_path / "C").write_text("x")
    assert host.is_dir(str(tmp_path))
    assert not host.is_file(str(tmp_path))
    assert host.read_file(str(tmp_path), 10) is None
    assert host.list_dir(str(tmp_path)) == ("C", "a.txt", "b")


def test_missing_paths(host: LiveHost, tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    assert not host.is_file(missing)
    assert not host.is_dir(missing)
    assert host.list_dir(missing) == ()
    assert host.read_file(missing, 10) is None


def test_a_file_used_as_a_directory_fails_even_as_root(host: LiveHost, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    below = str(tmp_path / "file" / "child")
    assert not host.is_file(below)
    assert not host.is_dir(below)
    assert host.read_file(below, 10) is None
    assert host.list_dir(str(tmp_path / "file")) == ()


def test_sparse_gigabyte_file_reads_are_bounded(host: LiveHost, tmp_path: Path) -> None:
    path = tmp_path / "sparse"
    gigabyte = 1 << 30
    with path.open("wb") as handle:
        handle.truncate(gigabyte)
        handle.seek(gigabyte - 4)
        handle.write(b"tail")
    assert host.is_file(str(path))
    head = host.read_file(str(path), 4096)
    assert head == b"\0" * 4096
    assert host.read_file(str(path), 10, offset=gigabyte - 4) == b"tail"
    # Asking for far more than the file holds reads only to the end, without a huge allocation.
    assert host.read_file(str(path), 1 << 40, offset=gigabyte - 6) == b"\0\0tail"


def test_reads_stop_at_size_for_a_file_longer_than_one_chunk(
    host: LiveHost, tmp_path: Path
) -> None:
    path = tmp_path / "big"
    data = bytes(range(256)) * 9000  # a little over 2 MiB
    path.write_bytes(data)
    assert host.read_file(str(path), len(data) - 3, offset=3) == data[3:]
    assert host.read_file(str(path), 1_500_000, offset=100) == data[100:1_500_100]


@pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="needs a filesystem that takes any bytes"
)
def test_non_utf8_names_round_trip(host: LiveHost, tmp_path: Path) -> None:
    raw_dir = os.fsencode(tmp_path)
    raw_names = [b"caf\xe9", b"\xff\xfe", b"plain"]
    for raw in raw_names:
        with open(os.path.join(raw_dir, raw), "wb") as handle:
            handle.write(raw)
    names = host.list_dir(str(tmp_path))
    assert sorted(names) == list(names)
    assert set(names) == {os.fsdecode(raw) for raw in raw_names}
    for name in names:
        path = os.path.join(str(tmp_path), name)
        assert host.is_file(path)
        assert host.read_file(path, 10) == os.fsencode(name)
    assert "caf\udce9" in names


@pytest.mark.parametrize("bad", ["a\0b", "\0", "/tmp/\0/x"])
def test_nul_in_a_path_is_absent(host: LiveHost, bad: str) -> None:
    assert not host.is_file(bad)
    assert not host.is_dir(bad)
    assert host.list_dir(bad) == ()
    assert host.read_file(bad, 10) is None
    assert host.which(bad) is None


def test_overlong_names_are_absent(host: LiveHost, tmp_path: Path) -> None:
    for path in (str(tmp_path / ("n" * 5000)), "/" + "d/" * 5000 + "f"):
        assert not host.is_file(path)
        assert not host.is_dir(path)
        assert host.list_dir(path) == ()
        assert host.read_file(path, 1) is None


@pytest.mark.parametrize(
    ("entries", "limit", "listed", "truncated"),
    [
        (5000, MAX_DIR_ENTRIES, 5000, False),
        (70, 50, 50, True),
        (50, 50, 50, False),
    ],
    ids=["more-than-4096-is-whole", "past-the-bound-is-marked", "at-the-bound-is-whole"],
)
def test_list_dir_is_bounded_and_says_so(
    tmp_path: Path, entries: int, limit: int, listed: int, truncated: bool
) -> None:
    for index in range(entries):
        (tmp_path / f"f{index:05d}").touch()
    names = list_dir_names(str(tmp_path), limit)
    assert isinstance(names, Listing)
    assert (len(names), names.truncated) == (listed, truncated)
    assert list(names) == sorted(names)


def test_the_live_host_lists_up_to_the_shared_bound(host: LiveHost, tmp_path: Path) -> None:
    assert MAX_DIR_ENTRIES == 100_000
    for index in range(4200):
        (tmp_path / f"f{index:05d}").touch()
    names = host.list_dir(str(tmp_path))
    assert (len(names), isinstance(names, Listing) and names.truncated) == (4200, False)


def test_read_regular_file_is_the_same_primitive(tmp_path: Path) -> None:
    path = tmp_path / "file"
    path.write_bytes(b"abc")
    assert read_regular_file(str(path), 2, 1) == b"bc"


def test_environment_comes_from_os_environ(host: LiveHost) -> None:
    assert host.getenv("PATH") == os.environ.get("PATH")
    assert host.getenv("HERMES_DECL_SURELY_UNSET_VARIABLE") is None
    assert host.getenv("") is None
    assert host.getenv("A\0B") is None
    assert host.getenv("A=B") is None


@pytest.mark.skipif(sys.platform == "win32", reason="os.environ already ignores case there")
def test_a_win32_live_host_ignores_case_in_variable_names() -> None:
    assert "PATH" in os.environ
    assert LiveHost("win32").getenv("path") == os.environ["PATH"]
    lower = "path"
    assert LiveHost("linux").getenv(lower) == os.environ.get(lower)


def test_which_finds_a_real_command(host: LiveHost) -> None:
    command = "cmd" if sys.platform == "win32" else "sh"
    found = host.which(command)
    assert found is not None
    assert host.is_file(found)
    expected = shutil.which(command)
    assert expected is not None
    assert os.path.samefile(found, expected)
    assert host.which("hermes-decl-no-such-command") is None
    assert host.which(os.sep + "bin" + os.sep + command) is None


@pytest.mark.skipif(sys.platform == "win32", reason="the registry is real there")
def test_registry_methods_are_empty_off_windows() -> None:
    for host in (LiveHost(), LiveHost("win32")):
        assert host.uninstall_entries() == ()
        assert host.display_device_ids() == ()


@pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="Rosetta and Windows emulation can differ there"
)
def test_native_machine_is_the_normalised_platform_machine_elsewhere(host: LiveHost) -> None:
    assert host.native_machine() == normalise_machine(platform.machine())
    assert host.native_machine() in (*ARCHITECTURES, normalise_machine(platform.machine()))


def test_repr_names_the_family() -> None:
    assert repr(LiveHost("darwin")) == "LiveHost(os_family='darwin')"


HOST_SEAM_MODULES = [
    "hermes_decl.resolver.host",
    "hermes_decl.resolver.live_host",
    "hermes_decl.resolver.rooted_host",
    "hermes_decl.resolver.winregistry",
    "hermes_decl.resolver.gpu",
    "hermes_decl.testing",
]


@pytest.mark.parametrize("first", HOST_SEAM_MODULES, ids=HOST_SEAM_MODULES)
def test_the_host_seam_imports_in_any_order(first: str) -> None:
    code = (
        f"import {first}\n"
        "from hermes_decl.resolver.host import Host, UninstallEntry\n"
        "from hermes_decl.resolver.live_host import LiveHost, default_host\n"
        "from hermes_decl.resolver.winregistry import read_uninstall_entries\n"
        "assert isinstance(default_host(), Host) and default_host() is default_host()\n"
    )
    run_started([sys.executable, "-c", code], check=True, timeout=60)


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("hermes_decl.hosts.protocol", ["hermes_decl.hosts", "hermes_decl.hosts.protocol"]),
        (
            "hermes_decl.resolver.host",
            [
                "hermes_decl.hosts",
                "hermes_decl.hosts.protocol",
                "hermes_decl.resolver",
                "hermes_decl.resolver.host",
            ],
        ),
    ],
    ids=["new-path", "old-path"],
)
def test_the_protocol_module_imports_no_implementation(module: str, expected: list[str]) -> None:
    code = (
        "import sys\n"
        f"import {module}\n"
        "loaded = sorted(m for m in sys.modules if m.startswith('hermes_decl.'))\n"
        f"assert loaded == {expected!r}, loaded\n"
    )
    run_started([sys.executable, "-c", code], check=True, timeout=60)


def test_default_host_is_one_live_host() -> None:
    assert isinstance(default_host(), LiveHost)
    assert default_host() is default_host()
    assert default_host().os_family == current_os_family()


def test_this_process_is_alive(host: LiveHost) -> None:
    assert host.process_alive(os.getpid())
    assert pid_exists(os.getpid())


@pytest.mark.parametrize("pid", [0, -1, -os.getpid(), MAX_PID + 1, 2**64, True, False])
def test_out_of_range_pids_are_never_alive(host: LiveHost, pid: int) -> None:
    # 0 and negative ids would signal process groups through kill(); they never reach the OS.
    assert host.process_alive(pid) is False


def test_an_exited_process_is_not_alive(host: LiveHost) -> None:
    child = popen_started([sys.executable, "-c", "pass"])
    child.wait(timeout=60)
    assert host.process_alive(child.pid) is False


RELATIVE_LOOKS = """
import json, os
from hermes_decl.resolver.live_host import LiveHost
host = LiveHost()
relative_file = os.path.join("dir", "tool.exe")
print(json.dumps([
    os.path.isfile(relative_file),
    host.is_file(relative_file),
    host.is_dir("dir"),
    list(host.list_dir("dir")),
    host.read_file(relative_file, 10),
    host.is_file(os.path.join(os.getcwd(), relative_file)),
]))
"""


def test_relative_paths_are_never_touched(tmp_path: Path) -> None:
    import json

    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "tool.exe").write_bytes(b"x")
    # Run from inside tmp_path: on Windows it may lie on another drive, which no relative path
    # reaches. The first answer shows the relative path resolves against the current directory,
    # the next four that the live host never resolves it, the last that the file is found by
    # its absolute path.
    looked = run_started(
        [sys.executable, "-c", RELATIVE_LOOKS],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(looked.stdout) == [True, False, False, [], None, True]


def test_the_protocol_module_still_offers_the_live_host() -> None:
    from hermes_decl.resolver import host as seam

    assert seam.LiveHost is LiveHost
    assert seam.default_host() is default_host()
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = seam.Nothing


def test_host_or_default_keeps_a_given_host_and_means_the_live_one_for_none() -> None:
    from hermes_decl.hosts.default import host_or_default
    from hermes_decl.hosts.rooted import RootedHost

    given = RootedHost("/nonexistent-root")
    assert host_or_default(given) is given
    assert host_or_default(None) is default_host()
    assert isinstance(host_or_default(None), LiveHost)
