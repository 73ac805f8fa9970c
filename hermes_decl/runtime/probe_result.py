"""What a probe of an MCP endpoint found: its outcome, and the result a host shows.

Both probe drivers (``probe`` and ``aprobe``) give these; neither ever holds the token.
"""

from __future__ import annotations

from dataclasses import dataclass

from hermes_decl._text_enum import TextEnum

__all__ = ["ProbeOutcome", "ProbeResult"]


class ProbeOutcome(TextEnum):
    """How an endpoint answered ``initialize`` (a ``str``, so ``outcome == "answering"``)."""

    ANSWERING = "answering"
    """It answered as an MCP server."""
    REFUSED = "refused"
    """Nothing accepted the connection (or it was reset before any answer)."""
    TIMEOUT = "timeout"
    """No complete answer before the deadline."""
    HTTP_ERROR = "http_error"
    """It answered with an HTTP status other than success (a redirect included)."""
    NOT_MCP = "not_mcp"
    """It answered, but not as an MCP server (wrong protocol, malformed, too large, an error)."""
    UNAUTHORIZED = "unauthorized"
    """It refused the token (HTTP 401 or 403)."""
    UNVERIFIED_LISTENER = "unverified_listener"
    """What listens at the endpoint was not proven to be this user's application (the runtime
    file's process or a descendant), so nothing was sent to it, the token least of all."""


@dataclass(frozen=True)
class ProbeResult:
    """What one probe found; never holds the token."""

    outcome: ProbeOutcome
    url: str
    """The endpoint URL probed."""
    http_status: int | None = None
    """The HTTP status of the ``initialize`` answer, when one came."""
    server_name: str | None = None
    """``serverInfo.name`` of an answering server (printable, shortened)."""
    server_version: str | None = None
    """``serverInfo.version`` of an answering server (printable, shortened)."""
    protocol_version: str | None = None
    """The protocol version the server chose."""
    session_ended: bool | None = None
    """Whether a ``DELETE`` ended the session the server opened; None when it opened none."""
    detail: str = ""
    """A sentence fragment on why it is not answering; empty when it is."""

    @property
    def answering(self) -> bool:
        """Whether the endpoint answered ``initialize`` as an MCP server."""
        return self.outcome is ProbeOutcome.ANSWERING

    @property
    def reason(self) -> str:
        """``answering``, ``refused``, ``timeout``, ``http_<code>``, ``not_mcp``,
        ``unauthorized`` or ``unverified_listener``."""
        if self.outcome is ProbeOutcome.HTTP_ERROR and self.http_status is not None:
            return f"http_{self.http_status}"
        return self.outcome.value
