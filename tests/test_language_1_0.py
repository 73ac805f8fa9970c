"""A declaration written for language 1.0 parses to the same models under language 1.1.

``tests/data/language-1.0-models.json`` was written by the language-1.0 parser, before the 1.1
keys existed: the text and models of every example and fuzz-corpus declaration file, and the
input and model of every declaration the language-1.0 test suite parsed successfully (without
the randomly generated ones). Each is parsed again here and its model dump compared, once the
language-1.1 fields, which such a declaration cannot write, are checked to hold their absent
values and set aside.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import DeclarationError, parse_app, parse_declaration
from hermes_decl.loader import load_declarations_text
from hermes_decl.models import OS_FAMILIES

RECORDED = json.loads(
    (Path(__file__).parent / "data" / "language-1.0-models.json").read_text(encoding="utf-8")
)
FILES: list[dict[str, Any]] = RECORDED["files"]
CALLS: list[dict[str, Any]] = RECORDED["calls"]

#: The fields language 1.1 added, per level of a model dump, with the value they hold when absent.
APP_BLOCK_ADDED: dict[str, object] = {"display_name": None}
OS_BLOCK_ADDED: dict[str, object] = {"install": None, "min_os_version": None}
REQUIRES_ADDED: dict[str, object] = {"arch": None}


def _set_aside(dump: dict[str, Any], added: dict[str, object]) -> dict[str, Any]:
    kept = dict(dump)
    for key, absent in added.items():
        assert kept.pop(key, absent) == absent, f"{key} is set in a language-1.0 declaration"
    return kept


def _app_as_1_0(app: dict[str, Any] | None) -> dict[str, Any] | None:
    if app is None:
        return None
    kept = _set_aside(app, APP_BLOCK_ADDED)
    for os_family in OS_FAMILIES:
        if kept.get(os_family) is not None:
            kept[os_family] = _set_aside(kept[os_family], OS_BLOCK_ADDED)
    return kept


def as_1_0(dump: dict[str, Any]) -> dict[str, Any]:
    """A declaration's model dump without the language-1.1 fields, which must be absent."""
    kept = dict(dump)
    kept["app"] = _app_as_1_0(kept["app"])
    kept["requires"] = _set_aside(kept["requires"], REQUIRES_ADDED)
    return kept


def test_the_recording_covers_every_example() -> None:
    recorded = {entry["file"] for entry in FILES}
    assert {
        "examples/vendor-studio.yaml",
        "examples/linux-tool.yaml",
        "examples/gpu-renderer.yaml",
    } <= recorded
    assert len(CALLS) > 400


@pytest.mark.parametrize("entry", FILES, ids=[entry["file"] for entry in FILES])
def test_a_language_1_0_file_loads_to_the_same_models(entry: dict[str, Any]) -> None:
    found = load_declarations_text(entry["text"], where=entry["file"], at=entry["at"])
    assert sorted(found) == sorted(entry["models"])
    for name, declaration in found.items():
        assert as_1_0(declaration.model_dump(mode="json")) == entry["models"][name]


REFUSED_SINCE_1_0 = frozenset(
    {
        "bundle_not_app",
        "bad_flatpak_id",
        "bundle_on_linux",
        "bundle_on_windows",
        "control_character",
    }
)
"""The codes of the rules language 1.2 added for mistakes that language 1.0 let through."""


def _refused_since_1_0(entry: dict[str, Any]) -> set[str] | None:
    """The codes a recorded declaration is now refused with, or None when it still parses."""
    try:
        if entry["entry"] == "app":
            parse_app(entry["app"], name=entry["name"], where="p.yaml")
        else:
            parse_declaration(entry["name"], entry["app"], entry["requires"], where="p.yaml")
    except DeclarationError as error:
        return {issue.code for issue in error.issues}
    return None


@pytest.mark.parametrize(
    "entry", CALLS, ids=[f"{index}-{entry['source']}" for index, entry in enumerate(CALLS)]
)
def test_a_language_1_0_declaration_parses_to_the_same_model(entry: dict[str, Any]) -> None:
    refused = _refused_since_1_0(entry)
    if refused is not None:
        # Language 1.2 refuses what never worked: a bundle name without .app, a Flatpak id
        # the install rule refuses, a bundle on Linux, a control character in a path or name.
        assert refused and refused <= REFUSED_SINCE_1_0, refused
        return
    if entry["entry"] == "app":
        block = parse_app(entry["app"], name=entry["name"], where="p.yaml")
        assert block is not None
        assert _app_as_1_0(block.model_dump(mode="json")) == entry["model"]
    else:
        declaration = parse_declaration(
            entry["name"], entry["app"], entry["requires"], where="p.yaml"
        )
        assert as_1_0(declaration.model_dump(mode="json")) == entry["model"]
