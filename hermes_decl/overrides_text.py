"""The user overrides file's text: reading it with line:column errors, and adding one place to it.

The file is YAML (or JSON) read by the project's own loader, then validated by
``models.overrides``: a mapping of server name to OS family to one location or a list, with the
rules of a declaration's ``location``. Finding the file on a machine and applying it is the
resolver's job (``resolver.overrides``); this module only turns text into overrides and back.

Adding a place rewrites only the entry of the server it concerns: every other entry keeps its
text, comments included, byte for byte. The edited entry is written afresh (its own comments
are not kept), and the result is read back and compared with what was meant; when the file's
layout does not allow a line-wise edit (a flow mapping, JSON), the whole file is written afresh
from its data, without comments.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import yaml
from pydantic import ValidationError

from hermes_decl.errors import DeclarationError, Issue, issues_from
from hermes_decl.loader import core_schema, read_document
from hermes_decl.models import OsFamily
from hermes_decl.models.override_locations import ServerOverrides, overrides_from

_AT_KEY = frozenset({"unknown_key", "missing_key"})

HEADER = (
    "# Extra places to look for an application, tried before the declaration's own.\n"
    "# server name -> win32 | darwin | linux -> one location or a list (as 'location').\n"
)
"""The comment a new overrides file starts with."""


def parse_overrides(text: str | bytes, *, where: str) -> dict[str, ServerOverrides]:
    """Read overrides text; every problem raises one ``DeclarationError`` with line:column.

    An empty document (or one of comments only) has no overrides.
    """
    try:
        document = read_document(text, where=where)
    except DeclarationError as error:
        if all(issue.code == "empty_document" for issue in error.issues):
            return {}
        raise
    try:
        return overrides_from(document.data)
    except ValidationError as error:
        issues = issues_from(error, document.data)
    placed = []
    for issue in issues:
        line, column = document.position(issue.path, key=issue.code in _AT_KEY)
        placed.append(replace(issue, line=line, column=column))
    placed.sort(key=lambda issue: (issue.line or 0, issue.column or 0))
    raise DeclarationError(where, placed)


def check_override(server: str, os_family: OsFamily, location: str, *, where: str) -> None:
    """Raise ``DeclarationError`` unless ``location`` is a valid place for ``server`` on the OS."""
    if not server.strip():
        issue = Issue("", "blank", "the server name must not be blank")
        raise DeclarationError(where, [issue])
    try:
        overrides_from({server: {os_family: location}})
    except ValidationError as error:
        raise DeclarationError(where, issues_from(error, {server: {os_family: location}})) from None


def with_override(
    text: str | None, server: str, os_family: OsFamily, location: str, *, where: str
) -> str | None:
    """The overrides text with ``location`` first among ``server``'s places on ``os_family``.

    ``text`` is the current file (None when there is none); it must be valid, or its problems
    are raised as a ``DeclarationError``. Returns None when the place is already listed there.
    """
    check_override(server, os_family, location, where=where)
    current = parse_overrides(text, where=where) if text else {}
    data = _plain(text)
    known = data.get(server)
    entry = dict(known) if isinstance(known, Mapping) else {}
    places = entry.get(os_family)
    listed = list(places) if isinstance(places, list) else [] if places is None else [places]
    if location in listed:
        return None
    entry[os_family] = [location, *listed]
    wanted = {**data, server: entry}
    block = _dump({server: entry})
    edited = _edit_lines(text or "", server, block, server in current)
    if edited is not None and _plain(edited) == wanted:
        return edited
    return HEADER + _dump(wanted)


def _plain(text: str | None) -> dict[str, object]:
    """The file's data as plain values (the text is known to be valid)."""
    if not text:
        return {}
    data = read_document(text).data
    return dict(data) if isinstance(data, Mapping) else {}


def _dump(data: Mapping[str, object]) -> str:
    return core_schema.safe_dump(
        dict(data), default_flow_style=False, sort_keys=False, allow_unicode=True, width=1000
    )


def _edit_lines(text: str, server: str, block: str, present: bool) -> str | None:
    """``text`` with ``server``'s top-level entry replaced by ``block`` (or ``block`` appended).

    None when the entry cannot be told apart line by line.
    """
    if not text.strip():
        return HEADER + block
    lines = text.splitlines(keepends=True)
    if not present:
        ending = "" if text.endswith("\n") else "\n"
        return text + ending + block
    start = _entry_start(lines, server)
    if start is None:
        return None
    end = start + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][:1] in (" ", "\t")):
        end += 1
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # blank lines after the entry stay where they are
    return "".join([*lines[:start], block, *lines[end:]])


def _entry_start(lines: list[str], server: str) -> int | None:
    """The index of the one line at column 1 that starts ``server``'s entry, or None."""
    found = None
    for index, line in enumerate(lines):
        if line[:1] in ("", " ", "\t", "#", "-", "{", "[") or ":" not in line:
            continue
        try:
            loaded = core_schema.safe_load(line)
        except yaml.YAMLError:
            continue
        if isinstance(loaded, dict) and list(loaded) == [server]:
            if found is not None:
                return None
            found = index
    return found
