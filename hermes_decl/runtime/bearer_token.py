"""The runtime file's token, held so that nothing but an explicit ``reveal()`` ever shows it.

A host serialises what the library gives it (``dataclasses.asdict``, ``pickle``, ``json.dumps``
with ``default=str``, an error reporter that captures ``repr`` of frame locals), so the token is
never a plain ``str`` in any field or local of the library's own:

- ``repr`` and ``str`` say it is hidden, and so does any format;
- ``copy.copy`` and ``copy.deepcopy`` (which ``dataclasses.asdict`` applies to every value that
  is not a dataclass, list, tuple or dict) give the same wrapper back, never its text;
- pickling gives a *withheld* token: it unpickles as a token whose ``reveal()`` raises, so a
  ``Status`` sent to another process carries no secret;
- it has no ``__dict__``, so ``vars`` cannot open it;
- ``==`` compares two tokens in constant time, and every token hashes alike.

The wire bytes of the ``Authorization`` header are built from ``reveal()`` only inside the send.
"""

from __future__ import annotations

import hmac
import unicodedata
from typing import Any, NoReturn

__all__ = ["ECHO_WINDOW_CHARS", "BearerToken", "WithheldTokenError"]

ECHO_WINDOW_CHARS = 8
"""A server-chosen string holding this many consecutive characters of the token is hidden whole."""

_HIDDEN = "<hidden>"
_VISIBLE_ASCII = frozenset(chr(code) for code in range(0x21, 0x7F))


class WithheldTokenError(ValueError):
    """``reveal()`` of a token that was withheld when its holder was pickled."""


def _folded(text: str) -> str:
    """``text`` for a caseless, compatibility-blind comparison (NFKC, casefold, NFKC again)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


class BearerToken:
    """A token that only ``reveal()`` gives as text: hidden from repr, str, copies and pickles."""

    __slots__ = ("_caseless", "_value")

    _value: str | None
    _caseless: str

    def __init__(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError("a BearerToken holds a str")
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_caseless", _folded(value))

    @classmethod
    def withheld(cls) -> BearerToken:
        """The token an unpickled holder gets: it cannot be revealed or sent."""
        token = object.__new__(cls)
        object.__setattr__(token, "_value", None)
        object.__setattr__(token, "_caseless", "")
        return token

    def reveal(self) -> str:
        """The token's text: the one way to read it, for the code that sends it."""
        if self._value is None:
            raise WithheldTokenError(
                "the token was withheld when its endpoint was pickled; read the endpoint again"
            )
        return self._value

    @property
    def is_withheld(self) -> bool:
        """Whether this token came out of a pickle, so there is nothing to reveal."""
        return self._value is None

    @property
    def is_header_safe(self) -> bool:
        """Whether the token is non-empty visible ASCII, so it cannot split or end a header."""
        if not self._value:
            return False
        return all(char in _VISIBLE_ASCII for char in self._value)

    def __len__(self) -> int:
        """How many characters the token has (none when withheld): a bound, not its text."""
        return 0 if self._value is None else len(self._value)

    def echoed_in(self, text: str) -> bool:
        """Whether ``text`` holds ``ECHO_WINDOW_CHARS`` consecutive characters of the token
        (all of it, when it is shorter), compared after casefold and NFKC."""
        width = min(ECHO_WINDOW_CHARS, len(self._caseless))
        if not width:
            return False
        seen = _folded(text)
        return any(
            seen[start : start + width] in self._caseless for start in range(len(seen) - width + 1)
        )

    def __repr__(self) -> str:
        return f"BearerToken({_HIDDEN})" if self._value is not None else "BearerToken(<withheld>)"

    def __str__(self) -> str:
        return _HIDDEN

    def __format__(self, spec: str) -> str:
        return format(_HIDDEN, spec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BearerToken):
            return NotImplemented
        if self._value is None or other._value is None:
            return False
        return hmac.compare_digest(self._value.encode(), other._value.encode())

    def __hash__(self) -> int:
        return hash(BearerToken)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError("a BearerToken cannot be changed")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError("a BearerToken cannot be changed")

    def __copy__(self) -> BearerToken:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> BearerToken:
        return self

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return BearerToken.withheld, ()

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, tuple[()]]:
        return self.__reduce__()
