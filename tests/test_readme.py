"""The README's Python examples run as written, in order, in one namespace."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_decl import declaration

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    yield
    declaration.clear()


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3


def test_the_python_examples_run() -> None:
    namespace: dict[str, object] = {}
    for block in BLOCKS:
        exec(compile(block, "README.md", "exec"), namespace)
