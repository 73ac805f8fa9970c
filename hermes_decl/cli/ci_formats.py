"""``check``'s reports for continuous integration: GitHub workflow annotations and SARIF 2.1.0.

Both are machine output, built from the same ``(file, issue)`` pairs as ``--json``: they are
written exactly (GitHub's own escapes, JSON's), never through the human output's escaping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from hermes_decl.cli.command import end_of

if TYPE_CHECKING:
    from hermes_decl.errors import Issue

Problem = tuple[str, "Issue"]
"""One problem and the label of the file it is in."""

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_NAME = "hermes-decl"
_URI_SAFE = "/:@!$&'()*+,;=-._~"
"""What a URI reference may hold as written; anything else in a file name is percent-encoded."""


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _summary(issue: Issue) -> str:
    """What a problem says without its place: ``location: message`` as the human output has it
    (the message ends with the hint, if any)."""
    return f"{issue.loc}: {issue.message}" if issue.loc else issue.message


def github_annotation(where: str, issue: Issue) -> str:
    """One ``::error`` (or ``::warning``) workflow command for a problem, escaped as GitHub's
    rules say."""
    properties = [f"file={_escape_property(where)}"]
    end_line, end_column = end_of(issue)
    if issue.line is not None and issue.column is not None:
        properties.append(f"line={issue.line}")
        properties.append(f"col={issue.column}")
        if end_line is not None and end_line != issue.line:
            properties.append(f"endLine={end_line}")
        properties.append(f"endColumn={end_column}")
    command = "warning" if issue.severity == "warning" else "error"
    return f"::{command} {','.join(properties)}::{_escape_data(_summary(issue))}"


def _uri(where: str) -> str:
    """A file as given, with ``/`` separators, as a URI reference."""
    return quote(where.replace("\\", "/"), safe=_URI_SAFE)


def _sarif_result(where: str, issue: Issue) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": _uri(where)}}
    end_line, end_column = end_of(issue)
    if issue.line is not None and issue.column is not None:
        location["region"] = {
            "startLine": issue.line,
            "startColumn": issue.column,
            "endLine": end_line,
            "endColumn": end_column,
        }
    result: dict[str, Any] = {
        "ruleId": issue.code,
        "level": "warning" if issue.severity == "warning" else "error",
        "message": {"text": _summary(issue)},
        "locations": [{"physicalLocation": location}],
    }
    if issue.hint is not None:
        result["properties"] = {"hint": issue.hint}
    return result


def sarif_log(problems: Sequence[Problem]) -> dict[str, Any]:
    """A SARIF 2.1.0 log of one run of ``hermes-decl``: one result per problem."""
    from hermes_decl import __version__

    driver = {"name": TOOL_NAME, "version": __version__}
    results = [_sarif_result(where, issue) for where, issue in problems]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }
