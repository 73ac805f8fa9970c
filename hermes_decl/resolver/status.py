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
                        checked included), or with probe=True the
                        endpoint does not answer MCP initialize
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
The ``installed_not_running`` availability state (reserved vocabulary) reads as
``app_not_running``. The endpoint's token is never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from hermes_decl._logging import get_logger
from hermes_decl.hosts.default import default_host
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import AppDef, Declaration
from hermes_decl.models.common import OS_NAMES
from hermes_decl.resolver.availability import Availability, AvailabilityState, availability
from hermes_decl.resolver.liveness import Endpoint, NoEndpoint, NoEndpointCode, read_endpoint
from hermes_decl.resolver.probe import DEFAULT_DEADLINE_S, ProbeOutcome, ProbeResult
from hermes_decl.resolver.probe import probe as send_initialize

__all__ = ["Retry", "Status", "StatusState", "status"]

logger = get_logger(__name__)


class StatusState(str, Enum):
    """What a runtime status concluded; a ``str`` so that ``state == "connected"`` holds."""

    CONNECTED = "connected"
    NO_REQUIREMENTS = "no_requirements"
    HERMES_NOT_CONNECTED = "hermes_not_connected"
    APP_NOT_RUNNING = "app_not_running"
    ENDPOINT_UNAVAILABLE = "endpoint_unavailable"
    NO_INTERACTIVE_SESSION = "no_interactive_session"
    MISSING_APP = "missing_app"
    VERSION_TOO_OLD = "version_too_old"
    UNSUPPORTED_OS = "unsupported_os"
    UNSUPPORTED_GPU = "unsupported_gpu"
    UNSUPPORTED_ARCH = "unsupported_arch"
    UNSUPPORTED_OS_VERSION = "unsupported_os_version"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def for_availability(cls, state: AvailabilityState) -> StatusState:
        """The status state a refused availability state stands for."""
        if state is AvailabilityState.INSTALLED_NOT_RUNNING:
            return cls.APP_NOT_RUNNING
        return cls(state.value)


class Retry(str, Enum):
    """Whether trying again can help: after the user acts, or never on this host."""

    AFTER_USER_ACTION = "after_user_action"
    NEVER_HERE = "never_here"

    def __str__(self) -> str:
        return self.value


_USABLE = frozenset({StatusState.CONNECTED, StatusState.NO_REQUIREMENTS})
_NEVER_HERE = frozenset(
    {
        StatusState.UNSUPPORTED_OS,
        StatusState.UNSUPPORTED_GPU,
        StatusState.UNSUPPORTED_ARCH,
        StatusState.NO_INTERACTIVE_SESSION,
    }
)
_NOT_RUNNING_CODES = frozenset(
    {
        NoEndpointCode.MISSING_FILE,
        NoEndpointCode.DEAD_PROCESS,
        NoEndpointCode.OTHER_USER,
        NoEndpointCode.STALE_FILE,
    }
)
"""Runtime-file answers that mean no running copy of this user published an endpoint. A process
that could not be checked (``unchecked_process``) is not among them: it may be the application,
running, so the status never tells a person to start it."""


@dataclass(frozen=True)
class Status:
    """Whether a declared server can be used now: one state, the reason and the one action."""

    state: StatusState
    availability: Availability
    """The availability verdict it started from."""
    app_name: str
    """The name sentences use: the display name given, else the declaration's
    ``app.display_name``, else the server name."""
    reason: str
    """What holds, as a sentence."""
    user_action: str | None = None
    """The one thing to do, as an imperative sentence; None when the server is usable."""
    endpoint: Endpoint | None = None
    """The endpoint a live process published (its token hidden), when one was read."""
    runtime: NoEndpoint | None = None
    """Why the runtime file gave no endpoint, when it did not."""
    probe: ProbeResult | None = None
    """How the endpoint answered ``initialize``, when it was probed."""

    @property
    def retry(self) -> Retry | None:
        """``never_here`` when nothing the user does on this host helps, ``after_user_action``
        otherwise; None when the server is usable."""
        if self.state in _USABLE:
            return None
        return Retry.NEVER_HERE if self.state in _NEVER_HERE else Retry.AFTER_USER_ACTION

    @property
    def usable(self) -> bool:
        """Whether the server can be used now: ``connected`` or ``no_requirements``."""
        return self.state in _USABLE

    def __bool__(self) -> bool:
        raise TypeError("a Status has no truth value: read .usable or .state")

    def sentence(self) -> str:
        """The reason, then the action: what a person reads."""
        return f"{self.reason} {self.user_action}" if self.user_action else self.reason


def status(
    decl: Declaration,
    *,
    host: Host | None = None,
    is_connected: Callable[[], object] | None = None,
    probe: bool = False,
    display_name: str | None = None,
    deadline: float = DEFAULT_DEADLINE_S,
) -> Status:
    """The runtime status of a declared server on a host (the live machine by default).

    ``is_connected`` is the host's own check of its MCP connection (None counts as not
    connected; an exception is logged and counts as not connected). With ``probe=True`` a live
    endpoint is sent MCP ``initialize`` under one ``deadline`` in seconds. Never raises because
    of what it finds on the host or the endpoint; the decision order is the module's table.
    """
    if host is None:
        host = default_host()
    verdict = availability(decl, host=host)
    app = display_name or verdict.display_name or decl.name
    if not verdict.offerable:
        return _refused(decl, verdict, app)
    app_def = decl.app_for(verdict.os_family) if verdict.os_family else None
    if verdict.state is not AvailabilityState.AVAILABLE or app_def is None:
        return _connection(verdict, app, is_connected, decl.name, observed=False)
    kind = app_def.liveness_kind
    if kind == "interactive_session" and host.interactive_session() is False:
        return Status(
            StatusState.NO_INTERACTIVE_SESSION,
            verdict,
            app,
            f"{app} needs a logged-in desktop session, and this host runs outside one.",
            f"Use {app} from a desktop session.",
        )
    if kind != "server_json":
        return _connection(verdict, app, is_connected, decl.name, observed=False)
    return _running(verdict, app_def, app, host, is_connected, probe, deadline)


def _refused(decl: Declaration, verdict: Availability, app: str) -> Status:
    """The status of a declaration that availability does not offer."""
    state = StatusState.for_availability(verdict.state)
    reason, action = verdict.sentence_parts(app)
    if state is StatusState.UNSUPPORTED_OS:
        action = f"Use {app} on {_supported_systems(decl)}." if decl.app is not None else None
    if state is StatusState.UNSUPPORTED_ARCH:
        action = f"Use {app} on a machine with an {' or '.join(verdict.arch or ())} processor."
    if state is StatusState.UNSUPPORTED_OS_VERSION and verdict.os_family is not None:
        os_name = OS_NAMES[verdict.os_family]
        action = f"Update {os_name} to {verdict.min_os_version} or newer, then try again."
    if state is StatusState.APP_NOT_RUNNING:
        reason, action = f"{app} is not running.", f"Start {app}, then try again."
    return Status(state, verdict, app, reason, action)


def _supported_systems(decl: Declaration) -> str:
    """The systems a declaration has a block for, in words: ``Windows or macOS``."""
    names = [OS_NAMES[os_family] for os_family in decl.app.os_families] if decl.app else []
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _running(
    verdict: Availability,
    app_def: AppDef,
    app: str,
    host: Host,
    is_connected: Callable[[], object] | None,
    probe: bool,
    deadline: float,
) -> Status:
    """Read the runtime file, check its process, probe when asked, then the connection."""
    found = read_endpoint(app_def, host=host)
    restart = f"Restart {app}, then try again."
    if isinstance(found, NoEndpoint):
        if found.code in _NOT_RUNNING_CODES:
            return Status(
                StatusState.APP_NOT_RUNNING,
                verdict,
                app,
                f"{app} is not running.",
                f"Start {app}, then try again.",
                runtime=found,
            )
        return Status(
            StatusState.ENDPOINT_UNAVAILABLE,
            verdict,
            app,
            f"{app} published no MCP endpoint this host can use.",
            restart,
            runtime=found,
        )
    answer = send_initialize(found, deadline=deadline) if probe else None
    if answer is not None and not answer.answering:
        return Status(
            StatusState.ENDPOINT_UNAVAILABLE,
            verdict,
            app,
            f"{app} is running, but {_why_not_answering(answer, deadline)}.",
            restart,
            endpoint=found,
            probe=answer,
        )
    connected = _connection(verdict, app, is_connected, app_def.app_id, observed=True)
    return Status(
        connected.state,
        verdict,
        app,
        connected.reason,
        connected.user_action,
        endpoint=found,
        probe=answer,
    )


def _why_not_answering(answer: ProbeResult, deadline: float) -> str:
    """Why an endpoint is not answering, as the end of a sentence."""
    outcome = answer.outcome
    if outcome is ProbeOutcome.REFUSED:
        return "nothing accepts connections at its MCP endpoint"
    if outcome is ProbeOutcome.TIMEOUT:
        return f"its MCP endpoint did not answer within {deadline:g} seconds"
    if outcome is ProbeOutcome.HTTP_ERROR:
        return f"its MCP endpoint answered HTTP {answer.http_status}"
    if outcome is ProbeOutcome.UNAUTHORIZED:
        return "its MCP endpoint refused this host's token"
    return "its endpoint did not answer as an MCP server"


def _connection(
    verdict: Availability,
    app: str,
    is_connected: Callable[[], object] | None,
    server_name: str,
    *,
    observed: bool,
) -> Status:
    """The last step: the host's own connection, with what was observed of the application."""
    if _is_connected(is_connected, server_name):
        if verdict.state is AvailabilityState.NO_REQUIREMENTS:
            return Status(
                StatusState.NO_REQUIREMENTS,
                verdict,
                app,
                f"{app} is connected; it needs no application on this machine.",
            )
        return Status(StatusState.CONNECTED, verdict, app, f"{app} is connected.")
    reason = (
        f"{app} is running, but this host is not connected to it."
        if observed
        else f"This host is not connected to {app}."
    )
    return Status(
        StatusState.HERMES_NOT_CONNECTED,
        verdict,
        app,
        reason,
        f"Reconnect {app}, then try again.",
    )


def _is_connected(is_connected: Callable[[], object] | None, server_name: str) -> bool:
    """The host's connection check; None, a false answer and an exception mean not connected."""
    if is_connected is None:
        return False
    try:
        return bool(is_connected())
    except Exception:
        logger.exception(
            "the connection check of %s failed; it counts as not connected", server_name
        )
        return False
