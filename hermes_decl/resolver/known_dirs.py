"""The directories each location kind looks in, per OS family (SPEC 6.3).

The entries are path templates in declaration form (``~``, ``$VAR``); the resolver expands them
like any declared path, so the answer depends only on the OS asked about and the host's
environment, and a forced ``os_family`` with a fake host agree.
"""

from __future__ import annotations

from collections.abc import Callable

from hermes_decl.models import OsFamily

_APPLICATIONS = ("/Applications", "~/Applications")
_FLATPAK_SYSTEM = "/var/lib/flatpak/exports/bin"
_FLATPAK_USER_UNDER_DATA_HOME = "flatpak/exports/bin"
_DEFAULT_DATA_HOME = "~/.local/share"
_SNAP_BIN = ("/snap/bin",)


def _flatpak(getenv: Callable[[str], str | None]) -> tuple[str, ...]:
    data_home = getenv("XDG_DATA_HOME")
    # The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
    user_data = "$XDG_DATA_HOME" if data_home and data_home.startswith("/") else _DEFAULT_DATA_HOME
    return (_FLATPAK_SYSTEM, f"{user_data}/{_FLATPAK_USER_UNDER_DATA_HOME}")


def known_dirs(
    kind: str, os_family: OsFamily, getenv: Callable[[str], str | None]
) -> tuple[str, ...]:
    """The directory templates ``kind`` looks in under ``os_family``; empty where it has none."""
    if kind == "app_bundle" and os_family == "darwin":
        return _APPLICATIONS
    if kind == "flatpak" and os_family == "linux":
        return _flatpak(getenv)
    if kind == "snap" and os_family == "linux":
        return _SNAP_BIN
    return ()
