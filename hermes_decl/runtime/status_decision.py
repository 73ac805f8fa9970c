"""The decision a runtime status makes, as a generator both drivers run (sans-I/O).

``decide`` asks for what only a driver can do, the host's connection check and the probe of an
endpoint, by yielding an ``AskConnection`` or a ``ProbeEndpoint`` and receiving the answer; the
sync ``status`` and the async ``astatus`` answer the same questions, so they decide alike.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass

from hermes_decl.hosts.protocol import Host
from hermes_decl.models import AppDef, Declaration
from hermes_decl.models.common import OS_NAMES
from hermes_decl.resolver.availability import Availability, AvailabilityState, availability
from hermes_decl.runtime.liveness import Endpoint, NoEndpoint, NoEndpointCode, read_endpoint
from hermes_decl.runtime.probe import ProbeOutcome, ProbeResult
from hermes_decl.runtime.status_types import Status, StatusState


@dataclass(frozen=True)
class AskConnection:
    """The decision needs the host's own connection check; answer with a ``bool``."""


@dataclass(frozen=True)
class ProbeEndpoint:
    """The decision needs ``endpoint`` probed, its listener proven on ``host``; answer with its
    ``ProbeResult``."""

    endpoint: Endpoint
    host: Host | None = None


Question = AskConnection | ProbeEndpoint
Decision = Generator[Question, "bool | ProbeResult", Status]

ASK_CONNECTION = AskConnection()

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


def decide(
    decl: Declaration, host: Host, *, probe: bool, display_name: str | None, deadline: float
) -> Decision:
    """Decide a server's status on ``host``, asking the driver what only it can answer."""
    verdict = availability(decl, host=host)
    app = display_name or verdict.display_name or decl.name
    if not verdict.offerable:
        return _refused(decl, verdict, app)
    app_def = decl.app_for(verdict.os_family) if verdict.os_family else None
    if verdict.state is not AvailabilityState.AVAILABLE or app_def is None:
        connected = yield ASK_CONNECTION
        return _connection(verdict, app, connected is True, observed=False)
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
        connected = yield ASK_CONNECTION
        return _connection(verdict, app, connected is True, observed=False)
    return (yield from _running(verdict, app_def, app, host, probe, deadline))


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
    probe: bool,
    deadline: float,
) -> Decision:
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
    answer = (yield ProbeEndpoint(found, host)) if probe else None
    if isinstance(answer, ProbeResult) and not answer.answering:
        return Status(
            StatusState.ENDPOINT_UNAVAILABLE,
            verdict,
            app,
            f"{app} is running, but {_why_not_answering(answer, deadline, app)}.",
            restart,
            endpoint=found,
            probe=answer,
        )
    connected = _connection(verdict, app, (yield ASK_CONNECTION) is True, observed=True)
    return Status(
        connected.state,
        verdict,
        app,
        connected.reason,
        connected.user_action,
        endpoint=found,
        probe=answer if isinstance(answer, ProbeResult) else None,
    )


def _why_not_answering(answer: ProbeResult, deadline: float, app: str) -> str:
    """Why an endpoint is not answering, as the end of a sentence."""
    outcome = answer.outcome
    if outcome is ProbeOutcome.UNVERIFIED_LISTENER:
        return f"what listens at its MCP endpoint could not be proven to be {app}"
    if outcome is ProbeOutcome.REFUSED:
        return "nothing accepts connections at its MCP endpoint"
    if outcome is ProbeOutcome.TIMEOUT:
        return f"its MCP endpoint did not answer within {deadline:g} seconds"
    if outcome is ProbeOutcome.HTTP_ERROR:
        return f"its MCP endpoint answered HTTP {answer.http_status}"
    if outcome is ProbeOutcome.UNAUTHORIZED:
        return "its MCP endpoint refused this host's token"
    return "its endpoint did not answer as an MCP server"


def _connection(verdict: Availability, app: str, connected: bool, *, observed: bool) -> Status:
    """The last step: the host's own connection, with what was observed of the application."""
    if connected:
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
