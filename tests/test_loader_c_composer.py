"""Which text the loader composes in libyaml's C composer, and that the C composer stays bounded.

``tests/test_loader_parsers.py`` proves the three readings agree; this proves the C composer
really reads most text (so that proof is not vacuous), declines exactly the text it must, and
recurses no deeper than the loader's bound, nor could libyaml let it past 1,000 levels.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from bench import big_file
from hermes_decl.loader import gaps, yaml_reader
from hermes_decl.loader.composers import (
    _FastComposer,
    _FastLoader,
    _PlacedElsewhere,
    _Unsure,
    may_compose_in_c,
    may_hold_aliases,
    places_alike,
)
from hermes_decl.loader.document import MAX_DEPTH
from hermes_decl.loader.yaml_reader import (
    LIBYAML_TAG_DIRECTIVES,
    _compose_in_c,
    libyaml_may_read,
)
from tests.test_loader_parsers import (
    CORPUS,
    PARSER_SETTINGS,
    SHAPES,
    _ladder,
    _reading,
    _same_every_way,
)


def _nested(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_the_c_composer_here_keeps_the_nesting_bound() -> None:
    assert _FastComposer is not None, "PyYAML was built without libyaml"
    assert may_compose_in_c() is True


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        (_nested(MAX_DEPTH + 2), _Unsure),
        ("- " * (MAX_DEPTH + 2) + "x\n", _Unsure),
        ("- " * 5000 + "x\n", _Unsure),
        ("a:\n" + "- " * 5000 + "x\n", _Unsure),
        (_nested(5000), yaml.scanner.ScannerError),  # libyaml scans flow indicators ahead
    ],
)
def test_the_c_composer_never_composes_past_the_bound(text: str, refusal: type[Exception]) -> None:
    assert _FastComposer is not None
    with pytest.raises(refusal):
        _FastComposer(text).get_single_node()


def test_the_c_composer_composes_nesting_up_to_the_bound() -> None:
    assert _FastComposer is not None
    node = _FastComposer(_nested(MAX_DEPTH + 1)).get_single_node()  # the innermost at 100
    for _ in range(MAX_DEPTH):
        assert isinstance(node, yaml.SequenceNode)
        node = node.value[0]
    assert isinstance(node, yaml.SequenceNode)
    assert node.value == []
    assert node.start_mark.column == MAX_DEPTH


def _libyaml_events(text: str) -> int:
    return sum(1 for _ in yaml.parse(text, Loader=yaml.CSafeLoader))


@pytest.mark.skipif(
    yaml.__with_libyaml__ and yaml._yaml.get_version() < (0, 2, 5),
    reason="libyaml bounds nesting from 0.2.5 on",
)
@pytest.mark.parametrize("shape", [*SHAPES, "ladder"])
def test_libyaml_itself_refuses_nesting_past_1000_levels(shape: str) -> None:
    make = _ladder if shape == "ladder" else SHAPES[shape]
    assert _libyaml_events(make(999)) > 999
    with pytest.raises(yaml.YAMLError) as refused:
        _libyaml_events(make(1001))
    assert refused.value.problem == "exceeded maximum nesting depth"  # type: ignore[attr-defined]


def test_most_of_the_loader_corpus_is_composed_in_c() -> None:
    composed = 0
    for text in CORPUS.values():
        try:
            _compose_in_c(text, "t.yaml")
        except Exception:
            continue
        composed += 1
    assert composed >= len(CORPUS) * 3 // 4


@pytest.mark.parametrize("make", [make for _, make in big_file.FILES])
def test_the_big_files_are_composed_in_c(make: Callable[[], str]) -> None:
    text = make()
    assert may_compose_in_c()
    document = _compose_in_c(text, "t.yaml")
    assert isinstance(document.data, dict)
    servers = [line for line in text.splitlines() if line[:1] not in ("", " ", "#")]
    assert list(document.data) == [line.split(":", 1)[0] for line in servers]


def test_the_core_schema_resolves_what_the_c_composer_composes() -> None:
    text = "a: 010\nb: yes\nc: 0o17\nd: 2024-01-01\ne: 0x1F\nf: on\ng: 'true'\nh: True\n"
    document = _compose_in_c(text, "t.yaml")
    assert document.data == {
        "a": 10,
        "b": "yes",
        "c": 15,
        "d": "2024-01-01",
        "e": 31,
        "f": "on",
        "g": "true",
        "h": True,
    }
    assert document.values[("d",)] == (4, 4)


PLACED_ELSEWHERE = [
    "a: {? , c: 1}\n",
    "a: {b: !!str , c: 1}\n",
    "a: [b: &x ]\n",
    "a: [b?]\n",
    "a: {b? c: 1}\n",
    "{!t:!t a}\n",
    "{x: , y: !a:!b z}\n",
    "a: !t:!t b\n",
    "a:\t1\n",
    "a: [1,\t2]\n",
]
"""Text with a node libyaml's events place elsewhere than PyYAML's parser, where its place cannot
be told: an empty key in a flow mapping, an empty value with a tag or an anchor in a flow
collection or at the very end, a ``?`` in a plain scalar in a flow collection (where PyYAML's
scanner ends the scalar, and libyaml's does not), a tag the core schema does not know (libyaml
reads some that PyYAML's scanner refuses), a tab the two may read differently."""
EMPTY_VALUES = [
    "a: {b}\n",
    "a: [b: ]\n",
    "a: {b: , c: 1}\n",
    "a: {b:\n , c: 1}\r\n",
    "a: {b: # comment\n  , c: 1}\n",
    "a: {? b\n : }\n",
    'a: {"b":}\n',
    "{a: 1, b: }",
    "\ufeffa: {b: , c: {d: }}\n",
    "x: 1\n\u2028a: {b:\u2028 }\n",
    "a:",
    "a:\n",
    "-\n-",
    "? a",
    "\ufeff? ",
    "a: 1\r\nb:",
    "a: b\nc:  # a comment",
    "x:\u2028y:",
]
"""Text with empty values libyaml places elsewhere than PyYAML, each given PyYAML's place."""
ALIAS_UNSURE = ["a: &x k\n*x : 1\n", "a: &x 1\nb: !!seq [*x]\n"]
"""Text whose aliases' places the C composer cannot read off the text; the Python composer can."""


@pytest.mark.parametrize("text", PLACED_ELSEWHERE + ALIAS_UNSURE)
def test_the_c_composer_declines_what_the_python_composer_places_elsewhere(text: str) -> None:
    with pytest.raises(_Unsure) as declined:
        _compose_in_c(text, "t.yaml")
    assert isinstance(declined.value, _PlacedElsewhere) is (text in PLACED_ELSEWHERE)


EMPTY_VALUE_PIECES = [
    "{", "}", "[", "]", ", ", ",", ": ", ":", "? ", "a", "b: ", '"q"', "'r'", " ", "\n",
    "\r\n", "  ", " # c\n", "x:", "k: {", "- ", "\u2028", "\x85", "!!str ", "&x ", "*x",
    "\ufeff", "s:\n  ", "1", "a?", "!a:!b ", "!t ",
]  # fmt: skip
"""Pieces of flow and block text, often with empty values where libyaml and PyYAML differ."""


@PARSER_SETTINGS
@given(
    st.lists(st.sampled_from(EMPTY_VALUE_PIECES), min_size=1, max_size=16).map("".join),
    st.sampled_from(["", "top: ", "- "]),
)
def test_generated_empty_values_read_the_same_every_way(text: str, before: str) -> None:
    _same_every_way(before + text)


@pytest.mark.parametrize("text", EMPTY_VALUES)
def test_empty_values_libyaml_places_elsewhere_are_composed_in_c_at_pythons_places(
    text: str,
) -> None:
    _compose_in_c(text, "t.yaml")
    _same_every_way(text)


@pytest.mark.parametrize(
    ("text", "path", "place"),
    [
        ("a: {b: , c: 1}\n", ("a", "b"), (1, 7)),
        ("a: {b:\n  , c: 1}\n", ("a", "b"), (1, 7)),
        ("a: {b: # c\n , c: 1}\n", ("a", "b"), (1, 7)),
        ("a: {? b\n  : }\n", ("a", "b"), (2, 4)),
        ("x: 1\na:", ("a",), (2, 3)),
        ("x: 1\r\n? a", ("a",), (2, 4)),
        ("\ufeff? a", ("a",), (1, 4)),
    ],
)
def test_an_empty_value_is_placed_where_pythons_parser_places_it(
    text: str, path: tuple[str, ...], place: tuple[int, int]
) -> None:
    assert _compose_in_c(text, "t.yaml").value_position(path) == place
    assert yaml_reader._read_yaml(text, "t.yaml", fast=False).value_position(path) == place


class _CountedLoader:
    """Counts the Python composer's readings of libyaml's events."""

    made = 0

    def __new__(cls, text: str) -> Any:
        assert _FastLoader is not None
        cls.made += 1
        return _FastLoader(text)


@pytest.mark.parametrize("text", PLACED_ELSEWHERE + ALIAS_UNSURE)
def test_text_libyaml_places_elsewhere_is_read_by_pythons_parser_without_a_second_libyaml_reading(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_CountedLoader, "made", 0)
    monkeypatch.setattr(yaml_reader, "_FastLoader", _CountedLoader)
    read = _reading(text, fast=True)
    assert _CountedLoader.made == (0 if text in PLACED_ELSEWHERE else 1)
    assert read == _reading(text, fast=False)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("a: 1\n---\nb: 2\n", "but found another document"),
        ("a: *x\n", "found undefined alias"),
        ("a: [1\n", "did not find expected ',' or ']'"),
    ],
)
def test_text_the_c_composer_refuses_raises_for_the_python_composer_to_report(
    text: str, problem: str
) -> None:
    with pytest.raises(yaml.MarkedYAMLError) as refused:
        _compose_in_c(text, "t.yaml")
    assert refused.value.problem == problem


@pytest.mark.parametrize(
    ("text", "may"),
    [
        ("a: 1\n", False),
        ("x: https://h/?a=1&b=2\n", False),
        ("x: 'a&b'\n", False),
        ("&a x: 1\n", True),
        ("a: &x 1\n", True),
        ("a: [&x 1]\n", True),
        ("a: {b:&x 1}\n", True),
        ("x: Tom & Jerry\n", True),
        ("x: '&y'\n", True),
        ("a: -&x\n", True),
    ],
)
def test_only_text_where_an_anchor_may_stand_is_searched_for_aliases(text: str, may: bool) -> None:
    assert may_hold_aliases(text) is may


def test_an_empty_document_keeps_libyaml_only_without_a_stray_tab() -> None:
    assert places_alike("# nothing\n", None) == []
    assert places_alike("\t\n", None) is None
    assert places_alike("#\tnothing\n", None) == []


ALIASED = [
    "a: &x {b: 1}\nc: *x\nd: {<<: *x, e: 2}\n",
    "a: &x 1\nb: [*x, *x, 2, *x]\nc: # a comment with *y\n  *x\n",
    "\ufeffa: &x 1\nb: *x\r\nc: [ *x ,*x]\n",
    "l:\n- &x 1\n-  *x # *y\n- [*x]\n-\n  *x\n",
    "a: &x 1\nb: &s [*x, *x]\nc: *s\n",
    "? [a]\n: &x 1\n? b\n: *x\n",
    "a: &x 1\n\u2028b: *x\x85c: *x\n",
    "a: &x 1\nb: {c: *x, d: [*x], e: {f: *x}}\n",
    "é: &x 😀\n😀: [*x]\n",
]


@pytest.mark.parametrize("text", ALIASED, ids=[repr(text[:24]) for text in ALIASED])
def test_aliases_are_composed_in_c_at_their_places(text: str) -> None:
    _compose_in_c(text, "t.yaml")  # not declined
    _same_every_way(text)


class _CountedBreaks:
    """A line-break pattern that counts the breaks it is asked to find."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.found = 0

    def finditer(self, *where: Any) -> Iterator[re.Match[str]]:
        for found in self.pattern.finditer(*where):
            self.found += 1
            yield found


@pytest.mark.parametrize(
    "text",
    [
        "a: &a x\nb:\n" + "  - *a\n" * 2_000,
        "a: &a x\nb: [\n" + "  *a,\n" * 2_000 + "]\n",
        "m: &m {k: 1}\nz:\n  <<: [\n" + "    *m, # again\n" * 2_000 + "  ]\n",
    ],
    ids=["block list", "flow list", "merge list"],
)
def test_a_run_of_aliases_is_placed_reading_each_line_break_once(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = _CountedBreaks(gaps.LINE_BREAK)
    monkeypatch.setattr(gaps, "LINE_BREAK", counted)
    _compose_in_c(text, "t.yaml")
    assert 2_000 <= counted.found <= text.count("\n")


@pytest.mark.parametrize(
    ("directives", "through_libyaml"),
    [(LIBYAML_TAG_DIRECTIVES, True), (LIBYAML_TAG_DIRECTIVES + 1, False)],
)
def test_text_with_many_tag_directives_is_left_to_the_pure_python_parser(
    directives: int, through_libyaml: bool
) -> None:
    standard = "%TAG !s! tag:yaml.org,2002:\n"
    others = "".join(f"%TAG !t{i}! tag:x,{i}:\n" for i in range(directives - 1))
    text = standard + others + "---\na: !s!str c\n"
    assert libyaml_may_read(text) is through_libyaml
    assert yaml_reader._read_yaml(text, "t.yaml").data == {"a": "c"}


def test_text_with_a_byte_order_mark_after_its_start_is_left_to_the_pure_python_parser() -> None:
    assert libyaml_may_read("\ufeffa: 1\n") is True
    assert libyaml_may_read("a: 1\n\ufeffb: 2\n") is False
