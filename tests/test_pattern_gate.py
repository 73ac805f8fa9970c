"""Every shipped pattern runs in linear time, in Node (the YAML language server's engine) and in
Python: each pattern of both committed schema dialects and each text rule's pattern is run on
pumped inputs (a pattern's characters and risky pairs, repeated to about 100 KB) under a bound.

A pattern that backtracks quadratically takes seconds to minutes on such an input; a linear one
takes milliseconds. Paths are bounded too: 4,096 characters, in the parser and as ``maxLength``.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.errors import DeclarationError
from hermes_decl.models import path_rules, text_rules
from hermes_decl.models.rules import MAX_PATH_CHARS
from hermes_decl.models.text_rules import TextRules
from tests.process_starts import run_started

ROOT = Path(__file__).parent.parent
GATE = Path(__file__).parent / "editor" / "pattern_gate.js"
SCHEMA_FILES = ("declarations.schema.json", "declarations.draft-07.schema.json")
SIZE = 100_000
LIMIT_S = 0.5
"""The most one pattern may take on one pumped input (linear ones take a few milliseconds)."""

_BASE = "aA0 \t/\\:.-%$~*@_#?é\u2028"
"""Characters every pattern is pumped with: letters, digits, whitespace, separators, the
characters path and URL rules look for."""

_PAIRS = ("a:", "a/", "/.", "..", ". ", "/..", "%a", "$a", "a.", "a-", "-a", "a@", "C:\\", "a://")
"""Repeated pairs, which a rule that looks for a sequence may backtrack over."""


def _walk_patterns(schema: Any, found: set[str]) -> None:
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "pattern" and isinstance(value, str):
                found.add(value)
            elif key == "patternProperties" and isinstance(value, dict):
                found.update(value)
            _walk_patterns(value, found)
    elif isinstance(schema, list):
        for value in schema:
            _walk_patterns(value, found)


def _text_rules() -> list[TextRules]:
    rules: list[TextRules] = []
    for module in (text_rules, path_rules):
        for value in vars(module).values():
            values = value.values() if isinstance(value, dict) else (value,)
            rules += [item for item in values if isinstance(item, TextRules)]
    return rules


def _schema_patterns() -> set[str]:
    found: set[str] = set()
    for name in SCHEMA_FILES:
        _walk_patterns(json.loads((ROOT / "schema" / name).read_text(encoding="utf-8")), found)
    return found


SCHEMA_PATTERNS = sorted(_schema_patterns())
RULE_CODES = {rule.pattern: rule.code for rules in _text_rules() for rule in rules.rules}
RULE_PATTERNS = sorted(RULE_CODES)
EVERY_PATTERN = sorted(set(SCHEMA_PATTERNS) | set(RULE_PATTERNS))


def _inputs(pattern: str) -> list[tuple[str, str, str]]:
    """The pumped inputs of a pattern: a prefix, a seed to repeat, a suffix that fails late."""
    literal = {character for character in pattern if character.isprintable()} - set("()[]{}^|")
    seeds = sorted(set(_BASE) | literal) + list(_PAIRS)
    prefixes = ["", "https://"] if "https" in pattern else [""]
    return [
        (prefix, seed, suffix) for prefix in prefixes for seed in seeds for suffix in ("", "\x00!")
    ]


def _pumped(prefix: str, seed: str, suffix: str, size: int) -> str:
    return prefix + seed * -(-size // len(seed)) + suffix


def test_the_gate_reads_every_dialect_and_rule() -> None:
    assert len(SCHEMA_PATTERNS) >= 30 and len(RULE_PATTERNS) >= 30
    assert path_rules.NOT_A_URL in SCHEMA_PATTERNS and path_rules.NOT_A_URL in RULE_PATTERNS


@pytest.mark.parametrize(
    "pattern", EVERY_PATTERN, ids=[RULE_CODES.get(pattern, "schema") for pattern in EVERY_PATTERN]
)
def test_a_pattern_runs_in_linear_time_in_python(pattern: str) -> None:
    import re

    compiled = re.compile(pattern)
    slow = []
    # A quarter size first: a quadratic pattern fails there in seconds rather than minutes.
    for size in (SIZE // 4, SIZE):
        for prefix, seed, suffix in _inputs(pattern):
            text = _pumped(prefix, seed, suffix, size)
            started = time.process_time()
            compiled.match(text)
            elapsed = time.process_time() - started
            if elapsed > LIMIT_S:
                slow.append((seed, suffix, size, round(elapsed, 2)))
        assert slow == []


def _node_gate(patterns: list[str]) -> dict[str, Any]:
    inputs = sorted({entry for pattern in patterns for entry in _inputs(pattern)})
    job = {"patterns": patterns, "inputs": inputs, "size": SIZE, "limit_ms": LIMIT_S * 1000}
    completed = run_started(
        ["node", str(GATE)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=600,
        check=True,
    )
    result: dict[str, Any] = json.loads(completed.stdout)
    return result


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_schema_pattern_runs_in_linear_time_in_node() -> None:
    result = _node_gate(SCHEMA_PATTERNS)
    assert result["slow"] == []
    assert result["runs"] >= len(SCHEMA_PATTERNS) * 2 * len(_BASE)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_gate_catches_the_quadratic_url_pattern_it_replaced() -> None:
    replaced = r"^(?![\s\S]*[A-Za-z][A-Za-z0-9+.-]*://)"
    job = {"patterns": [replaced], "inputs": [("", "a", "")], "size": 40_000, "limit_ms": 100}
    completed = run_started(
        ["node", str(GATE)], input=json.dumps(job), capture_output=True, text=True, check=True
    )
    assert [entry["input"] for entry in json.loads(completed.stdout)["slow"]] == [["", "a", ""]]


def _one_path(os_family: str, path: str, *, liveness: bool = False) -> object:
    block: dict[str, object] = {"presence": "executable", "location": "/opt/x/bin/x"}
    if os_family == "win32":
        block["location"] = "C:\\x\\x.exe"
    if liveness:
        block["liveness"] = {"kind": "server_json", "path": path}
    else:
        block["location"] = path
    try:
        return parse_declaration("studio", {os_family: block}, {"app": True}, where="t")
    except DeclarationError as error:
        return [(issue.loc, issue.code, issue.message) for issue in error.issues]


def _long(os_family: str, length: int) -> str:
    start = "C:\\" if os_family == "win32" else "/"
    return start + "a" * (length - len(start))


TOO_LONG = f"must be at most {MAX_PATH_CHARS} characters long (got 4,097 characters)"

PATH_BOUNDS: dict[str, tuple[str, bool, str]] = {
    "linux-location": ("linux", False, "app.linux.location"),
    "win32-location": ("win32", False, "app.win32.location"),
    "darwin-liveness-path": ("darwin", True, "app.darwin.liveness.path"),
}


@pytest.mark.parametrize(
    ("os_family", "liveness", "loc"), PATH_BOUNDS.values(), ids=list(PATH_BOUNDS)
)
def test_a_path_is_at_most_4096_characters(os_family: str, liveness: bool, loc: str) -> None:
    too_long = _one_path(os_family, _long(os_family, MAX_PATH_CHARS + 1), liveness=liveness)
    assert too_long == [(loc, "path_too_long", TOO_LONG)]
    assert not isinstance(
        _one_path(os_family, _long(os_family, MAX_PATH_CHARS), liveness=liveness), list
    )


def test_surrounding_whitespace_counts_toward_the_bound_as_the_schema_counts_it() -> None:
    padded = " " + _long("linux", MAX_PATH_CHARS)
    assert _one_path("linux", padded) == [("app.linux.location", "path_too_long", TOO_LONG)]


def _path_rule_lists(schema: Any, found: list[list[Any]]) -> None:
    """Every ``allOf`` that holds the URL rule: the rules of one path string."""
    if isinstance(schema, dict):
        rules = schema.get("allOf")
        if isinstance(rules, list) and any(
            isinstance(rule, dict) and rule.get("pattern") == path_rules.NOT_A_URL for rule in rules
        ):
            found.append(rules)
        for value in schema.values():
            _path_rule_lists(value, found)
    elif isinstance(schema, list):
        for value in schema:
            _path_rule_lists(value, found)


@pytest.mark.parametrize("name", SCHEMA_FILES)
def test_the_schema_bounds_every_path_by_max_length_before_its_other_rules(name: str) -> None:
    found: list[list[Any]] = []
    _path_rule_lists(json.loads((ROOT / "schema" / name).read_text(encoding="utf-8")), found)
    bound = {"maxLength": 4096, "errorMessage": "must be at most 4096 characters long"}
    assert len(found) == 6  # a location path and a liveness path, for each OS
    assert all(rules.index(bound) < rules.index(_url_rule()) for rules in found)


def _url_rule() -> dict[str, str]:
    return {
        "pattern": path_rules.NOT_A_URL,
        "patternErrorMessage": "must be a file path, not a URL",
    }
