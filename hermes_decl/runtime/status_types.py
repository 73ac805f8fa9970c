"""What a runtime status says: its state, whether retrying helps, and a Plugins tab's word.

``hermes_decl.runtime.status`` decides a status and re-exports every name here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hermes_decl._text_enum import TextEnum
from hermes_decl.resolver.availability import Availability, AvailabilityState
from hermes_decl.runtime.liveness import Endpoint, NoEndpoint
from hermes_decl.runtime.probe import ProbeResult


class StatusState(TextEnum):
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

    @classmethod
    def for_availability(cls, state: AvailabilityState) -> StatusState:
        """The status state a refused availability verdict stands for: the one of its name."""
        return cls(state.value)


class Retry(TextEnum):
    """Whether trying again can help: after the user acts, or never on this host."""

    AFTER_USER_ACTION = "after_user_action"
    NEVER_HERE = "never_here"


class UiState(TextEnum):
    """The smaller vocabulary of a host's Plugins tab, onto which every status state maps."""

    CONNECTED = "connected"
    APP_NOT_RUNNING = "app_not_running"
    ENDPOINT_UNAVAILABLE = "endpoint_unavailable"
    NO_INTERACTIVE_SESSION = "no_interactive_session"
    VERSION_TOO_OLD = "version_too_old"
    MISSING_APP = "missing_app"
    UNSUPPORTED_GPU = "unsupported_gpu"
    UNKNOWN = "unknown"


UI_STATES: Mapping[StatusState, UiState] = MappingProxyType(
    {
        StatusState.CONNECTED: UiState.CONNECTED,
        StatusState.NO_REQUIREMENTS: UiState.CONNECTED,
        StatusState.HERMES_NOT_CONNECTED: UiState.ENDPOINT_UNAVAILABLE,
        StatusState.APP_NOT_RUNNING: UiState.APP_NOT_RUNNING,
        StatusState.ENDPOINT_UNAVAILABLE: UiState.ENDPOINT_UNAVAILABLE,
        StatusState.NO_INTERACTIVE_SESSION: UiState.NO_INTERACTIVE_SESSION,
        StatusState.MISSING_APP: UiState.MISSING_APP,
        StatusState.VERSION_TOO_OLD: UiState.VERSION_TOO_OLD,
        StatusState.UNSUPPORTED_OS: UiState.MISSING_APP,
        StatusState.UNSUPPORTED_GPU: UiState.UNSUPPORTED_GPU,
        StatusState.UNSUPPORTED_ARCH: UiState.MISSING_APP,
        StatusState.UNSUPPORTED_OS_VERSION: UiState.VERSION_TOO_OLD,
    }
)
"""Each status state's Plugins-tab state (the README's table says why each maps where it does):
usable states read ``connected``; a connection that is down, ``endpoint_unavailable``; an
application that cannot be present on this system or processor, ``missing_app``; a system too
old, ``version_too_old``. ``unknown`` is left for a host's own states (nothing maps to it)."""

_USABLE = frozenset({StatusState.CONNECTED, StatusState.NO_REQUIREMENTS})
_NEVER_HERE = frozenset(
    {
        StatusState.UNSUPPORTED_OS,
        StatusState.UNSUPPORTED_GPU,
        StatusState.UNSUPPORTED_ARCH,
        StatusState.NO_INTERACTIVE_SESSION,
    }
)


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
    def ui_state(self) -> UiState:
        """The state in a Plugins tab's vocabulary (``UI_STATES``)."""
        return UI_STATES[self.state]

    @property
    def usable(self) -> bool:
        """Whether the server can be used now: ``connected`` or ``no_requirements``."""
        return self.state in _USABLE

    def __bool__(self) -> bool:
        raise TypeError("a Status has no truth value: read .usable or .state")

    def sentence(self) -> str:
        """The reason, then the action: what a person reads."""
        return f"{self.reason} {self.user_action}" if self.user_action else self.reason
