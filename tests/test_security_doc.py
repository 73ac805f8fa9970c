"""SECURITY.md's table of bounds says what the code does: each named constant, with its value."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

SECURITY = (Path(__file__).parent.parent / "SECURITY.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (?P<what>[^|]+) \| (?P<bound>[^|]+) \| `(?P<name>[\w.]+)`", re.MULTILINE)
ROWS = {match["name"]: match["bound"] for match in ROW.finditer(SECURITY)}
NAMED = {name: bound for name, bound in ROWS.items() if name.rsplit(".", 1)[-1].isupper()}


def _ways_written(value: int | float) -> list[str]:
    """How the table may write a bound: seconds, or digits with separators, KiB or MiB."""
    if isinstance(value, float):
        return [f"{value:g} s"]
    ways = [f"{value:,}"]
    if value % (1 << 20) == 0:
        ways.append(f"{value >> 20} MiB")
    elif value % (1 << 10) == 0:
        ways.append(f"{value >> 10} KiB")
    return ways


def test_the_table_names_its_constants() -> None:
    assert len(NAMED) >= 10
    assert "loader.MAX_ALIAS_NODES" in NAMED
    assert "resolver.listing.MAX_DIR_ENTRIES" in NAMED


@pytest.mark.parametrize(("name", "bound"), NAMED.items(), ids=list(NAMED))
def test_each_named_bound_is_the_constant_s_value(name: str, bound: str) -> None:
    module, constant = name.rsplit(".", 1)
    value = getattr(importlib.import_module(f"hermes_decl.{module}"), constant)
    assert isinstance(value, (int, float)) and not isinstance(value, bool)
    assert any(bound.startswith(way) for way in _ways_written(value)), (bound, value)
