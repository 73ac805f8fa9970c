"""The runtime status: can a declared server be used right now, and if not, what to do (SPEC 11).

``status(decl, host=..., is_connected=..., probe=..., display_name=...)`` starts from
``availability`` (installed, new enough, right hardware) and adds what a host's UI needs: one
state, whether retrying can help, the one thing the user should do, and a sentence that is true.
The first row that holds decides:

======================  ==================================================  =================
state                   when                                                retry
======================  ==================================================  =================
missing_app             availability says so: no copy found                 after_user_action
version_too_old         availability says so: no copy new enough, or none   after_user_action
                        with a readable version
unsupported_os          availability says so: no block for this OS          never_here
unsupported_gpu         availability says so: another GPU vendor            never_here
unsupported_arch        availability says so: another native architecture   never_here
unsupported_os_version  availability says so: the OS is older than the      after_user_action
                        block's min_os_version
no_interactive_session  liveness interactive_session and the host is not    never_here
                        in a logged-in desktop session (a host that cannot
                        tell is not blamed)
app_not_running         liveness server_json and no runtime file, a dead    after_user_action
                        process, another user's process, or a file older
                        than its process; the endpoint is never contacted
endpoint_unavailable    liveness server_json and the runtime file gives no  after_user_action
                        usable endpoint (its live process could not be
                        checked, or the file may be another user's,
                        included), or with probe=True the endpoint does
                        not answer MCP initialize or what listens there
                        is not proven to be the application
hermes_not_connected    is_connected is None, answers false or raises       after_user_action
no_requirements         the declaration requires no application (none is    none (usable)
                        observed) and the connection is alive
connected               the application is available, every check above     none (usable)
                        passed and the connection is alive
======================  ==================================================  =================

The checks after availability run only when availability is ``available``: with
``no_requirements`` there is no application to observe. ``static`` and ``none`` liveness observe
nothing either, so a down connection is then ``hermes_not_connected`` and never
``app_not_running``: a status never tells a person to start an application it did not see stopped,
nor that an application is running unless a live process of this user published its endpoint.
The endpoint's token is never shown.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from hermes_decl._logging import get_logger
from hermes_decl.hosts.default import default_host
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import Declaration
from hermes_decl.runtime.aprobe import aprobe
from hermes_decl.runtime.probe import DEFAULT_DEADLINE_S, ProbeResult
from hermes_decl.runtime.probe import probe as send_initialize
from hermes_decl.runtime.probe_driving import checked_deadline
from hermes_decl.runtime.status_decision import Decision, ProbeEndpoint, decide
from hermes_decl.runtime.status_types import (
    UI_STATES,
    Retry,
    Status,
    StatusState,
    UiState,
)

if TYPE_CHECKING:
    from hermes_decl.runtime.presence import PluginPresence, Presence, plugin_presence

__all__ = [
    "UI_STATES",
    "PluginPresence",
    "Presence",
    "Retry",
    "Status",
    "StatusState",
    "UiState",
    "astatus",
    "plugin_presence",
    "status",
]

logger = get_logger("hermes_decl.resolver.status")  # the name hosts configure, kept

ConnectionCheck = Callable[[], object]
"""The host's own check of its MCP connection; for ``astatus`` it may return an awaitable."""


def __getattr__(name: str) -> Any:
    """Plugin presence lives in its own module, built on this one; it is reachable here too."""
    if name in {"PluginPresence", "Presence", "plugin_presence"}:
        from hermes_decl.runtime import presence

        return getattr(presence, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def status(
    decl: Declaration,
    *,
    host: Host | None = None,
    is_connected: ConnectionCheck | None = None,
    probe: bool = False,
    display_name: str | None = None,
    deadline: float = DEFAULT_DEADLINE_S,
) -> Status:
    """The runtime status of a declared server on a host (the live machine by default).

    ``is_connected`` is the host's own check of its MCP connection (None counts as not
    connected; an exception is logged and counts as not connected). With ``probe=True`` a live
    endpoint is sent MCP ``initialize`` under one ``deadline`` in seconds (finite, at most
    ``MAX_DEADLINE_S``: anything else is a ``ValueError``, probing or not). Never raises because
    of what it finds on the host or the endpoint; the decision order is the module's table.
    """
    steps = _decision(decl, host, probe, display_name, deadline)
    try:
        question = next(steps)
        while True:
            if isinstance(question, ProbeEndpoint):
                probed = send_initialize(question.endpoint, deadline=deadline, host=question.host)
                question = steps.send(probed)
            else:
                question = steps.send(_connected(is_connected, decl.name))
    except StopIteration as decided:
        result: Status = decided.value
        return result


async def astatus(
    decl: Declaration,
    *,
    host: Host | None = None,
    is_connected: ConnectionCheck | None = None,
    probe: bool = False,
    display_name: str | None = None,
    deadline: float = DEFAULT_DEADLINE_S,
) -> Status:
    """``status`` in the caller's event loop: the probe runs on asyncio streams, no thread.

    The same arguments and the same decision as ``status``; ``is_connected`` may be sync or
    async. Reading the host (a few small files and process facts) stays synchronous.
    """
    steps = _decision(decl, host, probe, display_name, deadline)
    try:
        question = next(steps)
        while True:
            if isinstance(question, ProbeEndpoint):
                answer: bool | ProbeResult = await aprobe(
                    question.endpoint, deadline=deadline, host=question.host
                )
            else:
                answer = await _aconnected(is_connected, decl.name)
            question = steps.send(answer)
    except StopIteration as decided:
        result: Status = decided.value
        return result


def _decision(
    decl: Declaration,
    host: Host | None,
    probe: bool,
    display_name: str | None,
    deadline: float,
) -> Decision:
    seconds = checked_deadline(deadline)
    on = default_host() if host is None else host
    return decide(decl, on, probe=probe, display_name=display_name, deadline=seconds)


def _connected(is_connected: ConnectionCheck | None, server_name: str) -> bool:
    """The host's connection check; None, a false answer and an exception mean not connected."""
    if is_connected is None:
        return False
    try:
        return bool(is_connected())
    except Exception:
        _connection_failed(server_name)
        return False


async def _aconnected(is_connected: ConnectionCheck | None, server_name: str) -> bool:
    """``_connected`` for a check that may be async."""
    if is_connected is None:
        return False
    try:
        answer = is_connected()
        if inspect.isawaitable(answer):
            answer = await answer
        return bool(answer)
    except Exception:
        _connection_failed(server_name)
        return False


def _connection_failed(server_name: str) -> None:
    logger.exception("the connection check of %s failed; it counts as not connected", server_name)
