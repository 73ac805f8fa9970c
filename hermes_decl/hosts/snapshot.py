"""Host snapshots: a machine described in YAML or JSON, loaded into a ``FakeHost``.

``hermes-decl explain --host SNAPSHOT`` evaluates declarations on such a machine, so a plugin
author can ask "what would a Windows machine with version 2.2 installed say?" from anywhere.
A snapshot is validated like a declaration: strict, every problem reported at once.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from hermes_decl.errors import DeclarationError, Issue, issues_from
from hermes_decl.hosts.fake import DEFAULT_PROCESS_START, DEFAULT_USER, FakeHost
from hermes_decl.loader import read_document_file
from hermes_decl.models.app_block import one_of
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, OsFamily, fail

MAX_PATH_CHARS = 4096
"""The longest path a snapshot names (a file, a folder, a bundle, the home)."""

MAX_PATH_DEPTH = 256
"""The most names a snapshot path has below its root."""

MAX_FILES = 50_000
"""The most regular files one snapshot lists."""

MAX_FOLDERS = 50_000
"""The most directories one snapshot lists."""

MAX_BUNDLES = 10_000
"""The most macOS bundles one snapshot lists."""

MAX_DEVICES = 16_384
"""The most PCI devices, and the most Windows display devices, one snapshot lists."""

MAX_VARIABLES = 10_000
"""The most environment variables one snapshot sets."""

MAX_ENTRIES = 16_384
"""The most uninstall entries, and the most processes, one snapshot lists."""

_SEPARATORS = re.compile(r"[\\/]+")


def _bounded_path(path: str) -> str:
    """A snapshot path no longer than ``MAX_PATH_CHARS`` and no deeper than ``MAX_PATH_DEPTH``."""
    if len(path) > MAX_PATH_CHARS:
        fail(
            "path_too_long",
            f"must be at most {MAX_PATH_CHARS} characters long (got {len(path):,} characters)",
        )
    depth = sum(1 for name in _SEPARATORS.split(path) if name)
    if depth > MAX_PATH_DEPTH:
        fail("path_too_deep", f"must have at most {MAX_PATH_DEPTH} names (got {depth:,})")
    return path


SnapshotPath = Annotated[str, AfterValidator(_bounded_path)]
"""A path on the snapshot machine, bounded in length and depth."""


class SnapshotFile(FrozenModel):
    """A regular file: a minimal PE carrying ``pe_version``, or ``text``, or empty."""

    path: SnapshotPath = Field(description="The file's absolute path on the snapshot machine.")
    pe_version: str | None = Field(default=None, description="A file version such as '2.3.0.1'.")
    text: str | None = Field(default=None, description="The file's content, as UTF-8.")
    mtime: float | None = Field(
        default=None, description="When it was last modified, in seconds since the epoch."
    )

    @classmethod
    def _prepare_input(cls, data: object) -> object:
        return {"path": data} if isinstance(data, str) else data

    @model_validator(mode="after")
    def _one_content(self) -> SnapshotFile:
        if self.pe_version is not None and self.text is not None:
            fail("content_conflict", "a file has pe_version or text, not both")
        return self


class SnapshotBundle(FrozenModel):
    """A macOS bundle; ``version`` goes into its Info.plist."""

    path: SnapshotPath = Field(
        description="The bundle's absolute path, e.g. /Applications/Vendor.app."
    )
    version: str | None = Field(default=None, description="CFBundleShortVersionString.")


class SnapshotUninstallEntry(FrozenModel):
    """A Windows uninstall entry."""

    display_name: str | None = None
    display_version: str | None = None
    install_location: str | None = None


class SnapshotPciDevice(FrozenModel):
    """A Linux PCI device as sysfs shows it."""

    vendor: str = Field(description="The vendor id, e.g. 0x10de.")
    device_class: str = Field(default="0x030000", alias="class", description="The PCI class.")


class SnapshotProcess(FrozenModel):
    """A running process: its id, and who started it when (the host's own user by default)."""

    pid: int = Field(description="The process id.")
    user: str | None = Field(default=None, description="Its owner; default the host's user.")
    started: float | None = Field(
        default=None, description="When it started, in seconds since the epoch."
    )
    session: int | None = Field(default=None, description="Its Windows session id.")

    @classmethod
    def _prepare_input(cls, data: object) -> object:
        return {"pid": data} if isinstance(data, int) and not isinstance(data, bool) else data


_COUNTS: tuple[tuple[str, int, str], ...] = (
    ("env", MAX_VARIABLES, "variables"),
    ("files", MAX_FILES, "files"),
    ("dirs", MAX_FOLDERS, "directories"),
    ("bundles", MAX_BUNDLES, "bundles"),
    ("uninstall_entries", MAX_ENTRIES, "uninstall entries"),
    ("display_devices", MAX_DEVICES, "display devices"),
    ("pci_devices", MAX_DEVICES, "PCI devices"),
    ("processes", MAX_ENTRIES, "processes"),
)
"""Each list of a snapshot (and its variables), with the most items it may hold."""

_BOUNDS = {field: (bound, what) for field, bound, what in _COUNTS}


class HostSnapshot(FrozenModel):
    """A whole machine: OS, environment, files, bundles, uninstall entries and GPU facts."""

    os_family: Annotated[OsFamily, one_of(OS_FAMILIES)] = Field(
        description="win32, darwin or linux."
    )
    env: dict[str, str] = Field(default_factory=dict, description="Environment variables.")
    home: SnapshotPath | None = Field(default=None, description="The user's home directory.")
    native_machine: str = Field(
        default="x86_64", description="The machine's CPU architecture: x86_64 or arm64."
    )
    os_version: str | None = Field(
        default=None,
        description="The OS's own version, such as '13.6.1' (macOS) or '10.0.19045' (Windows).",
    )
    search_path: str | None = Field(
        default=None, description="The search path commands are found on instead of env PATH."
    )
    files: tuple[SnapshotFile, ...] = Field(
        default=(), description="Regular files: a path, or {path, pe_version}."
    )
    dirs: tuple[SnapshotPath, ...] = Field(default=(), description="Directories.")
    bundles: tuple[SnapshotBundle, ...] = Field(default=(), description="macOS bundles.")
    uninstall_entries: tuple[SnapshotUninstallEntry, ...] = Field(default=())
    display_devices: tuple[str, ...] = Field(default=(), description="Windows MatchingDeviceIds.")
    pci_devices: tuple[SnapshotPciDevice, ...] = Field(default=(), description="Linux PCI devices.")
    processes: tuple[SnapshotProcess, ...] = Field(
        default=(), description="Running processes: an id, or {pid, user, started, session}."
    )
    user: str = Field(default=DEFAULT_USER, description="The user the host runs as.")
    session: int | None = Field(default=None, description="The host's Windows session id.")
    interactive_session: bool | None = Field(
        default=None, description="Whether the host runs in a logged-in desktop session."
    )
    nvidia_proc: bool = Field(
        default=False, description="Whether /proc/driver/nvidia/version exists."
    )

    @field_validator(*(field for field, _, _ in _COUNTS), mode="before")
    @classmethod
    def _not_too_many(cls, value: object, info: ValidationInfo) -> object:
        """Refuse a list (or the variables) past its bound before any item is validated."""
        bound, what = _BOUNDS[info.field_name or ""]
        if isinstance(value, (list, tuple, dict)) and len(value) > bound:
            fail("too_many_items", f"must list at most {bound:,} {what} (got {len(value):,})")
        return value

    def to_host(self) -> FakeHost:
        """A ``FakeHost`` set up as the snapshot describes."""
        host = FakeHost(
            self.os_family,
            env=self.env,
            home=self.home,
            native_machine=self.native_machine,
            search_path=self.search_path,
            user=self.user,
            session=self.session,
            interactive_session=self.interactive_session,
            os_version=self.os_version,
        )
        for directory in self.dirs:
            host.add_dir(directory)
        for file in self.files:
            if file.pe_version is not None:
                host.add_pe(file.path, file.pe_version, mtime=file.mtime)
            else:
                host.add_file(file.path, (file.text or "").encode(), mtime=file.mtime)
        for bundle in self.bundles:
            host.add_bundle(bundle.path, bundle.version)
        for entry in self.uninstall_entries:
            host.add_uninstall_entry(
                entry.display_name, entry.display_version, entry.install_location
            )
        for device_id in self.display_devices:
            host.add_display_device(device_id)
        for device in self.pci_devices:
            host.add_pci_device(vendor=device.vendor, device_class=device.device_class)
        for process in self.processes:
            started = DEFAULT_PROCESS_START if process.started is None else process.started
            host.add_process(
                process.pid, user=process.user, started=started, session=process.session
            )
        if self.nvidia_proc:
            host.add_nvidia_proc()
        return host


_SNAPSHOT = TypeAdapter(HostSnapshot)


def _as_lists(data: Any) -> Any:
    """YAML gives lists; the frozen models hold tuples."""
    if isinstance(data, dict):
        return {key: _as_lists(value) for key, value in data.items()}
    if isinstance(data, list):
        return tuple(_as_lists(item) for item in data)
    return data


def host_from_snapshot(data: object, *, where: str) -> FakeHost:
    """Validate snapshot data and build its host; each problem is an issue of a DeclarationError."""
    try:
        snapshot = _SNAPSHOT.validate_python(_as_lists(data))
    except ValidationError as error:
        raise DeclarationError(where, issues_from(error, data)) from None
    try:
        return snapshot.to_host()
    except ValueError as error:  # FakeHost refuses what makes no sense for the snapshot's OS
        raise DeclarationError(where, [Issue("", "bad_snapshot", str(error))]) from None


def load_snapshot_file(path: str | os.PathLike[str]) -> FakeHost:
    """Read a snapshot file (YAML or JSON) into a host; problems carry their line and column."""
    document = read_document_file(path)
    try:
        return host_from_snapshot(document.data, where=document.where)
    except DeclarationError as error:
        placed = []
        for issue in error.issues:
            line, column = document.position(issue.path, key=issue.code == "unknown_key")
            placed.append(replace(issue, line=line, column=column))
        raise DeclarationError(error.where, placed) from None
