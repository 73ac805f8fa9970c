"""The two gates a host applies: an MCP server's tools and the skills that name an app (SPEC 9).

Beside them, ``make_status_fn`` gives a host's UI the runtime status of a server (SPEC 11). With
``max_age`` a gate reuses its availability verdict for at most that many seconds (never the
connection, which is asked on every call); a registry change of the name, or ``refresh``, drops
it at once.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from hermes_decl import verdict_cache
from hermes_decl._logging import get_logger
from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.default import default_host
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import Declaration
from hermes_decl.registry import lookup
from hermes_decl.resolver.availability import availability
from hermes_decl.runtime.probe_driving import checked_deadline
from hermes_decl.runtime.probe_flow import DEFAULT_DEADLINE_S
from hermes_decl.runtime.status import ConnectionCheck, Status, astatus, status

__all__ = [
    "REQUIRES_APPS_KEY",
    "make_astatus_fn",
    "make_check_fn",
    "make_status_fn",
    "refresh",
    "skill_matches_apps",
]

_log = get_logger()

REQUIRES_APPS_KEY = "requires_apps"
"""The skill frontmatter key that names the declared servers a skill needs."""


def refresh(name: str | None = None) -> None:
    """Drop the availability verdicts gates keep for ``name``, or for every server."""
    verdict_cache.refresh(name)


def _offerable(server_name: str, host: Host | None, max_age: float | None) -> bool | None:
    """Whether a registered server is offerable; None when it has no registration."""
    decl = lookup(server_name)
    if decl is None:
        return None
    if max_age is None:
        return _evaluate(server_name, decl, host)
    on = default_host() if host is None else host
    kept = verdict_cache.cached(server_name, decl, on, max_age)
    if kept is not None:
        return kept
    offerable = _evaluate(server_name, decl, on)
    verdict_cache.keep(server_name, decl, on, offerable)
    return offerable


def _evaluate(server_name: str, decl: Declaration, host: Host | None) -> bool:
    try:
        return availability(decl, host=host).offerable
    except Exception:
        _log.exception("evaluating %s failed; it is not offered", server_name)
        return False


def make_check_fn(
    server_name: str,
    is_connected: Callable[[], object],
    *,
    host: Host | None = None,
    max_age: float | None = None,
) -> Callable[[], bool]:
    """A zero-argument check for the tool registry: connected, and offerable when registered.

    The registry is read on every call, so a registration made later takes effect; a server
    without a registration keeps its connection-only check, and a failure counts as not offerable.
    With ``max_age`` the availability verdict is reused for at most that many seconds.
    """
    max_age = verdict_cache.checked_max_age(max_age)

    def check() -> bool:
        try:
            if not is_connected():
                return False
        except Exception:
            _log.exception("the connection check of %s failed", server_name)
            return False
        return _offerable(server_name, host, max_age) is not False

    return check


def make_status_fn(
    server_name: str,
    is_connected: Callable[[], object],
    *,
    host: Host | None = None,
    display_name: str | None = None,
    probe: bool = False,
    deadline: float = DEFAULT_DEADLINE_S,
) -> Callable[[], Status]:
    """A zero-argument function giving a server's runtime ``Status`` for a host's UI.

    Like ``make_check_fn`` it reads the registry on every call, so a registry change takes
    effect on the next call. A server without a registration is judged as a declaration that
    requires nothing, so its status says what the host knows, its connection:
    ``no_requirements`` when connected, else ``hermes_not_connected`` (``usable`` is the
    connection). ``probe=True`` sends MCP ``initialize`` on every call, under ``deadline``
    seconds (checked here: finite, at most ``MAX_DEADLINE_S``, else a ``ValueError``);
    ``make_check_fn`` never does.
    """
    seconds = checked_deadline(deadline)
    undeclared = parse_declaration(server_name, None, None, where=server_name)

    def current_status() -> Status:
        decl = lookup(server_name) or undeclared
        return status(
            decl,
            host=host,
            is_connected=is_connected,
            probe=probe,
            display_name=display_name,
            deadline=seconds,
        )

    return current_status


def make_astatus_fn(
    server_name: str,
    is_connected: ConnectionCheck,
    *,
    host: Host | None = None,
    display_name: str | None = None,
    probe: bool = False,
    deadline: float = DEFAULT_DEADLINE_S,
) -> Callable[[], Coroutine[Any, Any, Status]]:
    """``make_status_fn`` for an asyncio host: each call is ``astatus`` (``is_connected`` may be
    sync or async, and a probe runs in the caller's event loop); ``deadline`` is checked here."""
    seconds = checked_deadline(deadline)
    undeclared = parse_declaration(server_name, None, None, where=server_name)

    async def current_status() -> Status:
        decl = lookup(server_name) or undeclared
        return await astatus(
            decl,
            host=host,
            is_connected=is_connected,
            probe=probe,
            display_name=display_name,
            deadline=seconds,
        )

    return current_status


def skill_matches_apps(
    frontmatter: object, *, host: Host | None = None, max_age: float | None = None
) -> bool:
    """Whether a skill may be offered: every server its ``requires_apps`` names is offerable.

    A string counts as a list of one; an unknown name, or anything that is not a name, hides the
    skill (fail closed), and so does frontmatter that is not a mapping. A skill without
    ``requires_apps`` is not filtered. With ``max_age`` each server's availability verdict is
    reused for at most that many seconds, as ``make_check_fn`` does.
    """
    max_age = verdict_cache.checked_max_age(max_age)
    if not isinstance(frontmatter, Mapping):
        return False
    names = frontmatter.get(REQUIRES_APPS_KEY)
    if names is None:
        return True
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)):
        return False
    return all(isinstance(name, str) and _offerable(name, host, max_age) is True for name in names)
