"""Frozen records declared by their fields, as dataclasses are, without generating any code.

``@dataclass`` compiles an ``__init__``, and for a frozen class a ``__setattr__`` and a
``__delattr__``, for every class it decorates (about 0.4 ms a class); the models' rule objects
are a dozen such classes, built on every first use and compared or printed almost never. A
``FieldwiseRecord`` subclass declares its fields as a dataclass does, by annotations, each with
an optional default, and shares one ``__init__`` (positional or keyword arguments, then
``__post_init__`` when the class has one), one frozen ``__setattr__``, and equality, hashing and
``repr`` field by field, as the generated methods would. It is no dataclass (``dataclasses``'
functions do not take it), so it serves the models' own rule objects, not public types.
"""

from __future__ import annotations

import inspect
import itertools
import re
import reprlib
import sys
import typing
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from typing_extensions import dataclass_transform
else:

    def dataclass_transform(**_: object) -> Any:
        """Type checkers read a record's ``__init__`` from its fields; nothing to do at run time."""
        return lambda cls: cls


__all__ = ["FieldwiseRecord"]

_CLASS_VARIABLE = re.compile(r"(?:typing\.)?ClassVar(?:\[|$)")
"""A string annotation declaring a class variable: ``ClassVar`` or ``typing.ClassVar``, bare or
subscripted."""

if sys.version_info >= (3, 14):
    import annotationlib

    def _own_annotations(cls: type) -> dict[str, Any]:
        """The class's own annotations (a 3.14 class body keeps them for ``__annotate__``);
        a name not yet defined is kept as a forward reference."""
        return annotationlib.get_annotations(cls, format=annotationlib.Format.FORWARDREF)

else:

    def _own_annotations(cls: type) -> dict[str, Any]:
        """The class's own annotations, not its bases'."""
        return inspect.get_annotations(cls)


def _is_class_variable(annotation: object) -> bool:
    """Whether an annotation, evaluated or written as a string, declares a class variable."""
    if isinstance(annotation, str):
        return _CLASS_VARIABLE.match(annotation) is not None
    return annotation is ClassVar or typing.get_origin(annotation) is ClassVar


@dataclass_transform(frozen_default=True, eq_default=False)
class FieldwiseRecord:
    """A frozen record whose fields are its class's annotated attributes, inherited ones first;
    a field's value in the class body is its default. Records compare equal when they are of one
    class with equal fields, and print as ``Name(field=value, ...)``."""

    __slots__ = ()

    __record_fields__: ClassVar[tuple[str, ...]] = ()
    """The fields, in ``__init__``'s order."""
    __record_defaults__: ClassVar[typing.Mapping[str, object]] = MappingProxyType({})
    """The default of each field that has one."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = list(cls.__record_fields__)
        defaults = dict(cls.__record_defaults__)
        for name, annotation in _own_annotations(cls).items():
            if _is_class_variable(annotation):
                continue
            if name not in names:
                names.append(name)
            if name in vars(cls):
                default = defaults[name] = vars(cls)[name]
                if isinstance(default, (list, dict, set)):
                    problem = (
                        f"field {name!r} has a mutable default, which every record would share"
                    )
                    raise ValueError(f"{cls.__name__}: {problem}")
            else:
                defaults.pop(name, None)
        for earlier, name in itertools.pairwise(names):
            if earlier in defaults and name not in defaults:
                raise TypeError(
                    f"{cls.__name__}: field {name!r} without a default follows one with"
                )
        cls.__record_fields__ = tuple(names)
        cls.__record_defaults__ = MappingProxyType(defaults)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self.__record_fields__
        name_of_class = self.__class__.__qualname__
        if len(args) > len(names):
            raise TypeError(f"{name_of_class}() takes {len(names)} arguments, {len(args)} given")
        values = dict(zip(names, args, strict=False))  # fewer arguments than fields
        for name, value in kwargs.items():
            if name not in names or name in values:
                problem = "two values" if name in values else "an unexpected keyword argument"
                raise TypeError(f"{name_of_class}() got {problem} for {name!r}")
            values[name] = value
        fields = self.__dict__
        defaults = self.__record_defaults__
        for name in names:
            if name in values:
                fields[name] = values[name]
            elif name in defaults:
                fields[name] = defaults[name]
            else:
                raise TypeError(f"{name_of_class}() is missing its argument {name!r}")
        post_init = getattr(self, "__post_init__", None)
        if post_init is not None:
            post_init()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _compared(self) -> tuple[object, ...]:
        """The fields' values, in order."""
        fields = self.__dict__
        return tuple([fields[name] for name in self.__record_fields__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, FieldwiseRecord):
            return NotImplemented
        return self._compared() == other._compared()

    def __hash__(self) -> int:
        return hash(self._compared())

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        fields = self.__dict__
        shown = ", ".join(f"{name}={fields[name]!r}" for name in self.__record_fields__)
        return f"{self.__class__.__qualname__}({shown})"
