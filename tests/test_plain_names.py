"""Server names and both ``display_name_prefix`` keys refuse every control, format and separator
character and lone surrogates (``control_character``), as free text does; and ``presence:
bundle`` under ``win32`` is refused like under ``linux``."""

from __future__ import annotations

import pytest

from hermes_decl import DeclarationError, parse_declaration
from hermes_decl.schema import json_schema

HIDDEN = {
    "escape": "\x1b",
    "c1-next-line": "\x85",
    "delete": "\x7f",
    "zero-width-space": "\u200b",
    "right-to-left-override": "\u202e",
    "line-separator": "\u2028",
    "byte-order-mark": "\ufeff",
    "tag-character": "\U000e0041",
    "lone-surrogate": "\ud800",
}
WIN32 = {"presence": "executable", "location": "C:/Program Files/GIMP 2/bin/gimp.exe"}


def _codes(name: str, app: object, requires: object) -> list[tuple[str, str]]:
    with pytest.raises(DeclarationError) as raised:
        parse_declaration(name, app, requires, where="w")
    return [(issue.loc, issue.code) for issue in raised.value.issues]


@pytest.mark.parametrize("character", HIDDEN.values(), ids=list(HIDDEN))
def test_a_server_name_holds_no_hidden_character(character: str) -> None:
    assert _codes(f"gimp{character}", None, {"app": False}) == [("name", "control_character")]


@pytest.mark.parametrize("character", HIDDEN.values(), ids=list(HIDDEN))
def test_a_version_entry_prefix_holds_no_hidden_character(character: str) -> None:
    version = {"kind": "uninstall_registry", "display_name_prefix": f"GIMP{character}"}
    app = {"win32": {**WIN32, "version": version}}
    assert _codes("gimp", app, {"app": True}) == [
        ("app.win32.version.display_name_prefix", "control_character")
    ]


@pytest.mark.parametrize("character", HIDDEN.values(), ids=list(HIDDEN))
def test_a_location_entry_prefix_holds_no_hidden_character(character: str) -> None:
    location = {
        "kind": "uninstall_registry",
        "display_name_prefix": f"GIMP{character}",
        "file": "bin/gimp.exe",
    }
    app = {"win32": {"presence": "executable", "location": location}}
    assert _codes("gimp", app, {"app": True}) == [
        ("app.win32.location.display_name_prefix", "control_character")
    ]


@pytest.mark.parametrize(
    "name", ["gimp", "GIMP 2.10", "гимп", "my.server", " padded ", "..", ".gimp"]
)
def test_plain_names_and_prefixes_still_pass(name: str) -> None:
    version = {"kind": "uninstall_registry", "display_name_prefix": name}
    app = {"win32": {**WIN32, "version": version}}
    declaration = parse_declaration(name, app, {"app": True}, where="w")
    assert declaration.name == name
    windows = declaration.app_for("win32")
    assert windows is not None
    assert windows.version_display_name_prefix == name


@pytest.mark.parametrize("prefix", ["GIMP 2", "гимп", ".gimp", " GIMP"])
def test_a_location_entry_prefix_that_is_a_plain_bare_name_passes(prefix: str) -> None:
    location = {"kind": "uninstall_registry", "display_name_prefix": prefix, "file": "gimp.exe"}
    app = {"win32": {"presence": "executable", "location": location}}
    parse_declaration("gimp", app, {"app": True}, where="w")


def test_bundle_under_win32_is_refused_saying_why() -> None:
    with pytest.raises(DeclarationError) as raised:
        parse_declaration("gimp", {"win32": {**WIN32, "presence": "bundle"}}, None, where="w")
    (issue,) = raised.value.issues
    assert (issue.loc, issue.code, issue.message) == (
        "app.win32.presence",
        "bundle_on_windows",
        "must be 'executable' under app.win32: a bundle is a macOS application folder "
        "(Something.app), which Windows does not have (got 'bundle')",
    )


@pytest.mark.parametrize(("presence", "refused"), [("executable", False), ("bundle", True)])
def test_the_schema_refuses_bundle_under_win32_as_the_parser_does(
    presence: str, refused: bool
) -> None:
    from jsonschema import Draft202012Validator

    document = {"gimp": {"app": {"win32": {**WIN32, "presence": presence}}}}
    found = list(Draft202012Validator(json_schema()).iter_errors(document))
    tails = [list(error.schema_path)[-5:] for error in found]
    assert tails == ([["presence", "allOf", 0, "then", "type"]] if refused else [])


def _rules(node: object) -> list[dict[str, object]]:
    if isinstance(node, dict):
        own = [node] if node.get("$comment") == "bundle_on_windows" else []
        return own + [rule for value in node.values() for rule in _rules(value)]
    if isinstance(node, list):
        return [rule for value in node for rule in _rules(value)]
    return []


def test_the_schema_says_the_parser_s_message_for_bundle_under_win32() -> None:
    (rule,) = _rules(json_schema())
    assert rule["if"] == {"const": "bundle"}
    assert rule["then"] == {
        "errorMessage": "must be 'executable' under app.win32: a bundle is a macOS application "
        "folder (Something.app), which Windows does not have",
        "type": ["null"],
    }
