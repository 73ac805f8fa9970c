"""What both probe drivers share outside the protocol: the argument checks and the log record.

The protocol itself (``probe_flow`` and ``http_wire``) never logs or checks a clock; the drivers
``probe`` and ``aprobe`` check their arguments and write one debug record per probe alike, on the
``hermes_decl.runtime.probe`` logger.
"""

from __future__ import annotations

from hermes_decl._logging import get_logger
from hermes_decl.runtime.bearer_token import BearerToken
from hermes_decl.runtime.liveness import Endpoint, endpoint_target, usable_token
from hermes_decl.runtime.probe_flow import MAX_DEADLINE_S, UNEXPECTED_DETAIL
from hermes_decl.runtime.probe_result import ProbeOutcome, ProbeResult

__all__ = ["checked_deadline", "checked_target", "logged", "logger", "unexpected"]

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
    if isinstance(endpoint.token, BearerToken) and endpoint.token.is_withheld:
        raise ValueError(
            "the endpoint's token was withheld when the endpoint was pickled: "
            "read the endpoint again in this process"
        )
    if not usable_token(endpoint.token):
        raise ValueError("the endpoint's token is not a string of visible ASCII characters")
    checked_deadline(deadline)
    return target


def checked_deadline(deadline: object) -> float:
    """``deadline`` as seconds, when it is a finite number in ``(0, MAX_DEADLINE_S]``.

    Anything else (a bool, NaN, infinity, zero, a negative or a longer time) is a ``ValueError``
    that names the rule and what was found.
    """
    if (
        isinstance(deadline, bool)
        or not isinstance(deadline, (int, float))
        or not 0 < deadline <= MAX_DEADLINE_S
    ):
        raise ValueError(
            "the deadline must be a positive number of seconds, finite and at most "
            f"{MAX_DEADLINE_S:g} (got {_found(deadline)})"
        )
    return float(deadline)


def _found(deadline: object) -> str:
    """What a refused deadline was, short: a number as written, else only its kind."""
    if isinstance(deadline, float) or deadline is None:
        return repr(deadline)
    if isinstance(deadline, int):
        return (
            repr(deadline)
            if deadline.bit_length() <= 64
            else f"an int of {deadline.bit_length()} bits"
        )
    return f"a {type(deadline).__name__}"


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
