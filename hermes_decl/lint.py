"""Warnings: valid declarations that will probably not do what their author meant.

A warning never changes what the parser returns: ``parse_declaration`` and the loaders accept a
declaration that only has warnings, and ``hermes-decl check`` asks for each declaration's here as
it loads it, to print them beside the errors (exit status 0 unless ``--strict``). Each warning
is an ``Issue`` whose ``severity`` is ``"warning"``, placed in the document like any other
issue.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from hermes_decl.errors import DataPath, Issue, dotted
from hermes_decl.models.locations import CommandLocation
from hermes_decl.models.version import PeResourceVersion

if TYPE_CHECKING:
    from hermes_decl.loader import Document
    from hermes_decl.models import Declaration

PE_RESOURCE_ON_COMMAND_HINT = "use a path location to the .exe"
PE_RESOURCE_ON_COMMAND = (
    "may find no version to read: a command location can resolve to a .cmd or .bat script, "
    f"which has no version resource ({PE_RESOURCE_ON_COMMAND_HINT})"
)
MIN_VERSION_NOT_ON_LINUX = (
    "is not checked on Linux: Linux has no version source, so app.linux is gated on presence only"
)
MODELINE_MISSING_HINT = "give the schema's https:// URL, or a path from this file's folder"
MODELINE_MISSING = (
    "the yaml-language-server modeline names {target}, which is not a file next to this one, "
    f"so editors check nothing ({MODELINE_MISSING_HINT})"
)

_MODELINE = re.compile(r"^[ \t]*#[ \t]*yaml-language-server:[ \t]*\$schema=(?P<target>\S+)", re.M)
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


def _warning(
    path: DataPath, code: str, message: str, document: Document, hint: str | None = None
) -> Issue:
    line, column = document.position(path)
    return Issue(
        dotted(path), code, message, line, column, path=path, severity="warning", hint=hint
    )


def warnings_of(document: Document, server: DataPath, declaration: Declaration) -> Iterator[Issue]:
    """The warnings of one loaded declaration, whose server is at the data path ``server``."""
    windows = declaration.app_for("win32")
    if (
        windows is not None
        and isinstance(windows.version, PeResourceVersion)
        and any(isinstance(location, CommandLocation) for location in windows.locations)
    ):
        path = (*server, "app", "win32", "version")
        yield _warning(
            path,
            "pe_resource_on_command",
            PE_RESOURCE_ON_COMMAND,
            document,
            PE_RESOURCE_ON_COMMAND_HINT,
        )
    app = declaration.app
    if (
        declaration.requires.min_version is not None
        and app is not None
        and app.linux is not None
        and len(app.os_families) > 1
    ):
        path = (*server, "requires", "min_version")
        yield _warning(path, "min_version_not_on_linux", MIN_VERSION_NOT_ON_LINUX, document)


def modeline_warnings(text: str, file: str | None) -> tuple[Issue, ...]:
    """A warning for a ``$schema`` modeline naming a file that does not exist beside ``file``.

    A URL is not checked (no network is asked); without a file (standard input) nothing is.
    """
    if file is None:
        return ()
    found = _MODELINE.search(text)
    if found is None or _URL.match(found["target"]):
        return ()
    target = found["target"]
    if os.path.isfile(os.path.join(os.path.dirname(file), target)):
        return ()
    line = text.count("\n", 0, found.start("target")) + 1
    column = found.start("target") - (text.rfind("\n", 0, found.start("target")) + 1) + 1
    message = MODELINE_MISSING.format(target=repr(target))
    warning = Issue(
        "",
        "schema_modeline_missing",
        message,
        line,
        column,
        severity="warning",
        hint=MODELINE_MISSING_HINT,
    )
    return (warning,)
