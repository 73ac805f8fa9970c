"""What ``hermes-decl explain --live`` adds: the runtime status, its process check and endpoint.

The command line holds no MCP connection of its own, so a usable application reads as
``hermes_not_connected`` here; the process check, the endpoint URL and (with ``--probe``) how the
endpoint answered are what it shows. The token is never printed.
"""

from __future__ import annotations

from typing import Any

from hermes_decl.cli.output import Output
from hermes_decl.runtime.status import Status, StatusState

__all__ = ["live_json", "print_live"]


def _runtime_file(result: Status) -> str | None:
    if result.endpoint is not None:
        return result.endpoint.path
    return result.runtime.path if result.runtime is not None else None


def live_json(result: Status) -> dict[str, Any]:
    """The runtime status as JSON data (no token)."""
    answer = result.probe
    return {
        "state": result.state.value,
        "usable": result.usable,
        "retry": result.retry.value if result.retry is not None else None,
        "user_action": result.user_action,
        "sentence": result.sentence(),
        "runtime_file": _runtime_file(result),
        "process": result.endpoint.pid if result.endpoint is not None else None,
        "runtime_problem": (
            {"code": result.runtime.code.value, "reason": result.runtime.reason}
            if result.runtime is not None
            else None
        ),
        "endpoint": result.endpoint.url if result.endpoint is not None else None,
        "probe": (
            {
                "outcome": answer.reason,
                "http_status": answer.http_status,
                "server_name": answer.server_name,
                "server_version": answer.server_version,
                "protocol_version": answer.protocol_version,
                "session_ended": answer.session_ended,
                "detail": answer.detail,
            }
            if answer is not None
            else None
        ),
    }


def print_live(result: Status, out: Output) -> None:
    """The runtime status as the lines ``explain --live`` adds below an explanation."""
    note = (
        " (this command holds no MCP connection)"
        if result.state is StatusState.HERMES_NOT_CONNECTED
        else ""
    )
    out.line(f"  live:     {result.state.value}{note}")
    out.line(f"            {result.sentence()}")
    if result.runtime is not None:
        out.line(f"  runtime:  {result.runtime.code.value}: {result.runtime.reason}")
    endpoint = result.endpoint
    if endpoint is not None:
        out.line(f"  runtime:  {endpoint.path}")
        out.line(f"  process:  {endpoint.pid}, this user's, started before the file was written")
        out.line(f"  endpoint: {endpoint.url}")
    answer = result.probe
    if answer is None:
        return
    if answer.answering:
        version = f" {answer.server_version}" if answer.server_version else ""
        ended = {True: "ended", False: "not ended", None: "none opened"}[answer.session_ended]
        out.line(
            f"  probe:    answering: {answer.server_name}{version}, "
            f"protocol {answer.protocol_version}; session {ended}",
        )
    else:
        out.line(f"  probe:    {answer.reason}: {answer.detail}")
