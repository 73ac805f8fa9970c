"""A document's declarations mapping (or the one ``at`` selects) into parsed declarations."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence

from hermes_decl._text import choices, did_you_mean, show
from hermes_decl.declaration import DeclarationError, Issue, parse_declaration
from hermes_decl.errors import DataPath, dotted
from hermes_decl.loader.collection import paused_collection
from hermes_decl.loader.document import (
    _AT_KEY_CODES,
    _UNREAD_CODES,
    ESCAPE_HINT,
    SERVER_KEYS,
    STRING_WHERE,
    Document,
    Position,
    _in_reading_order,
    _issue,
)
from hermes_decl.loader.reading import _read, _read_file, syntax_of
from hermes_decl.models import Declaration


def _selection(at: str | Sequence[str] | None) -> tuple[str, ...]:
    if at is None or at == "":
        return ()
    return tuple(at.split(".")) if isinstance(at, str) else tuple(at)


def _concerns(issue: Issue, base: tuple[str, ...]) -> bool:
    """Whether a reading problem lies in the selected mapping (or on the way to it)."""
    if issue.path[: len(base)] == base:
        return True
    return issue.code == "duplicate_key" and base[: len(issue.path)] == issue.path


def _select(
    document: Document,
    base: tuple[str, ...],
    issues: list[Issue],
    *,
    absent_is_empty: bool = False,
) -> Mapping[object, object] | None:
    cursor = document.data
    for index, key in enumerate(base):
        if not isinstance(cursor, Mapping):
            path = base[:index]
            message = f"must be a mapping to select {'.'.join(base)!r} (got {show(cursor)})"
            issues.append(_issue(path, "not_a_mapping", message, document.position(path)))
            return None
        if (key not in cursor or cursor[key] is None) and absent_is_empty:
            return None
        if key not in cursor:
            path = base[: index + 1]
            message = f"is not in the document (selected with at={'.'.join(base)!r})"
            issues.append(_issue(path, "selection_missing", message, document.position(path)))
            return None
        cursor = cursor[key]
    if not isinstance(cursor, Mapping):
        message = f"must be a mapping of server name to {{app, requires}} (got {show(cursor)})"
        issues.append(_issue(base, "not_a_mapping", message, document.position(base)))
        return None
    return cursor


def _missing_key_position(document: Document, path: DataPath) -> Position:
    """Where a missing key is reported: at the key when it is written with a null value, else
    at the key naming the mapping that lacks it (where editors report it), else at that mapping."""
    written = document.key_position(path)
    if written is not None:
        return written
    return document.key_position(path[:-1]) or document.position(path[:-1])


def _placed(document: Document, server: DataPath, error: DeclarationError) -> Iterator[Issue]:
    """The parser's issues for one server, located in the document."""
    for issue in error.issues:
        if issue.code == "non_string_key" and (*server, *issue.path) in document.bad_key_paths:
            continue  # already reported while reading, at the key itself
        named = issue.path[:1] == ("name",)
        if named:
            path, at = server, document.position(server, key=True)
        elif issue.code == "missing_key":
            path = (*server, *issue.path)
            at = _missing_key_position(document, path)
        else:
            path = (*server, *issue.path)
            at = document.position(path, key=issue.code in _AT_KEY_CODES)
        placed = Issue(dotted(path), issue.code, issue.message, *at, path=path, hint=issue.hint)
        if issue.code == "control_character" and _escaped_by_mistake(document, path, key=named):
            placed = placed.with_hint(ESCAPE_HINT)
        yield placed


_LETTER_ESCAPES = frozenset("\x00\x07\x08\t\n\x0b\x0c\r\x1b\x85\u2028\u2029")
"""What YAML's one-letter escapes (``\\0 \\a \\b \\t \\n \\v \\f \\r \\e \\N \\L \\P``) make: a
Windows path written in double quotes (``"C:\\tools\\new"``) turns its backslashes into these."""


def _escaped_by_mistake(document: Document, path: DataPath, *, key: bool = False) -> bool:
    """Whether a value (or with ``key``, the key naming it) is a double-quoted scalar holding a
    character a one-letter escape makes."""
    if key:
        named = path[-1] if path else None
        quoted = document.key_double_quoted(path)
        return quoted and isinstance(named, str) and not _LETTER_ESCAPES.isdisjoint(named)
    if not document.double_quoted(path):
        return False
    value: object = document.data
    for step in path:
        if isinstance(value, Mapping):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            return False
    return isinstance(value, str) and not _LETTER_ESCAPES.isdisjoint(value)


ServerParser = Callable[[Document, DataPath, str, Mapping[object, object]], Declaration]
"""Parses one server's body (a mapping) into a declaration, raising ``DeclarationError``."""


def _unknown_keys(
    document: Document, path: DataPath, body: Mapping[object, object], allowed: Sequence[str]
) -> Iterator[Issue]:
    for key in body:
        if isinstance(key, str) and key not in allowed:
            suggestion = did_you_mean(key, allowed)
            hint = f"did you mean {suggestion!r}?" if suggestion else f"expected {choices(allowed)}"
            key_path = (*path, key)
            at = document.position(key_path, key=True)
            yield _issue(key_path, "unknown_key", f"unknown key ({hint})", at, hint=hint)


def _plain_server(
    document: Document, path: DataPath, name: str, body: Mapping[object, object]
) -> Declaration:
    return parse_declaration(name, body.get("app"), body.get("requires"), where=document.where)


def _server(
    document: Document,
    path: DataPath,
    name: str,
    body: object,
    issues: list[Issue],
    *,
    keys: Sequence[str] = SERVER_KEYS,
    parse: ServerParser = _plain_server,
) -> Declaration | None:
    if not isinstance(body, Mapping):
        message = f"must be a mapping with {choices(keys)} (got {show(body)})"
        issues.append(_issue(path, "not_a_mapping", message, document.position(path)))
        return None
    issues.extend(_unknown_keys(document, path, body, keys))
    try:
        return parse(document, path, name, body)
    except DeclarationError as error:
        issues.extend(_placed(document, path, error))
        return None


def declarations_from(
    document: Document, *, at: str | Sequence[str] | None = None
) -> dict[str, Declaration]:
    """Parse every server of a document (or of the mapping selected by ``at``) at once.

    ``at`` is a dotted path (``"tool.servers"``) or a sequence of keys. Every problem of every
    server, and every reading problem inside the selection, is raised as one ``DeclarationError``.
    """
    return servers_in(document, _selection(at))


def servers_in(
    document: Document,
    base: tuple[str, ...],
    *,
    keys: Sequence[str] = SERVER_KEYS,
    parse: ServerParser = _plain_server,
    absent_is_empty: bool = False,
) -> dict[str, Declaration]:
    """Parse each server of the mapping at ``base`` with ``parse``, raising every problem at once.

    With ``absent_is_empty`` a document without that mapping declares no server.
    """
    servers = each_server(document, base, keys=keys, parse=parse, absent_is_empty=absent_is_empty)
    return {name: declaration for name, _, declaration in servers}


def each_server(
    document: Document,
    base: tuple[str, ...],
    *,
    keys: Sequence[str] = SERVER_KEYS,
    parse: ServerParser = _plain_server,
    absent_is_empty: bool = False,
) -> Iterator[tuple[str, DataPath, Declaration]]:
    """Each valid server of the mapping at ``base`` as it is parsed: its name, data path and
    declaration; once every server has been read, every problem is raised at once.

    A caller that needs each declaration only until the next (``check``) need not keep them
    all: a large file's declarations are then never all in memory together.
    """
    reading = [issue for issue in document.issues if _concerns(issue, base)]
    # A value that could not be read was read as null; what follows from that is not news.
    unread = {issue.path for issue in reading if issue.code in _UNREAD_CODES}
    parsing: list[Issue] = []
    servers = _select(document, base, parsing, absent_is_empty=absent_is_empty)
    for name, body in (servers or {}).items():
        if isinstance(name, str):  # any other key was reported while reading
            path = (*base, name)
            declaration = _server(document, path, name, body, parsing, keys=keys, parse=parse)
            if declaration is not None:
                yield name, path, declaration
    issues = reading + [issue for issue in parsing if issue.path not in unread]
    if issues:
        raise DeclarationError(document.where, _in_reading_order(issues))


def load_declarations_text(
    text: str | bytes, *, where: str = STRING_WHERE, at: str | Sequence[str] | None = None
) -> dict[str, Declaration]:
    """Parse the declarations in YAML or JSON text: server name → ``Declaration``."""
    with paused_collection():
        return declarations_from(_read(text, where), at=at)


def load_declarations_file(
    path: str | os.PathLike[str],
    *,
    where: str | None = None,
    at: str | Sequence[str] | None = None,
) -> dict[str, Declaration]:
    """Parse the declarations in a YAML or JSON file, labelled with ``where`` or the path.

    A ``.json`` file is read as strict JSON, a ``.yaml`` or ``.yml`` file as YAML, and any other
    name by its content.
    """
    with paused_collection():
        data, label = _read_file(path, where)
        return declarations_from(_read(data, label, syntax_of(path)), at=at)


def load_declarations(
    source: str | bytes | os.PathLike[str],
    *,
    where: str | None = None,
    at: str | Sequence[str] | None = None,
) -> dict[str, Declaration]:
    """Parse declarations from a path (any ``os.PathLike``) or from text (``str`` or ``bytes``)."""
    if isinstance(source, (str, bytes)):
        return load_declarations_text(
            source, where=where if where is not None else STRING_WHERE, at=at
        )
    return load_declarations_file(source, where=where, at=at)
