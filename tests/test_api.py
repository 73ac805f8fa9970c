"""The public surface: ``__all__`` is honest, and the location-kinds table matches the union."""

from __future__ import annotations

import importlib
import typing

import pytest

import hermes_decl
from hermes_decl import models
from hermes_decl.models.app_block import DarwinAppDef, LinuxAppDef, Win32AppDef
from hermes_decl.resolver.app import LOCATION_KINDS
from tests.process_starts import run_started

PUBLIC_MODULES = ["hermes_decl", "hermes_decl.declaration", "hermes_decl.models"]


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_all_names_exist_and_every_public_name_is_listed(module_name: str) -> None:
    module = importlib.import_module(module_name)
    exported = set(module.__all__)
    assert len(exported) == len(module.__all__), "duplicates in __all__"
    missing = {name for name in exported if not hasattr(module, name)}
    assert missing == set()
    defined_here = {
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module_name
    }
    assert defined_here - exported == set()


def test_the_package_re_exports_the_declaration_api() -> None:
    from hermes_decl import declaration

    assert set(declaration.__all__) <= set(hermes_decl.__all__)


def test_spec_entry_points_are_reachable() -> None:
    from hermes_decl import declaration

    for name in (
        "parse_declaration",
        "parse_app",
        "parse_requires",
        "DeclarationError",
        "register",
        "unregister",
        "lookup",
        "clear",
        "subscribe",
    ):
        assert callable(getattr(declaration, name))
    assert issubclass(hermes_decl.DeclarationError, ValueError)


def _union_kinds(annotation: object) -> set[str]:
    """The kinds named by a per-OS location item type, read from its Literal ``kind`` fields."""
    kinds: set[str] = set()
    for arg in typing.get_args(annotation):
        if isinstance(arg, type) and issubclass(arg, models.KindVariant):
            kinds.add(arg.KIND)
        else:
            kinds |= _union_kinds(arg)
    return kinds


def test_location_kinds_table_and_model_union_name_the_same_kinds() -> None:
    table = set(LOCATION_KINDS)
    union = {variant.KIND for variant in models.KIND_LOCATIONS}
    assert table == union == {"command", "uninstall_registry", "app_bundle", "flatpak", "snap"}
    per_os: set[str] = set()
    for app_def in (Win32AppDef, DarwinAppDef, LinuxAppDef):
        kinds = _union_kinds(app_def.model_fields["locations"].annotation) - {"path"}
        expected = {
            kind for kind, entry in LOCATION_KINDS.items() if app_def.os_family in entry.valid_os
        }
        assert kinds == expected, app_def.os_family
        per_os |= kinds
    assert per_os == table


def test_location_kinds_table_rows() -> None:
    rows = {
        kind: (entry.valid_os, entry.key, entry.presence) for kind, entry in LOCATION_KINDS.items()
    }
    assert rows == {
        "command": (("win32", "darwin", "linux"), "name", "executable"),
        "uninstall_registry": (("win32",), "display_name_prefix", "executable"),
        "app_bundle": (("darwin",), "name", "bundle"),
        "flatpak": (("linux",), "app_id", "executable"),
        "snap": (("linux",), "name", "executable"),
    }
    for kind, entry in LOCATION_KINDS.items():
        assert kind == entry.model.KIND and entry.key in entry.model.model_fields


def test_every_location_kind_has_exactly_one_locator() -> None:
    from hermes_decl.resolver import app as resolver_app

    assert set(resolver_app._LOCATORS) == {variant.KIND for variant in models.KIND_LOCATIONS}
    for kind, entry in LOCATION_KINDS.items():
        assert entry.locate is resolver_app._LOCATORS[kind]


FRONT_DOOR = (
    "load_declarations_file",
    "load_declarations_text",
    "availability",
    "status",
    "astatus",
    "make_check_fn",
    "make_status_fn",
    "skill_matches_apps",
    "Availability",
    "Status",
    "DeclarationError",
    "Issue",
)


@pytest.mark.parametrize("name", FRONT_DOOR)
def test_the_front_door_holds_what_a_host_uses(name: str) -> None:
    assert name in hermes_decl.__all__
    value = getattr(hermes_decl, name)
    home = {
        "load_declarations_file": "hermes_decl.loader",
        "load_declarations_text": "hermes_decl.loader",
        "availability": "hermes_decl.resolver.availability",
        "Availability": "hermes_decl.resolver.availability",
        "status": "hermes_decl.resolver.status",
        "astatus": "hermes_decl.resolver.status",
        "Status": "hermes_decl.resolver.status",
        "make_check_fn": "hermes_decl.gates",
        "make_status_fn": "hermes_decl.gates",
        "skill_matches_apps": "hermes_decl.gates",
        "DeclarationError": "hermes_decl.declaration",
        "Issue": "hermes_decl.declaration",
    }[name]
    assert value is getattr(importlib.import_module(home), name)


def test_importing_the_package_loads_no_public_module() -> None:
    import sys

    loaded = run_started(
        [
            sys.executable,
            "-c",
            "import sys, hermes_decl; print(sorted(m for m in sys.modules if m.startswith(("
            "'hermes_decl.', 'pydantic', 'yaml'))))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert loaded == "[]"
