"""Locations, reading order and messages of issues a mutation review found untested (SPEC 4).

``data_path`` is given Pydantic-shaped locations directly, so each rule of which step is a
discriminator tag is pinned on its own; the messages come from real declarations.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from pydantic_core import InitErrorDetails

from hermes_decl.declaration import parse_declaration
from hermes_decl.errors import DeclarationError, Issue, KeyOrders, data_path, dotted, issues_from

PATHS: dict[str, tuple[tuple[Any, ...], object, tuple[Any, ...], tuple[int, ...]]] = {
    "a key named like the kind of a block of several kinds is kept": (
        ("app", "linux", "liveness", "x"),
        {"app": {"linux": {"liveness": {"kind": "x"}}}},
        ("app", "linux", "liveness", "x"),
        (0, 0, 0, 1),
    ),
    "the first two steps are never a tag": (
        ("version", "none", "win32"),
        {"version": {}},
        ("version", "none", "win32"),
        (0, 0, 0),
    ),
    "the third step can be a tag": (
        ("win32", 0, "path"),
        {"win32": ["C:\\a"]},
        ("win32", 0),
        (0, 0),
    ),
    "a version under a key that is no OS has no tag": (
        ("x", "version", "none"),
        {"x": {"version": {}}},
        ("x", "version", "none"),
        (0, 0, 0),
    ),
    "a Linux version has one kind, so no tag": (
        ("app", "linux", "version", "none"),
        {"app": {"linux": {"version": {}}}},
        ("app", "linux", "version", "none"),
        (0, 0, 0, 0),
    ),
    "a Windows version without a kind is tagged none": (
        ("app", "win32", "version", "none", "x"),
        {"app": {"win32": {"version": {"x": 1}}}},
        ("app", "win32", "version", "x"),
        (0, 0, 0, 0),
    ),
    "an item of a list that is no union list has no tag": (
        ("a", "b", 0, "path"),
        {"a": {"b": ["/x"]}},
        ("a", "b", 0, "path"),
        (0, 0, 0, 0),
    ),
    "an item of an OS list of the overrides file is tagged": (
        ("srv", "win32", 0, "path"),
        {"srv": {"win32": ["C:\\a"]}},
        ("srv", "win32", 0),
        (0, 0, 0),
    ),
    "an install hint is tagged by its package manager": (
        ("app", "linux", "install", 0, "snap", "x"),
        {"app": {"linux": {"install": [{"snap": "vendor", "x": 1}]}}},
        ("app", "linux", "install", 0, "x"),
        (0, 0, 0, 0, 1),
    ),
    "an index past the end is kept and reaches nothing": (
        ("a", 1, "b"),
        {"a": [5]},
        ("a", 1, "b"),
        (0, 1, 0),
    ),
    "a key that is no string is written as text": (
        ("a", True),
        {"a": {True: 1}},
        ("a", "True"),
        (0, 0),
    ),
    "a key under a list is first in its place": (
        ("a", "b"),
        {"a": [1]},
        ("a", "b"),
        (0, 0),
    ),
}


@pytest.mark.parametrize(("raw", "data", "path", "place"), PATHS.values(), ids=PATHS.keys())
def test_a_location_becomes_a_data_path_and_a_place(
    raw: tuple[Any, ...], data: object, path: tuple[Any, ...], place: tuple[int, ...]
) -> None:
    assert data_path(raw, data, {}) == (path, place)


def test_the_key_positions_of_a_mapping_are_worked_out_once_per_error() -> None:
    inner = {"c": 1, "b": 2}
    data = {"a": inner}
    orders: KeyOrders = {}
    assert data_path(("a", "b"), data, orders) == (("a", "b"), (0, 1))
    assert orders == {id(data): {"a": 0}, id(inner): {"c": 0, "b": 1}}
    # A position already worked out for this error is used as it is.
    assert data_path(("a",), data, {id(data): {"a": 7}}) == (("a",), (7,))


SEPARATORS = {
    "line separator": ("a\u2028b", '["a\\u2028b"]'),
    "paragraph separator": ("a\u2029b", '["a\\u2029b"]'),
    "control character": ("a\x07b", '["a\\u0007b"]'),
}


@pytest.mark.parametrize(("key", "written"), SEPARATORS.values(), ids=SEPARATORS.keys())
def test_a_key_that_could_break_the_line_is_escaped(key: str, written: str) -> None:
    assert dotted(("app", key)) == f"app{written}"


def test_a_declaration_error_is_built_from_its_source_and_issues() -> None:
    error = DeclarationError("f.yaml", ())
    assert error.args == ("f.yaml", ())


def _error(*lines: InitErrorDetails) -> ValidationError:
    return ValidationError.from_exception_data("test", list(lines))


def test_a_pydantic_error_no_rule_names_is_invalid_with_what_was_found() -> None:
    error = _error(InitErrorDetails(type="int_parsing", loc=("a",), input="x"))
    assert issues_from(error, {"a": "x"}) == (Issue("a", "invalid", "is not valid (got 'x')"),)


def test_the_same_issue_twice_is_listed_once() -> None:
    line = InitErrorDetails(type="int_parsing", loc=("a",), input="x")
    assert issues_from(_error(line, line), {"a": "x"}) == (
        Issue("a", "invalid", "is not valid (got 'x')"),
    )


LINUX = {"presence": "executable", "location": "/opt/vendor/vendor"}
WINDOWS = {"presence": "executable", "location": "C:\\Vendor\\vendor.exe"}

MESSAGES: dict[str, tuple[dict[str, Any], object, Issue]] = {
    "a boolean word where a mapping belongs has no boolean fix": (
        {"linux": LINUX},
        "on",
        Issue("requires", "wrong_type", "must be a mapping (got 'on')"),
    ),
    "a number that is no version has no quoting fix": (
        {"linux": LINUX, "display_name": 3},
        {"app": True},
        Issue("app.display_name", "wrong_type", "must be a string (got 3)"),
    ),
    "an OS version written as a number is told to be quoted": (
        {"win32": {**WINDOWS, "min_os_version": 10.0}},
        {"app": True},
        Issue(
            "app.win32.min_os_version",
            "wrong_type",
            "must be a string (got 10.0; quote it: '10.0', as YAML reads an unquoted 3.10 "
            "as the number 3.1)",
        ),
    ),
}


@pytest.mark.parametrize(("app", "requires", "issue"), MESSAGES.values(), ids=MESSAGES.keys())
def test_a_wrong_type_says_what_was_found_and_the_fix_that_applies(
    app: dict[str, Any], requires: object, issue: Issue
) -> None:
    with pytest.raises(DeclarationError) as refused:
        parse_declaration("srv", app, requires, where="t")
    assert refused.value.issues == (issue,)


def test_a_boolean_word_is_told_its_fix_only_where_a_boolean_belongs() -> None:
    error = _error(InitErrorDetails(type="int_type", loc=("a",), input="yes"))
    assert issues_from(error, {"a": "yes"}) == (
        Issue("a", "wrong_type", "must be a whole number (got 'yes')"),
    )
