"""The shipped JSON Schema files' names and places: ``hermes_decl.schema.files`` by its old name."""

from hermes_decl.schema.files import (
    DIALECTS,
    PACKAGE_DIRECTORY,
    SCHEMA_FILES,
    Dialect,
    schema_file_name,
    schema_path,
)

__all__ = [
    "DIALECTS",
    "PACKAGE_DIRECTORY",
    "SCHEMA_FILES",
    "Dialect",
    "schema_file_name",
    "schema_path",
]
