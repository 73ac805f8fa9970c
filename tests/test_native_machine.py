"""The machine's architecture: names normalised, Rosetta and Windows emulation seen through."""

from __future__ import annotations

import sys
from dataclasses import dataclass

import pytest

from hermes_decl.resolver.gpu import clear_gpu_cache, gpu_class
from hermes_decl.resolver.live_host import LiveHost
from hermes_decl.resolver.native_machine import (
    IMAGE_FILE_MACHINES,
    LiveArchitecture,
    native_machine,
    normalise_machine,
)
from hermes_decl.testing import FakeHost

NAMES = [
    ("x86_64", "x86_64"),
    ("AMD64", "x86_64"),
    ("x64", "x86_64"),
    ("EM64T", "x86_64"),
    ("arm64", "arm64"),
    ("ARM64", "arm64"),
    ("aarch64", "arm64"),
    ("arm64e", "arm64"),
    (" aarch64\n", "arm64"),
    ("i686", "i686"),
    ("riscv64", "riscv64"),
    ("ppc64le", "ppc64le"),
    ("", ""),
    ("x" * 65, ""),
    ("arm\x0064", ""),
    ("ärm64", ""),
]


@pytest.mark.parametrize(("raw", "expected"), NAMES, ids=[repr(raw)[:20] for raw, _ in NAMES])
def test_machine_names_are_normalised(raw: str, expected: str) -> None:
    assert normalise_machine(raw) == expected


def test_a_machine_name_that_is_not_a_string_is_empty() -> None:
    assert normalise_machine(None) == ""
    assert normalise_machine(64) == ""


@dataclass
class Architecture:
    """What an OS would say: the process's machine, Rosetta, and IsWow64Process2's native code."""

    process: str
    translated: int | None = None
    wow64_native: int | None = None
    broken: bool = False

    def process_machine(self) -> str:
        if self.broken:
            raise OSError("cannot ask")
        return self.process

    def proc_translated(self) -> int | None:
        return self.translated

    def wow64_native_machine(self) -> int | None:
        return self.wow64_native


MACHINES = [
    ("rosetta-mac", Architecture("x86_64", translated=1), "arm64"),
    ("apple-silicon-native", Architecture("arm64", translated=0), "arm64"),
    ("intel-mac", Architecture("x86_64", translated=None), "x86_64"),
    ("wow64-x64-on-arm64", Architecture("AMD64", wow64_native=0xAA64), "arm64"),
    ("wow64-x86-on-x64", Architecture("x86", wow64_native=0x8664), "x86_64"),
    ("windows-x64-native", Architecture("AMD64", wow64_native=0x8664), "x86_64"),
    ("windows-before-1709", Architecture("ARM64", wow64_native=None), "arm64"),
    ("windows-unknown-code", Architecture("AMD64", wow64_native=0x1234), "x86_64"),
    ("linux-aarch64", Architecture("aarch64"), "arm64"),
    ("riscv", Architecture("riscv64"), "riscv64"),
    ("os-refuses", Architecture("x86_64", broken=True), ""),
]


@pytest.mark.parametrize(
    ("api", "expected"), [m[1:] for m in MACHINES], ids=[m[0] for m in MACHINES]
)
def test_native_machine_sees_through_translation(api: Architecture, expected: str) -> None:
    assert native_machine(api) == expected


def test_windows_machine_codes() -> None:
    assert IMAGE_FILE_MACHINES == {0x8664: "x86_64", 0xAA64: "arm64", 0x014C: "x86", 0x01C4: "arm"}


@pytest.mark.skipif(sys.platform in ("darwin", "win32"), reason="the OS answers there")
def test_the_live_architecture_asks_nothing_off_macos_and_windows() -> None:
    live = LiveArchitecture()
    assert live.proc_translated() is None
    assert live.wow64_native_machine() is None


@pytest.mark.parametrize(
    ("api", "expected"),
    [
        (Architecture("x86_64", translated=1), "apple_silicon"),
        (Architecture("arm64", translated=0), "apple_silicon"),
        (Architecture("x86_64", translated=0), "unknown"),
    ],
    ids=["rosetta-python", "arm64-python", "intel-mac"],
)
def test_a_rosetta_python_on_apple_silicon_sees_apple_silicon(
    api: Architecture, expected: str
) -> None:
    clear_gpu_cache()
    host = LiveHost("darwin", architecture=api)
    assert host.native_machine() == ("arm64" if expected == "apple_silicon" else "x86_64")
    assert gpu_class(host) == expected


def test_the_live_host_asks_the_os_once() -> None:
    calls: list[str] = []

    class Counting(Architecture):
        def process_machine(self) -> str:
            calls.append("process_machine")
            return super().process_machine()

    host = LiveHost(architecture=Counting("AMD64"))
    assert host.native_machine() == "x86_64"
    assert host.native_machine() == "x86_64"
    assert calls == ["process_machine"]


def test_an_nvidia_only_server_is_not_offered_on_a_rosetta_mac() -> None:
    from hermes_decl.declaration import parse_declaration
    from hermes_decl.resolver.availability import availability

    decl = parse_declaration("renderer", None, {"gpu": "nvidia"}, where="test")
    clear_gpu_cache()
    rosetta = LiveHost("darwin", architecture=Architecture("x86_64", translated=1))
    result = availability(decl, host=rosetta)
    assert (result.state, result.gpu) == ("unsupported_gpu", "apple_silicon")
    fake = FakeHost("darwin", native_machine="arm64")
    assert availability(decl, host=fake).state == "unsupported_gpu"


@pytest.mark.parametrize(
    ("api", "expected"),
    [
        (Architecture("AMD64", wow64_native=0xAA64), "arm64"),
        (Architecture("x86", wow64_native=0x8664), "x86_64"),
    ],
    ids=["x64-python-on-arm64-windows", "x86-python-on-x64-windows"],
)
def test_a_wow64_windows_host_answers_for_the_machine(api: Architecture, expected: str) -> None:
    assert LiveHost("win32", architecture=api).native_machine() == expected
