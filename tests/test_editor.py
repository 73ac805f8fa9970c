"""The editor says what ``hermes-decl check`` says: the real yaml-language-server, over LSP.

Every broken declarations file of ``tests/editor/corpus`` is opened in yaml-language-server (the
version pinned in ``tests/editor/package.json``, installed by ``npm ci`` there) with each schema
dialect shipped in the package. The lines it flags must be the lines ``hermes-decl check``
flags, and its first message on each line must carry the key words of the CLI's message there:
the CLI's rule text itself, except for the differences listed in ``ALLOWED`` with their reason.
Completion and hover are checked at fixed places of a valid declaration.

The test never skips in CI (``CI`` set): a missing server fails it. Elsewhere it skips only when
node or npm is not installed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from hermes_decl.cli import main
from hermes_decl.models import AppBlock, Requires
from hermes_decl.models.app_block import LOCATION_HELP, VERSION_HELP, DarwinAppDef
from hermes_decl.models.named_declaration import Declaration
from hermes_decl.schema.files import DIALECTS, Dialect, schema_path
from tests.editor.lsp import Diagnostic, LanguageServer

EDITOR = Path(__file__).parent / "editor"
CORPUS = sorted((EDITOR / "corpus").glob("*.yaml"))
SERVER = EDITOR / "node_modules" / ".bin" / "yaml-language-server"
MODELINE = re.compile(r"\A# yaml-language-server: \$schema=\S+\n")
SETTINGS = {
    "yaml": {
        "validate": True,
        "hover": True,
        "completion": True,
        "schemaStore": {"enable": False},
        "schemas": {},
    }
}


@dataclass(frozen=True)
class Allowed:
    """A difference in wording the two tools may have, the words both must still say, and why."""

    key_words: Callable[[dict[str, object]], tuple[str, ...]]
    reason: str


def _key(issue: dict[str, object]) -> tuple[str, ...]:
    loc = str(issue["loc"])
    return (re.split(r"[.\[]", loc)[-1].strip('"]'),)


ALLOWED: dict[str, Allowed] = {
    "unknown_key": Allowed(
        _key,
        "additionalProperties: false has no message of its own (an errorMessage on the mapping "
        "would also replace its type and missing-key messages), so the editor says 'Property K "
        "is not allowed': both name the key",
    ),
    "missing_key": Allowed(
        _key,
        "required has no message of its own for the same reason: the editor says 'Missing "
        'property "K"\', both name the key',
    ),
    "duplicate_key": Allowed(
        lambda issue: ("unique",),
        "the editor's YAML parser reports duplicate keys itself ('Map keys must be unique')",
    ),
    "yaml_syntax": Allowed(
        lambda issue: (),
        "each YAML parser words syntax errors its own way; only the line must agree",
    ),
    "not_declarations": Allowed(
        lambda issue: ("must be a mapping",),
        "the CLI says once, at the first value that is not a mapping, that the document is no "
        "declarations file and shows no value (it may be a secrets file); the editor, showing "
        "the author's own open file, flags each such value: both say it must be a mapping",
    ),
    "path_windows_variable": Allowed(
        lambda issue: ("%VAR%", "Windows form", "start with /, ~ or $VAR"),
        "one pattern states where a POSIX path may start, so the editor words the rule that "
        "way and names the Windows form in parentheses",
    ),
}

SYNTAX_RECOVERY = (
    "after a syntax error the editor keeps validating the tree its parser recovered, while the "
    "CLI stops at the error: the editor must flag the CLI's lines, and may flag more"
)


def _rule(message: str, hint: object = None) -> str:
    """A CLI message without its hint and what was found: the part an editor can say without
    the value."""
    if isinstance(hint, str) and message.endswith(f" ({hint})"):
        message = message[: -len(hint) - 3]
    return re.sub(r" \((?:got|did you mean|expected) .*\)$", "", message)


def _check_report(paths: list[Path]) -> dict[Path, list[dict[str, object]]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["check", "--json", *map(str, paths)])
    assert status == 1
    report = json.loads(out.getvalue())
    return {Path(entry["file"]): entry["issues"] for entry in report["files"]}


def _server_or_reason() -> str | None:
    if sys.platform == "win32" and shutil.which("node") is None:
        return "node is not installed for this Windows (the Wine leg has no Windows Node.js)"
    if SERVER.exists():
        return None
    install = f"run 'npm ci' in {EDITOR}"
    if os.environ.get("CI"):
        pytest.fail(f"yaml-language-server is not installed ({install}); CI must run this test")
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node and npm are not installed"
    pytest.fail(f"yaml-language-server is not installed: {install}")


@pytest.fixture(scope="module")
def server() -> Iterator[LanguageServer]:
    reason = _server_or_reason()
    if reason is not None:
        pytest.skip(reason)
    language_server = LanguageServer([str(SERVER), "--stdio"], SETTINGS, timeout=60)
    try:
        language_server.initialize(EDITOR)
        yield language_server
    finally:
        language_server.close()


@pytest.fixture(scope="module")
def cli_issues() -> dict[Path, list[dict[str, object]]]:
    return _check_report(CORPUS)


def _open(server: LanguageServer, path: Path, dialect: Dialect) -> list[Diagnostic]:
    text = path.read_text(encoding="utf-8")
    modeline = f"# yaml-language-server: $schema={schema_path(dialect).as_uri()}\n"
    assert MODELINE.match(text), f"{path.name} must start with a modeline"
    return server.open(f"{path.as_uri()}?{dialect}", MODELINE.sub(modeline, text, count=1))


def test_the_corpus_is_big_enough_and_every_file_is_broken(
    cli_issues: dict[Path, list[dict[str, object]]],
) -> None:
    assert len(CORPUS) >= 30
    assert all(cli_issues[path] for path in CORPUS)
    codes = {issue["code"] for issues in cli_issues.values() for issue in issues}
    assert len(codes) >= 25, sorted(map(str, codes))


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("path", CORPUS, ids=[path.stem for path in CORPUS])
def test_the_editor_flags_the_cli_s_lines_with_the_cli_s_words(
    server: LanguageServer,
    cli_issues: dict[Path, list[dict[str, object]]],
    path: Path,
    dialect: Dialect,
) -> None:
    issues = cli_issues[path]
    diagnostics = _open(server, path, dialect)
    cli_lines = {int(str(issue["line"])) for issue in issues}
    editor_lines = {diagnostic.line for diagnostic in diagnostics}
    shown = "\n".join(f"  {d.line}:{d.column} {d.message}" for d in diagnostics)
    if any(issue["code"] == "yaml_syntax" for issue in issues):
        assert cli_lines <= editor_lines, SYNTAX_RECOVERY + "\n" + shown
        return
    assert editor_lines == cli_lines, f"editor:\n{shown}\ncli: {issues}"
    for issue in issues:
        line = int(str(issue["line"]))
        first = min(
            (d for d in diagnostics if d.line == line),
            key=lambda d: (d.column, diagnostics.index(d)),
        )
        allowed = ALLOWED.get(str(issue["code"]))
        if allowed is None:
            assert _rule(str(issue["message"]), issue["hint"]) in first.message, (issue, first)
        else:
            for word in allowed.key_words(issue):
                assert word in first.message, (issue, first, allowed.reason)


def test_every_allowed_difference_has_a_reason_and_is_used(
    cli_issues: dict[Path, list[dict[str, object]]],
) -> None:
    used = {str(issue["code"]) for issues in cli_issues.values() for issue in issues}
    for code, allowed in ALLOWED.items():
        assert len(allowed.reason) > 40, code
        assert code in used, f"{code} is allowed to differ but no corpus file shows it"


# --- completion and hover at fixed places -------------------------------------------------------

DOCUMENT = """\
# yaml-language-server: $schema={schema}
vendor-studio:
  app:
    darwin:
      presence: bundle
      location:
        - {{ kind: app_bundle, name: Vendor Studio.app }}
      version: {{ kind: plist }}
  requires:
    app: true
    min_version: "2.3.0"
"""
HOVERS = [
    (3, "app", Declaration.model_fields["app"].description),
    (4, "darwin", AppBlock.model_fields["darwin"].description),
    (5, "presence", DarwinAppDef.model_fields["presence"].description),
    (6, "location", LOCATION_HELP),
    (8, "version", VERSION_HELP),
    (9, "requires", Declaration.model_fields["requires"].description),
    (10, "app", Requires.model_fields["app"].description),
    (11, "min_version", Requires.model_fields["min_version"].description),
]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    ("line", "key", "description"), HOVERS, ids=[f"{line}-{key}" for line, key, _ in HOVERS]
)
def test_hover_shows_the_key_s_own_description_once(
    server: LanguageServer, dialect: Dialect, line: int, key: str, description: str | None
) -> None:
    assert description
    text = DOCUMENT.format(schema=schema_path(dialect).as_uri())
    uri = (EDITOR / f"hover-{dialect}.yaml").as_uri()
    assert server.open(uri, text) == []
    column = text.splitlines()[line - 1].index(f"{key}:") + 2
    hover = server.hover(uri, line, column)
    plain = hover.replace("\\", "")
    assert plain.count(description.replace("``", "")) == 1, hover
    others = [VERSION_HELP, LOCATION_HELP, "The application on macOS.", "Read CFBundle"]
    assert not [other for other in others if other != description and other in plain], hover


COMPLETIONS = [
    ("server", "s:\n  §\n", {"app", "requires"}),
    ("app", "s:\n  app:\n    §\n", {"win32", "darwin", "linux"}),
    ("requires", "s:\n  requires:\n    §\n", {"app", "min_version", "gpu"}),
    (
        "os-block",
        "s:\n  app:\n    linux:\n      presence: executable\n      §\n",
        {"location", "version", "liveness"},
    ),
    ("presence", "s:\n  app:\n    linux:\n      presence: §\n", {"executable", "bundle"}),
    (
        "version-kind",
        "s:\n  app:\n    darwin:\n      version:\n        kind: §\n",
        {"none", "plist"},
    ),
    (
        "location-kind",
        "s:\n  app:\n    linux:\n      presence: executable\n      location:\n        - kind: §\n",
        {"command", "flatpak", "snap"},
    ),
    ("gpu", "s:\n  requires:\n    gpu: §\n", {"nvidia"}),
]


def _cursor(body: str) -> tuple[str, int, int]:
    before, _, _ = body.partition("§")
    lines = before.split("\n")
    return body.replace("§", ""), len(lines) + 1, len(lines[-1]) + 1  # +1: the modeline


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(
    ("name", "body", "expected"), COMPLETIONS, ids=[name for name, _, _ in COMPLETIONS]
)
def test_completion_offers_each_key_once_and_never_inserts_null(
    server: LanguageServer, dialect: Dialect, name: str, body: str, expected: set[str]
) -> None:
    text, line, column = _cursor(body)
    uri = (EDITOR / f"complete-{name}-{dialect}.yaml").as_uri()
    server.open(uri, f"# yaml-language-server: $schema={schema_path(dialect).as_uri()}\n{text}")
    items = server.completion(uri, line, column)
    labels = [str(item["label"]) for item in items]
    assert expected <= set(labels), labels
    offered = [label for label in labels if label in expected]
    assert len(offered) == len(set(offered)), labels
    for item in items:
        insert = str(item.get("insertText") or item.get("textEdit", {}).get("newText", ""))
        assert not re.search(r":\s*\$\{\d+:null\}|:\s*null\b", insert), item
        if item["label"] in expected:
            assert item.get("documentation"), item
        assert item["label"] != "null", item  # null is valid where it means absent, never offered
    assert not [label for label in labels if label in {"pe_resource", "app_bundle"}]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_hover_on_requires_app_lists_true_and_false(
    server: LanguageServer, dialect: Dialect
) -> None:
    uri = (EDITOR / f"hover-app-{dialect}.yaml").as_uri()
    modeline = f"# yaml-language-server: $schema={schema_path(dialect).as_uri()}\n"
    server.open(uri, f"{modeline}s:\n  requires:\n    app: false\n")
    hover = server.hover(uri, 4, 6)
    allowed = hover.split("Allowed Values:", 1)[1].split("Source:", 1)[0]
    # The value written comes first.
    assert allowed.split() == ["*", "`false`", "*", "`true`"], hover


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_null_that_means_absent_is_valid_in_the_editor(
    server: LanguageServer, dialect: Dialect
) -> None:
    uri = (EDITOR / f"nulls-{dialect}.yaml").as_uri()
    modeline = f"# yaml-language-server: $schema={schema_path(dialect).as_uri()}\n"
    body = "s:\n  app:\n    darwin:\n      presence: bundle\n      location: /A.app\n"
    body += "      version: {kind: null}\n  requires: {app: null, gpu: null}\n"
    assert server.open(uri, modeline + body) == []


@pytest.mark.parametrize("dialect", DIALECTS)
def test_an_http_install_url_is_one_diagnostic_that_says_https(
    server: LanguageServer, dialect: Dialect
) -> None:
    uri = (EDITOR / f"http-{dialect}.yaml").as_uri()
    modeline = f"# yaml-language-server: $schema={schema_path(dialect).as_uri()}\n"
    body = (
        "s:\n  app:\n    win32:\n      presence: executable\n      location: C:/v.exe\n"
        "      install: {url: 'http://vendor.example/download'}\n  requires: {app: true}\n"
    )
    assert server.open(uri, modeline + body) == [Diagnostic(7, 22, "must be an https:// URL")]
