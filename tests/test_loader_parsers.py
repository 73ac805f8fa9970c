"""libyaml's C composer, PyYAML's Python composer and its pure-Python parser give one reading.

The loader composes in C (``CParser.get_single_node``) where libyaml is present and that composes
the nodes the Python composer would; else it composes in Python from libyaml's events; text
libyaml refuses is read again with the pure-Python parser. Every file of the loader corpus (the
fuzz seeds, the editor corpus, the examples), those files with tabs, deep, aliased and broken
text and generated text are read all three ways: the data, every value's and key's position,
and every issue (code, message, line, column) must be the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_decl.declaration import DeclarationError
from hermes_decl.loader.composers import _FastLoader, _Unsure
from hermes_decl.loader.reading import _decode
from hermes_decl.loader.tabs import scalar_span, tabs_read_alike
from hermes_decl.loader.yaml_reader import _read_yaml

ROOT = Path(__file__).parent.parent


def _texts(paths: list[Path]) -> dict[str, str]:
    """The corpus files that decode to text (the others never reach a YAML parser)."""
    texts: dict[str, str] = {}
    for path in sorted(paths):
        try:
            texts[path.relative_to(ROOT).as_posix()] = _decode(path.read_bytes(), path.name)
        except DeclarationError:
            continue
    return texts


CORPUS = _texts(
    [
        *(ROOT / "fuzz" / "corpus" / "loader").iterdir(),
        *(ROOT / "tests" / "editor" / "corpus").glob("*.yaml"),
        *(ROOT / "examples").rglob("*.yaml"),
    ]
)
TEXTS = [
    "a: [1, 2\n",
    "a: b: c\n",
    "a:\n  - x\n - y\n",
    "\ta: 1\n",
    "a: 'unclosed\n",
    'a: "\\q"\n',
    "a: !!int nope\n",
    "a: &x 1\nb: *y\n",
    "? [a]\n: b\n",
    "a: |\n  text\n b: 1\n",
    "--- 1\n--- 2\n",
    "%YAML 1.1\n---\na: 1\n",
    "%YAML 2.0\n---\na: 1\n",
    "a: \x07\n",
    "a: 1\n\ufeffb: 2\n",
    "a: [" * 200 + "]" * 200,
    "- " * 300 + "x\n",
    "x: &a [*a]\n",
    "a: @b\n",
    "a: `b\n",
    "{a: 1, a: 2}\n",
    "a: !custom 1\n",
    "<<: 1\n",
    "a: &x {b: 1}\nc: *x\nd: {<<: *x, e: 2}\n",
    "base:\n  <<: {a: 1, b: 2}\n  <<: [{c: 3}, {a: 4}]\n  b: 5\n",
    "a: {<<: }\nb: [<<: 1]\n",
    "a: 1\nb: 2\na: 3\n",
    "a: {b: 1, b: 2}\nc:\n  - {d: 1}\n  - d: 1\n    d: 2\n",
    "a: *x\n",
    "a: &x 1\nb: &x 2\n",
    "x: Tom & Jerry\n",
    "x: https://h/?a=1&b=2\n",
    "x: '&y'\n",
    "a: 1\n---\n",
    "---\n",
    "",
    "# only a comment\n",
    "a:",
    "a:\n",
    "- a\n-",
    "-\n-",
    "a: {b}\n",
    "a: [b: ]\n",
    "a: {: b}\n",
    "a: !!str\n",
    "a: !!str",
    "a: !custom [[[x]]]\n",
    "? [a, b]\n: c\n",
    "? {a: 1}\n: c\n",
    "a: !!set {x, y}\nb: !!omap [{x: 1}]\n",
    "a: 010\nb: yes\nc: 0o17\nd: 2024-01-01\ne: ~\nf: .inf\ng: !!binary aGk=\n",
    "a: !!int '12'\nb: ! 12\nc: !!float 1\n",
    "%TAG !e! tag:yaml.org,2002:\n---\na: !e!int 7\n",
    'a: |\n  x\nb: >-\n  y\n  z\nc: "q\\tr"\n',
    "a: 1\n...\n",
]


def _tabbed(text: str) -> str:
    """The text with tabs where both parsers must agree (comments, quoted and block scalars) and
    where they may not (after an indicator): each is read by libyaml or PyYAML as it needs."""
    return (
        text.replace("# ", "#\t")
        .replace(" #", "\t#")
        .replace('"', '"\t', 1)
        .replace("|\n  ", "|\n  \t", 1)
        .replace(": ", ":\t", 1 if "tab" in text else 0)
    )


TABBED = {name: _tabbed(text) for name, text in CORPUS.items() if _tabbed(text) != text}
LEVELS = (99, 100, 101, 999, 1000, 1001, 5000)
"""Nesting around the loader's bound (100) and libyaml's own (1000)."""


def _ladder(levels: int) -> str:
    """A block mapping ``levels`` deep, one space more at each level."""
    return "".join(" " * level + f"k{level}:\n" for level in range(levels)) + " " * levels + "v\n"


SHAPES: dict[str, Callable[[int], str]] = {
    "flow": lambda n: "[" * n + "]" * n + "\n",
    "flow mapping": lambda n: "{a: " * n + "x" + "}" * n + "\n",
    "compact": lambda n: "- " * n + "x\n",
    "flow in block": lambda n: _ladder(n // 2)[:-2] + "[" * (n - n // 2) + "]" * (n - n // 2),
    "flow in compact": lambda n: (
        "- " * (n - n // 4 * 2) + "{a: [" * (n // 4) + "]}" * (n // 4) + "\n"
    ),
}
"""Nesting ``n`` levels deep in flow, block and mixed collections."""
PLACES: dict[str, Callable[[int], str]] = {
    "under a key": lambda n: "a:\n  b: " + "[" * n + "]" * n + "\n",
    "in a complex key": lambda n: "? " + "[" * n + "]" * n + "\n: v\n",
    "in a merge": lambda n: "a:\n  <<: {b: " + "[" * n + "]" * n + "}\n",
    "before a syntax error": lambda n: "a: 1\nb: " + "[" * n + "]" * n + "\nc: [\n",
}
"""Nesting ``n`` levels deep where the nodes are built, and where they are not (a complex key,
a merge), and before an error the parser meets later."""
DEEP = [
    *(make(levels) for make in SHAPES.values() for levels in LEVELS),
    *(_ladder(levels) for levels in LEVELS if levels <= 1001),  # 5,000 deep would be 12 MB
    *(make(levels) for make in PLACES.values() for levels in (100, 101, 1001)),
    "a: " + "[" * 99 + "]" * 99 + "\n",
    "a: " + "[" * 100 + "]" * 100 + "\n",
    "a: " + "{b: " * 101 + "c" + "}" * 101 + "\n",
    "".join("  " * level + f"k{level}:\n" for level in range(101)) + "  " * 101 + "v\n",
    "- " * 99 + "x\n",
    "- " * 101 + "x\n",
    "a: &x [" * 3 + "]" * 3 + "\nb: [*x, *x]\n",
    "a: &x [" * 60 + "]" * 60 + "\nb: [" * 50 + "*x" + "]" * 50 + "\n",
]
TABS = [
    "a: 1 # a\tcomment\n",
    "a: 1\t# a comment\n",
    "a:\t1\n",
    "a: '\tquoted'\n",
    'a: "two\n  \tlines"\n',
    "a: |\n  \tliteral\n",
    "a: |\t# header\n  text\n",
    "a: | # header\t\n  text\n",
    "a: !!str\t'x'\n",
    "a: !!str '\tx'\n",
    "a: &x\t1\n",
    "a: [1,\t2]\n",
    "a: b\tc\n",
    "\ta: 1\n",
    "a: 1\n\t\n",
    "a: 'x' # \t\n---\nb: '\t'\n",
    "a: 'x'\nb: [\n# \tc\n]\n",
    'a: "# \t"\n',
    "a: 'x'\u2028\tb: 1\n",
    "# \t\n" * 3 + "a: 1\n",
    "!!set '&a #'\t#",
    "a: !!str '# x'\t# c\n",
    "a: &x 'y # z'\t# c\n",
    "\ufeffa: '\tquoted'\n",
    "\ufeffa: 'x' # \t\n",
]


def _reading(text: str, *, fast: bool, compose_in_c: bool = True) -> object:
    """Everything a reading yields: data and positions, or the issues of its error."""
    try:
        document = _read_yaml(text, "t.yaml", fast=fast, compose_in_c=compose_in_c)
    except DeclarationError as error:
        return [(i.loc, i.code, i.message, i.line, i.column) for i in error.issues]
    issues = [(i.loc, i.code, i.message, i.line, i.column) for i in document.issues]
    return (repr(document.data), dict(document.values), dict(document.keys), issues)


def _same_every_way(text: str) -> None:
    in_c = _reading(text, fast=True)
    assert in_c == _reading(text, fast=True, compose_in_c=False)
    assert in_c == _reading(text, fast=False)


def test_libyaml_is_here_so_both_parsers_are_compared() -> None:
    assert yaml.__with_libyaml__, "PyYAML was built without libyaml: the fast path is untested"


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_corpus_reads_the_same_with_both_parsers(name: str) -> None:
    _same_every_way(CORPUS[name])


def test_the_corpus_is_the_loader_s() -> None:
    assert len(CORPUS) >= 80
    assert any(name.startswith("fuzz/corpus/loader/") for name in CORPUS)


@pytest.mark.parametrize("text", TEXTS, ids=[repr(text[:24]) for text in TEXTS])
def test_syntax_errors_and_edge_cases_read_the_same(text: str) -> None:
    _same_every_way(text)


@pytest.mark.parametrize("name", sorted(TABBED))
def test_the_corpus_with_tabs_reads_the_same_with_both_parsers(name: str) -> None:
    _same_every_way(TABBED[name])


def test_the_tabbed_corpus_has_tabs_both_parsers_read_alike() -> None:
    assert len(TABBED) >= 40
    assert sum("#\t" in text for text in TABBED.values()) >= 20


@pytest.mark.parametrize("text", DEEP + TABS, ids=[repr(text[:24]) for text in DEEP + TABS])
def test_deep_and_tabbed_text_reads_the_same(text: str) -> None:
    _same_every_way(text)


PARSER_SETTINGS = settings(
    max_examples=int(os.environ.get("PARSER_EXAMPLES", "400")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
"""How long the generated-text comparisons of the parsers run (``PARSER_EXAMPLES`` examples)."""


TOKENS = [
    "srv", "app", "requires", "linux", "presence", "location", "kind", "yes", "no", "on",
    "true", "null", "~", "1", "010", "0o7", "0x1F", "2.3", "1_0", "2001-12-14", ":", ": ",
    "- ", "\n", "  ", "\t", "[", "]", "{", "}", ",", "'", '"', "#", "&a ", "*a", "<<: ", "? ",
    "!!set ", "!!str ", "!!int ", "!foo ", "---\n", "...\n", "|\n", ">-\n", "\ufeff", "é",
    "\\", "=", "%YAML 1.2\n", "# ", "\t#", "\t",
]  # fmt: skip


@PARSER_SETTINGS
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_generated_text_reads_the_same_with_both_parsers(text: str) -> None:
    _same_every_way(text)


def _libyaml_reads(text: str) -> bool:
    """Whether a text libyaml composes stays with libyaml, its tabs read as PyYAML reads them."""
    assert _FastLoader is not None
    loader = _FastLoader(text)
    try:
        assert loader.check_node()
        loader.get_node()
        assert not loader.check_node()
        loader.settle()
    except _Unsure:
        return False
    finally:
        loader.dispose()
    return True


@pytest.mark.parametrize(
    ("text", "alike"),
    [
        ("a: 1 # a\tcomment\n", True),
        ("a: '\tquoted'\n", True),
        ('a: "two\n  \tlines"\n', True),
        ("a: |\n  x\n  \tliteral\n", True),
        ("a: | # header\t\n  text\n", True),
        ('a: "# \t"\n', True),
        ("# \t\n# \t\na: 1\n", True),
        ("a: 1\t# a comment\n", False),
        ("a:\t1\n", False),
        ("a: |\t# header\n  text\n", False),
        ("a: !!str '\tx'\n", False),
        ("a: [1,\t2]\n", False),
        ("a: b\tc\n", False),
        ("\ufeffa: '\tquoted'\n", True),
        ("a: !!str '# x'\t# c\n", False),
        ("a: !!str '#\tx'\n", False),
    ],
)
def test_only_tabs_the_parsers_may_read_differently_leave_libyaml(text: str, alike: bool) -> None:
    assert _libyaml_reads(text) is alike


def test_the_tab_rule_is_read_off_the_text_and_the_spans() -> None:
    text = "a: 'x\ty' #\t\nb: c\t\n"
    assert tabs_read_alike(text, [(4, 7)]) is False
    assert tabs_read_alike(text[:13], [(4, 7)]) is True
    assert tabs_read_alike(text[:13], []) is False  # the first tab is then outside every scalar
    assert scalar_span("k: |-\n  x\n", 3, 10) == (5, 10)
    assert scalar_span("k: &a 'x'\n", 3, 9) == (3, 9)  # no '#' in it starts a comment
    assert scalar_span("k: &a\t'x'\n", 3, 9) is None  # a tab PyYAML may refuse


@st.composite
def _shared_documents(draw: st.DrawFn) -> str:
    """A document whose values share collections, dumped by PyYAML as anchors and aliases, in
    block or flow style, with comments after some lines and either line break."""
    shared: list[object] = []

    def value(depth: int) -> object:
        choice = draw(st.integers(0, 9))
        if depth > 3 or choice < 3:
            reuse: bool = draw(st.booleans())
            if shared and reuse:
                return draw(st.sampled_from(shared))
            return draw(st.sampled_from(["x", "y z", "1", "*", "# no", "a: b"]))
        items = range(draw(st.integers(0, 3)))
        made: object = (
            [value(depth + 1) for _ in items]
            if choice < 6
            else {f"k{number}": value(depth + 1) for number in items}
        )
        if draw(st.booleans()):
            shared.append(made)
        return made

    data = {f"s{number}": value(0) for number in range(draw(st.integers(1, 3)))}
    style = draw(st.sampled_from([None, True, False]))
    text = yaml.safe_dump(data, default_flow_style=style, width=draw(st.sampled_from([20, 1000])))
    commented = draw(st.lists(st.booleans(), min_size=text.count("\n"), max_size=text.count("\n")))
    lines = [
        line + (" # *c" if line and comment else "")
        for line, comment in zip(text.split("\n"), [*commented, False], strict=True)
    ]
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


@PARSER_SETTINGS
@given(_shared_documents())
def test_anchored_documents_read_the_same_with_both_parsers(text: str) -> None:
    _same_every_way(text)
