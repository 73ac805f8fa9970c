"""Every string rule's three renderings agree: the explaining check, the editor patterns, the fast
pattern that pydantic-core runs.

For each ``TextRules`` the models use, over the rule tables' own values and generated strings:
the fast pattern accepts a value only when the check keeps it, unchanged but for the stripping a
path gets, and accepts every value the check keeps except those its ``leaves`` names; the editor
patterns all match exactly the values the check keeps.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from pydantic_core import PydanticCustomError, SchemaValidator, ValidationError

from hermes_decl.models import path_rules, text_rules, validators
from hermes_decl.models.override_locations import OVERRIDES_ADAPTER
from hermes_decl.models.path_atoms import WINDOWS_DEVICE_NAME, WINDOWS_DEVICE_NAMES
from hermes_decl.models.rules import windows_device_name
from hermes_decl.models.text_rules import SPACE_CLASS, TextRules
from tests import test_rules_app_block as app_tables
from tests import test_rules_kinds as kind_tables
from tests import test_rules_language_1_1 as language_1_1_tables
from tests import test_rules_paths as path_tables


def _catalogue() -> dict[str, TextRules]:
    found: dict[str, TextRules] = {}
    for module in (text_rules, path_rules):
        for name, value in vars(module).items():
            if isinstance(value, TextRules):
                found[f"{module.__name__.rsplit('.', 1)[-1]}.{name}"] = value
            elif isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(item, TextRules):
                        found[f"{module.__name__.rsplit('.', 1)[-1]}.{name}[{key}]"] = item
    return found


CATALOGUE = _catalogue()
RULES = list(CATALOGUE.values())
IDS = list(CATALOGUE)


def _used_by(schema: Any, found: set[int]) -> None:
    if isinstance(schema, dict):
        wrapper = schema.get("function")
        function = wrapper.get("function") if isinstance(wrapper, dict) else None
        owner = getattr(function, "__self__", None)
        if isinstance(owner, TextRules):
            found.add(id(owner))
        for value in schema.values():
            _used_by(value, found)
    elif isinstance(schema, list):
        for value in schema:
            _used_by(value, found)


def test_the_catalogue_holds_every_rule_the_models_use() -> None:
    used: set[int] = set()
    for schema in (validators.DECLARATION_SCHEMA, OVERRIDES_ADAPTER.core_schema):
        _used_by(schema, used)
    assert used == {id(rule) for rule in RULES}
    assert len(RULES) == 23


# --- the characters a path is stripped of ------------------------------------------------------


def test_the_space_class_is_every_character_str_strip_removes() -> None:
    spaces = re.compile(f"[{SPACE_CLASS}]")
    for code in range(0x110000):
        character = chr(code)
        assert bool(spaces.fullmatch(character)) == character.isspace(), hex(code)


def test_pydantic_core_reads_whitespace_as_str_strip_does_but_the_information_separators() -> None:
    # a path's fast pattern refuses \s where a segment may end, for the check's str.strip
    not_space = SchemaValidator({"type": "str", "pattern": r"^\S$"})
    differ = []
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        try:
            not_space.validate_python(chr(code))
        except ValidationError:
            space = True
        else:
            space = False
        if space != chr(code).isspace():
            differ.append(code)
    assert differ == [0x1C, 0x1D, 0x1E, 0x1F]


# --- each rule: the fast pattern, the editor patterns and the check agree -----------------------


def _kept(rule: TextRules, value: str) -> str | None:
    """What the check keeps of ``value``, or None when it refuses it."""
    try:
        return rule.check(value)
    except PydanticCustomError:
        return None


_FAST = {id(rule): SchemaValidator(rule.accept.core_schema()) for rule in RULES}


def _fast(rule: TextRules, value: str) -> str | None:
    try:
        kept: str = _FAST[id(rule)].validate_python(value)
    except ValidationError:
        return None
    return kept


def _editor_accepts(rule: TextRules, value: str) -> bool:
    return all(re.search(each.pattern, value) is not None for each in rule.rules)


def assert_agree(rule: TextRules, value: str) -> None:
    kept = _kept(rule, value)
    fast = _fast(rule, value)
    if fast is not None:
        assert kept == fast, f"the fast pattern accepts {value!r}, the check keeps {kept!r}"
    elif kept is not None:
        assert rule.accept.may_leave(value), f"the check keeps {value!r}, the pattern refuses it"
    assert _editor_accepts(rule, value) == (kept is not None), value


PIECES = [
    *("/", "\\", "//", "\\\\", ".", "..", "...", ". ", " ", "  ", "*", "**", "-", "_", "@", "+"),
    *("C:", "c:/", "C:\\", "~", "~alice", "$HOME", "${X}", "${", "$1", "%APPDATA%", "%", "=", ":"),
    *("CON", "con", "Com1", "lpt\u00b9", "CONIN$", "conout$", "NUL", "aux.txt", "prn ", "COM"),
    *("http://", "s3://", "1://", "https://", "vendor", "Vendor App", "vendor.exe", "a", "Z", "9"),
    *("\x00", "\t", "\n", "\x1c", "\x1f", "\x85", "\u3000", "\u2028", "\u202e", "\ud800", "é"),
    *("com.vendor.App", "[::1]", "#", "?", "x" * 40, "0", "2.3", "..x", "x..", "{", "}", "$"),
]
VALUES = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=8).map("".join)


@pytest.mark.parametrize("rule", RULES, ids=IDS)
@settings(max_examples=400, deadline=None, database=None)
@given(value=VALUES)
@example(value="~:")
@example(value="%:%")
@example(value="\u3000~:}")
@example(value="C:\\Vendor\\a:b")
def test_the_patterns_and_the_check_agree_on_generated_values(rule: TextRules, value: str) -> None:
    # No example database: a value saved by one run would make every later run replay it.
    assert_agree(rule, value)


def _table_strings() -> Iterator[str]:
    """Every string the rule tables hold, at any depth."""
    pending: list[Any] = [
        vars(module) for module in (path_tables, kind_tables, app_tables, language_1_1_tables)
    ]
    seen: set[int] = set()
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            pending.extend(value)


TABLE_STRINGS = sorted(set(_table_strings()))


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_the_patterns_and_the_check_agree_on_every_table_string(rule: TextRules) -> None:
    assert len(TABLE_STRINGS) > 500
    for value in TABLE_STRINGS:
        assert_agree(rule, value)


@pytest.mark.parametrize(
    ("rule", "value"),
    [
        (path_rules.LOCATION_PATHS["win32"], "C:\\Vendor\\a:b"),
        (path_rules.LOCATION_PATHS["win32"], "~:"),
        (path_rules.LOCATION_PATHS["win32"], "~:Vendor"),
        (path_rules.LOCATION_PATHS["win32"], "\u3000~:}"),
        (path_rules.LOCATION_PATHS["win32"], "%:%\\Vendor"),
        (path_rules.RUNTIME_FILES["win32"], "~:\\run.json"),
        (path_rules.LOCATION_PATHS["linux"], "/opt/a:b"),
        (path_rules.LOCATION_PATHS["linux"], "\x1c/opt/ab"),
        (path_rules.LOCATION_PATHS["darwin"], "/opt/x\x1f"),
    ],
    ids=[
        "second-colon",
        "tilde-colon",
        "tilde-colon-name",
        "tilde-colon-after-ideographic-space",
        "variable-named-colon",
        "runtime-file-tilde-colon",
        "posix-colon",
        "separator-at-the-start",
        "separator-at-the-end",
    ],
)
def test_what_a_path_pattern_leaves_to_the_check_is_valid_and_refused_only_there(
    rule: TextRules, value: str
) -> None:
    assert _kept(rule, value) is not None
    assert _fast(rule, value) is None
    assert rule.accept.may_leave(value)


# --- the Windows device names, as each rendering spells them ------------------------------------


def _spellings(name: str) -> Iterator[str]:
    yield name
    yield name.lower()
    yield name[:1] + name[1:].lower()
    yield name.lower()[:-1] + name[-1:]


DEVICE_SEGMENTS = st.builds(
    "{}{}{}".format,
    st.sampled_from(sorted(WINDOWS_DEVICE_NAMES)).flatmap(
        lambda name: st.sampled_from(list(_spellings(name)))
    )
    | st.text(alphabet="CONINOUTPRAXLMU$1\u00b9\u0131\u212a", max_size=7),
    st.sampled_from(["", " ", "  ", "x", " x", "*"]),
    st.sampled_from(["", ".", ".txt", ". ", ":", ":x", "\\x", "/x"]),
)


@settings(max_examples=600, deadline=None, database=None)
@given(segment=DEVICE_SEGMENTS)
def test_every_rendering_names_the_same_windows_devices(segment: str) -> None:
    device = windows_device_name(re.split(r"[\\/]", segment)[0]) is not None
    win32_path = f"C:\\x\\{segment}"
    relative = f"x\\{segment}"
    for rule, value in (
        (path_rules.LOCATION_PATHS["win32"], win32_path),
        (path_rules.RUNTIME_FILES["win32"], win32_path),
        (path_rules.RELATIVE_FILE, relative),
    ):
        assert_agree(rule, value)
        if device:
            assert _fast(rule, value) is None, value


def test_the_device_name_pattern_matches_exactly_the_device_names() -> None:
    pattern = re.compile(WINDOWS_DEVICE_NAME)
    spelled = {spelling for name in WINDOWS_DEVICE_NAMES for spelling in _spellings(name)}
    near = {"COM", "CONIN", "CONOUT", "LPT10", "COM\u2074", "AUXX", "NU", "c0n", "conın$"}
    for candidate in spelled | near:
        assert bool(pattern.fullmatch(candidate)) == (candidate in spelled), candidate
    assert len(spelled) > len(WINDOWS_DEVICE_NAMES)


def test_a_string_rule_renders_its_own_json_schema_with_any_generator() -> None:
    rendered = TypeAdapter(Annotated[str, path_rules.KEY_NAME]).json_schema()
    assert rendered == {
        "type": "string",
        "allOf": [
            {
                "pattern": "^[A-Za-z0-9_.-]+(?![\\s\\S])",
                "patternErrorMessage": (
                    "must be a simple key name of letters, digits, '_', '.' or '-'"
                ),
            }
        ],
    }
