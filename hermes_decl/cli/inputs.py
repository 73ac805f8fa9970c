"""What ``check`` and ``explain`` read: files, folders, standard input and lists of paths, each
loaded as a declarations file, one ``{app, requires}`` declaration or a plugin manifest."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hermes_decl.errors import DataPath, DeclarationError, Issue
    from hermes_decl.loader import Document
    from hermes_decl.models import Declaration

STDIN = "-"
"""The argument that names standard input, as a file to check or as the list of files."""
STDIN_LABEL = "<stdin>"
STDIN_SERVER = "stdin"
"""The server name of a ``--single`` declaration read from standard input, which has no stem."""
DECLARATIONS_FILES = r"(^|/)(hermes[^/]*|[^/]*declarations?|plugin)\.(ya?ml|json)$"
"""The names of declarations files (and plugin manifests): the pre-commit hook's ``files``, and
what ``check`` reads in a folder."""
SINGLE_DECLARATION_FILES = r"(^|/)plugin-app\.(ya?ml|json)$"
"""The names of files holding one ``{app, requires}``: the ``--single`` hook's ``files``."""
MANIFEST_NAMES = frozenset({"plugin.json", "plugin.yaml", "plugin.yml"})
"""File names read as a plugin manifest (servers under its ``extensions``), unless ``--at``."""
SYMLINK_OUTSIDE_MESSAGE = (
    "is a symbolic link to a file outside its folder, which is not read (it could be any file "
    "of yours, such as a secrets file): commit the file itself, or check it with --follow-symlinks"
)
NOT_DECLARATIONS_MESSAGE = (
    "is not a declarations file: it must be a mapping of server name to {app, requires}, each "
    "server a mapping; none of its values is shown"
)
SINGLE_MESSAGE = (
    "this file holds one declaration {app, requires} without a server name: add a server name "
    "above it, or check it with --single"
)


class StandardInput:
    """Standard input's bytes, read once however many times ``-`` asks for them."""

    def __init__(self, read: Callable[[int], bytes] | None = None) -> None:
        self._read = read
        self._data: bytes | None = None

    def data(self) -> bytes:
        """Standard input's bytes, at most one more than the loader reads."""
        from hermes_decl.loader import MAX_BYTES

        if self._data is None:
            read = self._read if self._read is not None else sys.stdin.buffer.read
            self._data = read(MAX_BYTES + 1)
        return self._data

    def lines(self) -> list[str]:
        """Standard input as lines of text (a list of paths), blank lines left out."""
        text = self.data().decode("utf-8", "surrogateescape")
        return [line for line in text.splitlines() if line.strip()]


def label(source: str) -> str:
    """The name a source is reported by: the path as given, or ``<stdin>`` for ``-``."""
    return STDIN_LABEL if source == STDIN else source


def expand(sources: Sequence[str], pattern: str) -> Iterator[str]:
    """Each source, with a folder replaced by the files in it (recursively) whose relative path
    matches ``pattern``, in sorted order; other sources as given (a missing file is reported)."""
    names = re.compile(pattern)
    for source in sources:
        if source == STDIN or not os.path.isdir(source):
            yield source
            continue
        found = []
        for folder, subfolders, files in os.walk(source):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in files:
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, source).replace(os.sep, "/")
                if names.search(relative):
                    found.append(path)
        yield from sorted(found)


def link_outside_folder(source: str) -> bool:
    """Whether ``source`` is a symbolic link whose target, all links followed, is not inside the
    folder the link is in (a committed link to ``~/.aws/credentials``, say)."""
    if source == STDIN or not os.path.islink(source):
        return False
    folder = os.path.realpath(os.path.dirname(os.path.abspath(source)))
    target = os.path.realpath(source)
    try:
        return os.path.commonpath([folder, target]) != folder
    except ValueError:  # on another drive
        return True


def _read(source: str, stdin: StandardInput) -> Document:
    from hermes_decl.loader import read_document, read_document_file

    if source == STDIN:
        return read_document(stdin.data(), where=STDIN_LABEL, strict=False)
    return read_document_file(source, strict=False)


def _holds_one_declaration(data: object) -> bool:
    """Whether a document's top keys are ``app`` or ``requires`` only: one unnamed declaration."""
    return isinstance(data, Mapping) and bool(data) and set(data) <= {"app", "requires"}


def _first_not_a_server(data: object) -> tuple[str, ...] | None:
    """Where a document stops being a mapping of server names to mappings (or null, for absent):
    ``()`` for the whole document, ``(name,)`` for the first server that is not; else None."""
    if not isinstance(data, Mapping):
        return ()
    for name, value in data.items():
        if value is not None and not isinstance(value, Mapping):
            return (name,) if isinstance(name, str) else ()
    return None


def _not_declarations_at(data: object, base: tuple[str, ...]) -> tuple[str, ...] | None:
    """Where the mapping ``--at`` selects (``base``; ``()`` for the whole document) stops being a
    mapping of server names to mappings: a value on the way that is not a mapping, or where the
    selection goes wrong; None when it is one, or is missing or null (which quote no value)."""
    cursor = data
    for index, key in enumerate(base):
        if cursor is None:
            return None
        if not isinstance(cursor, Mapping):
            return base[:index]
        if key not in cursor:
            return None
        cursor = cursor[key]
    if base and cursor is None:
        return None
    wrong = _first_not_a_server(cursor)
    return None if wrong is None else (*base, *wrong)


def _single(document: Document, name: str) -> dict[str, Declaration]:
    """The one ``{app, requires}`` declaration a document holds, named ``name``."""
    from hermes_decl.errors import DeclarationError
    from hermes_decl.loader.declarations import _server
    from hermes_decl.loader.document import _UNREAD_CODES, _in_reading_order

    reading = list(document.issues)
    # A value that could not be read was read as null; what follows from that is not news.
    unread = {issue.path for issue in reading if issue.code in _UNREAD_CODES}
    parsing: list[Issue] = []
    declaration = _server(document, (), name, document.data, parsing)
    issues = reading + [issue for issue in parsing if issue.path not in unread]
    if issues or declaration is None:
        raise DeclarationError(document.where, _in_reading_order(issues))
    return {name: declaration}


def load(
    source: str,
    *,
    at: str | None,
    single: bool,
    stdin: StandardInput,
    follow_symlinks: bool = True,
) -> tuple[dict[str, Declaration], DeclarationError | None]:
    """The declarations of one source by server name, or none and the source's problems."""
    declarations, error, _ = load_checked(
        source, at=at, single=single, stdin=stdin, lint=False, follow_symlinks=follow_symlinks
    )
    return declarations, error


def load_checked(
    source: str,
    *,
    at: str | None,
    single: bool,
    stdin: StandardInput,
    lint: bool = True,
    follow_symlinks: bool = True,
) -> tuple[dict[str, Declaration], DeclarationError | None, tuple[Issue, ...]]:
    """``load``, and with ``lint`` the source's warnings (``hermes_decl.lint``) beside it: its
    declarations by server name, its problems (or None), and its warnings.

    Without ``follow_symlinks`` a link out of its folder is refused unread. A document that is
    not a mapping of server names to mappings is one problem that quotes none of its values.
    """
    found: dict[str, Declaration] = {}
    error, warnings = load_each(
        source,
        found.__setitem__,
        at=at,
        single=single,
        stdin=stdin,
        lint=lint,
        follow_symlinks=follow_symlinks,
    )
    return ({} if error is not None else found), error, warnings


def load_each(
    source: str,
    each: Callable[[str, Declaration], object],
    *,
    at: str | None,
    single: bool,
    stdin: StandardInput,
    lint: bool = True,
    follow_symlinks: bool = True,
) -> tuple[DeclarationError | None, tuple[Issue, ...]]:
    """``load_checked``, handing each declaration to ``each`` (with its server name) and keeping
    none: a declarations file's are handed on as they are parsed, so a large file's are never
    all in memory together (a manifest's servers and a ``--single`` declaration are parsed
    whole first; they are small).

    Returns the source's problems (or None) and its warnings. ``each`` may have been handed
    some declarations of a source that turns out to have problems: they are then not its
    declarations, as ``load_checked`` returns none.
    """
    from hermes_decl.errors import DeclarationError, Issue
    from hermes_decl.lint import warnings_of

    warnings: list[Issue] = []
    try:
        if not follow_symlinks and link_outside_folder(source):
            issue = Issue("", "symlink_outside_folder", SYMLINK_OUTSIDE_MESSAGE)
            raise DeclarationError(label(source), [issue])
        document = _read(source, stdin)
        for name, path, declaration in _each_declaration(document, source, at=at, single=single):
            if lint:  # kept only if no declaration of the source has a problem
                warnings.extend(warnings_of(document, path, declaration))
            each(name, declaration)
    except DeclarationError as error:
        return error, _modeline_warnings(source) if lint and not _unreadable(error) else ()
    return None, (*_modeline_warnings(source), *warnings) if lint else ()


def _each_declaration(
    document: Document, source: str, *, at: str | None, single: bool
) -> Iterator[tuple[str, DataPath, Declaration]]:
    """Each declaration of a read source, with its server name and where a warning about it is
    placed; a source that is not what its kind must be raises ``DeclarationError``."""
    from hermes_decl.errors import DeclarationError, Issue
    from hermes_decl.loader.declarations import each_server

    if single:
        name = STDIN_SERVER if source == STDIN else Path(source).stem
        for server, declaration in _single(document, name).items():
            yield server, (), declaration
    elif at is None and Path(source).name in MANIFEST_NAMES:
        from hermes_decl.loader.manifest import SERVERS_PATH, manifest_declarations

        for server, declaration in manifest_declarations(document).items():
            yield server, (*SERVERS_PATH, server), declaration
    elif at is None and _holds_one_declaration(document.data):
        line, column = document.position(())
        issue = Issue("", "single_declaration", SINGLE_MESSAGE, line, column)
        raise DeclarationError(document.where, [issue])
    else:
        from hermes_decl.loader.declarations import _selection

        read_whole = document.data is not None and not document.issues
        selected = _selection(at)
        wrong = _not_declarations_at(document.data, selected) if read_whole else None
        if wrong is not None:
            # One problem for the document, placed where it first goes wrong, as editors flag.
            line, column = document.position(wrong)
            issue = Issue("", "not_declarations", NOT_DECLARATIONS_MESSAGE, line, column)
            raise DeclarationError(document.where, [issue])
        yield from each_server(document, selected)


def _unreadable(error: DeclarationError) -> bool:
    from hermes_decl.cli.command import UNREADABLE_CODES

    return any(issue.code in UNREADABLE_CODES for issue in error.issues)


def _modeline_warnings(source: str) -> tuple[Issue, ...]:
    """The warning of a ``$schema`` modeline naming no file, read from the file's text."""
    from hermes_decl.lint import modeline_warnings
    from hermes_decl.loader import MAX_BYTES

    if source == STDIN:
        return ()
    try:
        with open(source, "rb") as file:
            text = file.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return ()
    return modeline_warnings(text, source)
