"""``FakeHost``'s network drives: the optional ``HostDrives`` facet, played in memory."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from hermes_decl.models import OsFamily

DrivesT = TypeVar("DrivesT", bound="FakeDrives")


class FakeDrives:
    """Drive letters a test marks as network drives; ``drive_is_remote`` is counted as asked."""

    _remote_drives: frozenset[str] = frozenset()

    if TYPE_CHECKING:

        @property
        def os_family(self) -> OsFamily | None: ...

        def _record(self, method: str, *args: object) -> None: ...

    def add_remote_drive(self: DrivesT, letter: str) -> DrivesT:
        """Mark drive ``letter`` (``Z`` or ``Z:``) as a network drive (win32 hosts only)."""
        if self.os_family != "win32":
            raise ValueError("add_remote_drive is for a win32 host")
        drive = letter.rstrip(":").upper()
        if len(drive) != 1 or not drive.isascii() or not drive.isalpha():
            raise ValueError(f"not a drive letter: {letter!r}")
        self._remote_drives = self._remote_drives | {drive}
        return self

    def drive_is_remote(self, path: str) -> bool:
        """Whether ``path`` starts at a drive marked with ``add_remote_drive``."""
        self._record("drive_is_remote", path)
        drive = path[:1].upper()
        return self.os_family == "win32" and path[1:2] == ":" and drive in self._remote_drives
