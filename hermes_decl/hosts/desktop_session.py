"""The Linux rule for a logged-in desktop session, read from an environment (SPEC 11).

Shared by the live host and the test hosts so they agree on what an environment means; nothing
here touches the machine.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["DESKTOP_SESSION_TYPES", "desktop_session_from_env"]

DESKTOP_SESSION_TYPES = frozenset({"x11", "wayland", "mir"})
"""``XDG_SESSION_TYPE`` values that name a graphical session."""


def desktop_session_from_env(getenv: Callable[[str], str | None]) -> bool:
    """Whether a Linux environment belongs to a logged-in desktop session.

    A non-empty ``WAYLAND_DISPLAY`` or ``DISPLAY`` (a display to draw on), or an
    ``XDG_SESSION_TYPE`` of ``x11``, ``wayland`` or ``mir``; anything else (a ``tty`` session, a
    service, ``ssh`` without X forwarding) is not one.
    """
    for name in ("WAYLAND_DISPLAY", "DISPLAY"):
        value = getenv(name)
        if value is not None and value.strip():
            return True
    session_type = getenv("XDG_SESSION_TYPE")
    return session_type is not None and session_type.strip().lower() in DESKTOP_SESSION_TYPES
