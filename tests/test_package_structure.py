"""The package's shape: no import cycle, no production code on test helpers, a resolver on Host."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import hermes_decl
from tests.process_starts import run_started

PACKAGE_DIR = Path(hermes_decl.__file__).parent

TEST_HELPERS = frozenset({"hermes_decl.testing", "hermes_decl.testing_pe"})
"""Modules for users' and this project's tests; production code never imports them."""

HOST_IMPLEMENTATIONS = (
    "hermes_decl.hosts.live",
    "hermes_decl.hosts.rooted",
    "hermes_decl.hosts.fake",
    "hermes_decl.hosts.snapshot",
    "hermes_decl.hosts._pe_image",
    "hermes_decl.resolver.live_host",
    "hermes_decl.resolver.rooted_host",
    "hermes_decl.resolver.winregistry",
    "hermes_decl.resolver.winprocess",
    "hermes_decl.resolver.macprocess",
    "hermes_decl.resolver.procfs",
    "hermes_decl.resolver.native_machine",
    "hermes_decl.resolver.os_version",
    "hermes_decl.testing",
    "hermes_decl.snapshot",
)
"""Modules (and packages) holding a host implementation, or re-exporting one from its old path."""

RESOLVER_REEXPORTS = frozenset(
    {
        "hermes_decl.resolver.host",
        "hermes_decl.resolver.live_host",
        "hermes_decl.resolver.rooted_host",
        "hermes_decl.resolver.winregistry",
        "hermes_decl.resolver.winprocess",
        "hermes_decl.resolver.macprocess",
        "hermes_decl.resolver.procfs",
        "hermes_decl.resolver.native_machine",
        "hermes_decl.resolver.os_version",
        "hermes_decl.resolver.desktop_session",
        "hermes_decl.resolver.pathsearch",
    }
)
"""The old addresses of the host modules, kept in the resolver package as re-exports."""


def module_name(path: Path) -> str:
    """The dotted name of a module file of the package."""
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def is_package(name: str) -> bool:
    """Whether a module name of the package is a package (an ``__init__.py``)."""
    return MODULES[name].name == "__init__.py"


def imported_names(node: ast.Import | ast.ImportFrom, importer: str) -> Iterator[str]:
    """The package's modules one import statement loads, parent packages included."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            anchor = importer if is_package(importer) else importer.rpartition(".")[0]
            for _ in range(node.level - 1):
                anchor = anchor.rpartition(".")[0]
            base = f"{anchor}.{base}" if base else anchor
        targets = [f"{base}.{alias.name}" for alias in node.names]
        targets = [target if target in MODULES else base for target in targets]
    for target in targets:
        parts = target.split(".")
        for depth in range(1, len(parts) + 1):
            name = ".".join(parts[:depth])
            if name in MODULES:
                yield name


def is_type_checking_block(node: ast.stmt) -> bool:
    """Whether a statement is ``if TYPE_CHECKING:``, whose imports never run."""
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def module_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is loaded: not in functions or classes, nor type-only."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If) and not is_type_checking_block(node):
            yield from module_level_imports(node.body)
            yield from module_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                yield from module_level_imports(block)
            for handler in node.handlers:
                yield from module_level_imports(handler.body)
        elif isinstance(node, ast.With):
            yield from module_level_imports(node.body)


def parsed(name: str) -> ast.Module:
    """The syntax tree of one of the package's modules."""
    return ast.parse(MODULES[name].read_text(encoding="utf-8"), str(MODULES[name]))


def import_graph() -> dict[str, set[str]]:
    """Each module's module-level imports of the package's modules (its own ancestors left out:
    they are already loading when it runs)."""
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        ancestors = {".".join(name.split(".")[:depth]) for depth in range(1, name.count(".") + 1)}
        graph[name] = {
            target
            for node in module_level_imports(parsed(name).body)
            for target in imported_names(node, name)
            if target != name and target not in ancestors
        }
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another (strongly connected, Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def every_import(name: str) -> set[str]:
    """Every module of the package that a module imports anywhere, inside functions too."""
    return {
        target
        for node in ast.walk(parsed(name))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for target in imported_names(node, name)
    }


def test_the_graph_sees_module_level_imports_only() -> None:
    graph = import_graph()
    # default imports the live host inside a function, and the protocol under TYPE_CHECKING.
    assert graph["hermes_decl.hosts.default"] == set()
    assert "hermes_decl.hosts.live.host" in every_import("hermes_decl.hosts.default")
    assert graph["hermes_decl.hosts"] == {"hermes_decl.hosts.protocol"}
    # a platform guard runs on its platform, so its imports count
    assert "hermes_decl.hosts.live.windows" in graph["hermes_decl.hosts.live.host"]
    assert "hermes_decl.hosts.live.linux" in graph["hermes_decl.hosts.live.host"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_in_the_package() -> None:
    assert import_cycles(import_graph()) == []


def test_no_production_module_imports_the_test_helpers() -> None:
    importing = {
        name: sorted(every_import(name) & TEST_HELPERS)
        for name in MODULES
        if name not in TEST_HELPERS and every_import(name) & TEST_HELPERS
    }
    assert importing == {}


def test_the_resolver_imports_no_host_implementation() -> None:
    deciding = [
        name
        for name in MODULES
        if name.startswith("hermes_decl.resolver.") and name not in RESOLVER_REEXPORTS
    ]
    assert "hermes_decl.resolver.availability" in deciding
    importing = {
        name: sorted(
            target
            for target in every_import(name)
            if any(target == it or target.startswith(it + ".") for it in HOST_IMPLEMENTATIONS)
        )
        for name in deciding
    }
    assert {name: found for name, found in importing.items() if found} == {}


@pytest.mark.parametrize(
    "module",
    [
        "hermes_decl.resolver.availability",
        "hermes_decl.resolver.gpu",
        "hermes_decl.resolver.liveness",
        "hermes_decl.resolver.status",
        "hermes_decl.hosts.default",
    ],
)
def test_deciding_code_loads_no_live_host_until_it_is_asked(module: str) -> None:
    code = (
        "import sys\n"
        f"import {module}\n"
        "live = sorted(m for m in sys.modules if m.startswith('hermes_decl.hosts.live'))\n"
        "assert live == [], live\n"
        "from hermes_decl.hosts.default import default_host\n"
        "default_host()\n"
        "assert 'hermes_decl.hosts.live.host' in sys.modules\n"
    )
    run_started([sys.executable, "-c", code], check=True, timeout=60)


def test_no_module_is_over_500_lines() -> None:
    lengths = {
        name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()
    }
    assert {name: length for name, length in lengths.items() if length > 500} == {}


def is_re_export(name: str) -> bool:
    """Whether a module only re-exports names from elsewhere: an old address kept working.

    Its statements are imports, ``__all__``, imports for type checkers only and a module
    ``__getattr__`` that loads a name on first use.
    """
    body = parsed(name).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return bool(body) and all(_re_exports(statement) for statement in body)


def _re_exports(statement: ast.stmt) -> bool:
    """Whether a module-level statement is one a re-export module is made of."""
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return True
    if isinstance(statement, ast.Assign | ast.AnnAssign):
        return ast.unparse(statement).startswith("__all__")
    if isinstance(statement, ast.If):
        return ast.unparse(statement.test) == "TYPE_CHECKING" and all(
            isinstance(inner, ast.Import | ast.ImportFrom) for inner in statement.body
        )
    return isinstance(statement, ast.FunctionDef) and statement.name == "__getattr__"


def test_the_re_export_check_tells_an_old_address_from_a_module_with_code() -> None:
    assert is_re_export("hermes_decl.resolver.status")
    assert is_re_export("hermes_decl.resolver.host")  # with names loaded on first use
    assert not is_re_export("hermes_decl.runtime.status")
    assert not is_re_export("hermes_decl.hosts.live.host")


def test_no_two_modules_share_a_name_but_old_addresses_kept_as_re_exports() -> None:
    by_name: dict[str, list[str]] = {}
    for name in MODULES:
        if not is_package(name) and not name.endswith(".__main__"):
            by_name.setdefault(name.rpartition(".")[2], []).append(name)
    shared = {
        short: [name for name in names if not is_re_export(name)]
        for short, names in by_name.items()
        if len(names) > 1
    }
    assert {short: names for short, names in shared.items() if len(names) > 1} == {}
