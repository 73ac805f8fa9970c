"""Equality, hashing and ``repr`` by fields, written once for the frozen dataclasses of the models.

``@dataclass`` compiles an ``__eq__``, a ``__hash__`` and a ``__repr__`` for each class it
decorates, about 0.3 ms a class; the models' rule objects are a dozen such classes, built on every
first use and compared or printed almost never. Decorated with ``@dataclass(frozen=True,
eq=False, repr=False)`` under this base, they compare, hash and print as the generated methods
would: by class and then field by field, and as ``Name(field=value, ...)``.
"""

from __future__ import annotations

import dataclasses
import reprlib
from typing import Any

__all__ = ["FieldwiseRecord"]


_COMPARED: dict[type, tuple[str, ...] | None] = {}
"""Each record class's compared field names, or None for a class that is no dataclass; worked out
on first use (typing and pydantic hash every rule object they meet while the models are built)."""


def _fields(record: object) -> tuple[dataclasses.Field[Any], ...] | None:
    """The record's dataclass fields; None when its class is no dataclass."""
    return dataclasses.fields(record) if dataclasses.is_dataclass(record) else None


def _compared_names(cls: type) -> tuple[str, ...] | None:
    """The names of the fields of ``cls`` that take part in equality; None for no dataclass."""
    try:
        return _COMPARED[cls]
    except KeyError:
        fields = _fields(cls)
        names = None if fields is None else tuple(f.name for f in fields if f.compare)
        _COMPARED[cls] = names
        return names


class FieldwiseRecord:
    """A base whose dataclass subclasses compare, hash and print by their fields; an instance of
    a subclass that is no dataclass compares and hashes by identity."""

    __slots__ = ()

    def _compared(self) -> tuple[object, ...] | None:
        """The values of the fields that take part in equality, in order; None for no dataclass."""
        names = _compared_names(self.__class__)
        if names is None:
            return None
        return tuple([getattr(self, name) for name in names])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, FieldwiseRecord):
            return NotImplemented
        compared = self._compared()
        return self is other if compared is None else compared == other._compared()

    def __hash__(self) -> int:
        compared = self._compared()
        return object.__hash__(self) if compared is None else hash(compared)

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        fields = _fields(self)
        if fields is None:
            return object.__repr__(self)
        shown = ", ".join(
            f"{field.name}={getattr(self, field.name)!r}" for field in fields if field.repr
        )
        return f"{self.__class__.__qualname__}({shown})"
