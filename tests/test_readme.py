"""The README's examples: the Python ones run as written, in order, in one namespace, and the
declarations file it shows is valid."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from hermes_decl import declaration
from hermes_decl.loader import load_declarations_text

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)
DECLARATION_FILES = [
    block
    for block in re.findall(r"```yaml\n(.*?)```", README, flags=re.DOTALL)
    if "$schema=schema/declarations.schema.json" in block
]


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


def test_the_editor_settings_are_valid_json_naming_real_schema_files() -> None:
    [settings] = re.findall(r"```json\n(.*?)```", README, flags=re.DOTALL)
    schemas = json.loads(settings)["yaml.schemas"]
    root = Path(__file__).parent.parent
    names = {Path(path).name for path in schemas}
    assert names == {"declarations.schema.json", "declaration.schema.json"}
    assert (root / next(path for path in schemas if path.startswith("./"))).is_file()
    for name in names:
        assert (root / "hermes_decl" / "schemas" / name).is_file()


def test_the_readme_states_how_yaml_is_read_and_the_exit_statuses() -> None:
    text = " ".join(README.split())
    assert "by the YAML 1.2 core schema: only `true` and `false` are booleans" in text
    for status in ("| 0 |", "| 1 |", "| 2 |", "| 3 |"):
        assert status in README
    assert "| 3 | — | a file is invalid (a declaration error) | — | — | — |" in README


def test_the_declarations_file_shown_is_valid() -> None:
    (text,) = DECLARATION_FILES
    found = load_declarations_text(text, where="README.md")
    decl = found["vendor-studio"]
    assert decl.app is not None
    assert decl.app.display_name == "Vendor Studio"
    assert decl.requires.arch == ("x86_64",)
