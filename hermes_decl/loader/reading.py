"""Text and files into a ``Document``: decoding, size bounds, JSON first, YAML otherwise."""

from __future__ import annotations

import codecs
import os
from typing import TYPE_CHECKING, Literal

from hermes_decl._regular_file import NotRegularFile, open_regular
from hermes_decl.declaration import DeclarationError, Issue
from hermes_decl.loader.document import (
    MAX_BYTES,
    STRING_WHERE,
    Document,
    _issue,
    _Lines,
)
from hermes_decl.loader.yaml_reader import _read_yaml

if TYPE_CHECKING:
    from hermes_decl.loader.json_reader import _JsonSyntax


def _decode(data: bytes, where: str) -> str:
    encoding = "utf-16" if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        before = data[: error.start].decode(encoding, "replace")
        at = _Lines(before).at(len(before))
        message = f"must be UTF-8 text (got byte {data[error.start]:#04x})"
        raise DeclarationError(where, [_issue((), "bad_encoding", message, at)]) from None


Syntax = Literal["json", "yaml"]
_SYNTAX_BY_SUFFIX: dict[str, Syntax] = {".json": "json", ".yaml": "yaml", ".yml": "yaml"}


def syntax_of(path: str | os.PathLike[str]) -> Syntax | None:
    """The syntax a file's name promises (``.json``, ``.yaml``, ``.yml``); None: read the text."""
    return _SYNTAX_BY_SUFFIX.get(os.path.splitext(os.fspath(path))[1].lower())


def _json_failure(text: str, where: str, failure: _JsonSyntax) -> DeclarationError:
    message = f"is not valid JSON: {failure.message[:1].lower()}{failure.message[1:]}"
    if failure.hint is not None:
        message += f" ({failure.hint})"
    issue = _issue((), "json_syntax", message, _Lines(text).at(failure.offset), hint=failure.hint)
    return DeclarationError(where, [issue])


def _size(text: str | bytes) -> int:
    """The text's size in bytes: a ``str`` counts as UTF-8, as it would be written to a file."""
    if isinstance(text, bytes) or len(text) * 4 <= MAX_BYTES:
        return len(text)  # no character takes more than four bytes
    return len(text.encode("utf-8", "surrogatepass"))


def _read(text: str | bytes, where: str, syntax: Syntax | None = None) -> Document:
    """Read one document: as ``syntax`` says, else JSON when it parses as JSON, else YAML."""
    if _size(text) > MAX_BYTES:
        message = f"is too large to read (more than {MAX_BYTES} bytes)"
        raise DeclarationError(where, [_issue((), "too_large", message, None)])
    if isinstance(text, bytes):
        text = _decode(text, where)
    if syntax == "yaml":
        return _read_yaml(text, where)
    # Only now: a .yaml file never needs the JSON reader (nor the ``json`` module it uses).
    from hermes_decl.loader.json_reader import JSON_SPACE, _JsonSyntax, _read_json

    unmarked = text.removeprefix("\ufeff")  # PyYAML skips one byte order mark itself
    if syntax == "json":
        try:
            return _read_json(unmarked, where)
        except _JsonSyntax as failure:
            raise _json_failure(unmarked, where, failure) from None
    start = JSON_SPACE.match(unmarked)
    if unmarked[start.end() if start else 0 :][:1] not in ("{", "["):
        return _read_yaml(text, where)
    try:
        return _read_json(unmarked, where)
    except _JsonSyntax as json_failure:
        try:
            return _read_yaml(text, where)
        except DeclarationError as yaml_error:
            # Report the reading that got further: that is where the author's mistake is.
            yaml_issue = yaml_error.issues[0]
            json_at = _Lines(unmarked).at(json_failure.offset)
            yaml_at = (yaml_issue.line or 0, yaml_issue.column or 0)
            if yaml_issue.code != "yaml_syntax" or json_at < yaml_at:
                raise
            raise _json_failure(unmarked, where, json_failure) from None


def _read_file(path: str | os.PathLike[str], where: str | None) -> tuple[bytes, str]:
    """A file's bytes, at most one more than ``MAX_BYTES``; only a regular file is read.

    The file is opened without blocking and the open descriptor is checked, so a FIFO, a
    terminal, a device or a directory named as a declarations file is refused, never waited on.
    """
    label = where if where is not None else os.fspath(path)
    try:
        fd = open_regular(path)
    except NotRegularFile as refused:
        message = f"must be a regular file (got {refused.kind})"
        raise DeclarationError(label, [_issue((), "not_a_regular_file", message, None)]) from None
    except (OSError, ValueError) as error:
        raise DeclarationError(label, [_unreadable(error)]) from None
    chunks: list[bytes] = []
    wanted = MAX_BYTES + 1
    try:
        while wanted > 0:
            chunk = os.read(fd, wanted)
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
    except OSError as error:
        raise DeclarationError(label, [_unreadable(error)]) from None
    finally:
        os.close(fd)
    return b"".join(chunks), label


def _unreadable(error: OSError | ValueError) -> Issue:
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return _issue((), "unreadable_file", f"cannot be read ({reason})", None)


def _checked(document: Document) -> Document:
    if document.issues:
        raise DeclarationError(document.where, document.issues)
    return document


def read_document(text: str | bytes, *, where: str = STRING_WHERE, strict: bool = True) -> Document:
    """Read YAML or JSON text into a ``Document``; problems raise ``DeclarationError``.

    With ``strict=False`` the problems that do not stop reading (duplicate or non-string keys,
    custom tags, unreadable values) are returned in ``Document.issues`` instead.
    """
    document = _read(text, where)
    return _checked(document) if strict else document


def read_document_file(
    path: str | os.PathLike[str], *, where: str | None = None, strict: bool = True
) -> Document:
    """Read a YAML or JSON file into a ``Document``, labelled with ``where`` or the path.

    A ``.json`` file is read as strict JSON and a ``.yaml`` or ``.yml`` file as YAML; any other
    name is judged by its content.
    """
    data, label = _read_file(path, where)
    document = _read(data, label, syntax_of(path))
    return _checked(document) if strict else document
