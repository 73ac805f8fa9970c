"""The fast validator and the explaining schema agree: same verdicts, same models.

The parser validates with the fast schema first and, on a refusal, with the explaining one. So
the fast schema must never accept what the explaining one refuses, and must build the very same
models (same classes, values, keys set and carried name). It may refuse a valid declaration only
for the reasons its module names. Checked on every declaration of the rule tables, the fuzz seeds,
the examples, the recorded language-1.0 calls and near-valid declarations from Hypothesis, through
both entry shapes: a whole declaration, and ``{app, requires}`` one block at a time.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Annotated, Any

import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import AfterValidator, BaseModel, TypeAdapter, ValidationError
from pydantic_core import SchemaValidator

from hermes_decl import declaration
from hermes_decl.loader.core_schema import safe_load
from hermes_decl.models import validators
from hermes_decl.models.app_block import APP_ID_CONTEXT_KEY
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.fast import fast_schema, one_or_list
from hermes_decl.models.fast_rules import rules_hold
from hermes_decl.models.path_rules import (
    ENTRY_PREFIX,
    LOCATION_PATHS,
    RELATIVE_FILE,
    RUNTIME_FILES,
)
from hermes_decl.models.text_rules import SPACE_CLASS
from tests.test_schema import declarations, table_cases

ROOT = Path(__file__).resolve().parent.parent
NAME = "vendor-server"


def _fuzz_seeds() -> Iterator[tuple[object, object]]:
    for path in sorted((ROOT / "fuzz" / "corpus" / "parser").iterdir()):
        try:
            document = json.loads(path.read_bytes())
        except ValueError:
            continue
        if isinstance(document, dict):
            yield document.get("app"), document.get("requires")


def _examples() -> Iterator[tuple[object, object]]:
    for path in sorted((ROOT / "examples").glob("*.yaml")):
        document = safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(document, dict):
            continue
        servers = document.get("mcp_servers", document)
        for body in servers.values() if isinstance(servers, dict) else ():
            if isinstance(body, dict):
                yield body.get("app"), body.get("requires")


def _recorded() -> Iterator[tuple[object, object]]:
    recording = json.loads((ROOT / "tests" / "data" / "language-1.0-models.json").read_text())
    for call in recording["calls"]:
        yield call["app"], call.get("requires")


CORPUS = [*table_cases(), *_fuzz_seeds(), *_examples(), *_recorded()]


def _tree(value: object) -> object:
    """Everything a model tree holds, as plain data: classes, values, keys set, private state."""
    if isinstance(value, BaseModel):
        return (
            type(value),
            {name: _tree(getattr(value, name)) for name in type(value).model_fields},
            frozenset(value.model_fields_set),
            value.__pydantic_private__,
        )
    if isinstance(value, tuple):
        return tuple(_tree(item) for item in value)
    return value


def _given(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if value is not None}


def _fast(fast: SchemaValidator, data: dict[str, Any], name: str) -> Any:
    """What the parser's fast path makes of ``data``: the fast validator, then the rules only
    Python can say (which give each new block the name); None where either refuses."""
    try:
        quick = fast.validate_python(_given(data))
    except ValidationError:
        return None
    return quick if rules_hold(quick, data.get("app"), name) else None


def _explained(explaining: SchemaValidator, data: dict[str, Any], name: str) -> Any:
    try:
        return explaining.validate_python(data, context={APP_ID_CONTEXT_KEY: name})
    except (ValidationError, RecursionError):
        return None


def _null_or_default_kind(value: object) -> bool:
    """Whether a value holds a null or a ``version``/``liveness`` mapping without ``kind``."""
    if isinstance(value, dict):
        for key, item in value.items():
            if item is None:
                return True
            if key in ("version", "liveness") and isinstance(item, dict) and "kind" not in item:
                return True
            if _null_or_default_kind(item):
                return True
    if isinstance(value, list):
        return any(_null_or_default_kind(item) for item in value)
    return False


def _left_path(value: object) -> bool:
    """Whether a string somewhere is one a path's fast pattern leaves to the check."""
    if isinstance(value, str):
        # every rule whose fast pattern says what it leaves (``Accept.leaves``)
        rules = [*LOCATION_PATHS.values(), *RUNTIME_FILES.values(), ENTRY_PREFIX, RELATIVE_FILE]
        return any(rule.accept.may_leave(value) for rule in rules)
    if isinstance(value, dict):
        return any(_left_path(item) for item in value.values())
    if isinstance(value, list):
        return any(_left_path(item) for item in value)
    return False


def agree(raw_app: object, raw_requires: object, name: str = NAME) -> str:
    """Check one input through both entry shapes; say how the fast schema judged it."""
    verdicts = []
    shapes: list[tuple[SchemaValidator, SchemaValidator, dict[str, Any]]] = [
        (
            validators.DECLARATION,
            validators.FAST_DECLARATION,
            {"name": name, "app": raw_app, "requires": raw_requires},
        ),
        (validators.REQUIRES_WITH_APP, validators.FAST_REQUIRES_WITH_APP, {"app": raw_app}),
    ]
    for explaining, fast, data in shapes:
        explained = _explained(explaining, data, name)
        quick = _fast(fast, data, name)
        if quick is None:
            if explained is not None:
                assert _null_or_default_kind(data) or _left_path(data), (
                    f"the fast schema refuses a valid declaration for no listed reason: {data!r}"
                )
            verdicts.append("left" if explained is not None else "refused")
            continue
        assert explained is not None, f"the fast schema accepts an invalid declaration: {data!r}"
        assert _tree(quick) == _tree(explained), data
        assert quick == explained
        verdicts.append("fast")
    return verdicts[0]


_SPACED_SEGMENT = re.compile(f"(?:^|[\\\\/])[{SPACE_CLASS}]|[{SPACE_CLASS}](?:[\\\\/]|$)")


def _spaced_segment(value: object) -> bool:
    """Whether a string somewhere has a segment that starts or ends with whitespace (a path
    with surrounding whitespace, which YAML writes only quoted): a path's fast pattern, which
    matches it as written, leaves those to the check, which strips them."""
    if isinstance(value, str):
        return _SPACED_SEGMENT.search(value) is not None
    if isinstance(value, dict):
        return any(_spaced_segment(item) for item in value.values())
    if isinstance(value, list):
        return any(_spaced_segment(item) for item in value)
    return False


def test_the_fast_and_explaining_schemas_agree_on_every_test_declaration() -> None:
    verdicts = [(agree(app, requires), _spaced_segment(app)) for app, requires in CORPUS]
    assert len(verdicts) > 2000
    fast = sum(verdict == "fast" for verdict, _ in verdicts)
    left = sum(verdict == "left" and not spaced for verdict, spaced in verdicts)
    assert fast > 850 and left < fast / 10, (fast, left)


def test_one_block_at_a_time_agrees_too() -> None:
    for raw_app, raw_requires in CORPUS:
        try:
            block = declaration.parse_app(raw_app, name=NAME, where="w")
        except declaration.DeclarationError:
            continue
        data = {"app": block, "requires": raw_requires}
        explained = _explained(validators.REQUIRES_WITH_APP, data, NAME)
        quick = _fast(validators.FAST_REQUIRES_WITH_APP, data, NAME)
        if quick is None:
            continue
        assert explained is not None and quick.app is block
        assert _tree(quick.requires) == _tree(explained.requires)


@settings(
    max_examples=500,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(declarations())
def test_the_schemas_agree_on_near_valid_declarations(case: tuple[object, object, str]) -> None:
    raw_app, raw_requires, name = case
    agree(raw_app, raw_requires, name)


def test_the_parser_carries_the_name_into_every_block_it_builds() -> None:
    block = {"presence": "executable", "location": "/opt/x"}
    app = {"linux": block, "win32": {**block, "location": "C:/x"}}
    decl = declaration.parse_declaration(NAME, app, None, where="w")
    linux, win32 = decl.app_for("linux"), decl.app_for("win32")
    assert linux is not None and win32 is not None
    assert (linux.app_id, win32.app_id) == (NAME, NAME)
    alone = declaration.parse_app({"linux": block}, name="other", where="w")
    assert alone is not None and alone.linux is not None and alone.linux.app_id == "other"
    requires = declaration.parse_requires({"app": True}, alone, where="w")
    assert requires.app is True and alone.linux.app_id == "other"


def test_a_block_given_already_built_keeps_its_name_on_both_paths() -> None:
    alone = declaration.parse_app(
        {"linux": {"presence": "executable", "location": "/x"}}, name="other", where="w"
    )
    block = alone.linux if alone is not None else None
    assert alone is not None and block is not None
    for app in (alone, {"linux": block}):
        decl = declaration.parse_declaration(NAME, app, None, where="w")
        assert block.app_id == "other"
        assert decl.app_for("linux") is block
        data = {"name": NAME, "app": app}
        explained = _explained(validators.DECLARATION, data, NAME)
        assert explained is not None and explained.app_for("linux") is block


def test_the_fast_validator_reads_a_block_from_a_mapping_only() -> None:
    """A block given already built goes to the explaining schema, so every block in an ``app``
    the fast validator builds is new, and ``rules_hold`` may give it the name."""
    alone = declaration.parse_app(
        {"linux": {"presence": "executable", "location": "/x"}}, name="other", where="w"
    )
    assert alone is not None
    with pytest.raises(ValidationError) as refused:
        validators.FAST_DECLARATION.validate_python({"name": NAME, "app": {"linux": alone.linux}})
    assert [error["type"] for error in refused.value.errors()] == ["dict_type"]
    given = validators.FAST_DECLARATION.validate_python({"name": NAME, "app": alone})
    assert given.app is alone  # a whole block given built is kept, and not named again
    assert rules_hold(given, alone, NAME) and alone.linux is not None
    assert alone.linux.app_id == "other"


_LINUX = {"presence": "executable", "location": "/x"}
_DARWIN_NO_SOURCE = {"presence": "bundle", "location": {"kind": "app_bundle", "name": "V.app"}}
_DARWIN_SOURCED = {**_DARWIN_NO_SOURCE, "version": {"kind": "plist"}}


@pytest.mark.parametrize(
    ("app", "requires", "holds"),
    [
        (None, None, True),
        (None, {"app": False}, True),
        (None, {"app": True}, False),  # requires.app without an app block
        (None, {"min_version": "2"}, False),  # min_version without app
        ({}, None, False),  # no OS block
        ({"linux": _LINUX}, {"app": True}, True),
        ({"linux": _LINUX}, {"app": True, "min_version": "2"}, False),  # no block with a source
        ({"darwin": _DARWIN_SOURCED}, {"min_version": "2"}, False),  # min_version without app
        ({"darwin": _DARWIN_SOURCED}, {"app": True, "min_version": "2"}, True),
        ({"darwin": _DARWIN_NO_SOURCE}, {"app": True, "min_version": "2"}, False),
        ({"darwin": _DARWIN_SOURCED, "linux": _LINUX}, {"app": True, "min_version": "2"}, True),
    ],
    ids=[
        "nothing",
        "app-false",
        "app-without-block",
        "minimum-without-app",
        "no-os-block",
        "linux",
        "minimum-linux-only",
        "minimum-app-false",
        "minimum-sourced",
        "minimum-no-source",
        "minimum-sourced-and-linux",
    ],
)
def test_the_rules_only_python_can_say_are_checked_on_what_the_fast_validator_built(
    app: dict[str, Any] | None, requires: dict[str, Any] | None, holds: bool
) -> None:
    data = {"name": NAME, "app": app, "requires": requires}
    built = validators.FAST_DECLARATION.validate_python(_given(data))
    assert rules_hold(built, app, NAME) is holds
    assert (_explained(validators.DECLARATION, data, NAME) is not None) is holds
    blocks = built.app.__dict__.values() if built.app is not None else ()
    # the name is carried only into a shape that keeps the rules
    assert [block.app_id for block in blocks if block is not None] == (
        [NAME] * len(app or {}) if holds else [""] * len(app or {})
    )


@pytest.mark.parametrize(
    "given",
    [
        {"app": {"linux": _LINUX, "unread": 1}},
        {"app": {"linux": {**_LINUX, "unread": 1}}},
        {"app": {"linux": {**_LINUX, "location": {"kind": "command", "name": "x", "unread": 1}}}},
        {"requires": {"app": False, "unread": 1}},
    ],
    ids=["app", "block", "location", "requires"],
)
def test_every_mapping_a_declaration_gives_is_checked_for_unknown_keys_by_the_fast_twin(
    given: dict[str, Any],
) -> None:
    with pytest.raises(ValidationError) as refused:
        validators.FAST_DECLARATION.validate_python({"name": NAME, **given})
    assert "extra_forbidden" in [error["type"] for error in refused.value.errors()]


def test_only_the_outer_mapping_the_parser_builds_is_not_checked_for_unknown_keys() -> None:
    """The parser builds each shape's outer mapping from its own arguments, so it never holds
    an unknown key, and the fast twins do not look for one there."""
    assert validators.FAST_DECLARATION.validate_python({"name": NAME, "unread": 1}).name == NAME
    assert validators.FAST_REQUIRES_WITH_APP.validate_python({"unread": 1}).app is None
    for explaining, data in (
        (validators.DECLARATION, {"name": NAME, "unread": 1}),
        (validators.REQUIRES_WITH_APP, {"unread": 1}),
    ):
        with pytest.raises(ValidationError) as refused:
            explaining.validate_python(data, context={})
        found = [(error["type"], error["loc"]) for error in refused.value.errors()]
        assert found == [("unknown_key", ("unread",))]


# --- what the fast schema is made of -------------------------------------------------------------


def _functions(schema: Any) -> Iterator[Any]:
    if isinstance(schema, dict):
        if schema.get("type", "").startswith("function-"):
            yield schema["function"]["function"]
        for value in schema.values():
            yield from _functions(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _functions(value)


@pytest.mark.parametrize(
    "schema",
    [validators.DECLARATION_SCHEMA, validators.REQUIRES_WITH_APP_SCHEMA],
    ids=["declaration", "blocks"],
)
def test_the_fast_schema_calls_python_only_for_what_nothing_else_can_say(schema: Any) -> None:
    called = {
        getattr(function, "__qualname__", repr(function))
        for function in _functions(fast_schema(schema))
    }
    # A lone value as a list of one; the rules only Python can say are checked after the
    # shape is built (fast_rules.rules_hold), not inside pydantic-core.
    assert called == {one_or_list.__qualname__}


def _shout(value: str) -> str:
    return value.upper()


class _Unmapped(FrozenModel):
    """A model whose field has a check the fast schema has no rule for."""

    value: Annotated[str, AfterValidator(_shout)]


def test_a_validator_without_a_fast_rule_is_refused() -> None:
    adapter = TypeAdapter(_Unmapped)
    adapter.rebuild(force=True)
    with pytest.raises(TypeError, match="no fast rule for validator _shout: give it a rule object"):
        fast_schema(adapter.core_schema)


def test_a_valid_declaration_runs_python_only_for_the_rules_nothing_else_can_say() -> None:
    app = {
        "win32": {
            "presence": "executable",
            "location": [
                {"kind": "uninstall_registry", "display_name_prefix": "Vendor", "file": "v.exe"},
                "%ProgramFiles%/Vendor/Vendor App */vendor.exe",
            ],
            "version": {"kind": "pe_resource"},
            "liveness": {"kind": "server_json", "path": "%LOCALAPPDATA%/Vendor/server.json"},
        },
        "darwin": {
            "presence": "bundle",
            "location": {"kind": "app_bundle", "name": "V.app"},
            "version": {"kind": "plist"},
        },
        "linux": {"presence": "executable", "location": "/opt/vendor/bin/vendor"},
    }
    called: set[str] = set()

    def record(frame: FrameType, event: str, arg: object) -> None:
        # What the parser, or pydantic-core on its behalf, calls; not what those call in turn.
        caller = frame.f_back.f_code.co_name if frame.f_back is not None else ""
        if event == "call" and caller in (here, "parse_declaration"):
            called.add(frame.f_code.co_name)

    here = sys._getframe().f_code.co_name

    sys.setprofile(record)
    try:
        declaration.parse_declaration(NAME, app, {"app": True, "min_version": "2"}, where="w")
    finally:
        sys.setprofile(None)
    assert called == {
        "parse_declaration",
        one_or_list.__name__,
        "rules_hold",  # every rule only Python can say, and carrying the name (fast_rules)
    }
