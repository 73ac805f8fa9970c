"""Reading declaration files: YAML or JSON text → data with positions → declarations (SPEC 10).

The text is read with PyYAML (its C parser when libyaml is present, the pure-Python one
otherwise or past a few dozen ``%TAG`` directives, which libyaml reads in quadratic time, with
the same result) by the YAML 1.2 core schema, as editors read it; text that is
JSON is read with the ``json`` module's own scanners. Reading keeps the 1-based line and column
of every value and every mapping key, so that
each ``DeclarationError`` issue points at the offending value or key in the file. Reading never
raises anything but ``DeclarationError`` and never expands an alias or merge-key bomb: aliases and
merge keys may repeat at most ``MAX_ALIAS_NODES`` node visits (the work, not the values produced),
nesting stops at ``MAX_DEPTH`` levels, a decimal integer at ``MAX_INT_DIGITS`` digits, and text is
bounded by ``MAX_BYTES``. Only a regular file is
read: it is opened without blocking and the open descriptor is checked, so a FIFO, a terminal, a
device or a directory is refused (``not_a_regular_file``) and never waited on.

Issue locations (``loc`` and ``path``) are data paths from the top of the document, so with an
``at`` selection they start with the selected keys (``tool.servers.my-server.app.linux``).
Each issue's ``line``/``column`` is: for ``unknown_key``, the key; for ``missing_key``, the key
when it is written with a null value, else the key naming the mapping that lacks it (where
editors report it), else that mapping (a list item, or the top of the document); for
``duplicate_key``, the
second key; for ``bad_key``, the key; otherwise the offending value (a value given by an alias at
the alias, anything inside it at the anchored text). A lone location read as a list of one has
no index in its path, so it is placed at the location value. A path the document lacks is placed
at its closest existing parent; problems of the whole text at the place reading stopped.
"""

import importlib
from typing import TYPE_CHECKING, Any

from hermes_decl.loader.declarations import (
    declarations_from,
    load_declarations,
    load_declarations_file,
    load_declarations_text,
)
from hermes_decl.loader.document import (
    MAX_ALIAS_NODES,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    SERVER_KEYS,
    STRING_WHERE,
    Document,
    Position,
)
from hermes_decl.loader.reading import read_document, read_document_file

if TYPE_CHECKING:
    from hermes_decl.loader.manifest import (
        HERMES_EXTENSION,
        load_plugin_manifest,
        manifest_declarations,
    )

_MANIFEST_NAMES = frozenset({"HERMES_EXTENSION", "load_plugin_manifest", "manifest_declarations"})
"""The plugin manifest's names, loaded on first use: checking a declarations file needs none."""


def __getattr__(name: str) -> Any:
    """A plugin manifest's name, from ``hermes_decl.loader.manifest`` when first asked for."""
    if name not in _MANIFEST_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module("hermes_decl.loader.manifest"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "HERMES_EXTENSION",
    "MAX_ALIAS_NODES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "SERVER_KEYS",
    "STRING_WHERE",
    "Document",
    "Position",
    "declarations_from",
    "load_declarations",
    "load_declarations_file",
    "load_declarations_text",
    "load_plugin_manifest",
    "manifest_declarations",
    "read_document",
    "read_document_file",
]
