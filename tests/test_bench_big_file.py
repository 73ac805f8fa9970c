"""The big-file benchmark's texts are valid declarations files just under the size bound."""

from __future__ import annotations

import pytest

from bench import big_file
from hermes_decl.loader import MAX_BYTES, load_declarations_text


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
