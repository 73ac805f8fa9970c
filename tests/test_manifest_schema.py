"""The plugin manifest's JSON Schema: committed, valid, and agreeing with load_plugin_manifest."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

import hermes_decl.schema
from hermes_decl.declaration import DeclarationError
from hermes_decl.loader import load_plugin_manifest
from hermes_decl.schema import (
    MANIFEST_SCHEMA_FILES,
    Dialect,
    manifest_document,
    manifest_schema,
    schema_path,
    schema_text,
)

ROOT = Path(__file__).resolve().parent.parent
VALIDATORS = {"2020-12": Draft202012Validator, "draft-07": Draft7Validator}
LINUX = {"presence": "executable", "location": "/opt/v/v"}
WIN32 = {"presence": "executable", "location": "C:/v/v.exe"}
RUNTIME = {"kind": "server_json", "path": "~/.v/server.json"}


def servers(**server: Any) -> dict[str, Any]:
    return {"schema": "plugin.v1", "extensions": {"com.nousresearch.hermes": {"servers": server}}}


CASES: dict[str, tuple[dict[str, Any], bool]] = {
    "fields-in-an-os-block": (
        servers(s={"app": {"linux": {**LINUX, "liveness": {**RUNTIME, "fields": {"url": "u"}}}}}),
        True,
    ),
    "shared-liveness": (
        servers(s={"app": {"linux": LINUX, "darwin": LINUX}, "liveness": RUNTIME}),
        True,
    ),
    "shared-liveness-with-fields": (
        servers(s={"app": {"linux": LINUX}, "liveness": {**RUNTIME, "fields": {"token": "t"}}}),
        True,
    ),
    "own-liveness-wins": (
        servers(
            s={
                "app": {"linux": LINUX, "win32": {**WIN32, "liveness": {"kind": "static"}}},
                "liveness": {**RUNTIME, "path": "/run/v.json"},
            }
        ),
        True,
    ),
    "shared-liveness-unfit-for-an-os": (
        servers(s={"app": {"linux": LINUX, "win32": WIN32}, "liveness": {**RUNTIME, "path": "/r"}}),
        False,
    ),
    "both-spellings": (
        servers(
            s={
                "app": {"linux": LINUX},
                "liveness": {**RUNTIME, "fields": {"url": "u"}, "url_key": "x"},
            }
        ),
        False,
    ),
    "unknown-field": (
        servers(s={"app": {"linux": LINUX}, "liveness": {**RUNTIME, "fields": {"tokn": "t"}}}),
        False,
    ),
    "fields-on-static": (
        servers(s={"app": {"linux": {**LINUX, "liveness": {"kind": "static", "fields": {}}}}}),
        False,
    ),
    "liveness-without-app": (servers(s={"liveness": {"kind": "static"}}), False),
    "unknown-server-key": (servers(s={"app": {"linux": LINUX}, "lifeness": RUNTIME}), False),
    "a-rule-of-requires": (servers(s={"requires": {"app": True}}), False),
    "no-servers": ({"schema": "plugin.v1", "name": "x"}, True),
    "null-servers": ({"extensions": {"com.nousresearch.hermes": {"servers": None}}}, True),
}


def parses(instance: dict[str, Any]) -> bool:
    try:
        load_plugin_manifest(json.dumps(instance))
    except DeclarationError:
        return False
    return True


@pytest.mark.parametrize("dialect", list(VALIDATORS))
@pytest.mark.parametrize(("instance", "valid"), list(CASES.values()), ids=list(CASES))
def test_the_schema_and_the_loader_agree(
    dialect: Dialect, instance: dict[str, Any], valid: bool
) -> None:
    assert parses(instance) is valid
    assert VALIDATORS[dialect](manifest_schema(dialect)).is_valid(instance) is valid


@pytest.mark.parametrize(("name", "dialect"), MANIFEST_SCHEMA_FILES)
def test_the_committed_files_are_current_and_valid(name: str, dialect: Dialect) -> None:
    text = schema_text(dialect, manifest=True)
    assert (ROOT / "schema" / name).read_text(encoding="utf-8") == text
    assert schema_path(dialect, manifest=True).read_text(encoding="utf-8") == text
    VALIDATORS[dialect].check_schema(json.loads(text))
    assert json.loads(text)["$id"].endswith("/" + name)


def test_the_package_names_the_manifest_function_whatever_was_imported_first() -> None:
    # A submodule of the same name would replace the lazily imported function once loaded.
    importlib.import_module("hermes_decl.schema.writer")
    assert hermes_decl.schema.manifest_schema is manifest_document.manifest_schema
    assert manifest_schema is manifest_document.manifest_schema
