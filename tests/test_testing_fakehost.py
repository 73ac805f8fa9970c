"""FakeHost: the public in-memory host, for every OS family, and its call counting."""

from __future__ import annotations

import plistlib
from collections import Counter

import pytest

from hermes_decl.models import OS_FAMILIES, OsFamily
from hermes_decl.resolver.host import Host, Listing, ProcessInfo, UninstallEntry
from hermes_decl.resolver.listing import MAX_DIR_ENTRIES
from hermes_decl.resolver.readers import pe_file_version, plist_version
from hermes_decl.testing import (
    DEFAULT_FILE_MTIME,
    DEFAULT_PROCESS_START,
    DEFAULT_USER,
    NVIDIA_PROC_VERSION,
    FakeHost,
)
from hermes_decl.testing_pe import build_pe, parse_version_quad

ROOTS: dict[OsFamily, str] = {"linux": "/opt", "darwin": "/Applications", "win32": "C:\\Apps"}


def sep(os_family: OsFamily) -> str:
    return "\\" if os_family == "win32" else "/"


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_fake_host_satisfies_the_protocol(os_family: OsFamily) -> None:
    host: Host = FakeHost(os_family)
    assert isinstance(host, Host)
    assert host.os_family == os_family


def test_unknown_os_family_is_refused() -> None:
    with pytest.raises(ValueError, match="os_family"):
        FakeHost("plan9")  # type: ignore[arg-type]


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_files_imply_their_parent_directories(os_family: OsFamily) -> None:
    s = sep(os_family)
    root = ROOTS[os_family]
    host = FakeHost(os_family).add_file(f"{root}{s}vendor{s}bin{s}tool", b"#!")
    assert host.is_file(f"{root}{s}vendor{s}bin{s}tool")
    assert host.is_dir(f"{root}{s}vendor{s}bin")
    assert host.is_dir(f"{root}{s}vendor")
    assert host.is_dir(root)
    assert not host.is_dir(f"{root}{s}vendor{s}bin{s}tool")
    assert not host.is_file(f"{root}{s}vendor")
    assert host.list_dir(f"{root}{s}vendor") == ("bin",)
    assert host.read_file(f"{root}{s}vendor{s}bin{s}tool", 10) == b"#!"


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_root_always_exists(os_family: OsFamily) -> None:
    host = FakeHost(os_family)
    root = "C:\\" if os_family == "win32" else "/"
    assert host.is_dir(root)
    assert host.list_dir(root) == ()


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_list_dir_is_sorted_and_direct_children_only(os_family: OsFamily) -> None:
    s = sep(os_family)
    root = ROOTS[os_family]
    host = FakeHost(os_family)
    for name in ("b", "C", "a"):
        host.add_file(f"{root}{s}{name}")
    host.add_dir(f"{root}{s}d{s}deeper")
    assert host.list_dir(root) == ("C", "a", "b", "d")
    assert host.list_dir(f"{root}{s}a") == ()
    assert host.list_dir(f"{root}{s}missing") == ()


@pytest.mark.parametrize(
    ("entries", "bound", "expected"),
    [
        (5, 3, Listing(("f00000", "f00001", "f00002"), truncated=True)),
        (3, 3, Listing(("f00000", "f00001", "f00002"))),
        (2, None, Listing(("f00000", "f00001"))),
    ],
    ids=["past-the-bound", "at-the-bound", "default-bound"],
)
def test_list_dir_is_bounded_and_says_so(
    entries: int, bound: int | None, expected: Listing
) -> None:
    host = FakeHost() if bound is None else FakeHost(max_dir_entries=bound)
    for index in range(entries):
        host.add_file(f"/many/f{index:05d}")
    names = host.list_dir("/many")
    assert isinstance(names, Listing)
    assert (names, names.truncated) == (expected, expected.truncated)


def test_the_default_bound_is_the_live_host_s() -> None:
    host = FakeHost()
    for index in range(4200):
        host.add_file(f"/many/f{index:05d}")
    names = host.list_dir("/many")
    assert (len(names), names.truncated, MAX_DIR_ENTRIES) == (4200, False, 100_000)


def test_read_file_bounds() -> None:
    host = FakeHost().add_file("/data", b"0123456789")
    assert host.read_file("/data", 3) == b"012"
    assert host.read_file("/data", 3, offset=8) == b"89"
    assert host.read_file("/data", 3, offset=50) == b""
    assert host.read_file("/data", -1) is None
    assert host.read_file("/data", 1, offset=-1) is None
    assert host.read_file("/", 10) is None
    assert host.read_file("/missing", 10) is None


def test_posix_paths_are_case_sensitive_and_normalized() -> None:
    host = FakeHost("darwin").add_file("/Applications/Tool")
    assert host.is_file("/Applications/Tool")
    assert not host.is_file("/applications/tool")
    assert host.is_file("//Applications/./Tool")
    assert host.is_file("/Applications/x/../Tool")
    assert host.is_file("/../Applications/Tool")
    assert host.is_dir("/Applications/")


def test_win32_paths_ignore_case_and_accept_both_separators() -> None:
    host = FakeHost("win32").add_file(r"C:\Program Files\Vendor\App.exe", b"MZ")
    for spelling in (
        r"C:\Program Files\Vendor\App.exe",
        r"c:\program files\vendor\app.EXE",
        "C:/Program Files/Vendor/App.exe",
        r"C:\Program Files/Vendor\\App.exe",
    ):
        assert host.is_file(spelling), spelling
    assert host.is_dir("c:/PROGRAM FILES")
    assert host.list_dir(r"C:\program files") == ("Vendor",)  # as first spelled
    assert host.list_dir("C:\\") == ("Program Files",)
    assert not host.is_file(r"D:\Program Files\Vendor\App.exe")
    host.add_file(r"C:\PROGRAM FILES\vendor\APP.EXE", b"new")  # the same file
    assert host.list_dir(r"C:\Program Files\Vendor") == ("App.exe",)
    assert host.read_file(r"C:\Program Files\Vendor\App.exe", 10) == b"new"


@pytest.mark.parametrize(
    ("os_family", "path"),
    [
        ("linux", "relative/file"),
        ("linux", ""),
        ("linux", "/a\0b"),
        ("linux", r"C:\file"),
        ("darwin", "Applications/X.app"),
        ("win32", "/usr/bin/tool"),
        ("win32", r"\Tools\tool.exe"),
        ("win32", r"C:Tools\tool.exe"),
        ("win32", r"\\server\share\tool.exe"),
    ],
)
def test_paths_not_absolute_for_the_os(os_family: OsFamily, path: str) -> None:
    host = FakeHost(os_family)
    with pytest.raises(ValueError, match="absolute"):
        host.add_file(path)
    assert not host.is_file(path)
    assert not host.is_dir(path)
    assert host.list_dir(path) == ()
    assert host.read_file(path, 1) is None


def test_files_and_directories_cannot_collide() -> None:
    host = FakeHost().add_file("/a/file").add_dir("/a/dir")
    with pytest.raises(ValueError, match="already a directory"):
        host.add_file("/a/dir")
    with pytest.raises(ValueError, match="already a file"):
        host.add_dir("/a/file")
    with pytest.raises(ValueError, match="is a file"):
        host.add_file("/a/file/below")
    with pytest.raises(ValueError, match="absolute"):
        host.add_dir("/")


def test_add_executable_is_a_file() -> None:
    host = FakeHost().add_executable("/usr/bin/tool", b"\x7fELF")
    assert host.is_file("/usr/bin/tool")
    assert host.read_file("/usr/bin/tool", 4) == b"\x7fELF"


def test_add_bundle_with_and_without_version() -> None:
    host = FakeHost("darwin")
    host.add_bundle("/Applications/Vendor.app", "2.4.1")
    host.add_bundle("/Applications/Bare.app")
    assert host.is_dir("/Applications/Vendor.app")
    assert host.list_dir("/Applications/Vendor.app") == ("Contents",)
    data = host.read_file("/Applications/Vendor.app/Contents/Info.plist", 1 << 16)
    assert data is not None
    info = plistlib.loads(data)
    assert info["CFBundleShortVersionString"] == "2.4.1"
    assert info["CFBundleVersion"] == "2.4.1"
    assert info["CFBundleName"] == "Vendor"
    bare = host.read_file("/Applications/Bare.app/Contents/Info.plist", 1 << 16)
    assert bare is not None
    assert "CFBundleShortVersionString" not in plistlib.loads(bare)
    assert "CFBundleVersion" not in plistlib.loads(bare)


def test_add_bundle_reads_with_the_plist_reader() -> None:
    host = FakeHost("darwin").add_bundle("/Applications/Vendor.app", "3.0")
    data = host.read_file("/Applications/Vendor.app/Contents/Info.plist", 1 << 16)
    assert data is not None
    assert plist_version(data) == "3.0"


@pytest.mark.parametrize("version", ["24.1.0.7", "1.2.3.4", "0.0.0.0", "65535.65535.65535.65535"])
def test_add_pe_is_read_by_the_pe_reader(version: str) -> None:
    host = FakeHost("win32").add_pe(r"C:\Program Files\Vendor\studio.exe", version)
    data = host.read_file(r"C:\Program Files\Vendor\studio.exe", 1 << 20)
    assert data is not None
    assert data[:2] == b"MZ"
    assert pe_file_version(data) == version


def test_add_pe_pads_short_versions() -> None:
    assert pe_file_version(build_pe("7.1")) == "7.1.0.0"
    assert parse_version_quad("7") == (7, 0, 0, 0)


def test_built_pe_is_read_the_same_from_a_file_object() -> None:
    import io

    assert pe_file_version(io.BytesIO(build_pe("5.6.7.8"))) == "5.6.7.8"


def test_built_pe_agrees_with_pefile() -> None:
    pefile = pytest.importorskip("pefile")
    image = build_pe("10.20.30.40", product_version="1.0", string_file_version="9.9")
    pe = pefile.PE(data=image)
    fixed = pe.VS_FIXEDFILEINFO[0]
    assert fixed.Signature == 0xFEEF04BD
    assert (fixed.FileVersionMS, fixed.FileVersionLS) == (10 << 16 | 20, 30 << 16 | 40)
    assert fixed.ProductVersionMS == 1 << 16
    assert pe.OPTIONAL_HEADER.Magic == 0x20B
    assert [section.Name.rstrip(b"\0") for section in pe.sections] == [b".rsrc"]
    strings = {
        key: value
        for info in pe.FileInfo[0]
        for table in getattr(info, "StringTable", [])
        for key, value in table.entries.items()
    }
    assert strings[b"FileVersion"] == b"9.9"
    assert not [w for w in pe.get_warnings() if "Corrupt" in w or "Error" in w]


@pytest.mark.parametrize("bad", ["", "1.2.3.4.5", "1.x", "70000.0", "-1", "1..2"])
def test_add_pe_refuses_versions_a_pe_cannot_hold(bad: str) -> None:
    with pytest.raises(ValueError, match="PE version"):
        FakeHost("win32").add_pe(r"C:\x.exe", bad)


def test_uninstall_entries_and_display_devices_on_win32() -> None:
    host = FakeHost("win32")
    host.add_uninstall_entry("Vendor Studio 2024", "24.1", r"C:\Program Files\Vendor")
    host.add_uninstall_entry("Other")
    host.add_display_device(r"PCI\VEN_10DE&DEV_2684&SUBSYS_16F110DE")
    assert host.uninstall_entries() == (
        UninstallEntry("Vendor Studio 2024", "24.1", r"C:\Program Files\Vendor"),
        UninstallEntry("Other", None, None),
    )
    assert host.display_device_ids() == (r"PCI\VEN_10DE&DEV_2684&SUBSYS_16F110DE",)


@pytest.mark.parametrize("os_family", ["linux", "darwin"])
def test_windows_setup_is_refused_elsewhere(os_family: OsFamily) -> None:
    host = FakeHost(os_family)
    with pytest.raises(ValueError, match="win32"):
        host.add_uninstall_entry("Vendor")
    with pytest.raises(ValueError, match="win32"):
        host.add_display_device(r"PCI\VEN_10DE")
    assert host.uninstall_entries() == ()
    assert host.display_device_ids() == ()


@pytest.mark.parametrize("os_family", ["win32", "darwin"])
def test_linux_setup_is_refused_elsewhere(os_family: OsFamily) -> None:
    host = FakeHost(os_family)
    with pytest.raises(ValueError, match="linux"):
        host.add_pci_device()
    with pytest.raises(ValueError, match="linux"):
        host.add_nvidia_proc()


def test_pci_devices_and_nvidia_proc_write_sysfs_files() -> None:
    host = FakeHost().add_pci_device().add_pci_device("0x8086", "0x0c0330")
    host.add_pci_device("0x1002", slot="0000:0c:00.0").add_nvidia_proc()
    assert host.list_dir("/sys/bus/pci/devices") == ("0000:01:00.0", "0000:02:00.0", "0000:0c:00.0")
    assert host.read_file("/sys/bus/pci/devices/0000:01:00.0/vendor", 64) == b"0x10de\n"
    assert host.read_file("/sys/bus/pci/devices/0000:01:00.0/class", 64) == b"0x030000\n"
    assert host.read_file("/sys/bus/pci/devices/0000:02:00.0/class", 64) == b"0x0c0330\n"
    assert host.read_file("/sys/bus/pci/devices/0000:0c:00.0/vendor", 64) == b"0x1002\n"
    assert host.read_file("/proc/driver/nvidia/version", 1 << 10) == NVIDIA_PROC_VERSION


def test_environment_and_home_per_os() -> None:
    linux = FakeHost(env={"HOME": "/home/dev", "Path": "/x"})
    assert linux.getenv("HOME") == "/home/dev"
    assert linux.getenv("PATH") is None
    assert linux.home() == "/home/dev"
    assert FakeHost(home="/root", env={"HOME": "/home/dev"}).home() == "/root"
    assert FakeHost("darwin").home() is None
    win = FakeHost("win32", env={"UserProfile": r"C:\Users\dev", "PATH": "a"})
    assert win.home() == r"C:\Users\dev"
    assert win.getenv("path") == "a"
    win.set_env("Path", "b")
    assert win.getenv("PATH") == "b"
    win.set_env("PATH", None)
    assert win.getenv("Path") is None
    linux.set_env("HOME", None).set_env("EDITOR", "vi")
    assert linux.home() is None
    assert linux.getenv("EDITOR") == "vi"


def test_user_home_comes_from_users() -> None:
    host = FakeHost(users={"dev": "/home/dev"})
    assert host.user_home("dev") == "/home/dev"
    assert host.user_home("root") is None


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_native_machine_is_given_and_normalised(os_family: OsFamily) -> None:
    assert FakeHost(os_family).native_machine() == "x86_64"
    assert FakeHost(os_family, native_machine="arm64").native_machine() == "arm64"
    assert FakeHost(os_family, native_machine="aarch64").native_machine() == "arm64"
    assert FakeHost(os_family, native_machine="AMD64").native_machine() == "x86_64"


def test_which_on_posix_uses_path_and_only_counts_once() -> None:
    host = FakeHost(env={"PATH": "/usr/local/bin:/usr/bin"})
    host.add_executable("/usr/bin/tool").add_dir("/usr/local/bin/tool")
    assert host.which("tool") == "/usr/bin/tool"
    assert host.which("missing") is None
    assert host.calls == Counter({"which": 2})
    assert host.call_log == [("which", ("tool",)), ("which", ("missing",))]


def test_which_on_win32_uses_pathext() -> None:
    host = FakeHost("win32", env={"PATH": r"C:\Windows;C:\Tools", "PATHEXT": ".EXE;.CMD"})
    host.add_file(r"C:\Tools\tool.cmd").add_file(r"C:\Windows\other.exe")
    assert host.which("tool") == r"C:\Tools\tool.CMD"
    assert host.which("OTHER") == r"C:\Windows\OTHER.EXE"
    assert host.which("other.exe") == r"C:\Windows\other.exe"
    assert host.which("tool.bat") is None


def test_which_on_darwin_has_no_path_by_default() -> None:
    host = FakeHost("darwin").add_file("/usr/bin/tool")
    assert host.which("tool") is None
    host.set_env("PATH", "/usr/bin")
    assert host.which("tool") == "/usr/bin/tool"


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_every_protocol_call_is_counted_and_logged(os_family: OsFamily) -> None:
    root = ROOTS[os_family]
    host = FakeHost(os_family)
    host.add_file(root + sep(os_family) + "f", b"x")
    assert host.calls == Counter()
    assert host.os_family == os_family  # not counted
    host.getenv("PATH")
    host.home()
    host.user_home("dev")
    host.is_file(root)
    host.is_dir(root)
    host.list_dir(root)
    host.read_file(root, 8, 2)
    host.which("x")
    host.uninstall_entries()
    host.display_device_ids()
    host.native_machine()
    host.process_alive(7)
    host.process_info(7)
    host.own_process()
    host.file_mtime(root)
    host.interactive_session()
    host.is_file(root)
    methods = [
        "getenv",
        "home",
        "user_home",
        "is_file",
        "is_dir",
        "list_dir",
        "read_file",
        "which",
        "uninstall_entries",
        "display_device_ids",
        "native_machine",
        "process_alive",
        "process_info",
        "own_process",
        "file_mtime",
        "interactive_session",
    ]
    assert host.calls == Counter({**dict.fromkeys(methods, 1), "is_file": 2})
    assert [method for method, _args in host.call_log] == [*methods, "is_file"]
    assert host.call_log[6] == ("read_file", (root, 8, 2))
    assert host.call_log[0] == ("getenv", ("PATH",))
    host.reset_calls()
    assert host.calls == Counter()
    assert host.call_log == []


def test_every_protocol_method_is_counted() -> None:
    protocol_methods = {
        name
        for protocol in Host.__mro__
        for name, value in vars(protocol).items()
        if callable(value) and not name.startswith("_")
    }
    assert protocol_methods == {
        "getenv",
        "home",
        "user_home",
        "is_file",
        "is_dir",
        "list_dir",
        "read_file",
        "which",
        "uninstall_entries",
        "display_device_ids",
        "native_machine",
        "os_version",
        "process_alive",
        "process_info",
        "own_process",
        "file_mtime",
        "interactive_session",
        "read_file_facts",
        "folders_above",
        "process_parent",
        "tcp_listeners",
    }


def test_processes_can_start_and_end() -> None:
    host = FakeHost().add_process(4242).add_process(7)
    assert host.process_alive(4242)
    assert not host.process_alive(8)
    assert not host.process_alive(True)  # a bool is not a process id, even though True == 1
    host.end_process(4242).end_process(99)
    assert not host.process_alive(4242)
    assert host.process_alive(7)
    assert host.calls["process_alive"] == 5
    assert host.call_log[-1] == ("process_alive", (7,))


def test_add_process_insists_on_an_int() -> None:
    with pytest.raises(TypeError, match="int"):
        FakeHost().add_process(True)
    with pytest.raises(TypeError, match="int"):
        FakeHost().add_process("42")  # type: ignore[arg-type]


def test_repr() -> None:
    assert repr(FakeHost("darwin").add_file("/a/b")) == "FakeHost('darwin', files=1, dirs=2)"


# -- runtime facts -------------------------------------------------------------------------------


def test_processes_default_to_the_host_user_started_before_files_were_written() -> None:
    host = FakeHost(user="alice", session=2).add_process(4242).add_file("/run/server.json")
    assert host.own_process() == ProcessInfo("alice", None, 2)
    assert host.process_info(4242) == ProcessInfo("alice", DEFAULT_PROCESS_START, 2)
    assert host.file_mtime("/run/server.json") == DEFAULT_FILE_MTIME > DEFAULT_PROCESS_START
    assert FakeHost().own_process() == ProcessInfo(DEFAULT_USER, None, None)


def test_processes_and_files_can_say_who_and_when() -> None:
    host = FakeHost("win32").add_process(7, user="S-1-5-18", started=5.0, session=0)
    host.add_file("C:\\run\\server.json", b"{}", mtime=3.0).add_unreadable_process(8)
    assert host.process_info(7) == ProcessInfo("S-1-5-18", 5.0, 0)
    assert host.process_info(8) == ProcessInfo(None, None)
    assert host.process_alive(8) is True
    assert host.file_mtime("c:/RUN/server.json") == 3.0
    assert host.add_process(9, started=None).process_info(9) == ProcessInfo(DEFAULT_USER, None)


def test_no_process_and_no_file_have_no_facts() -> None:
    host = FakeHost().add_dir("/run").add_process(7).end_process(7)
    assert host.process_info(7) is None
    assert host.process_info(True) is None
    assert host.file_mtime("/run") is None
    assert host.file_mtime("/missing") is None
    assert host.file_mtime("relative") is None


@pytest.mark.parametrize(
    ("os_family", "given", "env", "expected"),
    [
        ("linux", None, {}, False),
        ("linux", None, {"DISPLAY": ":1"}, True),
        ("linux", False, {"DISPLAY": ":1"}, False),
        ("darwin", None, {}, None),
        ("win32", None, {}, None),
        ("darwin", True, {}, True),
        ("win32", False, {}, False),
    ],
    ids=[
        "linux-env",
        "linux-display",
        "linux-given",
        "darwin",
        "win32",
        "darwin-given",
        "win32-given",
    ],
)
def test_interactive_session(
    os_family: OsFamily, given: bool | None, env: dict[str, str], expected: bool | None
) -> None:
    host = FakeHost(os_family, env=env, interactive_session=given)
    assert host.interactive_session() is expected


def test_the_facets_make_up_the_whole_protocol_without_overlap() -> None:
    from hermes_decl.hosts.protocol import (
        HostEnvironment,
        HostFiles,
        HostHardware,
        HostProcesses,
        HostRegistry,
        HostSockets,
    )

    facets = (HostFiles, HostEnvironment, HostProcesses, HostSockets, HostRegistry, HostHardware)
    by_facet = {
        facet.__name__: sorted(
            name for name, value in vars(facet).items() if callable(value) and name[0] != "_"
        )
        for facet in facets
    }
    assert by_facet == {
        "HostFiles": [
            "file_mtime",
            "folders_above",
            "is_dir",
            "is_file",
            "list_dir",
            "read_file",
            "read_file_facts",
        ],
        "HostEnvironment": ["getenv", "home", "user_home", "which"],
        "HostProcesses": [
            "interactive_session",
            "own_process",
            "process_alive",
            "process_info",
            "process_parent",
        ],
        "HostSockets": ["tcp_listeners"],
        "HostRegistry": ["display_device_ids", "uninstall_entries"],
        "HostHardware": ["native_machine", "os_version"],
    }
    assert Host.__mro__[1:7] == facets
    host = FakeHost()
    assert all(isinstance(host, facet) for facet in facets)
    assert not isinstance(object(), HostFiles)
