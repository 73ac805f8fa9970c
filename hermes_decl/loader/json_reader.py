"""Reading JSON with the ``json`` module's own scanners, keeping each value's position."""

from __future__ import annotations

import json
import re

from hermes_decl.declaration import DeclarationError, Issue
from hermes_decl.errors import DataPath
from hermes_decl.loader.composers import _too_deep
from hermes_decl.loader.document import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    Document,
    Position,
    _duplicate_key,
    _Lines,
    _Spot,
    _Stop,
)

JSON_SPACE = re.compile(r"[ \t\n\r]*")
"""The whitespace JSON allows between tokens."""


def _integer(digits: str) -> int:
    """A JSON integer, at most ``MAX_INT_DIGITS`` digits long."""
    count = len(digits.lstrip("-"))
    if count > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {count:,} digits, more than {MAX_INT_DIGITS:,}")
    return int(digits)


_JSON = json.JSONDecoder(parse_int=_integer)
TRAILING_COMMA = "Trailing comma before '{closing}'"
TRAILING_COMMA_HINT = "remove it: JSON allows no comma after the last item"
JSON_HINTS = {
    "Expecting property name enclosed in double quotes": (
        "JSON keys and strings take double quotes, and JSON has no comments"
    ),
    "Expecting ',' delimiter": "put a ',' between two items of a mapping or a list",
    "Expecting ':' delimiter": "put a ':' between a key and its value",
    "Invalid \\escape": "in JSON '\\' starts an escape: write paths with '/' or '\\\\'",
}
"""The fix for each JSON syntax error an author commonly meets, by the ``json`` module's words."""


class _JsonSyntax(Exception):
    """Text that starts like JSON but is not JSON (it may still be YAML)."""

    def __init__(self, message: str, offset: int, hint: str | None = None) -> None:
        super().__init__(message, offset)
        self.message = message
        self.offset = offset
        self.hint = hint if hint is not None else JSON_HINTS.get(message)


class _JsonReader:
    """Reads JSON as ``json.loads`` does, keeping positions and finding duplicate keys."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _Lines(text)
        self.issues: list[Issue] = []

    def _skip(self, offset: int) -> int:
        match = JSON_SPACE.match(self.text, offset)
        return match.end() if match else offset

    def _after_comma(self, comma: int, closing: str) -> int:
        """Where the next item starts after the comma at ``comma``; a comma right before the
        ``closing`` bracket is reported at the comma itself, where the fix is."""
        offset = self._skip(comma + 1)
        if self.text.startswith(closing, offset):
            raise _JsonSyntax(TRAILING_COMMA.format(closing=closing), comma, TRAILING_COMMA_HINT)
        return offset

    def document(self) -> tuple[object, _Spot]:
        data, spot, end = self.value(self._skip(0), (), 0)
        end = self._skip(end)
        if end != len(self.text):
            raise _JsonSyntax("Extra data", end)
        return data, spot

    def value(self, offset: int, path: DataPath, depth: int) -> tuple[object, _Spot, int]:
        at = self.lines.at(offset)
        if depth > MAX_DEPTH:
            raise _Stop(_too_deep(path, at))
        if self.text.startswith("{", offset):
            return self._object(offset, path, depth, at)
        if self.text.startswith("[", offset):
            return self._array(offset, path, depth, at)
        value, end = self._scalar(offset)
        return value, _Spot(at), end

    def _scalar(self, offset: int) -> tuple[object, int]:
        try:
            value, end = _JSON.raw_decode(self.text, offset)
        except json.JSONDecodeError as error:
            raise _JsonSyntax(error.msg, error.pos) from None
        except ValueError as error:  # e.g. an integer beyond Python's digit limit
            raise _JsonSyntax(str(error), offset) from None
        return value, end

    def _object(
        self, offset: int, path: DataPath, depth: int, at: Position
    ) -> tuple[object, _Spot, int]:
        data: dict[object, object] = {}
        first: dict[str, Position] = {}
        children: dict[object, _Spot] = {}
        keys: dict[object, Position] = {}
        spot = _Spot(at, children=children, keys=keys)
        offset = self._skip(offset + 1)
        if self.text.startswith("}", offset):
            return data, spot, offset + 1
        while True:
            if not self.text.startswith('"', offset):
                raise _JsonSyntax("Expecting property name enclosed in double quotes", offset)
            key_at = self.lines.at(offset)
            key, offset = self._scalar(offset)
            if not isinstance(key, str):  # pragma: no cover - a '"' always starts a string
                raise _JsonSyntax("Expecting property name enclosed in double quotes", offset)
            offset = self._skip(offset)
            if not self.text.startswith(":", offset):
                raise _JsonSyntax("Expecting ':' delimiter", offset)
            value, child, offset = self.value(self._skip(offset + 1), (*path, key), depth + 1)
            if key in first:
                self.issues.append(_duplicate_key((*path, key), first[key], key_at))
            else:
                first[key] = key_at
            data[key] = value
            children[key] = child
            keys[key] = key_at
            offset = self._skip(offset)
            if self.text.startswith(",", offset):
                offset = self._after_comma(offset, "}")
            elif self.text.startswith("}", offset):
                return data, spot, offset + 1
            else:
                raise _JsonSyntax("Expecting ',' delimiter", offset)

    def _array(
        self, offset: int, path: DataPath, depth: int, at: Position
    ) -> tuple[object, _Spot, int]:
        data: list[object] = []
        children: dict[object, _Spot] = {}
        spot = _Spot(at, children=children)
        offset = self._skip(offset + 1)
        if self.text.startswith("]", offset):
            return data, spot, offset + 1
        while True:
            index = len(data)
            value, child, offset = self.value(offset, (*path, index), depth + 1)
            data.append(value)
            children[index] = child
            offset = self._skip(offset)
            if self.text.startswith(",", offset):
                offset = self._after_comma(offset, "]")
            elif self.text.startswith("]", offset):
                return data, spot, offset + 1
            else:
                raise _JsonSyntax("Expecting ',' delimiter", offset)


def _read_json(text: str, where: str) -> Document:
    reader = _JsonReader(text)
    try:
        data, spot = reader.document()
    except _Stop as stop:
        raise DeclarationError(where, [stop.issue]) from None
    return Document(data, where, tuple(reader.issues), spot)
