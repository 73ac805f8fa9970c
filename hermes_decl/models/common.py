"""Vocabulary every model shares: OS families, presence, and how a model reports a problem."""

from __future__ import annotations

import typing
from collections.abc import Iterable
from typing import Literal, NoReturn

from pydantic import GetJsonSchemaHandler, ValidationError
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, ErrorDetails, InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

from hermes_decl._record import FieldwiseRecord
from hermes_decl._text import show

OsFamily = Literal["win32", "darwin", "linux"]
OS_FAMILIES: tuple[OsFamily, ...] = ("win32", "darwin", "linux")
OS_NAMES: dict[OsFamily, str] = {"win32": "Windows", "darwin": "macOS", "linux": "Linux"}

Presence = Literal["executable", "bundle"]
PRESENCES: tuple[Presence, ...] = ("executable", "bundle")
PRESENCE_MEANINGS: tuple[tuple[Presence, str], ...] = (
    ("executable", "The application is a regular file (an executable or a launcher)."),
    ("bundle", "The application is a folder containing Contents/Info.plist (a macOS bundle)."),
)

Loc = tuple[str | int, ...]

BUILTIN_ERROR_TYPES = frozenset(typing.get_args(ErrorType))
"""Pydantic's own error types; any other type is one of our stable codes."""


MEANINGS_KEY = "x-hermes-meanings"
"""Where ``Meanings`` leaves each value's description for ``hermes_decl.schema`` to render."""


class Meanings(FieldwiseRecord):
    """What each accepted value of a choice means: JSON Schema hover text, no effect on validation.

    As ``Annotated`` metadata it leaves the accepted values as an ``enum`` and their meanings
    beside it; ``hermes_decl.schema`` renders them as the per-value descriptions that JSON and
    YAML language servers show in completion and hover.
    """

    values: tuple[tuple[str, str], ...]

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        generated = handler(schema)
        meanings = dict(self.values)
        accepted = generated.pop("enum", None) or [generated.pop("const")]
        generated.update(
            {"type": "string", "enum": accepted, MEANINGS_KEY: [meanings[v] for v in accepted]}
        )
        return generated


HINT_CONTEXT = "hint\x00"
"""Where a problem's hint rides in its error's context: pydantic writes each ``{key}`` of the
context into the message, and no message holds a NUL (found text shows it as ``\x00``)."""


def problem(
    code: str, message: str, found: object = ..., *, hint: str | None = None
) -> PydanticCustomError:
    """One problem with a stable code; the message says the rule, then what was found, then the
    hint, which the error's context also carries alone (``HINT_CONTEXT``)."""
    details = []
    if found is not ...:
        details.append(f"got {show(found)}")
    if hint:
        details.append(hint)
    if details:
        message = f"{message} ({'; '.join(details)})"
    return PydanticCustomError(code, message, {HINT_CONTEXT: hint} if hint else None)


def fail(code: str, message: str, found: object = ..., *, hint: str | None = None) -> NoReturn:
    """Raise one problem at the place being validated."""
    raise problem(code, message, found, hint=hint)


def carried(
    line: ErrorDetails, error_type: str | PydanticCustomError | None = None
) -> InitErrorDetails:
    """A reported error line, ready to be raised again (with ``error_type`` instead, if given).

    Pydantic's own error types keep their type and context; our codes keep their message and
    their hint.
    """
    if error_type is None:
        builtin = line["type"] in BUILTIN_ERROR_TYPES
        error_type = (
            line["type"]
            if builtin
            else PydanticCustomError(line["type"], line["msg"], line.get("ctx"))
        )
    detail = InitErrorDetails(type=error_type, loc=line["loc"], input=line["input"])
    if "ctx" in line and isinstance(error_type, str):
        detail["ctx"] = line["ctx"]
    return detail


def fail_at(title: str, located: Iterable[tuple[Loc, PydanticCustomError, object]]) -> NoReturn:
    """Raise several problems at once, each at a location below the place being validated."""
    raise ValidationError.from_exception_data(
        title,
        [InitErrorDetails(type=error, loc=loc, input=found) for loc, error, found in located],
    )
