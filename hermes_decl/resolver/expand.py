"""Expanding a declared path at lookup (SPEC 6.2); ``matching`` then matches its ``*`` segments.

``~`` is the host's home; ``%VAR%`` (Windows), ``$VAR`` and ``${VAR}`` come from the host's
environment, in one pass (a value is never expanded again). A path whose variable is unset, whose
variable or home is set but empty (or only whitespace), or that after expansion is not rooted for
its OS, became a UNC or device path, lies under an automounter's network root (``/net``), gained
a ``..`` segment or (for Windows) a segment that opens a device, or starts at a drive the host
says is a network drive, is refused before anything touches it.
"""

from __future__ import annotations

from typing import NamedTuple

from hermes_decl.hosts.protocol import Host
from hermes_decl.models import OsFamily
from hermes_decl.models.rules import (
    DRIVE_ROOT,
    device_segment,
    has_parent_segment,
    network_root,
    starts_with_two_separators,
)
from hermes_decl.resolver.template import Template, read_template


class Expansion(NamedTuple):
    """A declared path after expansion: the path, or why it cannot be looked at."""

    path: str | None
    refused: str | None = None
    """Why nothing was touched: an unset variable, an unknown home, an unsafe result."""


def separator(os_family: OsFamily) -> str:
    """The separator paths are written with on an OS family."""
    return "\\" if os_family == "win32" else "/"


def join(os_family: OsFamily, base: str, *names: str) -> str:
    """Join names onto a directory, in the OS family's form."""
    windows = os_family == "win32"
    sep = "\\" if windows else "/"  # ``separator`` and ``normalise``, inline: once per place
    text = base
    for name in names:
        if not text.endswith(("/", "\\")):
            text += sep
        text += name
    return text.replace("/", "\\") if windows else text


def normalise(os_family: OsFamily, path: str) -> str:
    """Write a path with the OS family's separator (Windows accepts both; shown with ``\\``)."""
    return path.replace("/", "\\") if os_family == "win32" else path


def unsafe_reason(path: str, os_family: OsFamily) -> str | None:
    """Why an expanded path must not be touched, or None when it is safe to look at."""
    if "\x00" in path:
        return "contains a NUL character"
    if starts_with_two_separators(path):
        return "became a UNC or device path"
    rooted = DRIVE_ROOT.match(path) if os_family == "win32" else path.startswith("/")
    if not rooted:
        return "is not an absolute path after expansion"
    if has_parent_segment(path, os_family):
        return "gained a '..' segment"
    if os_family == "win32" and (device := device_segment(path)) is not None:
        return f"has a segment Windows opens as a device ({device!r})"
    if (root := network_root(path, os_family)) is not None:
        return f"is under {root}, where the automounter would contact the host it names"
    return None


def remote_drive_reason(path: str, os_family: OsFamily, host: Host) -> str | None:
    """Why a Windows path must not be touched because the host says its drive is a network
    drive, or None (also for a host without the optional ``HostDrives`` facet)."""
    if os_family != "win32" or not DRIVE_ROOT.match(path):
        return None
    drive_is_remote = getattr(host, "drive_is_remote", None)
    if callable(drive_is_remote) and drive_is_remote(path[:2] + "\\") is True:
        return f"is on {path[:2].upper()}, a network drive"
    return None


def host_refusal(path: str, os_family: OsFamily, host: Host) -> str | None:
    """``unsafe_reason``, then ``remote_drive_reason``: why nothing may touch a path, or None."""
    return unsafe_reason(path, os_family) or remote_drive_reason(path, os_family, host)


def expand(template: str, os_family: OsFamily, host: Host) -> Expansion:
    """Expand ``~`` and variables through the host, then check the result is safe to look at.

    A ``*`` is a wildcard only where the declaration wrote it: a value from the host that holds
    one is refused rather than allowed to decide which folders are listed. A template without a
    variable is a known folder or a path the models checked by the rules ``unsafe_reason``
    applies, so it is looked at as written, unless it starts at a network drive.
    """
    read = read_template(template, os_family)
    if not read.has_variables:
        remote = remote_drive_reason(template, os_family, host)
        if remote is not None:
            return Expansion(None, f"{normalise(os_family, template)} {remote}")
        return Expansion(normalise(os_family, template))
    text = template
    user = read.user
    if user is not None:
        home = host.user_home(user) if user else host.home()
        if home is None:
            return Expansion(None, f"the home directory of {'~' + user} is unknown")
        if not home.strip():
            return Expansion(None, f"the home directory of {'~' + user} is empty")
        # ``HOME=/`` then gives ``/x`` for ``~/x``, not ``//x`` (which would look like UNC).
        home = home.rstrip("/\\") if read.separator_after_tilde else home
        if "*" in home:
            return Expansion(None, f"the home directory of {'~' + user} holds a '*'")
        text = home + read.rest
        rest_from = len(home)
    else:
        rest_from = 0
    if read.variables:
        rest, refused = _substituted(read, host)
        if refused is not None:
            return Expansion(None, refused)
        text = text[:rest_from] + rest
    reason = host_refusal(text, os_family, host)
    if reason is not None:
        return Expansion(None, f"{normalise(os_family, text)} {reason}")
    return Expansion(normalise(os_family, text))


def _substituted(read: Template, host: Host) -> tuple[str, str | None]:
    """The template's rest with each variable replaced by its value, and why it cannot be.

    Every variable is asked for, even after one is refused, and the first refusal is the one said.
    """
    parts: list[str] = []
    refused: str | None = None
    for variable in read.variables:
        parts.append(variable.before)
        name = variable.name
        value = host.getenv(name)
        if value is None:
            refused = refused or f"variable {name} is unset"
            continue
        if not value.strip():
            # An empty value would re-root the path: $EMPTY/etc/x would become /etc/x.
            refused = refused or f"variable {name} is set but empty"
        elif "*" in value:
            refused = refused or f"variable {name} holds a '*'"
        # A value's trailing separators are dropped when the template supplies one.
        parts.append(value.rstrip("/\\") if variable.separator_follows else value)
    parts.append(read.tail)
    return "".join(parts), refused
