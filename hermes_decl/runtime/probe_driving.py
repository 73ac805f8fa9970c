"""What both probe drivers share outside the protocol: the argument checks and the log record.

The protocol itself (``probe_flow`` and ``http_wire``) never logs or checks a clock; the drivers
``probe`` and ``aprobe`` check their arguments and write one debug record per probe alike, on the
``hermes_decl.runtime.probe`` logger.
"""

from __future__ import annotations

from hermes_decl._logging import get_logger
from hermes_decl.runtime.liveness import Endpoint, endpoint_target, usable_token
from hermes_decl.runtime.probe_flow import UNEXPECTED_DETAIL
from hermes_decl.runtime.probe_result import ProbeOutcome, ProbeResult

__all__ = ["checked_target", "logged", "logger", "unexpected"]

logger = get_logger("hermes_decl.resolver.probe")  # the name hosts configure, kept


def checked_target(endpoint: Endpoint, deadline: float) -> tuple[str, int, str]:
    """The endpoint's loopback host, port and path, once the endpoint and deadline are usable.

    A ``ValueError`` (which never shows the token) says which is not.
    """
    target = endpoint_target(endpoint.url)
    if target is None:
        raise ValueError(
            "the endpoint URL is not plain http to 127.0.0.1, localhost or [::1] "
            "with a numeric port and a plain path"
        )
    if not usable_token(endpoint.token):
        raise ValueError("the endpoint's token is not a string of visible ASCII characters")
    if isinstance(deadline, bool) or not isinstance(deadline, (int, float)) or not deadline > 0:
        raise ValueError(f"the deadline must be a positive number of seconds (got {deadline!r})")
    return target


def logged(result: ProbeResult) -> ProbeResult:
    """``result``, after the one debug record every probe writes."""
    logger.debug(
        "probe %s: %s%s",
        result.url,
        result.reason,
        f" ({result.detail})" if result.detail else "",
    )
    return result


def unexpected(endpoint: Endpoint) -> ProbeResult:
    """The result of a probe that something unforeseen ended before it could say more."""
    return ProbeResult(ProbeOutcome.NOT_MCP, endpoint.url, detail=UNEXPECTED_DETAIL)
