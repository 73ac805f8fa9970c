"""Facts a host reports about running processes and the desktop session (SPEC 11).

``ProcessInfo`` is what every host answers for a process id; ``desktop_session_from_env`` is the
Linux rule for a logged-in desktop session, shared by the live host and the test hosts so they
agree on what an environment means. Nothing here touches the machine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["DESKTOP_SESSION_TYPES", "ProcessInfo", "desktop_session_from_env"]

DESKTOP_SESSION_TYPES = frozenset({"x11", "wayland", "mir"})
"""``XDG_SESSION_TYPE`` values that name a graphical session."""


@dataclass(frozen=True)
class ProcessInfo:
    """Who owns a running process, in which session, and since when, as far as the host can tell."""

    user: str | None
    """The owner in the host's own form (a POSIX user id in decimal, a Windows SID); None when
    it cannot be read."""
    started: float | None
    """When the process started, in seconds since the epoch; None when it cannot be read."""
    session: int | None = None
    """The Windows session id; None on other systems or when it cannot be read."""


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
