"""The two gates a host applies: an MCP server's tools and the skills that name an app (SPEC 9).

Beside them, ``make_status_fn`` gives a host's UI the runtime status of a server (SPEC 11).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hermes_decl._logging import get_logger
from hermes_decl.hosts.protocol import Host
from hermes_decl.registry import lookup
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.status import Status, status

_log = get_logger()

REQUIRES_APPS_KEY = "requires_apps"
"""The skill frontmatter key that names the declared servers a skill needs."""


def _offerable(server_name: str, host: Host | None) -> bool | None:
    """Whether a registered server is offerable; None when it has no registration."""
    decl = lookup(server_name)
    if decl is None:
        return None
    try:
        return availability(decl, host=host).offerable
    except Exception:
        _log.exception("evaluating %s failed; it is not offered", server_name)
        return False


def make_check_fn(
    server_name: str, is_connected: Callable[[], object], *, host: Host | None = None
) -> Callable[[], bool]:
    """A zero-argument check for the tool registry: connected, and offerable when registered.

    The registry is read on every call, so a registration made later takes effect; a server
    without a registration keeps its connection-only check, and a failure counts as not offerable.
    """

    def check() -> bool:
        try:
            if not is_connected():
                return False
        except Exception:
            _log.exception("the connection check of %s failed", server_name)
            return False
        return _offerable(server_name, host) is not False

    return check


def make_status_fn(
    server_name: str,
    is_connected: Callable[[], object],
    *,
    host: Host | None = None,
    display_name: str | None = None,
    probe: bool = False,
) -> Callable[[], Status | None]:
    """A zero-argument function giving a server's runtime ``Status`` for a host's UI.

    Like ``make_check_fn`` it reads the registry on every call, so a registry change takes
    effect on the next call; it answers None for a server without a registration, which keeps
    its connection-only display. ``probe=True`` sends MCP ``initialize`` on every call (up to
    its deadline); ``make_check_fn`` never does.
    """

    def current_status() -> Status | None:
        decl = lookup(server_name)
        if decl is None:
            return None
        return status(
            decl, host=host, is_connected=is_connected, probe=probe, display_name=display_name
        )

    return current_status


def skill_matches_apps(frontmatter: object, *, host: Host | None = None) -> bool:
    """Whether a skill may be offered: every server its ``requires_apps`` names is offerable.

    A string counts as a list of one; an unknown name, or anything that is not a name, hides the
    skill (fail closed), and so does frontmatter that is not a mapping. A skill without
    ``requires_apps`` is not filtered.
    """
    if not isinstance(frontmatter, Mapping):
        return False
    names = frontmatter.get(REQUIRES_APPS_KEY)
    if names is None:
        return True
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)):
        return False
    return all(isinstance(name, str) and _offerable(name, host) is True for name in names)
