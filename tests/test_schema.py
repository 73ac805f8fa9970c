"""The JSON Schema (SPEC 10): committed copies, meta-schemas, editor hints, and agreement.

The agreement tests feed every declaration of the rule tables (and near-valid declarations from
Hypothesis) to both the parser and ``jsonschema``, in both dialects, as one ``{app, requires}``
and as a declarations file; the verdicts must match, except where the parser's only issues have
codes listed in ``SCHEMA_LIMITS``. Inputs that JSON cannot carry (bytes, tuples, sets, non-string
keys) are skipped and counted.
"""

from __future__ import annotations

import copy
import fnmatch
import json
import math
import re
import shutil
from collections import Counter
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator
from pydantic import AfterValidator, TypeAdapter

from hermes_decl.declaration import DeclarationError, Issue, parse_declaration
from hermes_decl.models import KIND_LOCATIONS
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES
from hermes_decl.models.install import HINT_KEYS
from hermes_decl.schema import (
    ANNOTATIONS,
    DECLARATION_DEF,
    DIALECTS,
    MANIFEST_SCHEMA_FILES,
    META_SCHEMAS,
    REGENERATE,
    SCHEMA_FILES,
    SCHEMA_ID_BASE,
    SCHEMA_LIMITS,
    Dialect,
    json_schema,
    main,
    schema_text,
    stale_schemas,
)
from hermes_decl.schema.conventions import doc_of
from hermes_decl.schema.files import PACKAGE_DIRECTORY, schema_path
from hermes_decl.schema.generator import Generator
from tests import test_declaration as declaration_tables
from tests import test_rules_app_block as app_tables
from tests import test_rules_kinds as kind_tables
from tests import test_rules_language_1_1 as language_1_1_tables
from tests import test_rules_paths as path_tables
from tests import test_rules_requires as requires_tables
from tests.process_starts import run_started
from tests.rules_helpers import NAME, PRESENCE, ROOTED, one_os, os_block

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = ROOT / "schema"
PACKAGE_SCHEMA_DIR = ROOT / "hermes_decl" / PACKAGE_DIRECTORY
VALIDATOR_CLASSES = {"2020-12": Draft202012Validator, "draft-07": Draft7Validator}
VALIDATORS = {
    (dialect, single): VALIDATOR_CLASSES[dialect](json_schema(dialect, single=single))
    for dialect in DIALECTS
    for single in (True, False)
}
LIMIT_CODES = frozenset(code for code, _ in SCHEMA_LIMITS)
RULE_KEYS = ("if", "then", "else", "not", "allOf")
"""Keywords that hold rules (conditions, string patterns, kind hints), not documented shapes."""


def _defs_key(dialect: Dialect) -> str:
    return "$defs" if dialect == "2020-12" else "definitions"


# --- the committed copies and the meta-schemas ------------------------------------------------


@pytest.mark.parametrize(
    "directory", [SCHEMA_DIR, PACKAGE_SCHEMA_DIR], ids=["repository", "package"]
)
@pytest.mark.parametrize(("name", "dialect", "single"), SCHEMA_FILES)
def test_committed_schema_is_current(
    directory: Path, name: str, dialect: Dialect, single: bool
) -> None:
    """The models are the one truth: both committed copies are exactly what they generate."""
    path = directory / name
    assert path.is_file(), f"{path} is missing; run {REGENERATE}"
    committed = path.read_bytes().decode("utf-8")
    assert committed == schema_text(dialect, single=single), (
        f"{path} is out of date; run {REGENERATE}"
    )
    assert committed.endswith("}\n")
    assert json.loads(committed) == json_schema(dialect, single=single)


@pytest.mark.parametrize(("name", "dialect", "single"), SCHEMA_FILES)
def test_no_private_marker_is_left_in_a_schema(name: str, dialect: Dialect, single: bool) -> None:
    assert "x-hermes" not in schema_text(dialect, single=single)


@pytest.mark.parametrize(("name", "dialect", "single"), SCHEMA_FILES)
def test_schema_path_is_the_file_shipped_in_the_package(
    name: str, dialect: Dialect, single: bool
) -> None:
    path = schema_path(dialect, single=single)
    assert path == PACKAGE_SCHEMA_DIR / name
    assert path.read_text(encoding="utf-8") == schema_text(dialect, single=single)
    with pytest.raises(ValueError, match="dialect must be one of"):
        schema_path("draft-04")  # type: ignore[arg-type]


def test_the_wheel_ships_the_schemas() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    package_data = re.search(
        r"^\[tool\.setuptools\.package-data\]\nhermes_decl = (\[.*\])$", pyproject, re.M
    )
    assert package_data is not None
    shipped = json.loads(package_data.group(1))
    for name, _, _ in SCHEMA_FILES:
        assert any(fnmatch.fnmatch(f"{PACKAGE_DIRECTORY}/{name}", pattern) for pattern in shipped)


@pytest.mark.parametrize(("name", "dialect", "single"), SCHEMA_FILES)
def test_schema_is_valid_under_its_meta_schema(name: str, dialect: Dialect, single: bool) -> None:
    schema = json_schema(dialect, single=single)
    VALIDATOR_CLASSES[dialect].check_schema(schema)
    assert schema["$schema"] == META_SCHEMAS[dialect]
    assert schema["$id"] == SCHEMA_ID_BASE + name
    assert DECLARATION_DEF in schema[_defs_key(dialect)]


def test_draft_07_uses_definitions_and_never_silences_keywords_with_ref() -> None:
    for single in (True, False):
        text = schema_text("draft-07", single=single)
        assert "$defs" not in text
        for node in _subschemas(json_schema("draft-07", single=single)):
            if "$ref" in node:
                assert set(node) - {"$ref"} <= ANNOTATIONS, node
                assert node["$ref"].startswith("#/definitions/")


def test_json_schema_returns_a_fresh_copy_and_refuses_unknown_dialects() -> None:
    first = json_schema()
    first["$defs"].clear()
    assert json_schema()["$defs"]
    with pytest.raises(ValueError, match="dialect"):
        json_schema("draft-04")  # type: ignore[arg-type]


def test_module_entry_writes_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert stale_schemas(tmp_path) == [name for name, _, _ in SCHEMA_FILES] + [
        name for name, _ in MANIFEST_SCHEMA_FILES
    ]
    assert main(["--check", str(tmp_path)]) == 1
    assert REGENERATE in capsys.readouterr().out
    other = tmp_path / "other"
    assert main(["--write", str(tmp_path), "--write", str(other)]) == 0
    assert main(["--check", str(tmp_path), "--check", str(other)]) == 0
    assert stale_schemas(tmp_path) == []
    capsys.readouterr()
    assert main(["--dialect", "draft-07", "--single"]) == 0
    assert capsys.readouterr().out == schema_text("draft-07", single=True)


def test_schema_limits_name_codes_with_reasons() -> None:
    codes = [code for code, _ in SCHEMA_LIMITS]
    assert len(codes) == len(set(codes))
    for code, reason in SCHEMA_LIMITS:
        assert re.fullmatch(r"[a-z_]+", code), code
        assert len(reason) > 40, reason


def _upper(value: str) -> str:
    return value.upper()


class _Unmapped(FrozenModel):
    """A model whose field has a check the schema generator has no rule for."""

    value: Annotated[str, AfterValidator(_upper)]


def test_a_validator_without_a_schema_rule_is_refused() -> None:
    with pytest.raises(
        TypeError, match="no JSON Schema rule for validator _upper: give it a rule object"
    ):
        TypeAdapter(_Unmapped).json_schema(schema_generator=Generator)


class _Indented:
    """First line.

    Continued, indented as written.
    """


class _Dedented:
    __doc__ = "First line.\n\nContinued, indented as written.\n"  # as Python 3.13 compiles it


def test_a_docstring_reads_the_same_whether_python_dedented_it_or_not() -> None:
    assert doc_of(_Indented) == "First line.\n\nContinued, indented as written."
    assert doc_of(_Dedented) == doc_of(_Indented)


def test_a_variant_comment_is_its_docstring_cleaned_on_every_python() -> None:
    comment = json_schema()["$defs"]["StaticLiveness"]["$comment"]
    assert comment == (
        "The application serves MCP without a runtime file: a fixed endpoint or a stdio server."
        "\n\nThere is nothing to observe, so a down connection is never blamed on the application."
    )


# --- what editors read: descriptions, closed objects, kind hints, examples ---------------------


def _subschemas(node: Any, *, rules: bool = True) -> Iterator[dict[str, Any]]:
    """Every subschema below ``node``; with ``rules=False``, none inside ``RULE_KEYS``."""
    if not isinstance(node, dict):
        return
    yield node
    for key, value in node.items():
        if key in RULE_KEYS and not rules:
            continue
        if key in ("items", "additionalProperties", "propertyNames", "if", "then", "else", "not"):
            yield from _subschemas(value, rules=rules)
        elif key in ("allOf", "anyOf", "oneOf"):
            for branch in value:
                yield from _subschemas(branch, rules=rules)
        elif key in ("properties", "$defs", "definitions"):
            for branch in value.values():
                yield from _subschemas(branch, rules=rules)


def _properties(definition: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    for node in _subschemas(definition, rules=False):
        yield from node.get("properties", {}).items()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_key_and_every_accepted_value_is_described_in_text_and_markdown(
    dialect: Dialect,
) -> None:
    schema = json_schema(dialect)
    missing: list[str] = []
    for name, definition in schema[_defs_key(dialect)].items():
        assert definition.get("description") or definition.get("$comment"), name
        for key, value in _properties(definition):
            if value is True:  # a variant admits ``kind``; its union describes it
                continue
            if not value.get("description") or not value.get("markdownDescription"):
                missing.append(f"{name}.{key}")
            if "enum" in value:
                for described in ("enumDescriptions", "markdownEnumDescriptions"):
                    if len(value.get(described, ())) != len(value["enum"]):
                        missing.append(f"{name}.{key} {described}")
    assert not missing
    for node in _subschemas(schema):
        for text in (node.get("description"), *node.get("enumDescriptions", ())):
            assert text is None or "`" not in text, text
        assert "const" not in node or "enum" in node or "if" not in node


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_key_s_hover_text_is_its_own_description(dialect: Dialect) -> None:
    """Editors show the first description that applies to a value, and a key's own comes last.

    So a ``$ref`` slot carries only its annotations (editors merge it with its definition, its
    own description winning), and no subschema applied to the same value (an ``allOf`` entry, a
    ``then`` or ``else``, or the definition one references) has a description. Nor does any
    optional key default to null, which an editor would insert on completion.
    """
    schema = json_schema(dialect)
    definitions = schema[_defs_key(dialect)]
    for node in _subschemas(schema):
        branches = [*node.get("allOf", ()), *node.get("anyOf", ()), *node.get("oneOf", ())]
        branches += [node[key] for key in ("then", "else") if key in node]
        for branch in branches:
            assert "description" not in branch, branch
            if "$ref" in branch:
                target = definitions[branch["$ref"].rsplit("/", 1)[1]]
                assert "description" not in target, branch["$ref"]
        for value in node.get("properties", {}).values():
            if isinstance(value, dict) and "$ref" in value:
                assert set(value) == {"$ref", "description", "markdownDescription"}, value
            if isinstance(value, dict) and "default" in value:
                assert value["default"] is not None, value


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_mapping_is_closed(dialect: Dialect) -> None:
    definitions = json_schema(dialect)[_defs_key(dialect)]
    objects = [name for name, body in definitions.items() if "properties" in body]
    assert len(objects) >= 18
    for name in objects:
        if name in {f"{os_family.capitalize()}Location" for os_family in OS_FAMILIES}:
            # a kind union: each kind's variant closes the mapping
            assert definitions[name]["required"] == ["kind"], name
            continue
        assert definitions[name]["additionalProperties"] is False, name


def test_each_kind_leads_to_the_kind_s_own_keys() -> None:
    definitions = json_schema()["$defs"]
    hinted: set[str] = set()
    hinted_keys: set[str] = set()
    for node in _subschemas({"$defs": definitions}):
        for rule in node.get("allOf", ()):
            condition = rule.get("if", {})
            then = rule.get("then", {})
            if condition.get("type") != "object" or "$ref" not in then:
                continue
            target = definitions[then["$ref"].removeprefix("#/$defs/")]
            kind_condition = condition.get("properties", {}).get("kind")
            if kind_condition is None:
                # an install hint is keyed by the package manager it names
                (key,) = condition["required"]
                assert target["required"][0] == key
                hinted_keys.add(key)
                continue
            kind = kind_condition.get("const") or kind_condition["enum"][0]
            kinds = node["properties"]["kind"]
            # A kind that may be null offers its values in its first branch (null apart).
            assert kind in kinds.get("enum", kinds.get("anyOf", [{}])[0].get("enum", ()))
            assert target["properties"]["kind"] is True
            hinted.add(kind)
    assert {variant.KIND for variant in KIND_LOCATIONS} <= hinted
    assert hinted_keys == set(HINT_KEYS)
    flatpak = definitions["FlatpakLocation"]
    assert list(flatpak["properties"]) == ["kind", "app_id"]
    assert flatpak["required"] == ["app_id"]


def _with_defs(node: dict[str, Any], dialect: Dialect) -> dict[str, Any]:
    key = _defs_key(dialect)
    return {**node, key: json_schema(dialect)[key]}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_every_example_and_snippet_is_valid_where_it_is_given(dialect: Dialect) -> None:
    schema = json_schema(dialect)
    examples = snippets = 0
    for node in _subschemas(schema):
        validator = VALIDATOR_CLASSES[dialect](_with_defs(node, dialect))
        for example in node.get("examples", ()):
            assert validator.is_valid(example), (example, node.get("description"))
            examples += 1
        for snippet in node.get("defaultSnippets", ()):
            assert validator.is_valid(snippet["body"]), snippet
            assert snippet["label"] and snippet["description"], snippet
            snippets += 1
    assert examples >= 15
    assert snippets >= 15


def test_every_location_snippet_and_example_parses() -> None:
    definitions = json_schema()["$defs"]
    for os_family in OS_FAMILIES:
        prefix = os_family.capitalize()
        places: list[tuple[object, str]] = [
            (path, "executable") for path in definitions[f"{prefix}PathLocation"]["examples"]
        ]
        presence = {variant.KIND: variant.PRESENCE for variant in KIND_LOCATIONS}
        for snippet in definitions[f"{prefix}Location"]["defaultSnippets"]:
            places.append((snippet["body"], presence[snippet["label"]]))
        assert len(places) >= 3
        liveness = definitions[f"{prefix}AppDef"]["properties"]["liveness"]["defaultSnippets"]
        runtime = [snippet["body"] for snippet in liveness]
        assert runtime
        for place, kind_presence in places:
            block = {"presence": kind_presence, "location": place, "liveness": runtime[0]}
            parse_declaration(NAME, {os_family: block}, None, where="example")


# --- agreement: the parser and the schema give the same verdict ---------------------------------


def _is_json(value: object) -> bool:
    """Whether JSON can carry ``value`` exactly (a tuple would reach a validator as an array)."""
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json(item) for key, item in value.items())
    return False


def _instances(raw_app: object, raw_requires: object) -> list[dict[str, object]]:
    """The ``{app, requires}`` object as written with nulls, and with absent keys left out."""
    full = {"app": raw_app, "requires": raw_requires}
    present = {key: value for key, value in full.items() if value is not None}
    return [full] if present == full else [full, present]


def _schema_errors(dialect: Dialect, single: bool, instance: object) -> list[str]:
    errors = VALIDATORS[dialect, single].iter_errors(instance)
    return [f"{error.json_path}: {error.message[:200]}" for error in errors][:8]


def _issues(name: str, raw_app: object, raw_requires: object) -> tuple[Issue, ...]:
    try:
        parse_declaration(name, raw_app, raw_requires, where="schema-agreement")
    except DeclarationError as error:
        return error.issues
    return ()


def agreement(raw_app: object, raw_requires: object, tally: Counter[str], name: str = NAME) -> None:
    """Compare the parser's verdict with the schema's in both dialects; count the outcome."""
    if not (_is_json(raw_app) and _is_json(raw_requires)):
        tally["skipped"] += 1
        return
    # One declaration's schema never sees the server name; the file's schema sees it as a key.
    found = {
        single: _issues(NAME if single else name, raw_app, raw_requires) for single in (True, False)
    }
    tally["invalid" if found[True] else "valid"] += 1
    for dialect in DIALECTS:
        outcome = "agreed"
        for instance in _instances(raw_app, raw_requires):
            for single, document in ((True, instance), (False, {name: instance})):
                issues = found[single]
                parser_valid = not issues
                excusable = bool(issues) and all(issue.code in LIMIT_CODES for issue in issues)
                if VALIDATORS[dialect, single].is_valid(document) == parser_valid:
                    continue
                if excusable:
                    outcome = "excused"
                    continue
                parser_says = [(issue.loc, issue.code) for issue in issues] or "valid"
                schema_says = _schema_errors(dialect, single, document) or "valid"
                pytest.fail(
                    f"{dialect} {'declaration' if single else 'file'} schema disagrees with "
                    f"the parser on {document!r}\nparser: {parser_says}\nschema: {schema_says}"
                )
        tally[f"{dialect} {outcome}"] += 1


def _report(tally: Counter[str]) -> str:
    """The counts, zeros included: per dialect agreed and excused, then skipped and the verdicts."""
    per_dialect = [
        f"{dialect}: agreed={tally[f'{dialect} agreed']} excused={tally[f'{dialect} excused']}"
        for dialect in DIALECTS
    ]
    rest = f"skipped={tally['skipped']}; parser valid={tally['valid']} invalid={tally['invalid']}"
    return "; ".join([*per_dialect, rest])


def _server_json(os_family: str, **extra: object) -> dict[str, object]:
    return app_tables._server_json(os_family, **extra)


def _path_cases(table: Mapping[str, tuple[Any, ...]]) -> Iterator[tuple[object, object]]:
    """A path string of a table row in each position: list item, lone location, runtime file."""
    for os_family, raw, *_ in table.values():
        yield one_os(os_family, [ROOTED[os_family], raw]), None
        yield one_os(os_family, raw), None
        yield {os_family: os_block(os_family, liveness={"kind": "server_json", "path": raw})}, None


def _kind_block(os_family: str, item: object, presence: str) -> dict[str, object]:
    return {os_family: {"presence": presence, "location": [ROOTED[os_family], item]}}


_WIN32_PE = os_block("win32", version={"kind": "pe_resource"})
_DARWIN_PLIST = os_block("darwin", version={"kind": "plist"})
_MINIMUM = {"app": True, "min_version": "2"}

#: Declarations for rules the rule tables leave out: (app, requires, whether the parser accepts).
EXTRA_CASES: dict[str, tuple[object, object, bool]] = {
    "win32-dots-space-segment": (one_os("win32", "C:\\x\\.. \\y.exe"), None, False),
    "win32-three-dots-segment": (one_os("win32", "C:\\x\\...\\y.exe"), None, False),
    "win32-dots-space-dot-last": (one_os("win32", "C:\\x\\.. ."), None, False),
    "win32-dots-then-tab-stripped": (one_os("win32", "C:\\x\\..\t"), None, False),
    "win32-dots-then-name": (one_os("win32", "C:\\x\\.. y\\v.exe"), None, True),
    "linux-dots-space-segment": (one_os("linux", "/opt/.. /x"), None, True),
    "linux-three-dots-last": (one_os("linux", "/opt/... "), None, True),
    "linux-dots-then-ideographic-space": (one_os("linux", "/opt/..\u3000"), None, False),
    "linux-file-separator-stripped": (one_os("linux", "\x1c/opt/x\x1f"), None, True),
    "linux-next-line-stripped": (one_os("linux", "\x85/opt/x"), None, True),
    "linux-bom-not-stripped": (one_os("linux", "\ufeff/opt/x"), None, False),
    "linux-url-after-digit": (one_os("linux", "/opt/1a+b://x"), None, False),
    "linux-digits-before-colon-slashes": (one_os("linux", "/opt/12://x"), None, True),
    "linux-tilde-then-space": (one_os("linux", "~ alice/x"), None, True),
    "win32-percent-var-with-space": (one_os("win32", "%A B%"), None, True),
    "name-dots-padded": (one_os("linux", {"kind": "snap", "name": " .. "}), None, False),
    "name-dots-newline": (one_os("linux", {"kind": "snap", "name": "..\n"}), None, False),
    "name-dot-space-dot": (one_os("linux", {"kind": "snap", "name": ". ."}), None, True),
    "file-trimmed-dots": (
        one_os(
            "win32", {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "b\\.. \\v"}
        ),
        None,
        False,
    ),
    "file-dot-space-name": (
        one_os("win32", {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "a. b"}),
        None,
        True,
    ),
    "endpoint-parent-last": (
        one_os("linux", liveness=_server_json("linux", endpoint_path="/a/..")),
        None,
        False,
    ),
    "endpoint-three-dots": (
        one_os("linux", liveness=_server_json("linux", endpoint_path="/a/...")),
        None,
        True,
    ),
    "min-version-win32-null-darwin-plist": (
        {"win32": None, "darwin": _DARWIN_PLIST},
        _MINIMUM,
        True,
    ),
    "min-version-darwin-without-source-and-linux": (
        {"darwin": os_block("darwin"), "linux": os_block("linux")},
        _MINIMUM,
        False,
    ),
    "min-version-version-null": ({"win32": {**_WIN32_PE, "version": None}}, _MINIMUM, False),
    "min-version-kind-null": ({"win32": {**_WIN32_PE, "version": {"kind": None}}}, _MINIMUM, False),
    "min-version-null-app-null": (None, {"app": None, "min_version": None}, True),
    "requires-null-app-true-block": (
        {"linux": os_block("linux")},
        {"app": True, "gpu": None},
        True,
    ),
    "win32-bundle-path": ({"win32": {"presence": "bundle", "location": "C:\\V.app"}}, None, False),
    "win32-bundle-uninstall-lone": (
        {
            "win32": {
                "presence": "bundle",
                "location": {"kind": "uninstall_registry", "display_name_prefix": "V", "file": "v"},
            }
        },
        None,
        False,
    ),
    "version-kind-null-with-prefix": (
        one_os("win32", version={"kind": None, "display_name_prefix": "V"}),
        None,
        False,
    ),
    "liveness-kind-null": (one_os("linux", liveness={"kind": None}), None, True),
    "liveness-kind-null-with-path": (
        one_os("linux", liveness={"kind": None, "path": "/run/x.json"}),
        None,
        False,
    ),
    "location-list-of-lists": (one_os("linux", [["/opt/x"]]), None, False),
}


@pytest.mark.parametrize(
    ("raw_app", "raw_requires", "valid"), EXTRA_CASES.values(), ids=list(EXTRA_CASES)
)
def test_extra_cases_are_what_the_parser_says(
    raw_app: object, raw_requires: object, valid: bool
) -> None:
    assert (not _issues(NAME, raw_app, raw_requires)) is valid


def language_1_1_cases() -> Iterator[tuple[object, object]]:
    """Every declaration the language-1.1 rule tables build, as (app, requires)."""
    tables = language_1_1_tables
    linux = tables.LINUX
    value: object
    for value in [*tables.VALID_DISPLAY_NAMES.values(), *tables.INVALID_DISPLAY_NAMES.values()]:
        yield (
            {"linux": linux, "display_name": value[0] if isinstance(value, tuple) else value},
            None,
        )
    for os_family, value, _ in tables.MIN_OS_VERSIONS.values():
        yield one_os(os_family, min_os_version=value), None
    for value in tables.LINUX_MIN_OS_VERSIONS.values():
        yield one_os("linux", min_os_version=value), None
    for os_family, key, value, _ in tables.PACKAGE_NAME_CASES.values():
        yield one_os(os_family, install={key: value}), None
        yield one_os(os_family, install=[tables.URL, {key: value}]), None
    for url, _ in tables.URLS.values():
        for os_family in OS_FAMILIES:
            yield one_os(os_family, install={"url": url}), None
    for value, _ in tables.REMOTES.values():
        yield one_os("linux", install={"flatpak": "com.vendor.Studio", "remote": value}), None
    for os_family, install, _ in tables.INSTALL_SHAPES.values():
        yield one_os(os_family, install=install), None
    for os_family, install, _ in tables.VALID_INSTALLS.values():
        yield one_os(os_family, install=install), None
    for os_family, hint, *_ in tables.COMMANDS.values():
        yield one_os(os_family, install=hint), None
    for value, _ in [*tables.VALID_ARCHES.values(), *tables.INVALID_ARCHES.values()]:
        yield None, {"arch": value}
        yield {"linux": linux}, {"app": True, "arch": value}


def table_cases() -> Iterator[tuple[object, object]]:
    """Every declaration the rule tables and the declaration tests build, as (app, requires)."""
    for table in (
        path_tables.VALID_PATHS,
        path_tables.INVALID_PATHS,
        path_tables.SEGMENT_RULES,
        path_tables.LONE_PATHS,
        path_tables.VALID_LIVENESS_PATHS,
        path_tables.INVALID_LIVENESS_PATHS,
    ):
        yield from _path_cases(table)
    yield from _path_cases(path_tables.NETWORK_CASES)
    for raw, _ in path_tables.NON_STRING_PATHS.values():
        yield one_os("linux", raw), None

    kinds = kind_tables.KINDS
    for kind, os_family, presence, _ in kind_tables.KIND_TABLE.values():
        yield _kind_block(os_family, dict(kinds[kind][3]), presence), None
    for os_family, item, *_ in kind_tables.SHAPE.values():
        yield _kind_block(os_family, item, PRESENCE[os_family]), None
    for os_family, item, *_ in kind_tables.UNKNOWN_KEYS.values():
        yield _kind_block(os_family, item, PRESENCE[os_family]), None
    yield _kind_block("linux", {"kind": "flatpak", "name": "com.vendor.App"}, "executable"), None
    named: list[tuple[str, object]] = [
        *((kind, value) for kind, value, _ in kind_tables.NAME_CASES.values()),
        *kind_tables.NON_STRING_NAMES.values(),
    ]
    for kind, value in named:
        _, key, presence, sample = kinds[kind]
        yield _kind_block(kind_tables.HOME_OS[kind], {**sample, key: value}, presence), None
    for value, _ in kind_tables.FILES.values():
        item = {"kind": "uninstall_registry", "display_name_prefix": "Vendor App", "file": value}
        yield _kind_block("win32", item, "executable"), None
    for os_family, presence, raw, _ in kind_tables.LONE.values():
        yield {os_family: {"presence": presence, "location": raw}}, None
    for raw, _ in kind_tables.LIST_SHAPES.values():
        block: dict[str, object] = {"presence": "executable"}
        if raw is not None:
            block["location"] = raw
        yield {"linux": block}, None

    linux = app_tables.LINUX
    for key, _ in app_tables.UNKNOWN_OS.values():
        yield {"linux": linux, key: os_block("darwin")}, None
    for raw_app, _ in app_tables.APP_SHAPES.values():
        yield raw_app, None
    yield {"linux": linux, 1: os_block("linux")}, None
    for raw_app, _ in app_tables.VALID_APPS.values():
        yield raw_app, None
    for os_family, value, _ in app_tables.PRESENCES.values():
        yield {os_family: {"presence": value, "location": ROOTED[os_family]}}, None
    yield {"linux": {"location": "/opt/vendor"}}, None
    for key, _ in app_tables.OS_BLOCK_KEYS.values():
        yield {"linux": {**linux, key: "x"}}, None
    yield {"linux": {"presence": "executable", "locations": ["/opt/vendor"]}}, None
    versions: list[tuple[str, object]] = [
        *((os_family, version) for os_family, version, *_ in app_tables.VALID_VERSIONS.values()),
        *((os_family, version) for os_family, version, _ in app_tables.INVALID_VERSIONS.values()),
    ]
    for os_family, version in versions:
        yield one_os(os_family, version=version), None
    for version in app_tables.VERSION_TYPES.values():
        yield one_os("win32", version=version), None
    yield one_os("win32", version={"kind": "pe_resource", "knd": "x"}), None
    for os_family, liveness, _ in app_tables.VALID_LIVENESS.values():
        yield one_os(os_family, liveness=liveness), None
    for liveness, _ in app_tables.INVALID_LIVENESS.values():
        yield one_os("linux", liveness=liveness), None
    for key, _ in app_tables.LIVENESS_KEY_TYPOS.values():
        yield one_os("linux", liveness=_server_json("linux", **{key: "x"})), None
    for key, value, _ in app_tables.KEY_NAMES.values():
        yield one_os("linux", liveness=_server_json("linux", **{key: value})), None
    for value, _ in app_tables.ENDPOINT_PATHS.values():
        yield one_os("win32", liveness=_server_json("win32", endpoint_path=value)), None
    for raw_app, raw_requires, _ in app_tables.NULL_UNKNOWN_KEYS.values():
        yield raw_app, raw_requires
    for raw_app, _ in app_tables.NULL_VS_EMPTY.values():
        yield raw_app, None

    versioned = requires_tables.VERSIONED
    for raw_app, raw_requires, _ in requires_tables.VALID.values():
        yield raw_app, raw_requires
    for value, _ in requires_tables.MIN_VERSIONS.values():
        yield versioned, {"app": True, "min_version": value}
    for key, value in requires_tables.WRONG_TYPES.values():
        yield versioned, {"app": True, "min_version": "2", key: value}
    for value in requires_tables.GPUS.values():
        yield None, {"gpu": value}
    for raw_requires in requires_tables.REQUIRES_SHAPES.values():
        yield {"linux": requires_tables.LINUX}, raw_requires
    yield None, {"app": False, 1: True}
    for key, _ in requires_tables.UNKNOWN_KEYS.values():
        yield None, {key: "2.3"}
    for raw_app, raw_requires, _ in [
        *requires_tables.CROSS.values(),
        *requires_tables.MANY.values(),
        *requires_tables.CANONICAL.values(),
    ]:
        yield raw_app, raw_requires
    for raw_app, _, _ in requires_tables.NAMED_BLOCKS.values():
        yield raw_app, {"app": True, "min_version": "2"}

    for raw_app, raw_requires, _ in EXTRA_CASES.values():
        yield raw_app, raw_requires

    yield from language_1_1_cases()

    full = declaration_tables.FULL_APP
    for raw_requires in (None, {"app": True}, {"app": True, "min_version": "2.3.0"}):
        yield full, raw_requires
    for raw_app, raw_requires, _ in declaration_tables.CANONICAL:
        yield raw_app, raw_requires


def test_schema_agrees_with_the_parser_on_every_table_case(
    record_property: Any,
) -> None:
    tally: Counter[str] = Counter()
    cases = list(table_cases())
    for raw_app, raw_requires in cases:
        agreement(raw_app, raw_requires, tally)
    report = _report(tally)
    print(f"\nschema agreement over {len(cases)} table cases: {report}")
    record_property("schema_agreement_tables", report)
    assert len(cases) > 900
    for dialect in DIALECTS:
        assert tally[f"{dialect} agreed"] > 800


# --- agreement on near-valid declarations from Hypothesis --------------------------------------
# A valid declaration is built first, then zero to two mutations land anywhere in it: an odd piece
# inserted into a string, a value replaced, a key added or removed, a list item dropped.

_ROOTS = {
    "win32": [
        "C:\\",
        "c:/",
        "~",
        "~alice\\",
        "%ProgramFiles%",
        "%ProgramFiles(x86)%\\",
        "$HOME",
        "${LOCALAPPDATA}/",
    ],
    "posix": ["/", "~", "~/", "~alice/", "$HOME/", "${XDG_DATA_HOME}/", "$V"],
}
_SEGMENTS = [
    "Vendor",
    "Vendor App *",
    "bin",
    "vendor.exe",
    "..x",
    "x..",
    ".. x",
    "100%",
    "a:b",
    "%X%",
    "[1]",
    ".",
    "é",
    "CON",
    "nul.txt",
    "Com1 .",
    "CONSOLE",
]
_POSIX_SEGMENTS = [*_SEGMENTS, "..."]
_SPACES = ["", "", "", " ", "\t", "\n", "\u3000", "\x1f", "\x85"]
_ODD_PIECES = [
    "/../",
    "\\..\\",
    "/.. /",
    "\\... \\",
    "/.. .",
    "\\..",
    "/..",
    "..",
    "//",
    "\\\\",
    "**",
    "*",
    "http://",
    "s3://",
    "\x00",
    "\n",
    " ",
    "\u2028",
    "\x85",
    "\x1c",
    "\ufeff",
    "%A%",
    "C:",
    "c:\\",
    "~",
    "$1",
    "${1}",
    "%%",
    ":",
    "/",
    "\\",
    ".",
    "-",
    "?",
    "#",
    "@",
    "é",
    "1234567890",
    "v",
    "/NUL",
    "\\aux.",
    "lpt\u00b3",
]
_ODD_VALUES: list[object] = [
    None,
    "",
    " ",
    [],
    {},
    0,
    1,
    2.5,
    True,
    False,
    "x",
    "none",
    "true",
    "nvidia",
    "amd",
    "executable",
    "bundle",
    "exe",
    "2.3",
    "/opt/x",
    "C:\\x.exe",
    "%APPDATA%/x",
    "command",
    "flatpak",
    "plist",
    "pe_resource",
    "uninstall_registry",
    "server_json",
    "app_bundle",
    {"kind": "command", "name": "v"},
    {"kind": "snap", "name": "v"},
    ["/opt/x"],
    "x86_64",
    "arm64",
    ["x86_64", "arm64"],
    "13.0",
    {"winget": "Vendor.Studio"},
    {"url": "https://vendor.example/"},
    {"flatpak": "com.vendor.Studio", "remote": "flathub"},
]
_KEYS = [
    "kind",
    "name",
    "app_id",
    "file",
    "display_name_prefix",
    "path",
    "pid_key",
    "endpoint_path",
    "presence",
    "location",
    "version",
    "liveness",
    "win32",
    "darwin",
    "linux",
    "macos",
    "app",
    "min_version",
    "gpu",
    "min_versoin",
    "nmae",
    "locations",
    "display_name",
    "min_os_version",
    "install",
    "arch",
    "winget",
    "brew",
    "remote",
    "url",
]
_NAMES = ["vendor", "Vendor App", "com.vendor.App", "...", "..vendor", "Vëndor", " padded "]
_FILES = ["vendor.exe", "bin\\vendor.exe", "bin/v.exe", "Vendor App\\v.exe", "..v", "a. b"]
_KEY_NAMES = ["pid", "http", "token", "a.b-c_1", None]
_ENDPOINTS = ["/mcp", "/", "/v1/mcp/", "/a/./mcp", "/a/..b", None]
_OS_VERSIONS = ["13.0", "10.0.19041", "14", None]
_HINTS: dict[str, list[dict[str, object]]] = {
    "win32": [{"winget": "Vendor.Studio"}, {"winget": "Notepad++.Notepad++"}],
    "darwin": [{"brew_cask": "vendor-studio@beta"}, {"brew": "vendor/tap/vendor-cli"}],
    "linux": [
        {"brew": "python@3.12"},
        {"flatpak": "com.vendor.Studio"},
        {"flatpak": "org.example.App-Beta", "remote": "flathub-beta"},
        {"snap": "vendor-studio"},
    ],
}
_URL_HINTS: list[dict[str, object]] = [
    {"url": "https://vendor.example/download"},
    {"url": "https://[2001:db8::1]:8443/a?b#c"},
]
_DISPLAY_NAMES = ["Vendor Studio", "V", "Écriture Pro"]


@st.composite
def valid_paths(draw: st.DrawFn, os_family: str, *, star: bool = True) -> str:
    """A path the parser accepts under ``os_family``, padded with whitespace it strips."""
    windows = os_family == "win32"
    root = draw(st.sampled_from(_ROOTS["win32" if windows else "posix"]))
    separator = draw(st.sampled_from(["\\", "/"])) if windows else "/"
    segment = st.sampled_from(_SEGMENTS if windows else _POSIX_SEGMENTS)
    segments = draw(st.lists(segment.filter(lambda text: star or "*" not in text), max_size=3))
    if root[-1:] not in ("\\", "/") and segments:
        root += separator
    space = st.sampled_from(_SPACES)
    return draw(space) + root + separator.join(segments) + draw(space)


@st.composite
def valid_places(draw: st.DrawFn, os_family: str, presence: str) -> object:
    """A path, or a location-kind mapping of a kind valid here that finds ``presence``."""
    fitting = [
        variant
        for variant in KIND_LOCATIONS
        if os_family in variant.VALID_OS and presence == variant.PRESENCE
    ]
    if not fitting or draw(st.booleans()):
        return draw(valid_paths(os_family))
    variant = draw(st.sampled_from(fitting))
    mapping: dict[str, object] = {"kind": variant.KIND}
    for key in variant.model_fields:
        if key != "kind":
            mapping[key] = draw(st.sampled_from(_FILES if key == "file" else _NAMES))
    return mapping


_VERSIONS: dict[str, list[object]] = {
    "win32": [{"kind": "pe_resource"}, {"kind": "uninstall_registry", "display_name_prefix": "V"}],
    "darwin": [{"kind": "plist"}],
    "linux": [],
}
_NO_SOURCE: list[object] = [None, {}, {"kind": None}, {"kind": "none"}]


@st.composite
def valid_blocks(draw: st.DrawFn, os_family: str) -> dict[str, object]:
    """An OS block the parser accepts."""
    presence = draw(
        st.sampled_from(
            ["bundle", "executable"] if os_family == "darwin" else ["executable", "bundle"]
        )
    )
    places = valid_places(os_family, presence)
    block: dict[str, object] = {
        "presence": presence,
        "location": draw(places | st.lists(places, min_size=1, max_size=3)),
    }
    version = draw(st.sampled_from(_NO_SOURCE + _VERSIONS[os_family] * 2))
    if version is not None or draw(st.booleans()):
        block["version"] = version
    server_json = st.fixed_dictionaries(
        {"kind": st.just("server_json"), "path": valid_paths(os_family, star=False)},
        optional={
            "pid_key": st.sampled_from(_KEY_NAMES),
            "url_key": st.sampled_from(_KEY_NAMES),
            "token_key": st.sampled_from(_KEY_NAMES),
            "endpoint_path": st.sampled_from(_ENDPOINTS),
        },
    )
    liveness = draw(st.sampled_from([None, {}, {"kind": "none"}]) | server_json)
    if liveness is not None or draw(st.booleans()):
        block["liveness"] = liveness
    if os_family != "linux" and draw(st.booleans()):
        block["min_os_version"] = draw(st.sampled_from(_OS_VERSIONS))
    if draw(st.booleans()):
        hint = st.sampled_from(_HINTS[os_family] + _URL_HINTS)
        block["install"] = draw(hint | st.lists(hint, min_size=1, max_size=3) | st.none())
    return block


def _has_source(block: object) -> bool:
    version = block.get("version") if isinstance(block, dict) else None
    return isinstance(version, dict) and version.get("kind") not in (None, "none")


@st.composite
def valid_declarations(draw: st.DrawFn) -> dict[str, object]:
    """An ``{app, requires}`` the parser accepts, with or without an app block."""
    app: dict[str, object] = {}
    for os_family in OS_FAMILIES:
        choice = draw(st.integers(0, 2))
        if choice:
            app[os_family] = draw(valid_blocks(os_family)) if choice == 2 else None
    if not any(block is not None for block in app.values()):
        return {
            "app": None,
            "requires": draw(
                st.sampled_from(
                    [None, {}, {"app": False}, {"gpu": "nvidia"}, {"app": None, "gpu": None}]
                )
            ),
        }
    requires: dict[str, object] = {}
    wanted = draw(st.sampled_from([True, False, None, "absent"]))
    if wanted != "absent":
        requires["app"] = wanted
    sourced = [
        app.get(os_family) for os_family in ("win32", "darwin") if app.get(os_family) is not None
    ]
    if wanted is True and sourced and all(_has_source(block) for block in sourced):
        requires["min_version"] = draw(st.sampled_from(["2", "2.3.0", "123456789.0", None]))
    if draw(st.booleans()):
        requires["gpu"] = draw(st.sampled_from(["nvidia", None]))
    if draw(st.booleans()):
        requires["arch"] = draw(st.sampled_from(["x86_64", "arm64", ["arm64", "x86_64"], None]))
    if draw(st.booleans()):
        app["display_name"] = draw(st.sampled_from([*_DISPLAY_NAMES, None]))
    return {"app": app, "requires": draw(st.sampled_from([requires, requires, None]))}


def _places(value: object, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _places(item, (*path, index))


def _at(root: object, path: tuple[str | int, ...]) -> Any:
    node: Any = root
    for step in path:
        node = node[step]
    return node


@st.composite
def declarations(draw: st.DrawFn) -> tuple[object, object, str]:
    """A near-valid ``(app, requires, server name)``: a valid one with up to two mutations."""
    document = copy.deepcopy(draw(valid_declarations()))
    for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
        operation = draw(st.sampled_from(["path", "path", "edit", "replace", "add", "delete"]))
        fitting = [
            path
            for path in list(_places(document))[1:]
            if (operation not in ("edit", "path") or isinstance(_at(document, path), str))
            and (operation != "path" or bool({"location", "path"} & set(path)))
            and (operation != "add" or isinstance(_at(document, path), dict))
            and (operation != "delete" or len(path) > 1)
        ]
        if not fitting:
            continue
        path = draw(st.sampled_from(fitting))
        parent, key = _at(document, path[:-1]), path[-1]
        value = parent[key]
        if operation in ("edit", "path"):
            at = draw(st.integers(0, len(value)))
            parent[key] = value[:at] + draw(st.sampled_from(_ODD_PIECES)) + value[at:]
        elif operation == "add":
            value[draw(st.sampled_from(_KEYS))] = copy.deepcopy(draw(st.sampled_from(_ODD_VALUES)))
        elif operation == "delete":
            del parent[key]
        else:
            parent[key] = copy.deepcopy(draw(st.sampled_from(_ODD_VALUES)))
    name = draw(st.sampled_from([NAME, NAME, NAME, "my server", "", " \t", "\u3000"]))
    return document.get("app"), document.get("requires"), name


HYPOTHESIS_TALLY: Counter[str] = Counter()


@settings(
    max_examples=600,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(declarations())
def test_schema_agrees_with_the_parser_on_generated_declarations(
    case: tuple[object, object, str],
) -> None:
    raw_app, raw_requires, name = case
    agreement(raw_app, raw_requires, HYPOTHESIS_TALLY, name)


def test_report_generated_agreement(record_property: Any) -> None:
    """Runs after the Hypothesis test (file order) and reports what it counted."""
    if not HYPOTHESIS_TALLY:
        pytest.skip("the Hypothesis agreement test did not run")
    report = _report(HYPOTHESIS_TALLY)
    print(f"\nschema agreement over generated declarations: {report}")
    record_property("schema_agreement_generated", report)
    for dialect in DIALECTS:
        assert HYPOTHESIS_TALLY[f"{dialect} agreed"] > 0


# --- the patterns are ECMA-262 and mean in JavaScript what they mean in Python -------------------


def _patterns() -> list[str]:
    found: set[str] = set()
    for dialect in DIALECTS:
        for single in (True, False):
            for node in _subschemas(json_schema(dialect, single=single)):
                if "pattern" in node:
                    found.add(node["pattern"])
    return sorted(found)


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


NODE_MATCHER = """
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const result = input.patterns.map((p) => {
  const re = new RegExp(p, "u");
  return input.strings.map((s) => re.test(s));
});
process.stdout.write(JSON.stringify(result));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run ECMA-262 regexes")
def test_patterns_match_alike_in_javascript_and_python() -> None:
    patterns = _patterns()
    strings = sorted({text for case in table_cases() for text in _strings(case)})
    strings += [piece * 2 for piece in _ODD_PIECES + _SPACES] + [
        "2.3\n",
        "/mcp\n",
        " .. ",
        "a/..\t",
    ]
    node = shutil.which("node")
    assert node is not None
    completed = run_started(
        [node, "-e", NODE_MATCHER],
        input=json.dumps({"patterns": patterns, "strings": strings}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    in_javascript = json.loads(completed.stdout)
    for pattern, verdicts in zip(patterns, in_javascript, strict=True):
        compiled = re.compile(pattern)
        for text, verdict in zip(strings, verdicts, strict=True):
            assert (compiled.search(text) is not None) == verdict, (pattern, text)
