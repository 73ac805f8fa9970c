"""This module moved to ``hermes_decl.hosts.rooted``; its names are re-exported here."""

from __future__ import annotations

from hermes_decl.hosts.rooted import (
    MAX_PASSWD_BYTES,
    MAX_SYMLINK_HOPS,
    ROOTED_USER,
    RootedHost,
)

__all__ = [
    "MAX_PASSWD_BYTES",
    "MAX_SYMLINK_HOPS",
    "ROOTED_USER",
    "RootedHost",
]
