"""gpu_class: fixture trees, fake hosts per OS, the priority table, bounds, cache, no subprocess."""

from __future__ import annotations

import ast
import gc
import inspect
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

from hermes_decl.hosts.protocol import FileRead, FolderFacts, TcpListener
from hermes_decl.models import OsFamily
from hermes_decl.resolver import gpu, live_host
from hermes_decl.resolver.gpu import (
    MAX_DEVICES,
    MAX_ID_BYTES,
    VENDOR_PRIORITY,
    GpuClass,
    clear_gpu_cache,
    gpu_class,
)
from hermes_decl.resolver.host import Listing, ProcessInfo, UninstallEntry
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.testing import FakeHost

HOSTS = Path(__file__).parent / "fixtures" / "hosts"

VENDOR_IDS = {GpuClass.NVIDIA: "0x10de", GpuClass.AMD: "0x1002", GpuClass.INTEL: "0x8086"}


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    clear_gpu_cache()
    yield
    clear_gpu_cache()


@pytest.mark.parametrize(
    ("tree", "expected"),
    [
        ("nvidia-datacenter", "nvidia"),
        ("nvidia-datacenter-no-proc", "nvidia"),
        ("h200-vm", "nvidia"),
        ("h200-vm-no-proc", "nvidia"),
        ("intel-nvidia-laptop", "nvidia"),
        ("amd", "amd"),
        ("virtio-vm", "none"),
        ("no-sysfs", "unknown"),
        ("linux-flatpak", "unknown"),
    ],
)
def test_linux_fixture_trees(tree: str, expected: str) -> None:
    answer = gpu_class(RootedHost(HOSTS / tree))
    assert answer == expected
    assert isinstance(answer, GpuClass)


@pytest.mark.parametrize(
    ("machine", "expected"), [("arm64", "apple_silicon"), ("x86_64", "unknown")]
)
def test_darwin_fixture_tree(machine: str, expected: str) -> None:
    host = RootedHost(HOSTS / "darwin-apps", "darwin", native_machine=machine)
    assert gpu_class(host) == expected


def test_datacenter_answer_comes_from_the_proc_file_alone() -> None:
    host = FakeHost().add_nvidia_proc()
    assert gpu_class(host) == "nvidia"
    assert dict(host.calls) == {"is_file": 1}


def test_the_pci_path_answers_without_the_driver() -> None:
    host = FakeHost().add_pci_device("0x10de", "0x030200")
    assert gpu_class(host) == "nvidia"


@pytest.mark.parametrize(
    "present",
    [
        combination
        for size in range(1, 4)
        for combination in itertools.combinations(VENDOR_PRIORITY, size)
    ],
)
@pytest.mark.parametrize("with_other_vendor", [False, True])
def test_priority_table(present: tuple[GpuClass, ...], with_other_vendor: bool) -> None:
    host = FakeHost()
    if with_other_vendor:
        host.add_pci_device("0x1af4")
    for vendor in reversed(present):  # order of discovery must not matter
        host.add_pci_device(VENDOR_IDS[vendor])
    expected = next(vendor for vendor in VENDOR_PRIORITY if vendor in present)
    assert gpu_class(host) == expected


def test_priority_across_pci_and_drm() -> None:
    host = FakeHost().add_pci_device("0x8086")
    host.add_file("/sys/class/drm/card1/device/vendor", b"0x1002\n")
    host.add_file("/sys/class/drm/card1/device/class", b"0x030000\n")
    assert gpu_class(host) == "amd"


@pytest.mark.parametrize("vendor", ["0x1af4", "0x1b36", "0x1234", "0x15ad", "0x1414"])
def test_display_devices_of_other_vendors_are_none(vendor: str) -> None:
    assert gpu_class(FakeHost().add_pci_device(vendor)) == "none"


def test_non_display_devices_of_gpu_vendors_do_not_count() -> None:
    host = FakeHost().add_pci_device("0x8086", "0x060000").add_pci_device("0x10de", "0x0c0330")
    assert gpu_class(host) == "none"  # sysfs read; no display device at all


@pytest.mark.parametrize(
    "device_class", ["0x030000", "0x030001", "0x030100", "0x030200", "0x038000"]
)
def test_every_display_subclass_counts(device_class: str) -> None:
    assert gpu_class(FakeHost().add_pci_device("0x1002", device_class)) == "amd"


@pytest.mark.parametrize("vendor", ["", "   ", "\n", "garbage", "0x", "0xzzzz", "0x10de 0x1002"])
def test_blank_or_malformed_vendor_is_ignored(vendor: str) -> None:
    host = FakeHost().add_pci_device(vendor)
    assert gpu_class(host) == "unknown"  # a display device whose vendor cannot be told
    host2 = FakeHost().add_pci_device(vendor).add_pci_device("0x8086")
    assert gpu_class(host2) == "unknown"  # beside an Intel iGPU, it may be the NVIDIA dGPU
    host3 = FakeHost().add_pci_device(vendor).add_pci_device("0x10de")
    assert gpu_class(host3) == "nvidia"


def test_unreadable_vendor_file_is_ignored() -> None:
    host = FakeHost().add_file("/sys/bus/pci/devices/0000:01:00.0/class", b"0x030000\n")
    assert gpu_class(host) == "unknown"
    host.add_pci_device("0x1af4")
    clear_gpu_cache()
    assert gpu_class(host) == "unknown"  # the unreadable one might be the GPU


def test_pci_device_with_unreadable_class_is_skipped() -> None:
    host = FakeHost().add_file("/sys/bus/pci/devices/0000:01:00.0/vendor", b"0x10de\n")
    assert gpu_class(host) == "unknown"  # nothing readable
    host.add_pci_device("0x8086", "0x060000")
    clear_gpu_cache()
    assert gpu_class(host) == "none"


def test_vendor_ids_without_0x_and_in_capitals_are_read() -> None:
    assert gpu_class(FakeHost().add_pci_device("10DE")) == "nvidia"
    assert gpu_class(FakeHost().add_pci_device("0X1002", "0X030000")) == "amd"


def test_empty_pci_directory_is_unknown() -> None:
    assert gpu_class(FakeHost().add_dir("/sys/bus/pci/devices")) == "unknown"


def test_drm_card_without_a_class_file_counts_as_display() -> None:
    host = FakeHost().add_file("/sys/class/drm/card0/device/vendor", b"0x8086\n")
    assert gpu_class(host) == "intel"


def test_drm_card_of_another_class_is_skipped() -> None:
    host = FakeHost().add_file("/sys/class/drm/card0/device/vendor", b"0x10de\n")
    host.add_file("/sys/class/drm/card0/device/class", b"0x120000\n")
    assert gpu_class(host) == "none"


def test_drm_connectors_and_render_nodes_are_skipped() -> None:
    host = FakeHost()
    for name in ("card0-HDMI-A-1", "renderD128", "card", "cardX", "version"):
        host.add_file(f"/sys/class/drm/{name}/device/vendor", b"0x10de\n")
        host.add_file(f"/sys/class/drm/{name}/device/class", b"0x030000\n")
    assert gpu_class(host) == "unknown"
    read = {args[0] for method, args in host.call_log if method == "read_file"}
    assert read == set()


class OddListingHost(FakeHost):
    """A FakeHost whose PCI listing also holds names no sysfs would give."""

    def list_dir(self, path: str) -> Listing:
        names = super().list_dir(path)
        if path != "/sys/bus/pci/devices":
            return names
        return Listing(("..", "../../../etc", "0000:00:02.0/../../x", *names))


def _server(functions: int, *, nvidia: bool, host: FakeHost | None = None) -> FakeHost:
    """A server: many PCI functions, the BMC's VGA on bus 02, the NVIDIA GPU (if any) last."""
    host = host or FakeHost()
    for index in range(functions):
        host.add_pci_device("0x15b3", "0x020000", slot=f"0000:{index // 8 + 3:02x}:00.{index % 8}")
    host.add_pci_device("0x1a03", "0x030000", slot="0000:02:00.0")  # ASPEED BMC VGA
    if nvidia:
        host.add_pci_device("0x10de", "0x030200", slot="0000:ff:00.0")  # sorts after the rest
    return host


SURVEYS: dict[str, tuple[Callable[[], FakeHost], str]] = {
    "nvidia-after-300-functions": (lambda: _server(300, nvidia=True), "nvidia"),
    "bmc-only-after-300-functions": (lambda: _server(300, nvidia=False), "none"),
    "host-cut-the-listing": (
        lambda: _server(30, nvidia=True, host=FakeHost(max_dir_entries=20)),
        "unknown",
    ),
    "odd-names-in-the-listing": (
        lambda: _server(3, nvidia=False, host=OddListingHost()),
        "unknown",
    ),
    "odd-names-but-nvidia-seen": (lambda: _server(3, nvidia=True, host=OddListingHost()), "nvidia"),
}


@pytest.mark.parametrize(("make", "expected"), SURVEYS.values(), ids=list(SURVEYS))
def test_a_partial_survey_never_concludes_none(make: Callable[[], FakeHost], expected: str) -> None:
    host = make()
    assert gpu_class(host) == expected
    read = [str(args[0]) for method, args in host.call_log if method == "read_file"]
    assert all(path.startswith("/sys/bus/pci/devices/0000:") for path in read)
    assert not any(".." in path for path in read)


@pytest.mark.parametrize(
    ("nvidia_first", "expected"),
    [(False, "unknown"), (True, "nvidia")],
    ids=["past-the-bound-without-nvidia", "nvidia-seen-before-the-bound"],
)
def test_devices_examined_are_bounded(nvidia_first: bool, expected: str) -> None:
    host = FakeHost()
    if nvidia_first:
        host.add_pci_device("0x10de", slot="0000:00:00.0")
    for index in range(MAX_DEVICES + 1):
        host.add_dir(f"/sys/bus/pci/devices/0001:{index:05x}")  # no class file: tells nothing
    assert gpu_class(host) == expected
    # One class read per function examined, and the vendor of the one display device.
    assert host.calls["read_file"] == MAX_DEVICES + (1 if nvidia_first else 0)


@pytest.mark.parametrize(
    ("nvidia_first", "expected"),
    [(False, "unknown"), (True, "nvidia")],
    ids=["past-the-bound-without-nvidia", "nvidia-seen-before-the-bound"],
)
def test_windows_adapters_examined_are_bounded(nvidia_first: bool, expected: str) -> None:
    host = FakeHost("win32")
    if nvidia_first:
        host.add_display_device(r"PCI\VEN_10DE&DEV_2684")
    for _ in range(MAX_DEVICES + 1):
        host.add_display_device(r"PCI\VEN_1414&DEV_008E")
    assert gpu_class(host) == expected


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        (r"PCI\VEN_1414&DEV_008E", "unknown"),
        (r"PCI\VEN_1002&DEV_73BF", "unknown"),
        (r"PCI\VEN_10DE&DEV_2684", "nvidia"),
    ],
    ids=["basic-adapter-then-cut", "amd-then-cut", "nvidia-then-cut"],
)
def test_a_cut_list_of_windows_adapters_never_reads_none(first: str, expected: str) -> None:
    host = FakeHost("win32", max_registry_entries=1)
    host.add_display_device(first).add_display_device(r"PCI\VEN_10DE&DEV_2684")
    assert gpu_class(host) == expected


def test_reads_are_small_and_only_through_the_host() -> None:
    host = FakeHost().add_pci_device("0x8086").add_pci_device("0x1af4")
    host.add_file("/sys/bus/pci/devices/0000:01:00.0/vendor", b"0x8086" + b" " * 5000)
    gpu_class(host)
    sizes = [args[1] for method, args in host.call_log if method == "read_file"]
    assert sizes
    assert all(isinstance(size, int) and size <= MAX_ID_BYTES for size in sizes)
    assert set(host.calls) <= {"is_file", "list_dir", "read_file"}


def test_windows_vendor_ids() -> None:
    host = FakeHost("win32")
    host.add_display_device(r"PCI\VEN_8086&DEV_A7A0&SUBSYS_0B2A1028")
    host.add_display_device(r"pci\ven_10de&dev_2820")
    assert gpu_class(host) == "nvidia"
    assert dict(host.calls) == {"display_device_ids": 1}


WINDOWS_ADAPTERS = {
    "registry-unreadable": ((), "unknown"),
    "basic-display-driver": ((r"ROOT\BasicDisplay",), "unknown"),
    "basic-display-driver-and-amd": ((r"ROOT\BasicDisplay", r"PCI\VEN_1002&DEV_73BF"), "unknown"),
    "basic-display-driver-and-hyper-v": (
        (r"PCI\VEN_1414&DEV_008E", r"ROOT\BasicDisplay"),
        "unknown",
    ),
    "basic-display-driver-and-nvidia": ((r"ROOT\BasicDisplay", r"PCI\VEN_10DE&DEV_2684"), "nvidia"),
    "hyper-v-video": ((r"PCI\VEN_1414&DEV_008E",), "none"),
    "vmware-svga": ((r"PCI\VEN_15AD&DEV_0405",), "none"),
    "amd-and-intel": ((r"PCI\VEN_1002&DEV_744C", r"PCI\VEN_8086&DEV_A780"), "amd"),
    "intel": ((r"PCI\VEN_8086&DEV_A780",), "intel"),
    "nvidia": ((r"PCI\VEN_10DE&DEV_2684",), "nvidia"),
    "five-digit-vendor-names-none": ((r"PCI\VEN_10DEF",), "unknown"),
    "three-digit-vendor-names-none": ((r"PCI\VEN_10D",), "unknown"),
    "empty-id": (("",), "unknown"),
    "vendor-beyond-the-bound": (("x" * 600 + r"PCI\VEN_10DE",), "unknown"),
    "other-vendor-and-empty-id": ((r"PCI\VEN_15AD&DEV_0405", ""), "unknown"),
}
"""Display adapters' ``MatchingDeviceId`` values and the class they make; an id that names no
vendor (the basic display driver's, or a malformed one) cannot tell, so it never reads none."""


@pytest.mark.parametrize(
    ("device_ids", "expected"), WINDOWS_ADAPTERS.values(), ids=list(WINDOWS_ADAPTERS)
)
def test_windows_table(device_ids: tuple[str, ...], expected: str) -> None:
    host = FakeHost("win32")
    for device_id in device_ids:
        host.add_display_device(device_id)
    host.add_uninstall_entry("irrelevant")
    assert gpu_class(host) == expected


def test_windows_via_rooted_host() -> None:
    host = RootedHost(
        HOSTS / "no-sysfs",
        "win32",
        display_device_ids=[r"PCI\VEN_10DE&DEV_2684"],
        uninstall_entries=[UninstallEntry("x", None, None)],
    )
    assert gpu_class(host) == "nvidia"


@pytest.mark.parametrize(
    ("machine", "expected"),
    [
        ("arm64", "apple_silicon"),
        ("ARM64", "apple_silicon"),
        ("x86_64", "unknown"),
        ("", "unknown"),
    ],
)
def test_darwin_table(machine: str, expected: str) -> None:
    host = FakeHost("darwin", native_machine=machine)
    assert gpu_class(host) == expected
    assert dict(host.calls) == {"native_machine": 1}


@pytest.mark.parametrize("os_family", ["linux", "win32", "darwin"])
def test_answers_are_cached_per_host_and_cleared(os_family: OsFamily) -> None:
    host = FakeHost(os_family)
    first = gpu_class(host)
    calls = sum(host.calls.values())
    assert calls > 0
    assert gpu_class(host) is first
    assert sum(host.calls.values()) == calls
    other = FakeHost(os_family)
    gpu_class(other)
    assert sum(other.calls.values()) == calls  # another host has its own entry
    clear_gpu_cache()
    gpu_class(host)
    assert sum(host.calls.values()) == 2 * calls


def test_cache_is_per_object_not_per_equal_value() -> None:
    nvidia = FakeHost().add_nvidia_proc()
    none = FakeHost().add_pci_device("0x1af4")
    assert gpu_class(nvidia) == "nvidia"
    assert gpu_class(none) == "none"


def test_a_collected_host_does_not_leave_its_answer_behind() -> None:
    for _ in range(20):
        gpu_class(FakeHost().add_nvidia_proc())
        gc.collect()
        assert gpu_class(FakeHost().add_pci_device("0x1af4")) == "none"
        gc.collect()
    assert len(gpu._CACHE._weak) <= 1


class SlottedHost:
    """A host that cannot be weakly referenced (``__slots__``), delegating to a FakeHost."""

    __slots__ = ("inner",)

    def __init__(self, inner: FakeHost) -> None:
        self.inner = inner

    @property
    def os_family(self) -> OsFamily | None:
        return self.inner.os_family

    def getenv(self, name: str) -> str | None:
        return self.inner.getenv(name)

    def home(self) -> str | None:
        return self.inner.home()

    def user_home(self, user: str) -> str | None:
        return self.inner.user_home(user)

    def is_file(self, path: str) -> bool:
        return self.inner.is_file(path)

    def is_dir(self, path: str) -> bool:
        return self.inner.is_dir(path)

    def list_dir(self, path: str) -> tuple[str, ...]:
        return self.inner.list_dir(path)

    def read_file(self, path: str, size: int, offset: int = 0) -> bytes | None:
        return self.inner.read_file(path, size, offset)

    def which(self, name: str) -> str | None:
        return self.inner.which(name)

    def uninstall_entries(self) -> tuple[UninstallEntry, ...]:
        return self.inner.uninstall_entries()

    def display_device_ids(self) -> tuple[str, ...]:
        return self.inner.display_device_ids()

    def native_machine(self) -> str:
        return self.inner.native_machine()

    def os_version(self) -> str | None:
        return self.inner.os_version()

    def process_alive(self, pid: int) -> bool:
        return self.inner.process_alive(pid)

    def process_info(self, pid: int) -> ProcessInfo | None:
        return self.inner.process_info(pid)

    def own_process(self) -> ProcessInfo:
        return self.inner.own_process()

    def file_mtime(self, path: str) -> float | None:
        return self.inner.file_mtime(path)

    def read_file_facts(self, path: str, size: int) -> FileRead | None:
        return self.inner.read_file_facts(path, size)

    def folders_above(self, path: str) -> tuple[FolderFacts, ...] | None:
        return self.inner.folders_above(path)

    def process_parent(self, pid: int) -> int | None:
        return self.inner.process_parent(pid)

    def tcp_listeners(self, address: str, port: int) -> tuple[TcpListener, ...] | None:
        return self.inner.tcp_listeners(address, port)

    def interactive_session(self) -> bool | None:
        return self.inner.interactive_session()


def test_hosts_without_weak_references_are_cached_too() -> None:
    inner = FakeHost().add_nvidia_proc()
    host = SlottedHost(inner)
    assert gpu_class(host) == "nvidia"
    assert gpu_class(host) == "nvidia"
    assert inner.calls["is_file"] == 1
    for _ in range(gpu._PerHostCache.STRONG_LIMIT + 10):
        gpu_class(SlottedHost(FakeHost()))
    assert len(gpu._CACHE._strong) == gpu._PerHostCache.STRONG_LIMIT


def test_default_host_is_the_live_host_and_cached() -> None:
    first = gpu_class()
    assert isinstance(first, GpuClass)
    assert gpu_class() is first
    assert live_host.default_host() is live_host.default_host()
    assert gpu_class(live_host.default_host()) is first


def test_gpu_class_is_a_str() -> None:
    name: str = "nvidia"
    assert name == GpuClass.NVIDIA
    assert isinstance(GpuClass.NVIDIA, str)
    assert GpuClass("none") is GpuClass.NONE
    assert str(GpuClass.APPLE_SILICON) == "apple_silicon"
    assert f"{GpuClass.NONE}" == "none"
    assert {c.value for c in GpuClass} == {
        "nvidia",
        "amd",
        "intel",
        "apple_silicon",
        "none",
        "unknown",
    }


FORBIDDEN_MODULES = {"subprocess", "ctypes", "cffi", "multiprocessing", "pty", "os", "winreg"}


def imported_modules(module: ModuleType) -> set[str]:
    """The top-level names of every module ``module`` imports, read from its source."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"__import__", "exec", "eval", "open"}
    return imported


def test_gpu_module_never_starts_a_process_or_loads_a_library() -> None:
    imported = imported_modules(gpu)
    assert not imported & FORBIDDEN_MODULES
    allowed = {"__future__", "re", "threading", "weakref", "collections", "enum", "hermes_decl"}
    assert imported <= allowed


def test_the_live_host_starts_no_process_either() -> None:
    assert not imported_modules(live_host) & {"subprocess", "ctypes", "cffi", "multiprocessing"}
