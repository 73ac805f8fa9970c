"""A request the probe sends, whose ``Authorization`` header exists as bytes only in the send.

The probe's conversation yields ``Send`` steps that a driver performs; an error reporter that
captures the locals of those frames (or the ``repr`` of a step) sees an ``OutgoingRequest``: its
head and body, and the token as a ``BearerToken``, hidden. ``wire()`` joins them into the bytes,
and a driver calls it only as the argument of its socket write.
"""

from __future__ import annotations

from dataclasses import dataclass

from hermes_decl.runtime.bearer_token import BearerToken

__all__ = ["OutgoingRequest"]


@dataclass(frozen=True)
class OutgoingRequest:
    """An HTTP/1.1 request: its head without ``Authorization``, the token, and the body."""

    head: bytes
    """The request line and every other header line, each ending in CRLF (no blank line)."""
    token: BearerToken | None
    """The token sent as ``Authorization: Bearer``, the head's last header; None sends none."""
    body: bytes = b""

    def wire(self) -> bytes:
        """The request's bytes, token included: only ever the argument of a socket write."""
        if self.token is None:
            return self.head + b"\r\n" + self.body
        return (
            self.head
            + b"Authorization: Bearer "
            + self.token.reveal().encode("ascii")
            + b"\r\n\r\n"
            + self.body
        )
