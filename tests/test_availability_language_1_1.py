"""Availability under language 1.1 (SPEC 8, steps 3a and 3b): architecture and OS-version floors,
the display name in every sentence, and install hints in the missing and too-old sentences.

Written from SPEC.md and the issue's sentences. Everything runs on ``FakeHost``, whose call
counts show what each step asked of the machine.
"""

from __future__ import annotations

import plistlib
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration
from hermes_decl.resolver.availability import AvailabilityState, availability
from hermes_decl.resolver.gpu import clear_gpu_cache
from hermes_decl.resolver.os_version import SYSTEM_VERSION_PLIST
from hermes_decl.testing import FakeHost
from tests.rules_helpers import rows

STUDIO_EXE = "C:\\Program Files\\Vendor\\studio.exe"
STUDIO_APP = "/Applications/Vendor Studio.app"
WIN32: dict[str, Any] = {
    "presence": "executable",
    "location": STUDIO_EXE,
    "version": {"kind": "pe_resource"},
}
DARWIN: dict[str, Any] = {
    "presence": "bundle",
    "location": {"kind": "app_bundle", "name": "Vendor Studio.app"},
    "version": {"kind": "plist"},
}
LINUX: dict[str, Any] = {"presence": "executable", "location": "/opt/vendor/studio"}


@pytest.fixture(autouse=True)
def fresh_gpu_cache() -> None:
    clear_gpu_cache()


def declare(raw_app: dict[str, Any] | None = None, /, **requires: Any) -> Declaration:
    return parse_declaration("vendor-studio", raw_app, requires or None, where="test")


def filesystem_calls(host: FakeHost) -> int:
    asked = ("is_file", "is_dir", "list_dir", "read_file", "which", "uninstall_entries")
    return sum(host.calls[name] for name in asked)


# --- requires.arch: step 3a, after the GPU, before any filesystem access ------------------------

ARCH_CASES: dict[str, tuple[object, str, str]] = {
    "arm64-needed-arm64-machine": ("arm64", "arm64", "missing_app"),
    "arm64-needed-x86_64-machine": ("arm64", "x86_64", "unsupported_arch"),
    "x86_64-needed-arm64-machine": ("x86_64", "arm64", "unsupported_arch"),
    "x86_64-needed-x86_64-machine": ("x86_64", "x86_64", "missing_app"),
    "either-on-arm64": (["x86_64", "arm64"], "arm64", "missing_app"),
    "either-on-riscv64": (["x86_64", "arm64"], "riscv64", "unsupported_arch"),
    "aarch64-name-is-arm64": ("arm64", "aarch64", "missing_app"),
    "amd64-name-is-x86_64": ("x86_64", "AMD64", "missing_app"),
    "unknown-machine-counts-as-met": ("arm64", "", "missing_app"),
}


@pytest.mark.parametrize(("arch", "machine", "state"), rows(ARCH_CASES), ids=list(ARCH_CASES))
def test_arch(arch: object, machine: str, state: str) -> None:
    host = FakeHost("linux", native_machine=machine)
    result = availability(declare({"linux": LINUX}, app=True, arch=arch), host=host)
    assert result.state == state
    assert host.calls["native_machine"] == 1
    if state == "unsupported_arch":
        assert filesystem_calls(host) == 0
        assert result.offerable is False


def test_unsupported_arch_is_decided_after_the_gpu_and_before_any_file() -> None:
    declared = declare({"linux": LINUX}, app=True, gpu="nvidia", arch="x86_64")
    host = FakeHost("linux", native_machine="arm64").add_nvidia_proc()
    result = availability(declared, host=host)
    assert (result.state, result.gpu, result.machine) == ("unsupported_arch", "nvidia", "arm64")
    methods = [method for method, _ in host.call_log]
    assert methods[-1] == "native_machine"
    assert "native_machine" not in methods[:-1]
    assert methods[:-1] == ["is_file"]  # the GPU step's own look at /proc/driver/nvidia/version
    amd = FakeHost("linux", native_machine="arm64").add_pci_device(vendor="0x1002")
    assert availability(declared, host=amd).state == "unsupported_gpu"
    assert amd.calls["native_machine"] == 0


def test_arch_alone_gates_without_the_application() -> None:
    host = FakeHost("win32", native_machine="x86_64")
    result = availability(declare(None, arch="arm64"), host=host)
    assert result.state == "unsupported_arch"
    assert filesystem_calls(host) == 0
    met = availability(declare(None, arch="x86_64"), host=host)
    assert met.state == "no_requirements"
    assert met.offerable is True


def test_without_arch_the_machine_is_never_asked() -> None:
    host = FakeHost("linux", native_machine="riscv64")
    availability(declare({"linux": LINUX}, app=True), host=host)
    assert host.calls["native_machine"] == 0


def test_unsupported_os_comes_before_the_architecture() -> None:
    host = FakeHost("darwin", native_machine="x86_64")
    result = availability(declare({"linux": LINUX}, app=True, arch="arm64"), host=host)
    assert result.state == "unsupported_os"
    assert sum(host.calls.values()) == 0


# --- app.<os>.min_os_version: step 3b, before locating -----------------------------------------

OS_VERSION_CASES: dict[str, tuple[str, str, str | None, str]] = {
    "mac-older": ("darwin", "13.0", "12.7", "unsupported_os_version"),
    "mac-same": ("darwin", "13.0", "13.0", "missing_app"),
    "mac-same-with-zero-patch": ("darwin", "13.0", "13.0.0", "missing_app"),
    "mac-newer-patch": ("darwin", "13.0", "13.0.1", "missing_app"),
    "mac-newer-major": ("darwin", "13.0", "14.4", "missing_app"),
    "mac-numeric-not-text-order": ("darwin", "10.9", "10.10", "missing_app"),
    "mac-unknown-counts-as-met": ("darwin", "13.0", None, "missing_app"),
    "mac-unreadable-counts-as-met": ("darwin", "13.0", "Sonoma", "missing_app"),
    "windows-older-build": ("win32", "10.0.19041", "10.0.17763", "unsupported_os_version"),
    "windows-same-build": ("win32", "10.0.19041", "10.0.19041", "missing_app"),
    "windows-newer-build": ("win32", "10.0.19041", "10.0.22631", "missing_app"),
    "windows-8-1": ("win32", "10.0", "6.3.9600", "unsupported_os_version"),
    "windows-unknown-counts-as-met": ("win32", "10.0.19041", None, "missing_app"),
}


@pytest.mark.parametrize(
    ("os_family", "minimum", "found", "state"), rows(OS_VERSION_CASES), ids=list(OS_VERSION_CASES)
)
def test_min_os_version(os_family: str, minimum: str, found: str | None, state: str) -> None:
    block = {**(WIN32 if os_family == "win32" else DARWIN), "min_os_version": minimum}
    host = FakeHost(os_family, os_version=found)  # type: ignore[arg-type]
    result = availability(declare({os_family: block}, app=True), host=host)
    assert result.state == state
    assert (result.min_os_version, result.os_version) == (minimum, found)
    assert host.calls["os_version"] == 1
    if state == "unsupported_os_version":
        assert filesystem_calls(host) == 0
        assert result.offerable is False


def test_without_min_os_version_the_os_version_is_never_asked() -> None:
    host = FakeHost("darwin", os_version="10.15")
    availability(declare({"darwin": DARWIN}, app=True), host=host)
    assert host.calls["os_version"] == 0


def test_the_os_version_is_only_asked_when_the_application_is_required() -> None:
    host = FakeHost("darwin", native_machine="x86_64", os_version="12.0")  # the GPU is unknown
    block = {**DARWIN, "min_os_version": "13.0"}
    result = availability(declare({"darwin": block}, gpu="nvidia"), host=host)
    assert result.state == "no_requirements"
    assert host.calls["os_version"] == 0


def test_a_forced_os_family_has_no_os_version_to_compare() -> None:
    host = FakeHost("linux", os_version="6.1")
    block = {**DARWIN, "min_os_version": "13.0"}
    result = availability(declare({"darwin": block}, app=True), host=host, os_family="darwin")
    assert result.state == "missing_app"
    assert host.calls["os_version"] == 0


def test_os_version_is_checked_after_the_architecture() -> None:
    host = FakeHost("darwin", native_machine="x86_64", os_version="12.0")
    block = {**DARWIN, "min_os_version": "13.0"}
    result = availability(declare({"darwin": block}, app=True, arch="arm64"), host=host)
    assert result.state == "unsupported_arch"
    assert host.calls["os_version"] == 0


def test_a_fake_mac_reads_its_system_version_plist() -> None:
    plist = plistlib.dumps({"ProductName": "macOS", "ProductVersion": "12.7.4"})
    host = FakeHost("darwin").add_file(SYSTEM_VERSION_PLIST, plist)
    block = {**DARWIN, "min_os_version": "13.0"}
    result = availability(declare({"darwin": block}, app=True), host=host)
    assert (result.state, result.os_version) == ("unsupported_os_version", "12.7.4")
    assert host.call_log[:2] == [
        ("os_version", ()),
        ("read_file", (SYSTEM_VERSION_PLIST, 64 * 1024, 0)),
    ]


# --- sentences: the new states, the display name, install hints --------------------------------

SENTENCES: dict[str, tuple[dict[str, Any], dict[str, Any], FakeHost, str]] = {
    "unsupported-arch": (
        {"display_name": "Vendor Studio", "linux": LINUX},
        {"app": True, "arch": "arm64"},
        FakeHost("linux", native_machine="x86_64"),
        "Vendor Studio needs an arm64 processor; this machine has x86_64.",
    ),
    "unsupported-arch-of-two": (
        {"linux": LINUX},
        {"app": True, "arch": ["x86_64", "arm64"]},
        FakeHost("linux", native_machine="riscv64"),
        "vendor-studio needs an x86_64 or arm64 processor; this machine has riscv64.",
    ),
    "unsupported-os-version-mac": (
        {"display_name": "Vendor Studio", "darwin": {**DARWIN, "min_os_version": "13.0"}},
        {"app": True},
        FakeHost("darwin", os_version="12.7"),
        "Vendor Studio needs macOS 13.0 or newer; this Mac runs 12.7.",
    ),
    "unsupported-os-version-windows": (
        {"display_name": "Vendor Studio", "win32": {**WIN32, "min_os_version": "10.0.19041"}},
        {"app": True},
        FakeHost("win32", os_version="10.0.17763"),
        "Vendor Studio needs Windows 10.0.19041 or newer; this PC runs 10.0.17763.",
    ),
    "missing-with-winget": (
        {
            "display_name": "Vendor Studio",
            "win32": {**WIN32, "install": {"winget": "Vendor.Studio"}},
        },
        {"app": True},
        FakeHost("win32"),
        "Vendor Studio is not installed. Install Vendor Studio with "
        "`winget install --exact --id Vendor.Studio`, then try again.",
    ),
    "missing-with-brew-cask": (
        {
            "darwin": {
                **DARWIN,
                "install": [{"brew_cask": "vendor-studio"}, {"url": "https://v.example/"}],
            }
        },
        {"app": True},
        FakeHost("darwin"),
        "vendor-studio is not installed. Install vendor-studio with "
        "`brew install --cask vendor-studio`, then try again.",
    ),
    "missing-with-brew": (
        {"linux": {**LINUX, "install": {"brew": "vendor-cli"}}},
        {"app": True},
        FakeHost("linux"),
        "vendor-studio is not installed. Install vendor-studio with `brew install vendor-cli`, "
        "then try again.",
    ),
    "missing-with-flatpak": (
        {
            "display_name": "Vendor Studio",
            "linux": {**LINUX, "install": {"flatpak": "com.vendor.Studio"}},
        },
        {"app": True},
        FakeHost("linux"),
        "Vendor Studio is not installed. Install Vendor Studio with "
        "`flatpak install flathub com.vendor.Studio`, then try again.",
    ),
    "missing-with-snap": (
        {"display_name": "Vendor Studio", "linux": {**LINUX, "install": {"snap": "vendor-studio"}}},
        {"app": True},
        FakeHost("linux"),
        "Vendor Studio is not installed. Install Vendor Studio with "
        "`snap install vendor-studio`, then try again.",
    ),
    "missing-with-url": (
        {
            "display_name": "Vendor Studio",
            "linux": {**LINUX, "install": {"url": "https://vendor.example/get"}},
        },
        {"app": True},
        FakeHost("linux"),
        "Vendor Studio is not installed. Install Vendor Studio from https://vendor.example/get, "
        "then try again.",
    ),
    "missing-without-hint": (
        {"display_name": "Vendor Studio", "linux": LINUX},
        {"app": True},
        FakeHost("linux"),
        "Vendor Studio is not installed. Install Vendor Studio, then try again.",
    ),
    "missing-hint-of-this-os-only": (
        {
            "display_name": "Vendor Studio",
            "win32": {**WIN32, "install": {"winget": "Vendor.Studio"}},
            "linux": LINUX,
        },
        {"app": True},
        FakeHost("linux"),
        "Vendor Studio is not installed. Install Vendor Studio, then try again.",
    ),
    "too-old-with-winget": (
        {
            "display_name": "Vendor Studio",
            "win32": {**WIN32, "install": {"winget": "Vendor.Studio"}},
        },
        {"app": True, "min_version": "2.3"},
        FakeHost("win32").add_pe(STUDIO_EXE, "2.2.0.1"),
        "Vendor Studio version 2.2.0.1 is too old; version 2.3 or newer is required. Update "
        "Vendor Studio with `winget upgrade --exact --id Vendor.Studio`, then try again.",
    ),
    "too-old-with-flatpak": (
        {
            "darwin": DARWIN,
            "linux": {**LINUX, "install": {"flatpak": "com.vendor.Studio", "remote": "vendor"}},
        },
        {"app": True, "min_version": "2.3"},
        FakeHost("darwin").add_bundle(STUDIO_APP, "2.0"),
        "vendor-studio version 2.0 is too old; version 2.3 or newer is required. Update "
        "vendor-studio, then try again.",
    ),
    "too-old-with-cask": (
        {
            "display_name": "Vendor Studio",
            "darwin": {**DARWIN, "install": {"brew_cask": "vendor-studio"}},
        },
        {"app": True, "min_version": "2.3"},
        FakeHost("darwin").add_bundle(STUDIO_APP, "2.0"),
        "Vendor Studio version 2.0 is too old; version 2.3 or newer is required. Update "
        "Vendor Studio with `brew upgrade --cask vendor-studio`, then try again.",
    ),
    "too-old-with-url": (
        {
            "display_name": "Vendor Studio",
            "darwin": {**DARWIN, "install": {"url": "https://vendor.example/get"}},
        },
        {"app": True, "min_version": "2.3"},
        FakeHost("darwin").add_bundle(STUDIO_APP, "2.0"),
        "Vendor Studio version 2.0 is too old; version 2.3 or newer is required. Update "
        "Vendor Studio from https://vendor.example/get, then try again.",
    ),
    "unsupported-os-uses-the-display-name": (
        {"display_name": "Vendor Studio", "win32": WIN32},
        {"app": True},
        FakeHost("linux"),
        "Vendor Studio is not available on Linux.",
    ),
    "unsupported-gpu-uses-the-display-name": (
        {"display_name": "Vendor Studio", "linux": LINUX},
        {"app": True, "gpu": "nvidia"},
        FakeHost("linux").add_pci_device(vendor="0x1002"),
        "Vendor Studio needs an NVIDIA GPU; none was found on this machine. "
        "Use Vendor Studio on a machine with an NVIDIA GPU.",
    ),
    "available-uses-the-display-name": (
        {"display_name": "Vendor Studio", "darwin": DARWIN},
        {"app": True},
        FakeHost("darwin").add_bundle(STUDIO_APP, "2.4"),
        "Vendor Studio 2.4 is available.",
    ),
    "no-requirements-arch-met": (
        {"linux": LINUX},
        {"arch": "x86_64"},
        FakeHost("linux"),
        "vendor-studio needs an x86_64 processor, and this machine has one.",
    ),
    "no-requirements-arch-unknown": (
        {"linux": LINUX},
        {"arch": "arm64"},
        FakeHost("linux", native_machine=""),
        "vendor-studio needs an arm64 processor; this machine's architecture could not be "
        "told, so the requirement counts as met.",
    ),
    "no-requirements-uses-the-display-name": (
        {"display_name": "Vendor Studio", "linux": LINUX},
        {},
        FakeHost("linux"),
        "Vendor Studio has no application or GPU requirements.",
    ),
}


@pytest.mark.parametrize(
    ("app", "requires", "host", "sentence"), rows(SENTENCES), ids=list(SENTENCES)
)
def test_sentence(
    app: dict[str, Any], requires: dict[str, Any], host: FakeHost, sentence: str
) -> None:
    result = availability(declare(app, **requires), host=host)
    assert result.sentence() == sentence


def test_a_name_given_by_the_caller_wins_over_the_display_name() -> None:
    app = {"display_name": "Vendor Studio", "linux": {**LINUX, "install": {"snap": "vendor"}}}
    result = availability(declare(app, app=True), host=FakeHost("linux"))
    assert result.display_name == "Vendor Studio"
    assert result.sentence("Studio Pro") == (
        "Studio Pro is not installed. Install Studio Pro with `snap install vendor`, "
        "then try again."
    )


REFUSALS: dict[str, tuple[dict[str, Any], dict[str, Any], FakeHost, str]] = {
    "unsupported-arch": (
        {"linux": LINUX},
        {"app": True, "arch": "arm64"},
        FakeHost("linux", native_machine="x86_64"),
        "vendor-studio is unavailable: unsupported_arch, needs an arm64 processor.",
    ),
    "unsupported-os-version": (
        {"darwin": {**DARWIN, "min_os_version": "13.0"}},
        {"app": True},
        FakeHost("darwin", os_version="12.7"),
        "vendor-studio is unavailable: unsupported_os_version, needs macOS 13.0.",
    ),
}


@pytest.mark.parametrize(("app", "requires", "host", "line"), rows(REFUSALS), ids=list(REFUSALS))
def test_refusal(app: dict[str, Any], requires: dict[str, Any], host: FakeHost, line: str) -> None:
    assert availability(declare(app, **requires), host=host).refusal() == line


def test_the_new_states_are_never_offerable() -> None:
    for state in (AvailabilityState.UNSUPPORTED_ARCH, AvailabilityState.UNSUPPORTED_OS_VERSION):
        assert state.value in ("unsupported_arch", "unsupported_os_version")
        host = FakeHost("darwin", native_machine="x86_64", os_version="12.0")
        block = {**DARWIN, "min_os_version": "13.0"}
        arch = "arm64" if state is AvailabilityState.UNSUPPORTED_ARCH else None
        result = availability(declare({"darwin": block}, app=True, arch=arch), host=host)
        assert result.state is state
        assert result.offerable is False
