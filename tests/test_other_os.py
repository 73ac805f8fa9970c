"""An operating system that is none of the three (FreeBSD, AIX, Android…) is not Linux."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.gpu import clear_gpu_cache, gpu_class
from hermes_decl.resolver.live_host import LiveHost, os_family_of
from hermes_decl.resolver.liveness import NoEndpoint, NoEndpointCode, read_endpoint
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.testing import FakeHost

HOSTS = Path(__file__).parent / "fixtures" / "hosts"

PLATFORMS: list[tuple[str, bool, str | None]] = [
    ("win32", False, "win32"),
    ("darwin", False, "darwin"),
    ("linux", False, "linux"),
    ("linux", True, None),  # Android before Python 3.13
    ("android", False, None),
    ("freebsd14", False, None),
    ("openbsd7", False, None),
    ("aix", False, None),
    ("sunos5", False, None),
    ("cygwin", False, None),
    ("msys", False, None),
    ("ios", False, None),
    ("emscripten", False, None),
    ("wasi", False, None),
]


@pytest.mark.parametrize(
    ("platform", "android", "expected"),
    PLATFORMS,
    ids=[f"{p}{'-android' if a else ''}" for p, a, _ in PLATFORMS],
)
def test_only_three_platforms_have_an_os_family(
    platform: str, android: bool, expected: str | None
) -> None:
    assert os_family_of(platform, android=android) == expected


LINUX_BLOCK = {"presence": "executable", "location": "/usr/local/bin/vendor"}


def decl(**requires: Any) -> Declaration:
    return parse_declaration("vendor", {"linux": LINUX_BLOCK}, requires or None, where="test")


FREEBSD_CASES = [
    ("app", {"app": True}, "unsupported_os", None),
    ("app-and-gpu", {"app": True, "gpu": "nvidia"}, "unsupported_os", None),
    ("gpu-only", {"gpu": "nvidia"}, "no_requirements", "unknown"),
    ("nothing", {}, "no_requirements", None),
]


@pytest.mark.parametrize(
    ("requires", "state", "gpu"), [c[1:] for c in FREEBSD_CASES], ids=[c[0] for c in FREEBSD_CASES]
)
def test_a_freebsd_host_asks_nothing(requires: dict[str, Any], state: str, gpu: str | None) -> None:
    clear_gpu_cache()
    host = FakeHost(None, env={"PATH": "/usr/local/bin"})
    host.add_executable("/usr/local/bin/vendor")  # a Linux path would match: it must not be read
    result = availability(decl(**requires), host=host)
    assert (result.state, result.os_family) == (state, None)
    assert (result.gpu.value if result.gpu else None) == gpu
    assert sum(host.calls.values()) == 0
    if state == "unsupported_os":
        assert result.sentence() == "vendor is not available on this operating system."


def test_a_freebsd_fixture_tree_is_not_linux() -> None:
    host = RootedHost(HOSTS / "linux-flatpak", os_family=None, env={"PATH": "/snap/bin"})
    snap = parse_declaration(
        "vendor",
        {
            "linux": {
                "presence": "executable",
                "location": {"kind": "command", "name": "vendor-snap"},
            }
        },
        {"app": True},
        where="test",
    )
    assert host.which("vendor-snap") == "/snap/bin/vendor-snap"  # the tree has it...
    assert availability(snap, host=host).state == "unsupported_os"  # ...and Linux rules ignore it
    assert availability(snap, host=host, os_family="linux").state == "available"


def test_a_forced_family_on_a_freebsd_host_evaluates_as_that_family() -> None:
    host = FakeHost(None).add_executable("/usr/local/bin/vendor")
    result = availability(decl(app=True), host=host, os_family="linux")
    assert (result.state, result.os_family, result.path) == (
        "available",
        "linux",
        "/usr/local/bin/vendor",
    )


@pytest.mark.parametrize("forced", ["freebsd", "macos", "Linux", ""], ids=str)
def test_forcing_a_family_outside_the_three_is_a_programming_error(forced: Any) -> None:
    message = f"os_family must be one of win32, darwin, linux (got {forced!r})"
    with pytest.raises(ValueError, match="os_family must be one of") as raised:
        availability(decl(app=True), host=FakeHost(None), os_family=forced)
    assert str(raised.value) == message
    with pytest.raises(ValueError, match="os_family must be one of") as raised:
        LiveHost(forced)
    assert str(raised.value) == message


def test_the_gpu_of_a_freebsd_host_is_unknown_without_a_question() -> None:
    clear_gpu_cache()
    host = FakeHost(None)
    assert gpu_class(host) == "unknown"
    assert sum(host.calls.values()) == 0


def test_the_runtime_file_is_not_read_on_a_freebsd_host() -> None:
    found = parse_declaration(
        "vendor",
        {
            "linux": {
                **LINUX_BLOCK,
                "liveness": {"kind": "server_json", "path": "/tmp/vendor/server.json"},
            }
        },
        {"app": True},
        where="test",
    ).app_for("linux")
    assert found is not None
    host = FakeHost(None).add_file("/tmp/vendor/server.json", b'{"pid": 1}')
    result = read_endpoint(found, host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.OTHER_OS
    assert result.reason == (
        "the declaration's block is for linux but the host is none of win32, darwin and linux"
    )
    assert host.call_log == []


def test_a_fake_freebsd_host_has_posix_paths_and_no_linux_facts() -> None:
    host = FakeHost(None, env={"PATH": "/usr/local/bin"}).add_file("/usr/local/bin/tool")
    assert host.os_family is None
    assert host.which("tool") == "/usr/local/bin/tool"
    with pytest.raises(ValueError, match="add_pci_device") as raised:
        host.add_pci_device()
    assert str(raised.value) == (
        "add_pci_device is for linux hosts; this host is POSIX (no OS family)"
    )
