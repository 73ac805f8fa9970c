"""The JSON Schema of a portable plugin manifest's servers (language 1.2), in either dialect.

It is derived from the one-declaration schema, so every rule of ``app`` and ``requires`` is the
same one: each OS block's ``server_json`` liveness also takes ``fields: {url, token, pid}`` (the
portable names of ``url_key``, ``token_key`` and ``pid_key``, one spelling of each key), and a
server takes a ``liveness`` beside ``app`` and ``requires``, which must then suit every OS block
that declares none. The rest of the manifest is the host's: only the servers under
``extensions["com.nousresearch.hermes"].servers`` are described.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from hermes_decl.loader.manifest import HERMES_EXTENSION, PORTABLE_FIELDS
from hermes_decl.models import OS_FAMILIES
from hermes_decl.schema.declaration_schema import (
    DECLARATION_DEF,
    META_SCHEMAS,
    SCHEMA_ID_BASE,
    YAML_NOTE,
    json_schema,
)
from hermes_decl.schema.files import Dialect, manifest_file_name

_OS_NAMES = {"win32": "Win32", "darwin": "Darwin", "linux": "Linux"}
SERVER_DEF = "ManifestServer"
"""The ``$defs`` name of one manifest server's ``{app, requires, liveness}`` object."""
FIELDS_DEF = "PortableFields"
LIVENESS_WITHOUT_APP = "applies to the OS blocks of 'app', and this server has no 'app' block"


def _renamed_refs(node: Any, renames: dict[str, str]) -> Any:
    """``node`` with each ``$ref`` named in ``renames`` pointing at its new definition."""
    if isinstance(node, dict):
        reference = node.get("$ref")
        out = {key: _renamed_refs(value, renames) for key, value in node.items()}
        if isinstance(reference, str) and reference in renames:
            out["$ref"] = renames[reference]
        return out
    if isinstance(node, list):
        return [_renamed_refs(value, renames) for value in node]
    return node


def _fields(key_rule: dict[str, Any]) -> dict[str, Any]:
    rule = {key: value for key, value in key_rule.items() if key not in ("default", "description")}
    names = ", ".join(PORTABLE_FIELDS)
    return {
        "description": f"The portable names of the runtime file's keys ({names}).",
        "type": ["object", "null"],
        "errorMessage": "must be a mapping with 'url', 'token' or 'pid'",
        "properties": {
            name: {**rule, "description": f"The key holding the {name} (as {key})."}
            for name, key in PORTABLE_FIELDS.items()
        },
        "additionalProperties": False,
    }


def _one_spelling() -> list[dict[str, Any]]:
    """A portable field and its plain key are never both written."""
    return [
        {
            "if": {
                "properties": {"fields": {"type": "object", "required": [name]}},
                "required": ["fields"],
            },
            "then": {
                "properties": {
                    key: {"not": {}, "errorMessage": f"names the same key as fields.{name}"}
                }
            },
        }
        for name, key in PORTABLE_FIELDS.items()
    ]


def _server(declaration: dict[str, Any], liveness_of: Mapping[str, Any]) -> dict[str, Any]:
    server = copy.deepcopy(declaration)
    server["description"] = (
        "One server of a plugin manifest: its application declaration (app, requires) and a "
        "liveness for every OS block of app that declares none."
    )
    server["properties"]["liveness"] = {
        "description": "The liveness of every OS block of app that declares none.",
        "type": ["object", "null"],
    }
    rules = server.setdefault("allOf", [])
    for os_family, liveness in liveness_of.items():
        without_own = {
            "type": "object",
            "not": {"properties": {"liveness": {"type": "object"}}, "required": ["liveness"]},
        }
        rules.append(
            {
                "if": {
                    "properties": {
                        "app": {"properties": {os_family: without_own}, "required": [os_family]},
                        "liveness": {"type": "object"},
                    },
                    "required": ["app", "liveness"],
                },
                "then": {"properties": {"liveness": liveness}},
            }
        )
    rules.append(
        {
            "if": {
                "properties": {"liveness": {"type": "object"}, "app": {"type": "null"}},
                "required": ["liveness"],
            },
            "then": {
                "properties": {"liveness": {"type": "null", "errorMessage": LIVENESS_WITHOUT_APP}}
            },
        }
    )
    for rule in rules:
        if rule.get("errorMessage", "").startswith("must be a mapping with"):
            rule["errorMessage"] = "must be a mapping with 'app', 'requires' or 'liveness'"
    return server


@functools.cache
def _document(dialect: Dialect) -> dict[str, Any]:
    single = json_schema(dialect, single=True)
    defs_key = "$defs" if "$defs" in single else "definitions"
    prefix = f"#/{defs_key}/"
    defs: dict[str, Any] = single[defs_key]
    renames: dict[str, str] = {}
    for os_family in OS_FAMILIES:
        name = _OS_NAMES[os_family]
        liveness = copy.deepcopy(defs[f"{name}ServerJsonLiveness"])
        liveness["properties"]["fields"] = {"$ref": prefix + FIELDS_DEF}
        liveness.setdefault("allOf", []).extend(_one_spelling())
        defs[f"Manifest{name}ServerJsonLiveness"] = liveness
        renames[f"{prefix}{name}ServerJsonLiveness"] = f"{prefix}Manifest{name}ServerJsonLiveness"
    defs[FIELDS_DEF] = _fields(defs["LinuxServerJsonLiveness"]["properties"]["url_key"])
    for os_family in OS_FAMILIES:
        name = _OS_NAMES[os_family]
        defs[f"Manifest{name}AppDef"] = _renamed_refs(defs[f"{name}AppDef"], renames)
        renames[f"{prefix}{name}AppDef"] = f"{prefix}Manifest{name}AppDef"
    defs["ManifestAppBlock"] = _renamed_refs(defs["AppBlock"], renames)
    renames[f"{prefix}AppBlock"] = f"{prefix}ManifestAppBlock"
    liveness_of: dict[str, Any] = {
        os_family: defs[f"Manifest{_OS_NAMES[os_family]}AppDef"]["properties"]["liveness"]
        for os_family in OS_FAMILIES
    }
    defs[SERVER_DEF] = _server(_renamed_refs(defs[DECLARATION_DEF], renames), liveness_of)
    nullable_object = {"type": ["object", "null"]}
    servers = {
        **nullable_object,
        "description": "Each configured MCP server name, with its application declaration.",
        "additionalProperties": {"$ref": prefix + SERVER_DEF},
    }
    return {
        "$schema": META_SCHEMAS[dialect],
        "$id": SCHEMA_ID_BASE + manifest_file_name(dialect),
        "description": (
            "A portable plugin manifest (plugin.json or plugin.yaml, schema plugin.v1): the "
            f"servers it declares under extensions.{HERMES_EXTENSION}.servers (hermes_decl, "
            "language 1.2). " + YAML_NOTE
        ),
        "type": "object",
        "properties": {
            "extensions": {
                **nullable_object,
                "properties": {
                    HERMES_EXTENSION: {**nullable_object, "properties": {"servers": servers}}
                },
            }
        },
        defs_key: defs,
    }


def manifest_schema(dialect: Dialect = "2020-12") -> dict[str, Any]:
    """The JSON Schema of a plugin manifest's servers."""
    return copy.deepcopy(_document(dialect))
