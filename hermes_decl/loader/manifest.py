"""The portable plugin manifest (``plugin.json``/``plugin.yaml``, schema ``plugin.v1``): its
servers' declarations, with line:column errors (SPEC 12, language 1.2).

Servers sit under ``extensions["com.nousresearch.hermes"].servers.<name>``; a manifest without
them declares none. Two spellings are accepted here that plain declarations files refuse:

- a server-level ``liveness`` beside ``app`` and ``requires``, the liveness of every OS block of
  ``app`` that declares none (an OS block's own wins);
- in a ``server_json`` liveness, ``fields: {url, token, pid}``, the portable names of
  ``url_key``, ``token_key`` and ``pid_key`` (a partial mapping names only what it overrides).

Both are rewritten into the plain form before parsing, and every problem is reported where the
author wrote it: at the server-level ``liveness`` or at ``fields.url``, never at a key the
rewriting made.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from hermes_decl._text import choices, did_you_mean, show
from hermes_decl.declaration import DeclarationError, Issue, parse_declaration
from hermes_decl.errors import DataPath, dotted
from hermes_decl.loader.collection import paused_collection
from hermes_decl.loader.declarations import servers_in
from hermes_decl.loader.document import Document
from hermes_decl.loader.reading import _read, _read_file, syntax_of
from hermes_decl.models import OS_FAMILIES, Declaration

HERMES_EXTENSION = "com.nousresearch.hermes"
"""The manifest's extension key under which this host's servers are declared."""
SERVERS_PATH = ("extensions", HERMES_EXTENSION, "servers")
MANIFEST_SERVER_KEYS = ("app", "requires", "liveness")
PORTABLE_FIELDS: Mapping[str, str] = {"url": "url_key", "token": "token_key", "pid": "pid_key"}
"""Each portable ``fields`` name and the liveness key it spells."""

_MANIFEST_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass
class _Rewriting:
    """How one server's body was rewritten: where each rewritten key was written by its author."""

    written_at: dict[DataPath, DataPath] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)

    def origin(self, path: DataPath) -> DataPath:
        """The path the author wrote for a path of the rewritten body (the longest known prefix)."""
        for length in range(len(path), 0, -1):
            written = self.written_at.get(path[:length])
            if written is not None:
                return (*written, *path[length:])
        return path


def _portable(liveness: object, at: DataPath, to: DataPath, rewriting: _Rewriting) -> object:
    """``liveness`` with ``fields`` spelled as the plain keys; ``at`` is where it was written."""
    rewriting.written_at[to] = at
    if (
        not isinstance(liveness, Mapping)
        or "fields" not in liveness
        or liveness.get("kind") != "server_json"
    ):
        return liveness  # another kind has no keys to name: its model refuses ``fields``
    plain = {key: value for key, value in liveness.items() if key != "fields"}
    fields = liveness["fields"]
    fields_at = (*at, "fields")
    if fields is None:
        return plain
    if not isinstance(fields, Mapping):
        message = f"must be a mapping with {choices(tuple(PORTABLE_FIELDS))} (got {show(fields)})"
        rewriting.issues.append(Issue(dotted(fields_at), "wrong_type", message, path=fields_at))
        return plain
    for name, value in fields.items():
        name_at = (*fields_at, name) if isinstance(name, str) else fields_at
        key = PORTABLE_FIELDS.get(name) if isinstance(name, str) else None
        if key is None:
            suggestion = (
                did_you_mean(name, tuple(PORTABLE_FIELDS)) if isinstance(name, str) else None
            )
            hint = (
                f"did you mean {suggestion!r}?"
                if suggestion
                else f"expected {choices(tuple(PORTABLE_FIELDS))}"
            )
            message = f"unknown key ({hint})"
            rewriting.issues.append(
                Issue(dotted(name_at), "unknown_key", message, path=name_at, hint=hint)
            )
        elif key in liveness:
            message = f"names the same key as {key!r} beside it: write one of them"
            rewriting.issues.append(
                Issue(dotted(name_at), "duplicate_field", message, path=name_at)
            )
        else:
            plain[key] = value
            key_path = (*to, key)
            rewriting.written_at[key_path] = name_at
    return plain


def _rewritten(body: Mapping[object, object], rewriting: _Rewriting) -> object:
    """The server's ``app`` block in the plain form."""
    app = body.get("app")
    shared = body.get("liveness")
    if not isinstance(app, Mapping):
        if shared is not None:
            message = "applies to the OS blocks of 'app', and this server has no 'app' block"
            rewriting.issues.append(
                Issue("liveness", "liveness_without_app", message, path=("liveness",))
            )
        return app
    plain = dict(app)
    for os_family in OS_FAMILIES:
        block = app.get(os_family)
        if not isinstance(block, Mapping):
            continue
        to = ("app", os_family, "liveness")
        own = block.get("liveness")
        if own is not None:
            plain[os_family] = {**block, "liveness": _portable(own, to, to, rewriting)}
        elif shared is not None:
            plain[os_family] = {
                **block,
                "liveness": _portable(shared, ("liveness",), to, rewriting),
            }
    return plain


def _manifest_server(
    document: Document, path: DataPath, name: str, body: Mapping[object, object]
) -> Declaration:
    rewriting = _Rewriting()
    app = _rewritten(body, rewriting)
    issues = list(rewriting.issues)
    try:
        decl = parse_declaration(name, app, body.get("requires"), where=document.where)
    except DeclarationError as error:
        issues.extend(_as_written(error.issues, rewriting))
    if issues:
        raise DeclarationError(document.where, _unique(issues))
    return decl


def _as_written(issues: tuple[Issue, ...], rewriting: _Rewriting) -> Iterator[Issue]:
    for issue in issues:
        path = rewriting.origin(issue.path)
        yield Issue(
            dotted(path),
            issue.code,
            issue.message,
            issue.line,
            issue.column,
            path=path,
            hint=issue.hint,
        )


def _unique(issues: list[Issue]) -> list[Issue]:
    """One issue per place and problem: a shared liveness is checked once per OS block."""
    seen: set[tuple[DataPath, str, str]] = set()
    kept = []
    for issue in issues:
        key = (issue.path, issue.code, issue.message)
        if key not in seen:
            seen.add(key)
            kept.append(issue)
    return kept


def manifest_declarations(document: Document) -> dict[str, Declaration]:
    """Parse every server a read manifest declares; every problem is raised at once."""
    return servers_in(
        document,
        SERVERS_PATH,
        keys=MANIFEST_SERVER_KEYS,
        parse=_manifest_server,
        absent_is_empty=True,
    )


def _is_path(source: str) -> bool:
    """Whether a string names a manifest file rather than holding its text."""
    return "\n" not in source and source.strip().lower().endswith(_MANIFEST_SUFFIXES)


def load_plugin_manifest(
    path_or_text: str | bytes | os.PathLike[str], *, where: str | None = None
) -> dict[str, Declaration]:
    """The server declarations of a plugin manifest: server name → ``Declaration``.

    ``path_or_text`` is a path (any ``os.PathLike``, or a one-line string ending in ``.json``,
    ``.yaml`` or ``.yml``) or the manifest's text (``bytes``, or any other string). A ``.json``
    file is read as strict JSON, a YAML file as YAML, and text by its content.
    """
    with paused_collection():
        if isinstance(path_or_text, bytes) or (
            isinstance(path_or_text, str) and not _is_path(path_or_text)
        ):
            document = _read(path_or_text, where if where is not None else "<string>")
        else:
            data, label = _read_file(path_or_text, where)
            document = _read(data, label, syntax_of(path_or_text))
        return manifest_declarations(document)
