"""One verdict for a whole plugin: is the application its servers front here (SPEC 12)?

A catalog shows a plugin before it is installed, and a Plugins tab after: both want one word for
all of a plugin's servers. Each server is judged by its runtime status (with the connection
taken as alive, since presence is about the application, not the host's connection):

==============  =====================================================================
presence        a server's status
==============  =====================================================================
present         ``connected`` or ``endpoint_unavailable`` (it runs, or is installed and
                unobserved)
not_running     ``app_not_running`` or ``no_interactive_session``
missing         any refusal of availability: missing, too old, wrong system, processor,
                GPU or system version
unknown         ``no_requirements``: the server requires no application, so nothing
                says whether one is here
==============  =====================================================================

The plugin's presence is its worst server's, in the order missing < not_running < present <
unknown (the order the upstream host's catalog uses): a plugin is only as present as the least
present application it needs, and a server that cannot be judged adds nothing, so ``unknown``
is left only when no server can be judged (a plugin with no servers included), and is never
read as ``present``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hermes_decl._text_enum import TextEnum
from hermes_decl.hosts.protocol import Host
from hermes_decl.models import Declaration
from hermes_decl.runtime.status import Status, StatusState, status


class Presence(TextEnum):
    """A plugin's (or one server's) presence, worst first."""

    MISSING = "missing"
    NOT_RUNNING = "not_running"
    PRESENT = "present"
    UNKNOWN = "unknown"


_ORDER = tuple(Presence)

_OF_STATE: Mapping[StatusState, Presence] = MappingProxyType(
    {
        StatusState.CONNECTED: Presence.PRESENT,
        StatusState.ENDPOINT_UNAVAILABLE: Presence.PRESENT,
        StatusState.HERMES_NOT_CONNECTED: Presence.PRESENT,
        StatusState.APP_NOT_RUNNING: Presence.NOT_RUNNING,
        StatusState.NO_INTERACTIVE_SESSION: Presence.NOT_RUNNING,
        StatusState.MISSING_APP: Presence.MISSING,
        StatusState.VERSION_TOO_OLD: Presence.MISSING,
        StatusState.UNSUPPORTED_OS: Presence.MISSING,
        StatusState.UNSUPPORTED_GPU: Presence.MISSING,
        StatusState.UNSUPPORTED_ARCH: Presence.MISSING,
        StatusState.UNSUPPORTED_OS_VERSION: Presence.MISSING,
        StatusState.NO_REQUIREMENTS: Presence.UNKNOWN,
    }
)


def _alive() -> bool:
    return True


@dataclass(frozen=True)
class PluginPresence:
    """A plugin's presence, the server that decided it, and every server's status."""

    state: Presence
    servers: Mapping[str, Status]
    """Each server's runtime status, by server name, in the order given."""
    decided_by: str | None
    """The server whose presence is the plugin's; None when no server could be judged."""

    def __bool__(self) -> bool:
        raise TypeError("a PluginPresence has no truth value: read .state")

    def sentence(self) -> str:
        """What a catalog shows: the deciding server's sentence, or why nothing was judged."""
        if self.decided_by is None:
            if not self.servers:
                return "This plugin declares no server, so no application can be checked."
            return "This plugin requires no application, so none can be checked."
        decided = self.servers[self.decided_by]
        if self.state is Presence.PRESENT:
            return f"{decided.app_name} is installed."
        return decided.sentence()


def server_presence(server_status: Status) -> Presence:
    """One server's presence, from its runtime status."""
    return _OF_STATE[server_status.state]


def plugin_presence(
    decls: Mapping[str, Declaration], *, host: Host | None = None
) -> PluginPresence:
    """Fold a plugin's servers (name → declaration) into one presence; the worst server wins."""
    servers = {name: status(decl, host=host, is_connected=_alive) for name, decl in decls.items()}
    state, decided_by = Presence.UNKNOWN, None
    for name, server_status in servers.items():
        presence = server_presence(server_status)
        if _ORDER.index(presence) < _ORDER.index(state):
            state, decided_by = presence, name
    return PluginPresence(state, MappingProxyType(servers), decided_by)
