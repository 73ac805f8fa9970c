"""Availability on every OS under FakeHost: SPEC 6 (locating, versions) and 8 (decision order)."""

from __future__ import annotations

from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration
from hermes_decl.resolver.app import Candidate
from hermes_decl.resolver.availability import Availability, AvailabilityState, availability
from hermes_decl.resolver.gpu import clear_gpu_cache
from hermes_decl.resolver.host import UninstallEntry
from hermes_decl.testing import FakeHost

WIN_APP: dict[str, Any] = {
    "presence": "executable",
    "location": [
        {
            "kind": "uninstall_registry",
            "display_name_prefix": "Vendor App",
            "file": "bin\\vendor.exe",
        },
        "%ProgramFiles%/Vendor/Vendor App */vendor.exe",
    ],
    "version": {"kind": "pe_resource"},
}
MAC_APP: dict[str, Any] = {
    "presence": "bundle",
    "location": [{"kind": "app_bundle", "name": "Vendor.app"}],
    "version": {"kind": "plist"},
}
LINUX_APP: dict[str, Any] = {
    "presence": "executable",
    "location": [
        {"kind": "command", "name": "vendor"},
        {"kind": "flatpak", "app_id": "com.vendor.App"},
        {"kind": "snap", "name": "vendor"},
    ],
}


def decl(app_block: dict[str, Any] | None = None, **requires: Any) -> Declaration:
    return parse_declaration("vendor", app_block, requires or None, where="test")


ALL_OS = {"win32": WIN_APP, "darwin": MAC_APP, "linux": LINUX_APP}


@pytest.fixture(autouse=True)
def fresh_gpu_cache() -> None:
    clear_gpu_cache()


def win_host() -> FakeHost:
    return FakeHost("win32", env={"ProgramFiles": "C:\\Program Files", "PATH": "C:\\Windows"})


# -- the decision order --------------------------------------------------------------------------


def test_no_requirements_touches_nothing() -> None:
    host = FakeHost("linux")
    result = availability(decl(ALL_OS), host=host)
    assert result.state == "no_requirements"
    assert result.offerable is True
    assert sum(host.calls.values()) == 0


@pytest.mark.parametrize("os_family", ["win32", "darwin", "linux"])
def test_unsupported_os_touches_nothing_not_even_the_gpu(os_family: Any) -> None:
    host = FakeHost(os_family)
    others = {name: block for name, block in ALL_OS.items() if name != os_family}
    result = availability(decl(others, app=True, gpu="nvidia"), host=host)
    assert result.state == "unsupported_os"
    assert result.os_family == os_family
    assert result.offerable is False
    assert sum(host.calls.values()) == 0


def test_forced_os_family_wins_over_the_host() -> None:
    host = FakeHost("linux")
    result = availability(decl({"linux": LINUX_APP}, app=True), host=host, os_family="darwin")
    assert result.state == "unsupported_os"
    assert result.sentence() == "vendor is not available on macOS."
    with pytest.raises(ValueError, match="os_family must be one of"):
        availability(decl({"linux": LINUX_APP}, app=True), host=host, os_family="macos")  # type: ignore[arg-type]


def test_unsupported_gpu_makes_no_filesystem_call() -> None:
    host = FakeHost("win32").add_display_device("PCI\\VEN_1002&DEV_73BF")
    result = availability(decl(ALL_OS, app=True, gpu="nvidia"), host=host)
    assert result.state == "unsupported_gpu"
    assert result.gpu == "amd"
    assert set(host.calls) == {"display_device_ids"}
    assert result.sentence() == (
        "vendor needs an NVIDIA GPU; none was found on this machine. "
        "Use vendor on a machine with an NVIDIA GPU."
    )
    assert result.refusal() == "vendor is unavailable: unsupported_gpu, needs an NVIDIA GPU."


@pytest.mark.parametrize(
    ("setup", "state"),
    [
        (lambda h: h.add_nvidia_proc(), "no_requirements"),
        (lambda h: h.add_pci_device(vendor="0x8086"), "unsupported_gpu"),
        (lambda h: None, "no_requirements"),  # no sysfs: unknown counts as met
    ],
    ids=["nvidia", "intel-only", "unknown"],
)
def test_gpu_only_requirement(setup: Any, state: str) -> None:
    host = FakeHost("linux")
    setup(host)
    assert availability(decl(None, gpu="nvidia"), host=host).state == state


def test_gpu_met_then_app_located() -> None:
    host = (
        FakeHost("linux", env={"PATH": "/usr/bin"})
        .add_nvidia_proc()
        .add_executable("/usr/bin/vendor")
    )
    result = availability(decl(ALL_OS, app=True, gpu="nvidia"), host=host)
    assert (result.state, result.path, result.gpu) == ("available", "/usr/bin/vendor", "nvidia")


# -- locating per OS -----------------------------------------------------------------------------


def test_linux_command_on_path_stops_at_the_first_hit() -> None:
    host = FakeHost("linux", env={"PATH": "/usr/local/bin:/usr/bin"}, home="/home/u")
    host.add_executable("/usr/bin/vendor").add_executable("/snap/bin/vendor")
    result = availability(decl(ALL_OS, app=True), host=host)
    assert (result.state, result.path, result.version) == ("available", "/usr/bin/vendor", None)
    assert [(c.index, c.kind, c.path, c.outcome) for c in result.trace] == [
        (0, "command", "/usr/bin/vendor", "present")
    ]
    assert host.calls["list_dir"] == 0 and host.calls["is_file"] == 0  # which() alone


def test_linux_flatpak_and_snap_known_dirs() -> None:
    host = FakeHost("linux", env={"PATH": "/usr/bin"}, home="/home/u")
    host.add_executable("/snap/bin/vendor")
    packages = {**LINUX_APP, "location": LINUX_APP["location"][1:]}
    result = availability(decl({"linux": packages}, app=True), host=host)
    assert (result.state, result.path) == ("available", "/snap/bin/vendor")
    assert [(c.kind, c.path, c.outcome, c.via) for c in result.trace] == [
        ("flatpak", "/var/lib/flatpak/exports/bin/com.vendor.App", "absent", "known_folder"),
        (
            "flatpak",
            "/home/u/.local/share/flatpak/exports/bin/com.vendor.App",
            "absent",
            "known_folder",
        ),
        ("snap", "/snap/bin/vendor", "present", "known_folder"),
    ]


def test_flatpak_user_exports_honour_xdg_data_home() -> None:
    host = FakeHost("linux", env={"XDG_DATA_HOME": "/data/u"}, home="/home/u")
    host.add_executable("/data/u/flatpak/exports/bin/com.vendor.App")
    result = availability(decl({"linux": LINUX_APP}, app=True), host=host)
    assert (result.state, result.path) == (
        "available",
        "/data/u/flatpak/exports/bin/com.vendor.App",
    )


def test_relative_xdg_data_home_is_ignored() -> None:
    host = FakeHost("linux", env={"XDG_DATA_HOME": "data"}, home="/home/u")
    host.add_executable("/home/u/.local/share/flatpak/exports/bin/com.vendor.App")
    assert availability(decl({"linux": LINUX_APP}, app=True), host=host).state == "available"


def test_missing_app_reports_the_first_place_looked() -> None:
    host = FakeHost("linux", home="/home/u")
    result = availability(decl(ALL_OS, app=True), host=host)
    assert (result.state, result.path) == ("missing_app", "vendor")
    assert result.offerable is False
    assert result.sentence() == "vendor is not installed. Install vendor, then try again."
    assert result.sentence("Vendor Studio") == (
        "Vendor Studio is not installed. Install Vendor Studio, then try again."
    )


def test_missing_app_without_any_place_has_no_path() -> None:
    host = FakeHost("linux")
    result = availability(
        decl({"linux": {"presence": "executable", "location": "$NOPE/x"}}, app=True), host=host
    )
    assert (result.state, result.path) == ("missing_app", None)
    assert [(c.outcome, c.detail) for c in result.trace] == [("refused", "variable NOPE is unset")]


def test_darwin_bundle_in_applications_with_plist_version() -> None:
    host = FakeHost("darwin", home="/Users/u").add_bundle(
        "/Users/u/Applications/Vendor.app", "2.4.1"
    )
    result = availability(decl(ALL_OS, app=True, min_version="2.3"), host=host)
    assert (result.state, result.path, result.version) == (
        "available",
        "/Users/u/Applications/Vendor.app",
        "2.4.1",
    )
    assert [(c.path, c.outcome, c.version) for c in result.trace] == [
        ("/Applications/Vendor.app", "absent", None),
        ("/Users/u/Applications/Vendor.app", "present", "2.4.1"),
    ]


def test_a_bundle_needs_its_info_plist() -> None:
    host = FakeHost("darwin", home="/Users/u").add_dir("/Applications/Vendor.app/Contents")
    assert availability(decl(ALL_OS, app=True), host=host).state == "missing_app"


def test_darwin_version_too_old_and_unreadable() -> None:
    host = FakeHost("darwin", home="/Users/u").add_bundle("/Applications/Vendor.app", "2.2.9")
    result = availability(decl(ALL_OS, app=True, min_version="2.3"), host=host)
    assert (result.state, result.version, result.path) == (
        "version_too_old",
        "2.2.9",
        "/Applications/Vendor.app",
    )
    assert result.sentence() == (
        "vendor version 2.2.9 is too old; version 2.3 or newer is required. "
        "Update vendor, then try again."
    )
    unreadable = FakeHost("darwin", home="/Users/u").add_bundle("/Applications/Vendor.app")
    result = availability(decl(ALL_OS, app=True, min_version="2.3"), host=unreadable)
    assert (result.state, result.version, result.path) == (
        "version_too_old",
        None,
        "/Applications/Vendor.app",
    )


def test_win32_uninstall_entry_then_versioned_folders_newest_first() -> None:
    host = win_host()
    host.add_uninstall_entry("Other App", "9.0", "C:\\Other")
    host.add_uninstall_entry(
        "Vendor App 2", "2.1", "\\\\server\\share\\Vendor"
    )  # UNC: never touched
    for folder, version in [
        ("Vendor App 2.9", "2.9.0.0"),
        ("Vendor App 2.10", "2.10.0.0"),
        ("Vendor App 10.0b", "10.0.0.1"),
    ]:
        host.add_pe(f"C:\\Program Files\\Vendor\\{folder}\\vendor.exe", version)
    host.add_dir("C:\\Program Files\\Vendor\\Vendor App beta")
    result = availability(decl(ALL_OS, app=True), host=host)
    assert (result.state, result.version) == ("available", "10.0.0.1")
    assert result.path == "C:\\Program Files\\Vendor\\Vendor App 10.0b\\vendor.exe"
    assert [(c.index, c.kind, c.outcome) for c in result.trace] == [
        (0, "uninstall_registry", "refused"),
        (1, "path", "present"),
    ]


UNINSTALL_FOUND = [
    (
        "a-unc-install-location",
        "Vendor App 2",
        "\\\\server\\share\\Vendor",
        "refused",
        "install location \\\\server\\share\\Vendor is a UNC path",
    ),
    (
        "a-device-install-location",
        "Vendor App 2",
        "C:\\Vendor\\AUX",
        "refused",
        "C:\\Vendor\\AUX\\bin\\vendor.exe has a segment Windows opens as a device ('AUX')",
    ),
    ("the-prefix-at-the-start", "Vendor App 2", "C:\\Vendor", "present", None),
    (
        "the-prefix-inside-the-name-is-no-match",
        "Old Vendor App 2",
        "C:\\Vendor",
        "absent",
        "no entry starts with 'Vendor App'",
    ),
    ("an-entry-without-a-folder", "Vendor App 2", "", "absent", "it has no InstallLocation"),
]


@pytest.mark.parametrize(
    ("display_name", "folder", "outcome", "detail"),
    [row[1:] for row in UNINSTALL_FOUND],
    ids=[row[0] for row in UNINSTALL_FOUND],
)
def test_uninstall_entries_match_by_prefix_and_a_remote_folder_is_refused(
    display_name: str, folder: str, outcome: str | None, detail: str | None
) -> None:
    host = win_host().add_uninstall_entry(display_name, "2.1", folder)
    host.add_executable("C:\\Vendor\\bin\\vendor.exe")
    result = availability(decl(ALL_OS, app=True), host=host)
    found = [(c.outcome, c.detail) for c in result.trace if c.kind == "uninstall_registry"]
    assert found == ([] if outcome is None else [(outcome, detail)])
    touched = [args[0] for method, args in host.call_log if method in ("is_file", "is_dir")]
    assert not any("server" in str(path) or "AUX" in str(path) for path in touched)


def test_win32_star_order_with_a_minimum_tries_every_copy_newest_first() -> None:
    host = win_host()
    for folder, version in [
        ("Vendor App 2.9", "2.9.0.0"),
        ("Vendor App 2.10", "2.10.0.0"),
        ("Vendor App beta", "3.0.0.0"),
    ]:
        host.add_pe(f"C:\\Program Files\\Vendor\\{folder}\\vendor.exe", version)
    result = availability(decl(ALL_OS, app=True, min_version="2.10"), host=host)
    assert (result.state, result.version) == ("available", "2.10.0.0")
    high = availability(decl(ALL_OS, app=True, min_version="3"), host=host)
    assert (high.state, high.version) == ("available", "3.0.0.0")
    assert [c.path.rsplit("\\", 2)[1] for c in high.trace if c.path] == [
        "Vendor App 2.10",
        "Vendor App 2.9",
        "Vendor App beta",
    ]


def test_an_old_copy_listed_first_does_not_win_against_the_minimum() -> None:
    app = {
        "win32": {
            "presence": "executable",
            "location": ["C:\\Old\\vendor.exe", "C:\\New\\vendor.exe"],
            "version": {"kind": "pe_resource"},
        }
    }
    host = (
        FakeHost("win32")
        .add_pe("C:\\Old\\vendor.exe", "1.0.0.0")
        .add_pe("C:\\New\\vendor.exe", "2.5.0.0")
    )
    result = availability(decl(app, app=True, min_version="2.0"), host=host)
    assert (result.state, result.path, result.version) == (
        "available",
        "C:\\New\\vendor.exe",
        "2.5.0.0",
    )
    no_minimum = availability(decl(app, app=True), host=host)
    assert (no_minimum.path, no_minimum.version) == ("C:\\Old\\vendor.exe", "1.0.0.0")
    too_high = availability(decl(app, app=True, min_version="3"), host=host)
    assert (too_high.state, too_high.path, too_high.version) == (
        "version_too_old",
        "C:\\New\\vendor.exe",
        "2.5.0.0",
    )


def test_win32_uninstall_registry_location_and_version() -> None:
    app = {
        "win32": {
            "presence": "executable",
            "location": {
                "kind": "uninstall_registry",
                "display_name_prefix": "Vendor App",
                "file": "vendor.exe",
            },
            "version": {"kind": "uninstall_registry", "display_name_prefix": "Vendor App"},
        }
    }
    host = FakeHost("win32").add_uninstall_entry("Vendor App 2024", "24.1.3", "C:\\Vendor\\App")
    host.add_executable("C:\\Vendor\\App\\vendor.exe")
    result = availability(decl(app, app=True, min_version="24"), host=host)
    assert (result.state, result.path, result.version) == (
        "available",
        "C:\\Vendor\\App\\vendor.exe",
        "24.1.3",
    )


def test_win32_command_with_pathext() -> None:
    host = FakeHost("win32", env={"PATH": "C:\\Tools;C:\\Windows", "PATHEXT": ".COM;.EXE"})
    host.add_executable("C:\\Tools\\vendor.EXE")
    result = availability(
        decl(
            {
                "win32": {
                    "presence": "executable",
                    "location": {"kind": "command", "name": "vendor"},
                }
            },
            app=True,
        ),
        host=host,
    )
    assert result.state == "available"
    assert result.path is not None and result.path.lower() == "c:\\tools\\vendor.exe"


@pytest.mark.parametrize(
    ("location", "env"),
    [
        ("$ROOT/vendor.exe", {"ROOT": "\\\\server\\share"}),
        ("%ROOT%\\vendor.exe", {"ROOT": "relative\\dir"}),
        ("%ROOT%\\vendor.exe", {"ROOT": "C:\\a\\..\\..\\Windows"}),
        ("~\\vendor.exe", {}),
        ("%UNSET%\\vendor.exe", {}),
    ],
    ids=["unc-after-expansion", "not-rooted", "dotdot-after-expansion", "no-home", "unset"],
)
def test_unsafe_expansions_are_never_touched(location: str, env: dict[str, str]) -> None:
    host = FakeHost("win32", env=env)
    app = {"win32": {"presence": "executable", "location": location}}
    result = availability(decl(app, app=True), host=host)
    assert (result.state, result.path) == ("missing_app", None)
    assert [c.outcome for c in result.trace] == ["refused"]
    assert host.calls["is_file"] == host.calls["is_dir"] == host.calls["list_dir"] == 0


def test_linux_has_no_version_source_so_a_minimum_gates_on_presence() -> None:
    app = {"darwin": MAC_APP, "linux": LINUX_APP}
    host = FakeHost("linux", env={"PATH": "/usr/bin"}).add_executable("/usr/bin/vendor")
    result = availability(decl(app, app=True, min_version="2.3"), host=host)
    assert (result.state, result.version, result.min_version) == ("available", None, "2.3")


def test_availability_is_frozen_and_has_no_truth_value() -> None:
    result = availability(decl(), host=FakeHost())
    with pytest.raises(TypeError, match=r"read \.offerable or \.state"):
        bool(result)
    with pytest.raises(AttributeError):
        result.state = AvailabilityState.AVAILABLE  # type: ignore[misc]
    assert isinstance(result, Availability)
    reserved = AvailabilityState("installed_not_running")
    assert reserved is AvailabilityState.INSTALLED_NOT_RUNNING
    assert str(reserved) == "installed_not_running"
    assert isinstance(reserved, str)


def test_an_executable_inside_a_bundle_is_versioned_by_the_bundle() -> None:
    app = {
        "darwin": {
            "presence": "executable",
            "location": "/Applications/Vendor.app/Contents/MacOS/vendor",
            "version": {"kind": "plist"},
        }
    }
    host = FakeHost("darwin").add_bundle("/Applications/Vendor.app", "5.0")
    host.add_executable("/Applications/Vendor.app/Contents/MacOS/vendor")
    result = availability(decl(app, app=True, min_version="4"), host=host)
    assert (result.state, result.version) == ("available", "5.0")
    loose = FakeHost("darwin").add_executable("/usr/local/bin/vendor")
    outside = {"darwin": {**app["darwin"], "location": "/usr/local/bin/vendor"}}
    result = availability(decl(outside, app=True, min_version="4"), host=loose)
    assert (result.state, result.version) == ("version_too_old", None)
    assert result.sentence() == (
        "vendor is installed at /usr/local/bin/vendor, but no version could be read from it; "
        "version 4 or newer is required. Check that it is vendor 4 or newer, then try again."
    )
    assert loose.calls["read_file"] == 0


# -- sentences that are true ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("setup", "requires", "sentence"),
    [
        (lambda h: None, {}, "vendor has no application or GPU requirements."),
        (
            lambda h: h.add_nvidia_proc(),
            {"gpu": "nvidia"},
            "vendor needs an NVIDIA GPU, and this machine has one.",
        ),
        (
            lambda h: None,
            {"gpu": "nvidia"},
            "vendor needs an NVIDIA GPU; this machine's GPU could not be read, "
            "so the requirement counts as met.",
        ),
        (
            lambda h: h.add_nvidia_proc(),
            {"gpu": "nvidia", "arch": "x86_64"},
            "vendor needs an NVIDIA GPU, and this machine has one. "
            "It needs an x86_64 processor, and this machine has one.",
        ),
        (
            lambda h: None,
            {"gpu": "nvidia", "arch": ["x86_64", "arm64"]},
            "vendor needs an NVIDIA GPU; this machine's GPU could not be read, so the requirement "
            "counts as met. It needs an x86_64 or arm64 processor, and this machine has one.",
        ),
    ],
    ids=[
        "nothing-required",
        "gpu-present",
        "gpu-unreadable",
        "gpu-and-arch",
        "gpu-unread-and-arch",
    ],
)
def test_a_no_requirements_sentence_says_what_was_required(
    setup: Any, requires: dict[str, Any], sentence: str
) -> None:
    host = FakeHost("linux")
    setup(host)
    result = availability(decl({"linux": LINUX_APP}, **requires), host=host)
    assert result.state == "no_requirements"
    assert result.sentence() == sentence
    assert result.sentence_parts() == (sentence, None)


def test_an_unreadable_version_is_not_called_too_old() -> None:
    host = FakeHost("darwin").add_bundle("/Applications/Vendor.app")  # no version keys
    result = availability(decl({"darwin": MAC_APP}, app=True, min_version="2.3"), host=host)
    assert (result.state, result.version) == ("version_too_old", None)
    assert result.sentence("Vendor") == (
        "Vendor is installed at /Applications/Vendor.app, but no version could be read from it; "
        "version 2.3 or newer is required. Check that it is Vendor 2.3 or newer, then try again."
    )
    assert "unknown" not in result.sentence()
    assert result.refusal() == "vendor is unavailable: version_too_old."


@pytest.mark.parametrize("state", ["available", "no_requirements"])
def test_refusal_of_an_offerable_verdict_is_a_programming_error(state: str) -> None:
    verdict = Availability(AvailabilityState(state), name="vendor")
    with pytest.raises(
        ValueError, match=f"^refusal\\(\\) explains a refused verdict; vendor is {state}"
    ):
        verdict.refusal()


def test_a_version_read_keeps_everything_else_the_candidate_says() -> None:
    entry = UninstallEntry("Vendor App 2.5", "2.5", "C:\\Vendor")
    found = Candidate(
        3,
        "uninstall_registry",
        "C:\\Vendor\\app.exe",
        "present",
        detail="the entry's folder",
        source="overrides",
        via="uninstall_entry",
        entry=entry,
    )
    assert found.with_version("2.5.1", "the uninstall entry's DisplayVersion") == Candidate(
        3,
        "uninstall_registry",
        "C:\\Vendor\\app.exe",
        "present",
        detail="the entry's folder",
        version="2.5.1",
        source="overrides",
        via="uninstall_entry",
        entry=entry,
        version_detail="the uninstall entry's DisplayVersion",
    )
