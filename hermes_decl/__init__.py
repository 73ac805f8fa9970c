"""Typed application declarations for MCP servers that front desktop applications.

The public names load on first use, so ``import hermes_decl`` stays cheap for a host that only
imports it at startup; the models are built when a name that needs them is first read.

The ``hermes_decl`` logger has a ``NullHandler``, as a library's should: what it logs (an invalid
overrides file, a failing connection check) reaches the handlers the host configures, and a host
without any logging configuration gets no stray lines on stderr. Each module that logs adds it
(``hermes_decl._logging``), so that parsing, which logs nothing, does not import ``logging``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hermes_decl.declaration import (
        DeclarationError,
        Issue,
        RegistrationConflict,
        RegistryChange,
        clear,
        lookup,
        owner_of,
        parse_app,
        parse_declaration,
        parse_requires,
        register,
        register_many,
        registered,
        subscribe,
        unregister,
        unregister_owner,
    )
    from hermes_decl.gates import (
        make_astatus_fn,
        make_check_fn,
        make_status_fn,
        skill_matches_apps,
    )
    from hermes_decl.hosts.default import use_host
    from hermes_decl.loader import (
        load_declarations_file,
        load_declarations_text,
        load_plugin_manifest,
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
    from hermes_decl.resolver.availability import Availability, availability
    from hermes_decl.runtime.status import Status, astatus, plugin_presence, status
    from hermes_decl.versions import compare_versions, satisfies, version_key

__version__ = "0.1.0"

_HOMES = {
    **dict.fromkeys(
        (
            "DeclarationError",
            "Issue",
            "RegistryChange",
            "clear",
            "lookup",
            "owner_of",
            "parse_app",
            "parse_declaration",
            "parse_requires",
            "RegistrationConflict",
            "register",
            "register_many",
            "registered",
            "subscribe",
            "unregister",
            "unregister_owner",
        ),
        "hermes_decl.declaration",
    ),
    **dict.fromkeys(
        ("make_astatus_fn", "make_check_fn", "make_status_fn", "skill_matches_apps"),
        "hermes_decl.gates",
    ),
    **dict.fromkeys(
        ("load_declarations_file", "load_declarations_text", "load_plugin_manifest"),
        "hermes_decl.loader",
    ),
    **dict.fromkeys(("Availability", "availability"), "hermes_decl.resolver.availability"),
    "use_host": "hermes_decl.hosts.default",
    **dict.fromkeys(
        ("Status", "astatus", "plugin_presence", "status"), "hermes_decl.runtime.status"
    ),
    **dict.fromkeys(
        (
            "AppBlock",
            "AppDef",
            "Declaration",
            "LivenessSpec",
            "LocationSpec",
            "Requires",
            "VersionSpec",
        ),
        "hermes_decl.models",
    ),
    **dict.fromkeys(("compare_versions", "satisfies", "version_key"), "hermes_decl.versions"),
}


def __getattr__(name: str) -> Any:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hermes_decl' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "AppBlock",
    "AppDef",
    "Availability",
    "Declaration",
    "DeclarationError",
    "Issue",
    "LivenessSpec",
    "LocationSpec",
    "RegistrationConflict",
    "RegistryChange",
    "Requires",
    "Status",
    "VersionSpec",
    "__version__",
    "astatus",
    "availability",
    "clear",
    "compare_versions",
    "load_declarations_file",
    "load_declarations_text",
    "load_plugin_manifest",
    "lookup",
    "make_astatus_fn",
    "make_check_fn",
    "make_status_fn",
    "owner_of",
    "parse_app",
    "parse_declaration",
    "parse_requires",
    "plugin_presence",
    "register",
    "register_many",
    "registered",
    "satisfies",
    "skill_matches_apps",
    "status",
    "subscribe",
    "unregister",
    "unregister_owner",
    "use_host",
    "version_key",
]
