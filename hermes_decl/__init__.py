"""Typed application declarations for MCP servers that front desktop applications."""

from hermes_decl.declaration import (
    DeclarationError,
    Issue,
    RegistryChange,
    clear,
    lookup,
    parse_app,
    parse_declaration,
    parse_requires,
    register,
    registered,
    subscribe,
    unregister,
)
from hermes_decl.models import (
    AppBlock,
    AppDef,
    Declaration,
    LivenessSpec,
    LocationSpec,
    Requires,
    VersionSpec,
)
from hermes_decl.versions import compare_versions, satisfies, version_key

__version__ = "0.1.0"

__all__ = [
    "AppBlock",
    "AppDef",
    "Declaration",
    "DeclarationError",
    "Issue",
    "LivenessSpec",
    "LocationSpec",
    "RegistryChange",
    "Requires",
    "VersionSpec",
    "__version__",
    "clear",
    "compare_versions",
    "lookup",
    "parse_app",
    "parse_declaration",
    "parse_requires",
    "register",
    "registered",
    "satisfies",
    "subscribe",
    "unregister",
    "version_key",
]
