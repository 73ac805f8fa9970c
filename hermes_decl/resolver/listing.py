"""Reading directory listings: the bound, and the one place the resolver checks listed names.

A host's ``list_dir`` returns entry names; a host that stops listing at a bound (the protocol's
``MAX_DIR_ENTRIES``) returns a ``Listing`` with ``truncated=True``, so the resolver can say in its
trace that a place may hold more than it saw, instead of reading a cut listing as complete. The
resolver reads every listing through ``listed_names``, which re-checks each name the host gave
(it did not write them): a name with a separator, ``.``, ``..``, a NUL or, for Windows, a drive
colon or a device name, is never joined onto a path.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeGuard

from hermes_decl.hosts.protocol import MAX_DIR_ENTRIES
from hermes_decl.models import OsFamily
from hermes_decl.models.rules import windows_device_name

if TYPE_CHECKING:
    from hermes_decl.hosts.protocol import Host

__all__ = ["MAX_DIR_ENTRIES", "Listed", "is_plain_name", "listed_names"]


@dataclass(frozen=True)
class Listed:
    """A listing as the resolver reads it: the checked names and what was left out."""

    names: tuple[str, ...]
    """The names that are plain entry names, in the host's order."""
    truncated: bool = False
    """The host stopped listing at a bound, or listed more than ``MAX_DIR_ENTRIES`` names."""
    ignored: int = 0
    """How many names the host gave that are not plain entry names (never joined onto a path)."""


def is_plain_name(name: object, os_family: OsFamily) -> TypeGuard[str]:
    """Whether a listed name can be joined onto a path: one entry, nothing that moves elsewhere."""
    if not isinstance(name, str) or name in ("", ".", "..") or "\0" in name or "/" in name:
        return False
    return not (os_family == "win32" and ("\\" in name or ":" in name or windows_device_name(name)))


def listed_names(host: Host, directory: str, os_family: OsFamily) -> Listed:
    """The host's listing of ``directory``, bounded and with every name re-checked."""
    listing = host.list_dir(directory)
    try:
        first: list[object] = list(itertools.islice(listing, MAX_DIR_ENTRIES + 1))
    except TypeError:  # a host that answered something other than names lists nothing
        return Listed(())
    truncated = len(first) > MAX_DIR_ENTRIES or getattr(listing, "truncated", False) is True
    del first[MAX_DIR_ENTRIES:]
    names = tuple(name for name in first if is_plain_name(name, os_family))
    return Listed(names, truncated, len(first) - len(names))
