"""The big-file benchmark's texts are valid declarations files just under the size bound."""

from __future__ import annotations

import pytest

from bench import big_file
from hermes_decl.loader import MAX_BYTES, load_declarations_text, yaml_reader
from hermes_decl.loader.yaml_reader import _compose_in_c


@pytest.mark.parametrize(("name", "least"), [("big_text", 500), ("many_small_text", 5_000)])
def test_the_big_files_are_valid_and_nearly_as_large_as_allowed(name: str, least: int) -> None:
    text = getattr(big_file, name)()
    assert MAX_BYTES - 8192 < len(text.encode("utf-8")) <= MAX_BYTES
    declarations = load_declarations_text(text)
    assert len(declarations) > least


def test_the_tabbed_file_is_the_small_servers_after_a_tab_in_a_comment() -> None:
    text = big_file.tabbed_text()
    assert text.count("\t") == 1
    assert text.startswith(big_file.TAB_COMMENT)
    assert len(text) <= big_file.SIZE
    assert list(load_declarations_text(text))[:2] == ["s0", "s1"]


def test_the_anchored_file_shares_one_block_between_two_servers() -> None:
    text = big_file.anchored_text()
    assert text.startswith(big_file.ANCHORED)
    assert len(text) <= big_file.SIZE
    declarations = load_declarations_text(text)
    assert list(declarations)[:3] == ["gpu-a", "gpu-b", "s0"]
    assert declarations["gpu-a"].requires == declarations["gpu-b"].requires


def test_the_empty_values_file_is_composed_in_c_with_pythons_places() -> None:
    text = big_file.empty_values_text()
    assert MAX_BYTES - 8192 < len(text.encode("utf-8")) <= MAX_BYTES
    assert text.endswith(big_file.LAST_EMPTY) and text.count("arch: }") > 3000
    declarations = load_declarations_text(text)
    assert declarations["e4"].requires.arch is None and declarations["last"].requires.gpu
    in_c = _compose_in_c(text, "big.yaml")
    pure = yaml_reader._read_yaml(text, "big.yaml", fast=False)
    assert in_c.value_position(("e4", "requires", "arch")) == (14, 32)
    assert pure.value_position(("e4", "requires", "arch")) == (14, 32)
    last = ("last", "requires", "arch")
    assert in_c.value_position(last) == pure.value_position(last)
