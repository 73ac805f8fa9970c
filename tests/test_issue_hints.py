"""An issue's hint is its fix alone, carried from the code that makes it into ``Issue.hint``,
``--json``, SARIF and the colour of the human line, while the message still ends with it."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from hermes_decl import (
    DeclarationError,
    load_declarations_file,
    load_declarations_text,
    parse_declaration,
)
from hermes_decl.cli.ci_formats import github_annotation, sarif_log
from hermes_decl.cli.output import Output
from hermes_decl.errors import Issue
from hermes_decl.models.common import HINT_CONTEXT, problem

BUNDLE = {"darwin": {"presence": "bundle", "location": {"kind": "app_bundle", "name": "GIMP"}}}


def _issue_of(app: object, requires: object = None) -> Issue:
    with pytest.raises(DeclarationError) as raised:
        parse_declaration("gimp", app, requires or {"app": True}, where="w")
    (issue,) = raised.value.issues
    return issue


def test_a_model_hint_rides_apart_from_the_message() -> None:
    issue = _issue_of(BUNDLE)
    assert (issue.code, issue.hint) == ("bundle_not_app", "write 'GIMP.app'")
    assert (
        issue.message
        == "must be a bundle folder name ending in '.app' (got 'GIMP'; write 'GIMP.app')"
    )


def test_a_builtin_type_s_hint_rides_apart_too() -> None:
    linux = {"linux": {"presence": "executable", "location": "/usr/bin/gimp"}}
    issue = _issue_of(linux, {"app": "yes"})
    assert (issue.code, issue.message, issue.hint) == (
        "wrong_type",
        "must be true or false (got 'yes'; write true)",
        "write true",
    )


def test_an_issue_without_a_fix_has_no_hint() -> None:
    issue = _issue_of({"linux": {"presence": "bundle", "location": "/opt/gimp"}})
    assert (issue.code, issue.hint) == ("bundle_on_linux", None)


def test_the_hint_takes_no_part_in_equality_and_with_hint_adds_one() -> None:
    plain = Issue("a", "c", "is wrong (got 'x')")
    hinted = plain.with_hint("write 'y'")
    assert (hinted.message, hinted.hint) == ("is wrong (got 'x'; write 'y')", "write 'y'")
    assert hinted.with_hint("or 'z'").hint == "write 'y'; or 'z'"
    assert Issue("a", "c", "is wrong").with_hint("fix it").message == "is wrong (fix it)"
    assert Issue("a", "c", "m", hint="h") == Issue("a", "c", "m")


def test_a_found_value_cannot_pose_as_the_hint_s_place_in_the_message() -> None:
    wrong = problem("bad", "is bad", "{" + HINT_CONTEXT + "}", hint="fix it")
    assert wrong.message() == "is bad (got '{hint\\x00}'; fix it)"
    assert problem("bad", "is bad", "{hint}", hint="fix it").message() == (
        "is bad (got '{hint}'; fix it)"
    )


def test_the_escape_hint_of_a_double_quoted_server_name() -> None:
    with pytest.raises(DeclarationError) as raised:
        load_declarations_text('"gimp\\tmcp":\n  requires: {app: false}\n', where="f.yaml")
    (issue,) = raised.value.issues
    assert (issue.loc, issue.code, issue.line, issue.column) == (
        '["gimp\\tmcp"]',
        "control_character",
        1,
        1,
    )
    assert issue.hint == "in double quotes '\\' starts an escape: use single quotes or '/'"


def test_a_single_quoted_server_name_is_told_no_escape_hint() -> None:
    with pytest.raises(DeclarationError) as raised:
        load_declarations_text("'gimp\tmcp':\n  requires: {app: false}\n", where="f.yaml")
    (issue,) = raised.value.issues
    assert (issue.code, issue.hint) == ("control_character", None)


def test_a_yaml_syntax_hint_and_a_json_one(tmp_path: Path) -> None:
    with pytest.raises(DeclarationError) as yaml_error:
        load_declarations_text("s:\n  presence:executable\n  location: /x\n", where="f.yaml")
    assert yaml_error.value.issues[0].hint == (
        "write a space after each key's ':', and quote a value that holds ': '"
    )
    (tmp_path / "f.json").write_text("{'s': {}}", encoding="utf-8")
    with pytest.raises(DeclarationError) as json_error:
        load_declarations_file(tmp_path / "f.json")
    assert json_error.value.issues[0].hint == (
        "JSON keys and strings take double quotes, and JSON has no comments"
    )


def _placed(hint: str | None) -> Issue:
    message = "must be a bundle folder name ending in '.app' (got 'GIMP'" + (
        f"; {hint})" if hint else ")"
    )
    return Issue("s.app.darwin.location.name", "bundle_not_app", message, 5, 42, hint=hint)


def test_sarif_carries_the_hint_as_a_property_and_github_in_its_message() -> None:
    hinted, plain = _placed("write 'GIMP.app'"), _placed(None)
    results = sarif_log([("f.yaml", hinted), ("f.yaml", plain)])["runs"][0]["results"]
    assert [result.get("properties") for result in results] == [
        {"hint": "write 'GIMP.app'"},
        None,
    ]
    assert github_annotation("f.yaml", hinted) == (
        "::error file=f.yaml,line=5,col=42,endColumn=43::s.app.darwin.location.name: must be a "
        "bundle folder name ending in '.app' (got 'GIMP'; write 'GIMP.app')"
    )


def test_colour_marks_exactly_the_hint_the_issue_carries() -> None:
    stream = io.StringIO()
    Output(stream, color=True).issue(_placed("write 'GIMP.app'"), "f.yaml")
    Output(stream, color=True).issue(_placed(None), "f.yaml")
    assert stream.getvalue().splitlines() == [
        "\x1b[1mf.yaml:5:42\x1b[0m: \x1b[36ms.app.darwin.location.name\x1b[0m: must be a bundle "
        "folder name ending in '.app' (got 'GIMP'; \x1b[32mwrite 'GIMP.app'\x1b[0m)",
        "\x1b[1mf.yaml:5:42\x1b[0m: \x1b[36ms.app.darwin.location.name\x1b[0m: must be a bundle "
        "folder name ending in '.app' (got 'GIMP')",
    ]


def test_json_of_a_warning_carries_its_hint(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from hermes_decl.cli import main

    path = tmp_path / "hermes.yaml"
    path.write_text(
        "# yaml-language-server: $schema=missing.json\ns:\n  requires: {app: false}\n", "utf-8"
    )
    assert main(["check", "--json", str(path)]) == 0
    (issue,) = json.loads(capsys.readouterr().out)["files"][0]["issues"]
    assert (issue["code"], issue["severity"], issue["hint"]) == (
        "schema_modeline_missing",
        "warning",
        "give the schema's https:// URL, or a path from this file's folder",
    )
