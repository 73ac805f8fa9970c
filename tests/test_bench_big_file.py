"""The big-file benchmark's text is a valid declarations file just under the size bound."""

from __future__ import annotations

from bench import big_file
from hermes_decl.loader import MAX_BYTES, load_declarations_text


def test_the_big_file_is_valid_and_nearly_as_large_as_allowed() -> None:
    text = big_file.big_text()
    assert MAX_BYTES - 8192 < len(text.encode("utf-8")) <= MAX_BYTES
    declarations = load_declarations_text(text)
    assert len(declarations) > 500
