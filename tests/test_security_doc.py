"""SECURITY.md's table of bounds says what the code does: each named constant, with its value,
and every bound the package defines is in it."""

from __future__ import annotations

import ast
import functools
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import hermes_decl

SECURITY = (Path(__file__).parent.parent / "SECURITY.md").read_text(encoding="utf-8")
ROW = re.compile(r"^\| (?P<what>[^|]+) \| (?P<bound>[^|]+) \| (?P<where>[^|]+) \|$", re.MULTILINE)
ROWS = [match for match in ROW.finditer(SECURITY) if "`" in match["where"]]
PAIRS: dict[str, str] = {}
"""Each constant the table names, with the bound its row writes for it."""
for _row in ROWS:
    _names = re.findall(r"`([\w.]+)`", _row["where"].split("(")[0])
    _bounds = [bound.strip() for bound in _row["bound"].split(" / ")]
    _bounds = _bounds if len(_bounds) == len(_names) else [""] * len(_names)
    PAIRS.update(zip(_names, _bounds, strict=True))

BOUND_NAME = re.compile(r"(?:MAX_[A-Z0-9_]+|[A-Z0-9_]+_MAX|[A-Z0-9_]+_LIMIT|DEFAULT_DEADLINE_S)")
"""How the package names a bound on its input or its work."""


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


def _value(name: str) -> object:
    """The object a dotted name below ``hermes_decl`` stands for (a constant, or a class's)."""
    parts = name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            module = importlib.import_module("hermes_decl." + ".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        return functools.reduce(getattr, parts[cut:], module)
    raise LookupError(name)


def _assigned_names(body: list[ast.stmt]) -> Iterator[str]:
    """The names a block of statements assigns to (plain and annotated assignments)."""
    for statement in body:
        targets = statement.targets if isinstance(statement, ast.Assign) else []
        if isinstance(statement, ast.AnnAssign):
            targets = [statement.target]
        yield from (target.id for target in targets if isinstance(target, ast.Name))


def _defined_bounds() -> set[str]:
    """Every bound the package defines at module or class level, named as the table names it."""
    package = Path(hermes_decl.__file__).parent
    found: set[str] = set()
    for source in package.rglob("*.py"):
        module = ".".join(source.relative_to(package).with_suffix("").parts)
        module = module.replace("loader.document", "loader")  # the loader exports its bounds
        tree = ast.parse(source.read_text(encoding="utf-8"))
        found |= {f"{module}.{n}" for n in _assigned_names(tree.body) if BOUND_NAME.fullmatch(n)}
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                names = _assigned_names(node.body)
                found |= {f"{module}.{node.name}.{n}" for n in names if BOUND_NAME.fullmatch(n)}
    return found


def test_the_table_names_its_constants() -> None:
    assert len(PAIRS) >= 40
    assert "loader.MAX_ALIAS_NODES" in PAIRS
    assert "hosts.protocol.MAX_DIR_ENTRIES" in PAIRS


@pytest.mark.parametrize("row", ROWS, ids=[row["what"] for row in ROWS])
def test_each_row_writes_one_bound_per_constant(row: re.Match[str]) -> None:
    names = re.findall(r"`([\w.]+)`", row["where"].split("(")[0])
    assert len(row["bound"].split(" / ")) == len(names), row["where"]


@pytest.mark.parametrize(("name", "bound"), PAIRS.items(), ids=list(PAIRS))
def test_each_named_bound_is_the_constant_s_value(name: str, bound: str) -> None:
    value = _value(name)
    assert isinstance(value, (int, float)) and not isinstance(value, bool)
    assert any(bound.startswith(way) for way in _ways_written(value)), (bound, value)


def _named_in_the_table(bound: str) -> bool:
    """Whether the table names a bound: itself, or an old address that re-exports it by name."""
    if bound in PAIRS:
        return True
    name = bound.rsplit(".", 1)[-1]
    value = _value(bound)
    return any(named.rsplit(".", 1)[-1] == name and _value(named) is value for named in PAIRS)


def test_every_bound_the_package_defines_is_in_the_table() -> None:
    assert {bound for bound in _defined_bounds() if not _named_in_the_table(bound)} == set()


def test_a_moved_bound_counts_only_under_an_old_address_of_the_same_object() -> None:
    assert _named_in_the_table("resolver.gpu.MAX_DEVICES")  # named as itself
    assert _named_in_the_table("hosts.rooted.MAX_SYMLINK_HOPS")  # as resolver.rooted_host's
    assert not _named_in_the_table("hosts.pathsearch.DEFAULT_PATHEXT")  # named nowhere
