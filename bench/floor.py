"""The pure-BaseModel floor of hermes_decl's shapes: what plain Pydantic models of that data cost.

``floor_source()`` writes, from hermes_decl's own model classes, one plain frozen ``BaseModel`` per
class: the same fields, aliases, defaults and unions (tagged unions tagged alike, so that the
floor picks a member by one lookup as hermes_decl does), no validator, no rule (and not the
name each hermes_decl OS block carries beside its fields). A path location is pydantic's own
``RootModel``, as plain Pydantic writes one; hermes_decl's is a string model of its own, because
importing ``RootModel`` loads pydantic's plugin machinery (``hermes_decl.models.string_model``).
The memory benchmark validates the same declaration with both; the first-use benchmark imports
the floor in a fresh process, as the least any Pydantic models of these shapes cost to build.
"""

from __future__ import annotations

import inspect
import sys
import types
import typing
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, Discriminator, Tag
from pydantic.fields import FieldInfo

from hermes_decl.models import Declaration
from hermes_decl.models.install import HINT_KEYS, key_of

PREFIX = "Floor"


def _models(root: type[BaseModel]) -> list[type[BaseModel]]:
    """Every model class reachable from ``root``'s fields, each after the classes it uses."""
    ordered: list[type[BaseModel]] = []

    def visit(model: type[BaseModel]) -> None:
        if model in ordered:
            return
        for field in model.model_fields.values():
            for used in _classes(field.annotation):
                visit(used)
        ordered.append(model)

    visit(root)
    return ordered


def _classes(annotation: object) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for argument in typing.get_args(annotation):
        yield from _classes(argument)


TAGGERS = """
def kind_tag(default, string):
    def tag(value):
        if isinstance(value, str):
            return string
        if isinstance(value, dict):
            kind = value.get("kind", default)
            return default if kind is None else kind
        return getattr(value, "TAG", None)
    return tag
def key_tag(keys):
    def tag(value):
        if isinstance(value, dict):
            return next((key for key in keys if value.get(key) is not None), None)
        return getattr(value, "TAG", None)
    return tag
"""
"""The floor's discriminator functions: what picks a tagged union's member, and no more."""


def _tagger(discriminator: Callable[[Any], Any]) -> str:
    """Source that makes the floor's twin of one of hermes_decl's discriminator functions."""
    if discriminator is key_of:
        return f"key_tag({HINT_KEYS!r})"
    captured = inspect.getclosurevars(discriminator).nonlocals
    return f"kind_tag({captured['default_kind']!r}, {captured['string_kind']!r})"


def _plain(annotation: object) -> str:
    """An annotation as plain Python source, each model class by its floor name.

    A tagged union stays tagged (``Discriminator`` and each member's ``Tag``, with the same
    function picking the member), so the floor pays for a keyed lookup, not for trying each
    member in turn; every other piece of metadata (the rules) is left out.
    """
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Annotated:
        inner = _plain(arguments[0])
        for metadata in annotation.__metadata__:  # type: ignore[attr-defined]
            if isinstance(metadata, Tag):
                inner = f"typing.Annotated[{inner}, Tag({metadata.tag!r})]"
            elif isinstance(metadata, Discriminator) and callable(metadata.discriminator):
                tagger = _tagger(metadata.discriminator)
                inner = f"typing.Annotated[{inner}, Discriminator({tagger})]"
        return inner
    if origin in (typing.Union, types.UnionType):
        return "typing.Union[" + ", ".join(_plain(argument) for argument in arguments) + "]"
    if origin is typing.Literal:
        return "typing.Literal[" + ", ".join(repr(argument) for argument in arguments) + "]"
    if origin is tuple:
        return f"tuple[{_plain(arguments[0])}, ...]"
    if annotation is type(None):
        return "None"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return PREFIX + annotation.__name__
    if annotation in (str, bool, int):
        return annotation.__name__
    raise TypeError(f"no plain form for {annotation!r}")


def _default(field: FieldInfo) -> str:
    default = field.default
    if isinstance(default, BaseModel):
        return f"{PREFIX}{type(default).__name__}()"
    return repr(default)


def floor_source() -> str:
    """Python source defining ``FloorDeclaration`` and every model class it uses."""
    lines = [
        "import typing",
        "from pydantic import BaseModel, ConfigDict, Discriminator, Field, RootModel, Tag",
        "FROZEN = ConfigDict(frozen=True)",
        TAGGERS,
    ]
    for model in _models(Declaration):
        # The tag a validated member is dumped by, as hermes_decl's ``KIND`` or ``KEY`` says.
        tag = getattr(model, "KIND", None) or getattr(model, "KEY", None)
        tag_line = f"    TAG: typing.ClassVar[str] = {tag!r}" if isinstance(tag, str) else None
        if model.__pydantic_root_model__:  # a string model: pydantic's own RootModel here
            root = _plain(model.model_fields["root"].annotation)
            lines.append(f"class {PREFIX}{model.__name__}(RootModel[{root}]):")
            lines.append("    model_config = FROZEN")
            lines.extend([tag_line] if tag_line else [])
            continue
        lines.append(f"class {PREFIX}{model.__name__}(BaseModel):")
        lines.append("    model_config = FROZEN")
        lines.extend([tag_line] if tag_line else [])
        for name, field in model.model_fields.items():
            options = [] if field.is_required() else [f"default={_default(field)}"]
            if field.alias:
                options.append(f"alias={field.alias!r}")
            value = f" = Field({', '.join(options)})" if options else ""
            lines.append(f"    {name}: {_plain(field.annotation)}{value}")
    return "\n".join(lines) + "\n"


def floor_models() -> types.ModuleType:
    """The floor's classes, defined in this process as the module ``bench_floor``."""
    module = types.ModuleType("bench_floor")
    sys.modules[module.__name__] = module  # where pydantic looks names up
    exec(compile(floor_source(), "<floor>", "exec"), module.__dict__)
    return module
