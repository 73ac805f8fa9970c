"""The pure-BaseModel floor of hermes_decl's shapes: what plain Pydantic models of that data cost.

``floor_source()`` writes, from hermes_decl's own model classes, one plain frozen ``BaseModel`` per
class: the same fields, aliases, defaults and unions, no validator, no rule (and not the name
each hermes_decl OS block carries beside its fields). The memory benchmark validates the same
declaration with both; the first-use benchmark imports the floor in a fresh process, as the least
any Pydantic models of these shapes cost to build.
"""

from __future__ import annotations

import sys
import types
import typing
from collections.abc import Iterator

from pydantic import BaseModel, RootModel
from pydantic.fields import FieldInfo

from hermes_decl.models import Declaration

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


def _plain(annotation: object) -> str:
    """An annotation as plain Python source, each model class by its floor name."""
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _plain(arguments[0])
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
        "from pydantic import BaseModel, ConfigDict, Field, RootModel",
        "FROZEN = ConfigDict(frozen=True)",
    ]
    for model in _models(Declaration):
        if issubclass(model, RootModel):
            root = _plain(model.model_fields["root"].annotation)
            lines.append(f"class {PREFIX}{model.__name__}(RootModel[{root}]):")
            lines.append("    model_config = FROZEN")
            continue
        lines.append(f"class {PREFIX}{model.__name__}(BaseModel):")
        lines.append("    model_config = FROZEN")
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
