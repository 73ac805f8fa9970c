"""The Linux desktop-session rule's old address (now ``hermes_decl.hosts.desktop_session``)."""

from __future__ import annotations

from hermes_decl.hosts.desktop_session import DESKTOP_SESSION_TYPES, desktop_session_from_env

__all__ = [
    "DESKTOP_SESSION_TYPES",
    "desktop_session_from_env",
]
