"""The JSON Schema files shipped inside the package, found without building anything.

``hermes_decl.schema`` generates them from the models; this module only names and finds them, so
that a host (or ``hermes-decl schema``) reaches a file without importing the models.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Literal

Dialect = Literal["2020-12", "draft-07"]
DIALECTS: tuple[Dialect, ...] = ("2020-12", "draft-07")

SCHEMA_FILES: tuple[tuple[str, Dialect, bool], ...] = (
    ("declarations.schema.json", "2020-12", False),
    ("declarations.draft-07.schema.json", "draft-07", False),
    ("declaration.schema.json", "2020-12", True),
    ("declaration.draft-07.schema.json", "draft-07", True),
)
"""Every schema file: (file name, dialect, one declaration rather than a declarations file)."""

MANIFEST_SCHEMA_FILES: tuple[tuple[str, Dialect], ...] = (
    ("plugin-manifest.schema.json", "2020-12"),
    ("plugin-manifest.draft-07.schema.json", "draft-07"),
)
"""The schema files of a portable plugin manifest's servers: (file name, dialect)."""

PACKAGE_DIRECTORY = "schemas"
"""The folder inside the ``hermes_decl`` package that holds the shipped files."""


def schema_file_name(dialect: Dialect, *, single: bool) -> str:
    """The file name of one schema, which is also the last segment of its ``$id``."""
    for name, file_dialect, file_single in SCHEMA_FILES:
        if (file_dialect, file_single) == (dialect, bool(single)):
            return name
    raise ValueError(f"dialect must be one of {', '.join(DIALECTS)} (got {dialect!r})")


def manifest_file_name(dialect: Dialect) -> str:
    """The file name of a plugin manifest's schema, also the last segment of its ``$id``."""
    for name, file_dialect in MANIFEST_SCHEMA_FILES:
        if file_dialect == dialect:
            return name
    raise ValueError(f"dialect must be one of {', '.join(DIALECTS)} (got {dialect!r})")


def schema_path(
    dialect: Dialect = "2020-12", *, single: bool = False, manifest: bool = False
) -> Path:
    """The installed schema file, for an editor setting or a modeline to point at.

    A declarations file's schema, with ``single`` the schema of one ``{app, requires}``, with
    ``manifest`` the schema of a plugin manifest's servers.
    """
    name = manifest_file_name(dialect) if manifest else schema_file_name(dialect, single=single)
    resource = resources.files("hermes_decl").joinpath(PACKAGE_DIRECTORY).joinpath(name)
    if not isinstance(resource, Path) or not resource.is_file():
        raise FileNotFoundError(
            f"{name} is not a file on disk here (is hermes_decl installed from a zip?); "
            "write one with 'hermes-decl schema'"
        )
    return resource
