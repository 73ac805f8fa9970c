"""Fuzz the resolver against a hostile machine: it answers, and touches only safe paths.

Input layout: when the first byte is below 0x08 the rest drives a generator of scenarios;
otherwise the whole input is a JSON scenario (so seeds are readable and mutations stay close):

    {"os": "linux", "presence": "executable", "location": ["/opt/*/bin/x", {"kind": "snap", ...}],
     "version": {"kind": "plist"}, "min_version": "2", "gpu": true,
     "env": {"EMPTY": ""}, "home": "/home/u", "users": {"bob": ""},
     "names": ["..", "a/../../etc", "CON", "v-2"], "truncated": false,
     "files": ["/opt/v-2/bin/x"], "dirs": ["/opt/v-1"],
     "uninstall": [["Vendor", "1.0", "C:\\CON"]], "pci": [["0000:ff:00.0", "0x10de", "0x030000"]],
     "which": "/opt/../etc/x", "registry_bound": 1}

The machine is a ``FakeHost`` whose every folder also lists the scenario's ``names`` (parent
references, separators, NUL, drive colons, Windows device names, non-strings), marked truncated
when the scenario says so; whose ``which`` answers the scenario's ``which`` (any value) when it
has one; and whose registry answers are cut at ``registry_bound`` entries. A declaration that
does not parse is skipped (the parser has its own harness). The contract checked:
``availability()`` and ``gpu_class()`` answer and never raise; every outcome is in the trace
vocabulary; and every path the host was asked to stat, list or read is absolute for its OS, has
no NUL, no ``..`` segment, does not start like a UNC or device path and, for Windows, has no
segment that opens a device.

    python fuzz/fuzz_resolver.py -atheris_runs=200000 -timeout=10 fuzz/work/resolver \\
        fuzz/corpus/resolver
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader, main
from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.models import OS_FAMILIES, OsFamily
from hermes_decl.models.rules import (
    DRIVE_ROOT,
    device_segment,
    has_parent_segment,
    starts_with_two_separators,
)
from hermes_decl.resolver.app import Candidate
from hermes_decl.resolver.availability import Availability, AvailabilityState, availability
from hermes_decl.resolver.gpu import GpuClass, clear_gpu_cache, gpu_class
from hermes_decl.resolver.host import Listing
from hermes_decl.resolver.winregistry import MAX_SUBKEYS
from hermes_decl.testing import FakeHost

OUTCOMES = frozenset({"present", "absent", "no_match", "incomplete", "refused"})
TOUCHING = ("is_file", "is_dir", "list_dir", "read_file")

HOSTILE_NAMES = (
    "..",
    ".",
    "",
    "a/../../etc",
    "/etc",
    "..\\..\\Windows",
    "a\\b",
    "x\0y",
    "C:",
    "x:y",
    "CON",
    "nul.txt",
    "com1 .",
    "CONOUT$",
    "Vendor 2.1",
    "Vendor 10",
    "vendor-2",
    "v\x1b]0;t\x07",
    "\ud800",
    "x" * 300,
)
HOSTILE_VALUES = (
    "",
    " ",
    "\t",
    "/",
    "/opt",
    "C:\\",
    "C:\\CON",
    "C:\\Program Files",
    "nul.exe",
    "..",
    "/a/..",
    "//srv/share",
    "\\\\?\\C:\\",
    "*",
    "/o*t",
    "x\0",
    "relative",
    "%OTHER%",
    "$OTHER",
)
PATHS = (
    "/opt/*/bin/x",
    "/opt/Vendor */x",
    "$DIR/x",
    "${DIR}/x",
    "~/bin/x",
    "~bob/x",
    "/opt/$EMPTY/x",
    "C:\\Apps\\*\\v.exe",
    "%DIR%\\v.exe",
    "%ProgramFiles%\\Vendor *\\v.exe",
    "~\\v.exe",
    "/Applications/Vendor *.app",
    "/*/*/*",
)
KINDS: tuple[dict[str, str], ...] = (
    {"kind": "command", "name": "vendor"},
    {"kind": "command", "name": "nul"},
    {"kind": "uninstall_registry", "display_name_prefix": "Vendor", "file": "bin\\v.exe"},
    {"kind": "app_bundle", "name": "Vendor.app"},
    {"kind": "flatpak", "app_id": "com.vendor.App"},
    {"kind": "snap", "name": "vendor"},
)
VARIABLES = (
    "DIR",
    "EMPTY",
    "HOME",
    "USERPROFILE",
    "ProgramFiles",
    "XDG_DATA_HOME",
    "PATH",
    "HERMES_DECL_OVERRIDES",
    "APPDATA",
    "XDG_CONFIG_HOME",
)
SOURCES: dict[str, dict[str, str] | None] = {
    "win32": {"kind": "pe_resource"},
    "darwin": {"kind": "plist"},
    "linux": None,
}
PCI_VENDORS = ("0x10de", "0x1002", "0x8086", "0x1a03", "", "0x", "zz")


def _generated(reader: ByteReader) -> dict[str, Any]:
    """A scenario built from the vocabulary above."""
    os_family = reader.pick(OS_FAMILIES)
    places: list[object] = []
    for _ in range(1 + reader.below(3)):
        places.append(reader.pick(PATHS) if reader.chance(2, 3) else dict(reader.pick(KINDS)))
    names = [reader.pick(HOSTILE_NAMES) for _ in range(reader.below(8))]
    files = []
    for name in names[: reader.below(4)]:
        files.append(("C:\\Apps\\" if os_family == "win32" else "/opt/") + f"{name}/bin/x")
    return {
        "os": os_family,
        "presence": "bundle" if reader.chance(1, 6) else "executable",
        "location": places,
        "version": None if reader.chance(1, 3) else SOURCES[os_family],
        "min_version": reader.pick((None, "2", "10.0")),
        "gpu": reader.chance(1, 3),
        "env": {
            reader.pick(VARIABLES): reader.pick(HOSTILE_VALUES) for _ in range(reader.below(4))
        },
        "home": reader.pick((None, "", " ", "/home/u", "C:\\Users\\u", "C:\\Users\\AUX", "/")),
        "users": {"bob": reader.pick(HOSTILE_VALUES)},
        "names": names,
        "truncated": reader.chance(1, 4),
        "files": files,
        "dirs": [],
        "uninstall": [
            ["Vendor " + reader.text(3), "1." + str(reader.below(9)), reader.pick(HOSTILE_VALUES)]
            for _ in range(reader.below(3))
        ],
        "pci": [
            [
                f"0000:{reader.below(256):02x}:00.{reader.below(8)}",
                reader.pick(PCI_VENDORS),
                "0x030000",
            ]
            for _ in range(reader.below(3))
        ],
        "which": reader.pick((None, *HOSTILE_VALUES, "/opt/x/bin/vendor", "C:\\Apps\\v.exe")),
        "registry_bound": reader.below(3),
    }


def _scenario(data: bytes) -> dict[str, Any] | None:
    if data[:1] and data[0] < 0x08:
        return _generated(ByteReader(data[1:]))
    try:
        scenario = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return scenario if isinstance(scenario, dict) else None


class HostileHost(FakeHost):
    """A FakeHost whose every folder also lists hostile names, and whose search path answers
    whatever it was told to, as a careless host might."""

    def __init__(
        self,
        os_family: OsFamily,
        names: list[Any],
        truncated: bool,
        which: object = None,
        **kwargs: Any,
    ):
        super().__init__(os_family, **kwargs)
        self.extra_names = names
        self.truncated = truncated
        self.which_answer = which

    def list_dir(self, path: str) -> Listing:
        names = super().list_dir(path)
        return Listing([*names, *self.extra_names], truncated=self.truncated or names.truncated)

    def which(self, name: str) -> str | None:
        found = super().which(name)
        return found if self.which_answer is None else self.which_answer  # type: ignore[return-value]


def _strings(value: object) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def _host(scenario: dict[str, Any], os_family: OsFamily) -> HostileHost:
    home = scenario.get("home")
    names = scenario.get("names")
    bound = scenario.get("registry_bound")
    host = HostileHost(
        os_family,
        names if isinstance(names, list) else [],
        scenario.get("truncated") is True,
        scenario.get("which"),
        env=_strings(scenario.get("env")),
        home=home if isinstance(home, str) else None,
        users=_strings(scenario.get("users")),
        max_registry_entries=bound if isinstance(bound, int) and bound >= 0 else MAX_SUBKEYS,
    )
    # A path the host cannot hold (not absolute for its OS) is left out of the scenario.
    for key, add in (("dirs", host.add_dir), ("files", host.add_executable)):
        for path in scenario.get(key) or ():
            if isinstance(path, str):
                with contextlib.suppress(ValueError):
                    add(path)
    for entry in scenario.get("uninstall") or ():
        if os_family == "win32" and _strings_or_none(entry, 3):
            host.add_uninstall_entry(*entry)
    for entry in scenario.get("pci") or ():
        if os_family == "linux" and _strings_or_none(entry, 3) and None not in entry:
            slot, vendor, device_class = entry
            if "/" not in slot and slot.strip("."):
                with contextlib.suppress(ValueError):
                    host.add_pci_device(vendor, device_class, slot=slot)
    return host


def _strings_or_none(entry: object, length: int) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == length
        and all(part is None or isinstance(part, str) for part in entry)
    )


def _check_path(path: object, os_family: OsFamily) -> None:
    """A path the host was asked to touch: absolute for its OS and leading nowhere else."""
    assert isinstance(path, str), path
    assert "\0" not in path, path
    assert not starts_with_two_separators(path), path
    if os_family == "win32":
        assert DRIVE_ROOT.match(path), path
        assert not has_parent_segment(path, "win32"), path
        assert device_segment(path) is None, path
    else:
        assert path.startswith("/"), path
        assert ".." not in path.split("/"), path


def _check_trace(result: Availability) -> None:
    assert isinstance(result, Availability)
    assert isinstance(result.state, AvailabilityState)
    for candidate in result.trace:
        assert isinstance(candidate, Candidate)
        assert candidate.outcome in OUTCOMES, candidate
        if candidate.outcome == "refused":
            assert candidate.path is None, candidate
        elif candidate.path is None:
            # Only the uninstall entries name no place: a cut read, no entry with the prefix, or
            # an entry without an install folder.
            assert candidate.via == "uninstall_entry", candidate
            assert candidate.outcome in ("incomplete", "absent"), candidate
    result.sentence()


def TestOneInput(data: bytes) -> None:
    scenario = _scenario(data)
    if scenario is None:
        return
    os_family = scenario.get("os")
    if os_family not in OS_FAMILIES:
        return
    block = {
        "presence": scenario.get("presence"),
        "location": scenario.get("location"),
        "version": scenario.get("version"),
    }
    requires = {
        "app": True,
        "min_version": scenario.get("min_version"),
        "gpu": "nvidia" if scenario.get("gpu") is True else None,
    }
    try:
        declaration = parse_declaration("vendor", {os_family: block}, requires, where="fuzz")
    except DeclarationError:
        return
    host = _host(scenario, os_family)
    clear_gpu_cache()
    result = availability(declaration, host=host)
    _check_trace(result)
    assert isinstance(gpu_class(host), GpuClass)
    for method, args in host.call_log:
        if method in TOUCHING:
            _check_path(args[0], os_family)


if __name__ == "__main__":
    main(TestOneInput, "resolver")
