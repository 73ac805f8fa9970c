"""``TextEnum``: a ``str`` enum whose ``str()`` is its value, on every supported Python."""

from __future__ import annotations

from enum import Enum


class TextEnum(str, Enum):
    """Members compare equal to their text (``state == "connected"``) and print as it."""

    def __str__(self) -> str:
        return str(self.value)
