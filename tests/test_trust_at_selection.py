"""A mapping selected with ``--at`` that is not one of server names to mappings is the one
``not_declarations`` problem a whole document gets, quoting none of its values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_decl.cli import main
from hermes_decl.cli.inputs import NOT_DECLARATIONS_MESSAGE

SECRET = "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"
VALID = "  servers:\n    vendor:\n      requires: {gpu: nvidia}\n"

SELECTIONS: dict[str, tuple[str, str, str]] = {
    # (document, --at, where the one problem is placed)
    "selected-scalar": (f"tool:\n  servers: {SECRET}\n", "tool.servers", "2:12"),
    "selected-list": (f"tool:\n  servers:\n    - {SECRET}\n", "tool.servers", "3:5"),
    "server-a-scalar": (f"tool:\n  servers:\n    vendor: {SECRET}\n", "tool.servers", "3:13"),
    "server-a-list": (f"tool:\n  servers:\n    vendor: [{SECRET}]\n", "tool.servers", "3:13"),
    "scalar-on-the-way": (f"tool: {SECRET}\n", "tool.servers", "1:7"),
    "list-on-the-way": (f"tool:\n  - {SECRET}\n", "tool.servers", "2:3"),
    "whole-document-a-scalar": (f"{SECRET}\n", "tool.servers", "1:1"),
    "one-level": (f"servers: {SECRET}\n", "servers", "1:10"),
}


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.mark.parametrize(("text", "at", "place"), SELECTIONS.values(), ids=list(SELECTIONS))
def test_a_selection_not_of_servers_is_one_error_without_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, at: str, place: str
) -> None:
    path = tmp_path / "manifest.yaml"
    path.write_text(text, encoding="utf-8")
    assert _run(capsys, "check", "--at", at, str(path)) == (
        1,
        f"{path}:{place}: {NOT_DECLARATIONS_MESSAGE}\n",
    )
    status, output = _run(capsys, "check", "--json", "--at", at, str(path))
    issues = json.loads(output)["files"][0]["issues"]
    line, column = (int(part) for part in place.split(":"))
    assert (status, [(i["code"], i["line"], i["column"], i["loc"]) for i in issues]) == (
        1,
        [("not_declarations", line, column, "")],
    )
    assert SECRET not in output
    status, output = _run(capsys, "explain", "--at", at, str(path))
    assert (status, output) == (3, f"{path}:{place}: {NOT_DECLARATIONS_MESSAGE}\n")


QUOTING_NOTHING: dict[str, tuple[str, str, str]] = {
    # (document, --at, the loader's own problem, which quotes no value of the file)
    "selection-missing": (
        f"other: {SECRET}\n",
        "tool.servers",
        "1:1: tool: is not in the document (selected with at='tool.servers')",
    ),
    "selection-null": (
        "tool:\n  servers:\n",
        "tool.servers",
        "2:11: tool.servers: must be a mapping of server name to {app, requires} (got null)",
    ),
}


@pytest.mark.parametrize(
    ("text", "at", "problem"), QUOTING_NOTHING.values(), ids=list(QUOTING_NOTHING)
)
def test_a_missing_or_null_selection_keeps_its_own_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, at: str, problem: str
) -> None:
    path = tmp_path / "manifest.yaml"
    path.write_text(text, encoding="utf-8")
    assert _run(capsys, "check", "--at", at, str(path)) == (1, f"{path}:{problem}\n")


def test_a_selection_of_servers_is_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "manifest.yaml"
    path.write_text(f"name: {SECRET}\ntool:\n{VALID}", encoding="utf-8")
    assert _run(capsys, "check", "--at", "tool.servers", str(path)) == (0, f"{path}: ok (vendor)\n")
