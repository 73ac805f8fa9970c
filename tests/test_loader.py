"""The YAML/JSON loader: data as safe_load gives it, positions, and every problem at its place."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import os
import pickle
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_decl._text import show
from hermes_decl.declaration import DeclarationError, parse_declaration
from hermes_decl.loader import (
    MAX_ALIAS_NODES,
    MAX_BYTES,
    MAX_DEPTH,
    MAX_INT_DIGITS,
    Document,
    core_schema,
    declarations_from,
    load_declarations,
    load_declarations_file,
    load_declarations_text,
    read_document,
    read_document_file,
)
from hermes_decl.loader.core_schema import CoreSafeLoader
from hermes_decl.loader.yaml_reader import _read_yaml
from tests.hang_guard import within
from tests.process_starts import run_started

Found = tuple[str, str, int | None, int | None]
T = TypeVar("T")

VALID = textwrap.dedent(
    """\
    # two servers
    studio:
      app:
        win32:
          presence: executable
          location:
            - { kind: uninstall_registry, display_name_prefix: "Vendor Studio", file: s.exe }
            - "%ProgramFiles%/Vendor/Studio */s.exe"
          version: { kind: pe_resource }
        darwin:
          presence: bundle
          location: { kind: app_bundle, name: Studio.app }
          version: { kind: plist }
      requires:
        app: true
        min_version: "2.3.0"
    plain:
      requires: { gpu: nvidia }
    """
)


def problems(text: str | bytes, **options: Any) -> list[Found]:
    """The issues loading ``text`` raises, as (loc, code, line, column)."""
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(text, **options)
    return [(i.loc, i.code, i.line, i.column) for i in caught.value.issues]


def error_text(text: str | bytes, **options: Any) -> str:
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(text, **options)
    return str(caught.value)


def yaml_of(text: str) -> str:
    return textwrap.dedent(text)


# ---------------------------------------------------------------------------------------------
# Valid input


def test_a_valid_file_gives_the_declarations_the_parser_gives() -> None:
    found = load_declarations_text(VALID)
    assert list(found) == ["studio", "plain"]
    plain_data = yaml.safe_load(VALID)
    for name, body in plain_data.items():
        expected = parse_declaration(name, body.get("app"), body.get("requires"), where="x")
        assert found[name] == expected
    studio = found["studio"]
    assert studio.requires.min_version == "2.3.0"
    darwin = studio.app_for("darwin")
    assert darwin is not None and darwin.presence == "bundle"


def test_the_committed_examples_load(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    for path in sorted(examples.glob("*.yaml")):
        if path.name == "broken.yaml":
            continue
        assert load_declarations_file(path)


def test_an_empty_mapping_declares_nothing() -> None:
    assert load_declarations_text("{}") == {}
    assert load_declarations_text("servers: {}\n", at="servers") == {}


def test_null_sections_mean_absent() -> None:
    found = load_declarations_text("srv:\n  app:\n  requires:\n")
    assert found["srv"].app is None
    assert found["srv"].requires.app is False


def test_json_input() -> None:
    data = yaml.safe_load(VALID)
    for text in (json.dumps(data), json.dumps(data, indent=2), json.dumps(data, indent="\t")):
        assert load_declarations_text(text) == load_declarations_text(VALID)


def test_json_with_tabs_keeps_positions() -> None:
    text = '{\n\t"srv": {\n\t\t"app": {"linux": {"presence": "exe", "location": "/x"}}\n\t}\n}'
    assert problems(text) == [("srv.app.linux.presence", "invalid_choice", 3, 33)]


def test_json_reads_numbers_and_escapes_as_json_does() -> None:
    text = '{"a": 1e5, "b": 1.0e5, "c": "\\/\\ud83d\\ude00", "d": [true, null, -0]}'
    document = read_document(text)
    assert document.data == json.loads(text)
    assert document.value_position(("c",)) == (1, 29)


def test_json_duplicate_keys_are_reported() -> None:
    text = '{"srv": {"app": null, "app": null}}'
    assert problems(text) == [("srv.app", "duplicate_key", 1, 23)]


def test_json_nested_too_deeply() -> None:
    text = '{"a": ' + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "}"
    (found,) = problems(text)
    assert found[1] == "too_deep"


def test_yaml_flow_text_that_is_not_json_is_read_as_yaml() -> None:
    assert read_document("{a: 1, b: [x, y]}").data == {"a": 1, "b": ["x", "y"]}
    assert read_document('{"a": 1} # a comment').data == {"a": 1}


def test_text_that_fails_as_both_reports_the_reading_that_got_further() -> None:
    # JSON fails at line 3 (trailing comma); YAML fails at line 2 (tab indentation).
    text = '{\n\t"a": 1,\n\t"b": [1,, 2]\n}'
    assert problems(text) == [("", "json_syntax", 3, 10)]
    # Unquoted keys: JSON fails at once, YAML later.
    assert problems("{a: [1, }") == [("", "yaml_syntax", 1, 9)]


def test_bytes_input_and_byte_order_marks() -> None:
    expected = load_declarations_text(VALID)
    assert load_declarations_text(VALID.encode()) == expected
    assert load_declarations_text(b"\xef\xbb\xbf" + VALID.encode()) == expected
    assert load_declarations_text(VALID.encode("utf-16")) == expected
    assert load_declarations_text("\ufeff" + VALID) == expected
    # A byte order mark takes no column.
    assert problems("\ufeffsrv: 3\n") == [("srv", "not_a_mapping", 1, 6)]
    assert problems('\ufeff{"srv": 3}') == [("srv", "not_a_mapping", 1, 9)]
    assert problems("\ufeffsrv: \x00") == [("", "yaml_syntax", 1, 6)]


# ---------------------------------------------------------------------------------------------
# Positions of parser issues


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            """\
            srv:
              app:
                linux: { presence: exe, location: /x }
            """,
            [("srv.app.linux.presence", "invalid_choice", 3, 24)],
            id="presence",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux: { presence: executable, location: /x }
                macos: { presence: bundle }
            """,
            [("srv.app.macos", "unknown_key", 4, 5)],
            id="unknown-key-in-app",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location: /x
                  locaton: /y
            """,
            [("srv.app.linux.locaton", "unknown_key", 6, 7)],
            id="unknown-key-in-os-block",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location:
                    - /x
                    - { kind: snap, name: v, file: v.bin }
            """,
            [("srv.app.linux.location[1].file", "unknown_key", 7, 34)],
            id="unknown-key-in-location-item",
        ),
        pytest.param(
            """\
            srv:
              app:
                win32:
                  presence: executable
                  location: C:/x.exe
                  version: { kind: pe_resource, display_name_prefix: V }
            """,
            [("srv.app.win32.version.display_name_prefix", "unknown_key", 6, 37)],
            id="unknown-key-in-version",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location: /x
                  liveness:
                    kind: none
                    path: /run/x.json
            """,
            [("srv.app.linux.liveness.path", "unknown_key", 8, 9)],
            id="unknown-key-in-liveness",
        ),
        pytest.param(
            """\
            srv:
              requires:
                gpu: nvidia
                min_versoin: "2.3"
            """,
            [("srv.requires.min_versoin", "unknown_key", 4, 5)],
            id="unknown-key-in-requires",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location: opt/x
            """,
            [("srv.app.linux.location", "path_not_rooted", 5, 17)],
            id="lone-location-path",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location: { kind: snap, name: v, app_id: x }
            """,
            [("srv.app.linux.location.app_id", "unknown_key", 5, 40)],
            id="lone-location-kind",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location: { kind: app_bundle, name: V.app }
            """,
            [("srv.app.linux.location", "kind_wrong_os", 5, 17)],
            id="lone-location-kind-wrong-os",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence: executable
                  location:
                    - /opt/v
                    - { kind: app_bundle, name: V.app }
            """,
            [("srv.app.linux.location[1]", "kind_wrong_os", 7, 11)],
            id="list-item-kind-wrong-os",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  location: /x
            """,
            [("srv.app.linux.presence", "missing_key", 3, 5)],
            id="missing-key-at-the-key-of-its-mapping",
        ),
        pytest.param(
            """            srv:
              app:
                linux:
                  presence: executable
                  location:
                    - { name: v }
            """,
            [("srv.app.linux.location[0].kind", "missing_key", 6, 11)],
            id="missing-key-of-a-list-item-at-the-item",
        ),
        pytest.param(
            """            srv:
              requires:
                min_version: "2"
            """,
            [("srv.requires.min_version", "min_version_needs_app", 3, 18)],
            id="min-version-needs-app-at-the-minimum",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux:
                  presence:
                  location: /x
            """,
            [("srv.app.linux.presence", "missing_key", 4, 7)],
            id="missing-key-written-null-at-its-key",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux: { presence: executable, location: /x }
                win32: { presence: executable, location: C:/x.exe }
              requires:
                app: true
                min_version: "2.3"
            """,
            [("srv.requires.min_version", "min_version_no_version_source", 7, 18)],
            id="min-version-cross-field",
        ),
        pytest.param(
            """\
            srv:
              requires: { app: true }
            """,
            [("srv.requires.app", "app_block_required", 2, 20)],
            id="app-required",
        ),
        pytest.param(
            """\
            srv:
              requires:
                app: "true"
            """,
            [("srv.requires.app", "wrong_type", 3, 10)],
            id="wrong-type",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux: [presence, location]
            """,
            [("srv.app.linux", "wrong_type", 3, 12)],
            id="os-block-not-a-mapping",
        ),
        pytest.param(
            """\
            srv:
              app: {}
            """,
            [("srv.app", "no_os_block", 2, 8)],
            id="empty-app",
        ),
        pytest.param(
            """\
            srv:
              app:
                linux: { presence: executable, location: /x }
              requires:
                app: true
              requries: {}
            """,
            [("srv.requries", "unknown_key", 6, 3)],
            id="unknown-key-in-server",
        ),
        pytest.param(
            """\
            srv: [app, requires]
            """,
            [("srv", "not_a_mapping", 1, 6)],
            id="server-not-a-mapping",
        ),
        pytest.param(
            """\
            srv:
            """,
            [("srv", "not_a_mapping", 1, 5)],
            id="server-null",
        ),
        pytest.param(
            """\
            "  ":
              requires: {}
            """,
            [('["  "]', "blank", 1, 1)],
            id="blank-server-name-at-its-key",
        ),
    ],
)
def test_parser_issues_are_placed(text: str, expected: list[Found]) -> None:
    assert problems(yaml_of(text)) == expected


def test_issues_carry_the_data_path_from_the_top_of_the_document() -> None:
    text = "srv:\n  app:\n    linux: {presence: executable, location: [/x, {kind: snap}]}\n"
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(text)
    (issue,) = caught.value.issues
    assert issue.path == ("srv", "app", "linux", "location", 1, "name")
    assert issue.loc == "srv.app.linux.location[1].name"
    assert (issue.line, issue.column) == (3, 50)


@pytest.mark.parametrize(
    ("name", "loc", "refused"),
    [
        ('"my.server"', '["my.server"]', False),
        ('"\\ud800"', '["\\ud800"]', True),
        ('"\\e]0;title\\a"', '["\\u001b]0;title\\u0007"]', True),
        ("сервер", "сервер", False),
        ("'my server'", '["my server"]', False),
    ],
    ids=["dotted", "lone-surrogate", "terminal-sequence", "cyrillic", "space"],
)
def test_odd_server_names_are_quoted_in_locations(name: str, loc: str, refused: bool) -> None:
    text = f"{name}:\n  app: {{linux: {{presence: exe, location: /x}}}}\n"
    found = [(found, code, line) for found, code, line, _ in problems(text)]
    # A name holding a control character or a lone surrogate is itself refused, at its key.
    named = [(loc, "control_character", 1)] if refused else []
    assert found == [*named, (f"{loc}.app.linux.presence", "invalid_choice", 2)]


def test_only_the_broken_server_is_reported() -> None:
    text = VALID + yaml_of(
        """\
        broken:
          app:
            darwin:
              presence: bundle
              location: [{ kind: command, name: b }]
          requires: { app: true }
        """
    )
    assert problems(text) == [("broken.app.darwin.location[0]", "presence_mismatch", 23, 18)]


def test_every_problem_of_every_server_at_once_in_reading_order() -> None:
    text = yaml_of(
        """\
        a:
          requires: { ap: true }
        b: 3
        c:
          app: { linux: { presence: exe, location: rel } }
        a:
          requires: {}
        """
    )
    assert problems(text) == [
        ("b", "not_a_mapping", 3, 4),
        ("c.app.linux.presence", "invalid_choice", 5, 29),
        ("c.app.linux.location", "path_not_rooted", 5, 44),
        ("a", "duplicate_key", 6, 1),
    ]


def test_an_issue_inside_an_alias_points_at_the_anchored_text() -> None:
    text = yaml_of(
        """\
        defaults:
          linux: &linux
            presence: exe
            location: /x
        servers:
          srv:
            app: { linux: *linux }
          other:
            app: { linux: *linux }
        """
    )
    assert problems(text, at="servers") == [
        ("servers.srv.app.linux.presence", "invalid_choice", 3, 15),
        ("servers.other.app.linux.presence", "invalid_choice", 3, 15),
    ]


def test_a_value_given_by_an_alias_is_reported_at_the_alias() -> None:
    text = "defaults: &bad [1]\nservers:\n  srv:\n    app:\n      linux: *bad\n"
    assert problems(text, at="servers") == [("servers.srv.app.linux", "wrong_type", 5, 14)]


def test_an_undefined_alias_is_a_syntax_error() -> None:
    assert problems("srv: *nowhere\n") == [("", "yaml_syntax", 1, 6)]


def test_merge_keys_work_and_overrides_are_not_duplicates() -> None:
    text = yaml_of(
        """\
        defaults: &linux
          presence: executable
          location: /opt/x
        servers:
          srv:
            app:
              linux:
                <<: *linux
                location: /opt/y
        """
    )
    assert read_document(text).data == yaml.safe_load(text)
    linux = load_declarations_text(text, at="servers")["srv"].app_for("linux")
    assert linux is not None
    assert [getattr(place, "path", None) for place in linux.locations] == ["/opt/y"]
    assert problems(text.replace("presence: executable", "presence: exe"), at="servers") == [
        ("servers.srv.app.linux.presence", "invalid_choice", 2, 13)
    ]


# ---------------------------------------------------------------------------------------------
# Problems found while reading


def test_yaml_syntax_error_at_the_problem() -> None:
    text = "srv:\n  app: {linux: [\n  requires: x\n"
    ((loc, code, line, column),) = problems(text)
    assert (loc, code) == ("", "yaml_syntax")
    assert (line, column) == (4, 1)


def test_yaml_syntax_error_message() -> None:
    assert error_text("a: b: c\n", where="p.yaml") == (
        "p.yaml:1:5: is not valid YAML: mapping values are not allowed here (write a space after "
        "each key's ':', and quote a value that holds ': ')"
    )


def test_special_characters_are_a_syntax_error_with_a_position() -> None:
    assert problems("srv:\n  x: a\x00b\n") == [("", "yaml_syntax", 2, 7)]


def test_duplicate_keys_at_any_depth_are_reported_at_the_second_key() -> None:
    text = yaml_of(
        """\
        srv:
          app:
            linux:
              presence: executable
              location: /x
              presence: executable
        """
    )
    assert problems(text) == [("srv.app.linux.presence", "duplicate_key", 6, 7)]
    assert error_text(text, where="f.yaml") == (
        "f.yaml:6:7: srv.app.linux.presence: duplicate key: keys must be unique in a mapping "
        "(first at line 4, column 7)"
    )


def test_a_document_that_is_not_a_mapping() -> None:
    assert problems("- a\n- b\n") == [("", "not_a_mapping", 1, 1)]
    assert problems("just text") == [("", "not_a_mapping", 1, 1)]
    assert problems("\n\n~\n") == [("", "not_a_mapping", 3, 1)]
    assert error_text("[1, 2]", where="f.json") == (
        "f.json:1:1: must be a mapping of server name to {app, requires} (got [1, 2])"
    )


@pytest.mark.parametrize(
    ("text", "position"),
    [("", (1, 1)), ("# only a comment\n", (1, 1)), ("   \n\n", (1, 1)), ("---\n", (2, 1))],
)
def test_an_empty_document(text: str, position: tuple[int, int]) -> None:
    assert problems(text) == [("", "empty_document", *position)]


def test_several_documents_in_one_stream() -> None:
    assert problems("a: {}\n---\nb: {}\n") == [("", "multiple_documents", 2, 1)]
    assert problems("a: {}\n...\n---\nb: {}\n") == [("", "multiple_documents", 3, 1)]
    assert load_declarations_text("---\na: {}\n...\n") == load_declarations_text("a: {}")


def test_keys_must_be_strings() -> None:
    text = "srv:\n  app:\n    1: x\n    ? [a, b]\n    : y\n    null: z\n"
    assert problems(text) == [
        ("srv.app", "bad_key", 3, 5),
        ("srv.app", "bad_key", 4, 7),
        ("srv.app", "bad_key", 6, 5),
    ]
    assert problems("1: {}\n") == [("", "bad_key", 1, 1)]


def test_custom_tags_are_refused_clearly() -> None:
    text = "srv:\n  app: !vendor/app {linux: x}\n  requires: !!python/object:os.system x\n"
    assert problems(text) == [
        ("srv.app", "unknown_tag", 2, 8),
        ("srv.requires", "unknown_tag", 3, 13),
    ]
    assert "custom tags are not allowed (got '!vendor/app')" in error_text(text)
    # The value is read as null, and nothing more is said about it.
    assert problems("srv: !vendor x\n") == [("srv", "unknown_tag", 1, 6)]
    assert problems("srv: {}\nsrv: !vendor x\n") == [
        ("srv", "duplicate_key", 2, 1),
        ("srv", "unknown_tag", 2, 6),
    ]


def test_values_yaml_cannot_build_are_reported_not_raised() -> None:
    text = (
        "srv:\n  requires:\n    min_version: !!timestamp 2001-13-01\n"
        "    gpu: !!int 0x_\n    app: <<\n"
    )
    assert problems(text) == [
        ("srv.requires.min_version", "bad_value", 3, 18),
        ("srv.requires.gpu", "bad_value", 4, 10),
        ("srv.requires.app", "bad_value", 5, 10),
    ]


def test_a_merge_key_needs_mappings() -> None:
    text = "defaults: &d [1]\nservers:\n  srv:\n    <<: *d\n    requires: {}\n"
    assert problems(text, at="servers") == [('servers.srv["<<"]', "bad_value", 4, 9)]


class _TooMuchWork(BaseException):
    """Raised by the call counter; not an ``Exception``, so no broad handler can swallow it."""


def within_calls(limit: int, call: Callable[[], T]) -> T:
    """``call()``'s result, failing the test once it makes more than ``limit`` Python calls.

    A deterministic bound on work, not a timing: an exponential bomb fails here at once
    instead of hanging the suite.
    """
    made = 0

    def count(frame: object, event: str, arg: object) -> None:
        nonlocal made
        if event == "call":
            made += 1
            if made > limit:
                raise _TooMuchWork(f"more than {limit} calls")

    sys.setprofile(count)
    try:
        return call()
    finally:
        sys.setprofile(None)


def levels(first: str, level: Callable[[int, str], str], count: int, tail: str = "") -> str:
    """An anchored ``a0``, then ``a1``… each built by ``level(n, alias of the one before)``."""
    return "\n".join([first, *(level(n, f"*a{n - 1}") for n in range(1, count + 1))]) + tail


def times(text: str, count: int = 9, separator: str = ", ") -> str:
    return separator.join([text] * count)


WORK_BOMBS = {
    # Merges of empty mappings produce no value at all: only the visits can be counted.
    "merge-list-of-empty-mappings": levels(
        "a0: &a0 {}", lambda n, a: f"a{n}: &a{n} {{<<: [{times(a)}]}}", 9
    ),
    "merge-list-in-block-style": levels(
        "a0: &a0 {}", lambda n, a: f"a{n}: &a{n}\n  <<: [{times(a)}]", 9
    ),
    "merge-block-list": levels(
        "a0: &a0 {}", lambda n, a: f"a{n}: &a{n}\n  <<:\n" + times(f"    - {a}", 9, "\n"), 9
    ),
    "repeated-merge-keys": levels(
        "a0: &a0 {}", lambda n, a: f"a{n}: &a{n} {{{times(f'<<: {a}')}}}", 9
    ),
    "merge-list-of-mappings-with-keys": levels(
        "a0: &a0 {k0: 0, k1: 1}", lambda n, a: f"a{n}: &a{n} {{<<: [{times(a, 10)}]}}", 29
    ),
    # Each level of lists alone is within the budget; what the merges under them cost is not.
    "alias-lists-over-a-merge-bomb": levels(
        "a0: &a0 {}",
        lambda n, a: f"a{n}: &a{n} {{<<: [{times(a)}]}}",
        3,
        tail="".join(f"\nb{n}: &b{n} [{times(f'*b{n - 1}' if n else '*a3')}]" for n in range(6)),
    ),
    "set-over-a-merge-bomb": levels(
        "a0: &a0 {}",
        lambda n, a: f"a{n}: &a{n} {{<<: [{times(a)}]}}",
        3,
        tail=f"\nb: !!set {{{times('? *a3', 20)}}}",
    ),
    "alias-list-bomb": levels(
        "a0: &a0 [" + times('"lol"') + "]", lambda n, a: f"a{n}: &a{n} [{times(a)}]", 9
    ),
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (WORK_BOMBS["merge-list-of-empty-mappings"], ("a4", "alias_limit", 5, 14)),
        (WORK_BOMBS["merge-list-in-block-style"], ("a4", "alias_limit", 9, 7)),
        (WORK_BOMBS["merge-block-list"], ("a4", "alias_limit", 37, 5)),
        (WORK_BOMBS["repeated-merge-keys"], ("a4", "alias_limit", 5, 50)),
        (WORK_BOMBS["merge-list-of-mappings-with-keys"], ("a4", "alias_limit", 5, 14)),
        (WORK_BOMBS["alias-lists-over-a-merge-bomb"], ("b0[8]", "alias_limit", 5, 50)),
        (WORK_BOMBS["set-over-a-merge-bomb"], ("b", "alias_limit", 5, 4)),
        (WORK_BOMBS["alias-list-bomb"], ("a4[0]", "alias_limit", 5, 10)),
    ],
    ids=list(WORK_BOMBS),
)
def test_alias_and_merge_bombs_are_refused_by_their_work(text: str, expected: Found) -> None:
    # The work is budgeted, so each stops a few thousand node visits in, at the offending line.
    assert within_calls(1_000_000, lambda: problems(text)) == [expected]


def test_the_work_budget_says_what_it_refused() -> None:
    assert error_text(WORK_BOMBS["merge-list-of-empty-mappings"]) == (
        f"<string>:5:14: a4: aliases and merge keys may repeat at most {MAX_ALIAS_NODES} nodes "
        "in a document (these repeat more: is this an alias or merge-key bomb?)"
    )


def test_merges_within_the_budget_are_applied() -> None:
    servers = MAX_ALIAS_NODES // 10
    text = "common: &c {requires: {gpu: nvidia}}\n" + "".join(
        f"s{i}:\n  <<: *c\n  app: null\n" for i in range(servers)
    )
    found = load_declarations_text(text)
    assert len(found) == servers + 1
    assert found["s7"].requires == found["common"].requires


def test_aliases_within_the_limit_are_expanded() -> None:
    text = "common: &c {requires: {gpu: nvidia}}\n" + "".join(
        f"s{i}: *c\n" for i in range(MAX_ALIAS_NODES // 10)
    )
    assert len(load_declarations_text(text)) == MAX_ALIAS_NODES // 10 + 1


def test_a_recursive_alias_is_refused() -> None:
    ((_, code, _, _),) = problems("a: &a [*a]\n")
    assert code in ("too_deep", "alias_limit")


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: " + "[" * 5000 + "]" * 5000, 1, 104),
        ("a: " + "{x: " * 5000 + "1" + "}" * 5000, 1, 401),
        ("a:\n" + "".join("  " * level + f"k{level}:\n" for level in range(1, 300)), 101, 201),
        ("- " * 3000 + "x\n", 1, 203),
    ],
    ids=["flow-lists", "flow-mappings", "block-mappings", "block-lists"],
)
def test_deep_nesting_is_refused_where_it_passes_the_limit(
    text: str, line: int, column: int
) -> None:
    """Refused with the position of the first node past the depth bound, however deep it goes."""
    ((_, code, found_line, found_column),) = problems(text)
    assert (code, found_line, found_column) == ("too_deep", line, column)


def test_nesting_up_to_the_limit_is_read() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert read_document(text).data is not None


def test_too_large() -> None:
    assert problems(" " * (MAX_BYTES + 1)) == [("", "too_large", None, None)]


@pytest.mark.parametrize(
    ("text", "too_large"),
    [
        ("# " + "é" * (MAX_BYTES // 2), True),
        ("# " + "é" * (MAX_BYTES // 2 - 8), False),
        ("# " + "\U0001f600" * (MAX_BYTES // 4), True),
    ],
    ids=["two-byte-characters-past-the-bound", "two-byte-characters-within", "four-byte-emoji"],
)
def test_text_is_bounded_by_its_utf8_size_not_its_length(text: str, too_large: bool) -> None:
    assert len(text) <= MAX_BYTES  # as characters, each is within the bound
    codes = [code for _, code, _, _ in problems(text + "\nx: 1\n")]
    assert ("too_large" in codes) is too_large


def test_invalid_utf8_is_reported_at_the_byte() -> None:
    assert problems(b"srv:\n  app: \xff\n") == [("", "bad_encoding", 2, 8)]


# ---------------------------------------------------------------------------------------------
# Selection


MANIFEST = yaml_of(
    """\
    name: my-plugin
    odd: {1: one, 1: uno}
    tool:
      hermes:
        servers:
          srv:
            app: { linux: { presence: exe, location: /x } }
          ok:
            requires: { gpu: nvidia }
    other: 1
    other: 2
    """
)


def test_at_selects_a_nested_mapping() -> None:
    assert problems(MANIFEST, at="tool.hermes.servers") == [
        ("tool.hermes.servers.srv.app.linux.presence", "invalid_choice", 7, 35),
    ]
    fixed = MANIFEST.replace("presence: exe", "presence: executable")
    found = load_declarations_text(fixed, at="tool.hermes.servers")
    assert list(found) == ["srv", "ok"]
    assert load_declarations_text(fixed, at=["tool", "hermes", "servers"]) == found


def test_problems_outside_the_selection_are_not_reported() -> None:
    assert problems(MANIFEST) == [
        ("name", "not_a_mapping", 1, 7),
        ("odd", "bad_key", 2, 7),
        ("odd", "bad_key", 2, 15),
        ("tool.hermes", "unknown_key", 4, 3),
        ("other", "duplicate_key", 11, 1),
        ("other", "not_a_mapping", 11, 8),
    ]
    # With a selection, only what lies inside it (or on the way to it) counts.
    fixed = MANIFEST.replace("presence: exe", "presence: executable")
    assert list(load_declarations_text(fixed, at="tool.hermes.servers")) == ["srv", "ok"]
    text = "tool: {servers: {}}\ntool:\n  servers:\n    srv: {requires: {}}\n"
    assert problems(text, at="tool.servers") == [("tool", "duplicate_key", 2, 1)]


def test_a_missing_selection() -> None:
    assert problems(MANIFEST, at="tool.hermes.servrs") == [
        ("tool.hermes.servrs", "selection_missing", 5, 5)
    ]
    assert error_text(MANIFEST, at="tool.hermes.servrs", where="plugin.yaml") == (
        "plugin.yaml:5:5: tool.hermes.servrs: is not in the document "
        "(selected with at='tool.hermes.servrs')"
    )


def test_a_selection_through_or_at_a_non_mapping() -> None:
    assert problems(MANIFEST, at="name.x") == [("name", "not_a_mapping", 1, 7)]
    assert problems(MANIFEST, at="name") == [("name", "not_a_mapping", 1, 7)]
    assert problems("[1]", at="x") == [("", "not_a_mapping", 1, 1)]


def test_an_empty_selection_is_the_whole_document() -> None:
    assert load_declarations_text("srv: {}\n", at="") == load_declarations_text("srv: {}\n")
    assert list(load_declarations_text("a.b:\n  srv: {}\n", at=["a.b"])) == ["srv"]


def test_declarations_from_a_document() -> None:
    document = read_document(
        MANIFEST.replace("presence: exe", "presence: executable"), strict=False
    )
    assert list(declarations_from(document, at="tool.hermes.servers")) == ["srv", "ok"]


# ---------------------------------------------------------------------------------------------
# Files and the document API


def test_files(tmp_path: Path) -> None:
    path = tmp_path / "decl.yaml"
    path.write_text(VALID, encoding="utf-8")
    expected = load_declarations_text(VALID)
    assert load_declarations_file(path) == expected
    assert load_declarations_file(str(path)) == expected
    assert load_declarations(path) == expected
    assert load_declarations(VALID) == expected
    assert read_document_file(path).data == yaml.safe_load(VALID)


def test_errors_in_files_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("srv:\n  requires: {app: yes}\n  requires: {}\n", encoding="utf-8")
    with pytest.raises(DeclarationError) as caught:
        load_declarations_file(path)
    assert str(caught.value) == (
        f"{path}:3:3: srv.requires: duplicate key: keys must be unique in a mapping "
        "(first at line 2, column 3)"
    )
    with pytest.raises(DeclarationError) as caught:
        load_declarations(path, where="plugin/decl.yaml")
    assert caught.value.where == "plugin/decl.yaml"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("missing.yaml", "No such file or directory"),
        # Python's own wording, which differs on Windows
        (
            "bad\x00name",
            "open: embedded null character in path"
            if sys.platform == "win32"
            else "embedded null byte",
        ),
    ],
    ids=["missing", "nul-in-name"],
)
def test_unreadable_files(tmp_path: Path, name: str, reason: str) -> None:
    path = str(tmp_path / name)
    with pytest.raises(DeclarationError) as caught:
        load_declarations_file(path)
    assert [(i.loc, i.code, i.line, i.column) for i in caught.value.issues] == [
        ("", "unreadable_file", None, None)
    ]
    assert str(caught.value) == f"{path}: cannot be read ({reason})"


_OPEN_TERMINALS: list[int] = []

if sys.platform == "win32":

    def _fifo(path: Path) -> Path:
        raise NotImplementedError

    def _terminal(path: Path) -> Path:
        raise NotImplementedError

else:

    def _fifo(path: Path) -> Path:
        os.mkfifo(path)
        return path

    def _terminal(path: Path) -> Path:
        leader, follower = os.openpty()  # the leader stays open while the test runs
        _OPEN_TERMINALS.append(leader)
        path.symlink_to(os.ttyname(follower))
        os.close(follower)
        return path


def _symlink_to_fifo(path: Path) -> Path:
    path.symlink_to(_fifo(path.with_name("fifo")))
    return path


def _directory(path: Path) -> Path:
    path.mkdir()
    return path


def _null_device(path: Path) -> Path:
    path.symlink_to(os.devnull)
    return path


POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file kinds")


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        pytest.param(_fifo, "a FIFO", marks=POSIX_ONLY),
        pytest.param(_symlink_to_fifo, "a FIFO", marks=POSIX_ONLY),
        pytest.param(_directory, "a directory", marks=POSIX_ONLY),
        pytest.param(_terminal, "a character device", marks=POSIX_ONLY),
        pytest.param(_null_device, "a character device", marks=POSIX_ONLY),
    ],
    ids=["fifo", "symlink-to-fifo", "directory", "terminal", "null-device"],
)
@pytest.mark.parametrize(
    "read", [load_declarations_file, read_document_file], ids=["load", "read_document"]
)
def test_only_regular_files_are_read_and_nothing_waits(
    tmp_path: Path, make: Callable[[Path], Path], kind: str, read: Callable[[Path], object]
) -> None:
    path = make(tmp_path / "plugin.yaml")
    try:
        with pytest.raises(DeclarationError) as caught:
            within(10, lambda: read(path))
    finally:
        while _OPEN_TERMINALS:
            os.close(_OPEN_TERMINALS.pop())
    assert [(i.loc, i.code, i.line, i.column) for i in caught.value.issues] == [
        ("", "not_a_regular_file", None, None)
    ]
    assert str(caught.value) == f"{path}: must be a regular file (got {kind})"


@POSIX_ONLY
def test_the_command_line_refuses_a_fifo_without_waiting(tmp_path: Path) -> None:
    fifo = _fifo(tmp_path / "plugin.yaml")
    result = run_started(
        [sys.executable, "-m", "hermes_decl", "check", str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stderr) == (2, "")  # input that cannot be read
    assert result.stdout == f"{fifo}: must be a regular file (got a FIFO)\n"


def test_an_oversized_file_is_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" * (MAX_BYTES + 10))
    with pytest.raises(DeclarationError) as caught:
        load_declarations_file(path)
    assert caught.value.issues[0].code == "too_large"


def test_document_positions() -> None:
    text = "a:\n  b: [x, {c: 1}]\n  'd': null\n"
    document = read_document(text)
    assert isinstance(document, Document)
    assert document.value_position(()) == (1, 1)
    assert document.value_position(("a",)) == (2, 3)
    assert document.value_position(("a", "b", 1, "c")) == (2, 14)
    assert document.key_position(("a", "b", 1, "c")) == (2, 11)
    assert document.key_position(("a", "d")) == (3, 3)
    assert document.value_position(("a", "zz")) is None
    assert document.position(("a", "b", 1, "zz")) == (2, 10)
    assert document.position(("a", "d"), key=True) == (3, 3)
    assert document.values[("a", "b", 0)] == (2, 7)
    assert document.keys == {
        ("a",): (1, 1),
        ("a", "b"): (2, 3),
        ("a", "b", 1, "c"): (2, 11),
        ("a", "d"): (3, 3),
    }
    assert set(document.values) == {
        (),
        ("a",),
        ("a", "b"),
        ("a", "b", 0),
        ("a", "b", 1),
        ("a", "b", 1, "c"),
        ("a", "d"),
    }


def test_strict_reading_raises_problems_that_lenient_reading_returns() -> None:
    text = "a: 1\na: 2\n"
    with pytest.raises(DeclarationError):
        read_document(text)
    document = read_document(text, strict=False)
    assert document.data == {"a": 2}
    assert [(i.loc, i.code) for i in document.issues] == [("a", "duplicate_key")]


def test_data_matches_safe_load_for_yaml_features() -> None:
    text = yaml_of(
        """\
        a: !!set {x, y}
        b: !!omap [x: 1, y: 2]
        c: !!binary aGVsbG8=
        d: 2001-12-14
        e: [.nan, .inf, 0o17, 0x1F, 1_000, 190:20:30]
        f: &f {x: 1}
        g: {<<: *f, y: 2}
        h: {<<: [*f, {x: 3, z: 4}], x: 5}
        "=": eq
        """
    )
    data = read_document(text).data
    assert repr(data) == repr(CoreSafeLoader(text).get_single_data())
    assert isinstance(data, dict)
    assert data["d"] == "2001-12-14"  # the core schema has no dates
    assert repr(data["e"]) == "[nan, inf, 15, 31, '1_000', '190:20:30']"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: yes", "yes"),
        ("a: No", "No"),
        ("a: on", "on"),
        ("a: off", "off"),
        ("a: y", "y"),
        ("a: n", "n"),
        ("a: true", True),
        ("a: FALSE", False),
        ("a: 0o17", 15),
        ("a: 0x1F", 31),
        ("a: 010", 10),
        ("a: 017", 17),
        ("a: -3", -3),
        ("a: 1_000", "1_000"),
        ("a: 2.5e3", 2500.0),
        ("a: 2024-01-01", "2024-01-01"),
        ("a: 12:30", "12:30"),
        ("a: ~", None),
        ("a: Null", None),
        ("a:", None),
        ("a: .inf", math.inf),
        ("a: !!bool true", True),
        ("a: !!int 0o10", 8),
    ],
    ids=lambda value: repr(value),
)
def test_plain_scalars_resolve_by_the_yaml_1_2_core_schema(text: str, expected: object) -> None:
    for fast in (True, False):
        document = _read_yaml(text, "<string>", fast=fast)
        assert document.data == {"a": expected}, fast
        assert isinstance(document.data, dict)
        assert type(document.data["a"]) is type(expected)


def test_yaml_1_1_booleans_are_text_the_messages_name_the_fix() -> None:
    text = "no:\n  requires:\n    app: yes\n    gpu: nvidia\n"
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(text)
    [issue] = caught.value.issues
    assert (issue.loc, issue.code, issue.line, issue.column) == (
        "no.requires.app",
        "wrong_type",
        3,
        10,
    )
    assert issue.message == "must be true or false (got 'yes'; write true)"
    assert list(load_declarations_text("no: {requires: {gpu: nvidia}}\n")) == ["no"]


@pytest.mark.parametrize(
    ("text", "written"),
    [("off", "false"), ("'True'", "true"), ("N", "false"), ("maybe", None)],
)
def test_a_boolean_written_as_text_is_named(text: str, written: str | None) -> None:
    """YAML 1.1's booleans and quoted ones: the message says which boolean to write."""
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(f"srv:\n  requires:\n    app: {text}\n")
    message = caught.value.issues[0].message
    assert message.endswith(f"; write {written})" if written else ")")
    assert ("write" in message) is (written is not None)


# ---------------------------------------------------------------------------------------------
# Properties


TOKENS = [
    "srv", "app", "requires", "linux", "win32", "presence", "location", "kind", "snap",
    "executable", "/x", "C:/x", "true", "null", "~", "1", "2.3", ":", ": ", "- ", "\n", "  ",
    "\t", "[", "]", "{", "}", ",", "'", '"', "#", "&a ", "*a", "&b ", "*b", "<<: ", "? ",
    "!!set ", "!!str ", "!foo ", "!!binary ", "---\n", "...\n", "%YAML 1.1\n", "|\n", ">-\n",
    "2001-13-01", "0x_", "\ufeff", "\x00", "\\", "=",
]  # fmt: skip
token_soup = st.lists(st.sampled_from(TOKENS), max_size=40).map("".join)


def _outcome(text: str | bytes) -> dict[str, Any] | DeclarationError:
    try:
        return dict(load_declarations_text(text))
    except DeclarationError as error:
        return error


def _must_be_declaration_error(text: str | bytes) -> None:
    started = time.perf_counter()
    outcome = _outcome(text)
    if isinstance(outcome, DeclarationError):
        assert outcome.issues
        for issue in outcome.issues:
            assert issue.code and issue.message
            if issue.line is None or issue.column is None:
                assert issue.line is None and issue.column is None
            else:
                assert issue.line >= 1 and issue.column >= 1
        str(outcome)
    assert time.perf_counter() - started < 5


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text() | token_soup)
def test_any_text_gives_declarations_or_a_declaration_error(text: str) -> None:
    _must_be_declaration_error(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary())
def test_any_bytes_give_declarations_or_a_declaration_error(data: bytes) -> None:
    _must_be_declaration_error(data)
    _must_be_declaration_error(data.decode("utf-8", errors="replace"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(token_soup)
def test_data_is_what_a_core_schema_load_gives(text: str) -> None:
    try:
        expected = CoreSafeLoader(text).get_single_data()
    except Exception:
        return
    try:
        document: Document | str = read_document(text, strict=False)
    except DeclarationError as error:
        document = error.issues[0].code
    if isinstance(document, str):
        assert document in ("empty_document", "too_deep", "alias_limit")
    elif not text.lstrip(" \t\r\n\ufeff").startswith(("{", "[")):
        assert repr(document.data) == repr(expected)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values, st.sampled_from([None, 0, 2, "\t"]))
def test_json_documents_read_as_json_loads_reads_them(value: Any, indent: int | str | None) -> None:
    text = json.dumps({"root": value}, indent=indent)
    document = read_document(text)
    assert document.data == json.loads(text)
    for path, (line, column) in document.values.items():
        lines = text.split("\n")
        rest = lines[line - 1][column - 1 :]
        found = document.data
        for step in path:
            found = found[step]  # type: ignore[index]
        if isinstance(found, (dict, list)):
            assert rest[:1] in ("{", "[")
        elif isinstance(found, float) and math.isinf(found):
            assert rest.startswith(("Infinity", "-Infinity"))
        else:
            assert json.loads(_first_json_token(rest)) == found


def _first_json_token(text: str) -> str:
    _, end = json.JSONDecoder().raw_decode(text)
    return text[:end]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet='{}[]",:0123456789.eE+-tnulraf \t\n\\/x', max_size=40))
def test_json_looking_text_never_raises_anything_else(text: str) -> None:
    _must_be_declaration_error(text)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "servers.json",
            '{"srv": {"requires": {"gpu": "nvidia"},}}\n',
            [("", "json_syntax", 1, 39)],  # at the trailing comma
        ),
        (
            "servers.json",
            "srv:\n  requires: {gpu: nvidia}\n",
            [("", "json_syntax", 1, 1)],
        ),
        ("servers.yaml", '{"srv": {"requires": {"gpu": "nvidia"},}}\n', []),
        ("servers.yml", "srv: {requires: {gpu: nvidia}}\n", []),
        ("servers.conf", '{"srv": {"requires": {"gpu": "nvidia"}}}\n', []),
        ("servers.conf", "srv:\n  requires: {gpu: nvidia}\n", []),
    ],
    ids=[
        "json-trailing-comma",
        "json-name-yaml-text",
        "yaml-name-flow-text",
        "yml",
        "other-name-json-content",
        "other-name-yaml-content",
    ],
)
def test_a_file_is_read_as_its_name_says(
    tmp_path: Path, name: str, text: str, expected: list[tuple[str, str, int, int]]
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if not expected:
        assert list(load_declarations_file(path)) == ["srv"]
        return
    with pytest.raises(DeclarationError) as caught:
        load_declarations_file(path)
    assert [(i.loc, i.code, i.line, i.column) for i in caught.value.issues] == expected
    assert caught.value.issues[0].message.startswith("is not valid JSON: ")


def test_a_quoted_boolean_is_told_to_lose_its_quotes() -> None:
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text("srv:\n  requires:\n    app: 'false'\n")
    assert caught.value.issues[0].message == (
        "must be true or false (got 'false'; write false without quotes)"
    )


def test_core_schema_dump_quotes_what_it_would_read_as_another_type() -> None:
    data = {"08": "yes", "no": True, "0o7": "2024-01-01", "x": None}
    text = core_schema.safe_dump(data, sort_keys=False)
    assert text == "'08': yes\nno: true\n'0o7': 2024-01-01\nx: null\n"
    assert core_schema.safe_load(text) == data


def _messages(text: str) -> list[tuple[str, str, str]]:
    with pytest.raises(DeclarationError) as caught:
        load_declarations_text(text)
    return [(issue.loc, issue.code, issue.message) for issue in caught.value.issues]


@pytest.mark.parametrize("written", ["{digits}", "!!int '{digits}'", "-{digits}"])
def test_a_decimal_integer_of_more_digits_than_read_is_refused_in_words_of_its_own(
    written: str,
) -> None:
    value = written.format(digits="9" * (MAX_INT_DIGITS + 1))
    (found,) = _messages(f"srv:\n  requires: {{gpu: {value}}}\n")
    assert found[:2] == ("srv.requires.gpu", "bad_value")
    refusal = "cannot be read as !!int: it has 4,301 digits, more than 4,300 (got "
    assert found[2].startswith(refusal)


def test_a_json_integer_of_more_digits_than_read_is_refused_in_words_of_its_own(
    tmp_path: Path,
) -> None:
    path = tmp_path / "plugin.json"
    path.write_text('{"srv": {"requires": {"gpu": ' + "9" * (MAX_INT_DIGITS + 1) + "}}}")
    with pytest.raises(DeclarationError) as caught:
        load_declarations_file(path)
    (issue,) = caught.value.issues
    assert (issue.code, issue.message, issue.line, issue.column) == (
        "json_syntax",
        "is not valid JSON: an integer of 4,301 digits, more than 4,300",
        1,
        30,
    )


def test_an_integer_too_long_to_write_as_digits_is_shown_by_its_size() -> None:
    hexadecimal = "0x" + "F" * 5_000  # 20,000 bits: read in linear time, written never
    assert _messages(f"srv:\n  requires: {{gpu: {hexadecimal}}}\n") == [
        ("srv.requires.gpu", "wrong_type", "must be 'nvidia' (got an integer of 20,000 bits)")
    ]
    assert _messages(f"srv:\n  requires:\n    ? {hexadecimal}\n    : {{a: !x 1}}\n") == [
        ("srv.requires", "bad_key", "keys must be strings (got an integer of 20,000 bits)"),
        (
            "srv.requires[an integer of 20,000 bits].a",
            "unknown_tag",
            "custom tags are not allowed (got '!x')",
        ),
    ]
    assert show(int("9" * MAX_INT_DIGITS)) == "an integer of 14,285 bits"
    assert show(int("9" * 4_000)).startswith("99999")  # 13,288 bits: written, shortened


@pytest.mark.parametrize("text", ["a: 1\nb: [x, {c: y}]\n", '{"a": 1, "b": ["x", {"c": "y"}]}'])
def test_a_document_pickles_and_copies_with_every_position(text: str) -> None:
    document = read_document(text)
    for copied in (pickle.loads(pickle.dumps(document)), copy.deepcopy(document)):
        assert copied.data == document.data
        assert dict(copied.values) == dict(document.values)
        assert dict(copied.keys) == dict(document.keys)
        assert copied.value_position(("b", 1, "c")) == document.value_position(("b", 1, "c"))
    assert dataclasses.asdict(document)["data"] == document.data


def test_integer_keys_too_long_to_write_keep_their_own_paths() -> None:
    first, second = int("f" * 3_600, 16), int("e" * 3_600, 16)  # 14,400 bits each
    document = _read_yaml(f"? 0x{'f' * 3_600}\n: a\n? 0x{'e' * 3_600}\n: b\n", "t.yaml")
    assert document.data == {first: "a", second: "b"}
    assert dict(document.values) == {(): (1, 1), (first,): (2, 3), (second,): (4, 3)}
    assert document.value_position((second,)) == (4, 3)
