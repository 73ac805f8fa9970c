"""Shared helpers for the table-driven rule tests (SPEC 3.1-3.3 and 4).

The tables in ``test_rules_*.py`` are written from SPEC.md; these helpers only run the parser
and reduce a ``DeclarationError`` to what the tables assert: ``(Issue.loc, Issue.code)`` pairs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from hermes_decl.declaration import Declaration, DeclarationError, Issue, parse_declaration

WHERE = "p.yaml"
NAME = "vendor-server"

#: One expected issue: ``(loc, code)``.
Expected = tuple[str, str]

#: The smallest valid location of each OS, used where a case varies something else.
ROOTED: dict[str, str] = {
    "win32": "C:\\Vendor\\vendor.exe",
    "darwin": "/Applications/Vendor.app",
    "linux": "/opt/vendor/bin/vendor",
}

#: The presence each OS block uses by default in these tests.
PRESENCE: dict[str, str] = {"win32": "executable", "darwin": "bundle", "linux": "executable"}


def os_block(os_family: str, location: object = None, **extra: object) -> dict[str, object]:
    """A valid OS block for ``os_family``; ``location`` and other keys can be replaced."""
    block: dict[str, object] = {
        "presence": PRESENCE[os_family],
        "location": ROOTED[os_family] if location is None else location,
    }
    block.update(extra)
    return block


def one_os(os_family: str, location: object = None, **extra: object) -> dict[str, object]:
    """An ``app`` block with a single OS block."""
    return {os_family: os_block(os_family, location, **extra)}


def parse(raw_app: object = None, raw_requires: object = None) -> Declaration:
    """Parse a declaration that the case says is valid."""
    return parse_declaration(NAME, raw_app, raw_requires, where=WHERE)


def error_of(raw_app: object = None, raw_requires: object = None) -> DeclarationError:
    """Parse a declaration that the case says is invalid, and return its error."""
    with pytest.raises(DeclarationError) as caught:
        parse_declaration(NAME, raw_app, raw_requires, where=WHERE)
    error = caught.value
    assert type(error) is DeclarationError
    assert error.where == WHERE
    assert error.issues, "a DeclarationError must carry at least one issue"
    for issue in error.issues:
        assert isinstance(issue, Issue)
        assert issue.message, f"issue without a message: {issue!r}"
    return error


def issues(raw_app: object = None, raw_requires: object = None) -> list[Expected]:
    """The ``(loc, code)`` of every issue, in the order the error reports them."""
    return [(issue.loc, issue.code) for issue in error_of(raw_app, raw_requires).issues]


def only_issue(raw_app: object = None, raw_requires: object = None) -> Issue:
    """The single issue of an invalid declaration."""
    found = error_of(raw_app, raw_requires).issues
    assert len(found) == 1, [(i.loc, i.code) for i in found]
    return found[0]


def rows(table: Mapping[str, tuple[Any, ...]], xfail: Mapping[str, str] | None = None) -> list[Any]:
    """The values of a case table for ``parametrize``; ids come from ``ids=list(table)``.

    A case named in ``xfail`` keeps asserting SPEC behaviour and is marked as a strict xfail
    (the reason says what the implementation does instead).
    """
    xfail = xfail or {}
    unknown = set(xfail) - set(table)
    assert not unknown, f"xfail names unknown cases: {sorted(unknown)}"
    out: list[Any] = []
    for case_id, values in table.items():
        if case_id in xfail:
            mark = pytest.mark.xfail(strict=True, reason=xfail[case_id])
            out.append(pytest.param(*values, marks=mark))
        else:
            out.append(values)
    return out


def rows1(table: Mapping[str, object], xfail: Mapping[str, str] | None = None) -> list[Any]:
    """Like ``rows`` for a table whose cases are single values (one ``parametrize`` name)."""
    xfail = xfail or {}
    unknown = set(xfail) - set(table)
    assert not unknown, f"xfail names unknown cases: {sorted(unknown)}"
    out: list[Any] = []
    for case_id, value in table.items():
        if case_id in xfail:
            mark = pytest.mark.xfail(strict=True, reason=xfail[case_id])
            out.append(pytest.param(value, marks=mark))
        else:
            out.append(value)
    return out
