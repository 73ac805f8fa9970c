"""Mutation-test a module whose rules are built at import time, where mutmut's switch cannot reach.

mutmut switches mutants inside functions once the tests are collected, so a table or pattern
built while the module is imported never changes. Here each mutant is written into the
module's file in a scratch copy of the tree, and the tests run in a fresh interpreter that
imports it. Usage (from the repository root; pytest options may follow the tests after ``--``):

    .venv/bin/python tests/mutation/by_hand.py hermes_decl/models/rules.py -- tests/test_x.py…
    .venv/bin/python tests/mutation/by_hand.py --only 12,40 MODULE -- TESTS…  # re-run these

The mutations: each comparison operator for its opposite, ``and`` for ``or``, a ``not``
dropped, ``+`` for ``-``, an integer one up and one down, a boolean flipped, a string wrapped
in ``XX``, one element dropped from a regex character class, and one element dropped from a
list, tuple or set literal. Docstrings and annotations are left alone. The report lists every
mutant as killed (the tests failed), timeout (counted as killed) or survived, with its line
and change.
"""

from __future__ import annotations

import argparse
import ast
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OPPOSITE_COMPARISONS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
# One element of a regex character class: an escape (\uXXXX, \xXX or one character) or a
# character, either of them possibly the start of a range.
_ATOM = r"(?:\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2}|\\.|[^\\\]])"
_CLASS_ELEMENT = re.compile(rf"{_ATOM}(?:-{_ATOM})?")
_CLASS = re.compile(r"(?<!\\)\[(\^?)((?:\\.|[^\\\]])+)\]")


Parents = dict[int, tuple[ast.AST, str, int | None]]
"""Each node's parent, by the child's id: the parent, its field and the index in that list."""


@dataclass(frozen=True)
class Mutant:
    """One change: the node it applies to (by its place in ``ast.walk``) and what it does."""

    node_index: int
    line: int
    change: str
    kind: str
    """"flip" (a comparison, its position in ``argument``), "swap" (``and``/``or``),
    "drop_not", "negate" (``+``/``-``), "bool", "shift" (an integer, by ``argument``),
    "string" (the new value in ``argument``) or "drop" (a literal's element at ``argument``)."""
    argument: int | str = 0


def _skipped_nodes(tree: ast.Module) -> set[int]:
    """The ids of docstrings and annotations, whose change no behaviour can show."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        # A string expression documents what precedes it, as a docstring does.
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        annotations: list[ast.AST | None] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotations.append(node.returns)
        if isinstance(node, ast.arg | ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            if annotation is not None:
                skipped.update(id(inner) for inner in ast.walk(annotation))
    return skipped


def _parents(tree: ast.AST) -> Parents:
    parents: Parents = {}
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for index, child in enumerate(value):
                    if isinstance(child, ast.AST):
                        parents[id(child)] = (parent, field, index)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (parent, field, None)
    return parents


def _replace(node: ast.AST, new: ast.AST, parents: Parents) -> None:
    parent, field, index = parents[id(node)]
    if index is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[index] = new


def _shown(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 60 else text[:57] + "..."


def _string_mutants(index: int, node: ast.Constant) -> Iterator[Mutant]:
    value = node.value
    assert isinstance(value, str)
    wrapped = f"XX{value}XX"
    yield Mutant(index, node.lineno, f"{value!r} -> {wrapped!r}", "string", wrapped)
    for found in _CLASS.finditer(value):
        elements = [element.group() for element in _CLASS_ELEMENT.finditer(found.group(2))]
        if len(elements) < 2:
            continue
        for dropped in range(len(elements)):
            rest = "".join(elements[:dropped] + elements[dropped + 1 :])
            new = value[: found.start(2)] + rest + value[found.end(2) :]
            change = f"{found.group()!r}: drop {elements[dropped]!r}"
            yield Mutant(index, node.lineno, change, "string", new)


def _joins_strings(node: ast.BinOp | ast.AugAssign) -> bool:
    """Whether a ``+`` joins strings: a ``-`` there fails at import, which tells nothing."""
    operands = [node.left, node.right] if isinstance(node, ast.BinOp) else [node.value]
    return any(
        isinstance(operand, ast.JoinedStr)
        or (isinstance(operand, ast.Constant) and isinstance(operand.value, str))
        for operand in operands
    )


def _node_mutants(index: int, node: ast.AST) -> Iterator[Mutant]:
    line = getattr(node, "lineno", 0)
    if isinstance(node, ast.Compare):
        for position, operator in enumerate(node.ops):
            opposite = OPPOSITE_COMPARISONS[type(operator)].__name__
            change = f"{_shown(node)}: {type(operator).__name__} -> {opposite}"
            yield Mutant(index, line, change, "flip", position)
    elif isinstance(node, ast.BoolOp):
        yield Mutant(index, line, f"{_shown(node)}: and <-> or", "swap")
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield Mutant(index, line, f"{_shown(node)}: drop not", "drop_not")
    elif isinstance(node, ast.BinOp | ast.AugAssign) and isinstance(node.op, ast.Add | ast.Sub):
        if not _joins_strings(node):
            yield Mutant(index, line, f"{_shown(node)}: + <-> -", "negate")
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield Mutant(index, line, f"{node.value} -> {not node.value}", "bool")
    elif isinstance(node, ast.Constant) and isinstance(node.value, int):
        for step in (1, -1):
            yield Mutant(index, line, f"{node.value} -> {node.value + step}", "shift", step)
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield from _string_mutants(index, node)
    elif (
        isinstance(node, ast.List | ast.Tuple | ast.Set)
        and len(node.elts) >= 2
        and (isinstance(node, ast.Set) or isinstance(node.ctx, ast.Load))
    ):
        for position, element in enumerate(node.elts):
            yield Mutant(index, line, f"drop element {_shown(element)}", "drop", position)


def mutants_of(tree: ast.Module) -> list[Mutant]:
    """Every mutant of a module, in a stable order (``ast.walk``'s)."""
    skipped = _skipped_nodes(tree)
    found: list[Mutant] = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) not in skipped:
            found.extend(_node_mutants(index, node))
    return found


def _apply(mutant: Mutant, node: ast.AST, parents: Parents) -> None:
    argument = mutant.argument
    if isinstance(node, ast.Compare) and isinstance(argument, int):
        node.ops[argument] = OPPOSITE_COMPARISONS[type(node.ops[argument])]()
    elif isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif isinstance(node, ast.UnaryOp):
        _replace(node, node.operand, parents)
    elif isinstance(node, ast.BinOp | ast.AugAssign):
        node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
    elif isinstance(node, ast.Constant) and mutant.kind == "bool":
        node.value = not node.value
    elif (
        isinstance(node, ast.Constant) and isinstance(node.value, int) and isinstance(argument, int)
    ):
        node.value = node.value + argument
    elif isinstance(node, ast.Constant):
        node.value = argument
    elif isinstance(node, ast.List | ast.Tuple | ast.Set) and isinstance(argument, int):
        del node.elts[argument]


def _outermost_fstring(node: ast.AST, parents: Parents) -> ast.AST | None:
    """The outermost f-string holding ``node``: Python 3.11 gives an f-string's insides no
    usable source positions, so a change inside one rewrites the whole f-string."""
    found = None
    while id(node) in parents:
        node = parents[id(node)][0]
        if isinstance(node, ast.JoinedStr):
            found = node
    return found


def mutated_source(source: str, mutant: Mutant) -> str:
    """The module's source with one node rewritten, the rest as written (docstrings included)."""
    tree = ast.parse(source)
    nodes = list(ast.walk(tree))
    parents = _parents(tree)
    target = nodes[mutant.node_index]
    rewritten = _outermost_fstring(target, parents) or target
    assert isinstance(rewritten, ast.expr | ast.stmt)
    assert rewritten.end_lineno is not None and rewritten.end_col_offset is not None
    lines = source.encode("utf-8").splitlines(keepends=True)
    # Source positions count UTF-8 bytes within a line.
    start = sum(map(len, lines[: rewritten.lineno - 1])) + rewritten.col_offset
    end = sum(map(len, lines[: rewritten.end_lineno - 1])) + rewritten.end_col_offset
    if isinstance(target, ast.UnaryOp) and rewritten is target:
        rewritten = target.operand
    _apply(mutant, target, parents)
    text = ast.unparse(rewritten)
    if isinstance(rewritten, ast.expr):
        text = f"({text})"
    data = source.encode("utf-8")
    return (data[:start] + text.encode("utf-8") + data[end:]).decode("utf-8")


def scratch_copy() -> Path:
    """A copy of the package and of what its tests read, which the mutants overwrite."""
    work = Path(tempfile.mkdtemp(prefix="by-hand-"))
    for name in ("hermes_decl", "examples", "schema", "tests"):
        ignore = shutil.ignore_patterns("__pycache__", "editor", "mutants")
        shutil.copytree(ROOT / name, work / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md", "SECURITY.md"):
        shutil.copy2(ROOT / name, work / name)
    return work


def run_tests(work: Path, tests: list[str], timeout: float) -> tuple[str, float]:
    """Run the tests in a fresh interpreter in ``work``: "passed", "failed" or "timeout"."""
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, cwd=work, env=environment, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - started
    return ("passed" if done.returncode == 0 else "failed"), time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--only", help="comma-separated mutant numbers to run")
    parser.add_argument("--list", action="store_true", help="list the mutants and run nothing")
    parser.add_argument("--timeout-multiplier", type=float, default=5.0)
    parser.add_argument(
        "--jobs", type=int, default=1, help="mutants run at once, each in its own copy"
    )
    parser.add_argument("module")
    parser.add_argument("tests", nargs="+")
    arguments = parser.parse_args()
    module = ROOT / arguments.module
    source = module.read_text(encoding="utf-8")
    mutants = mutants_of(ast.parse(source))
    chosen = list(range(len(mutants)))
    if arguments.only:
        chosen = [int(number) for number in arguments.only.split(",")]
    if arguments.list:
        for number in chosen:
            print(f"{number}: line {mutants[number].line}: {mutants[number].change}")
        return 0
    works = [scratch_copy() for _ in range(max(1, arguments.jobs))]
    print(f"scratch copies: {' '.join(map(str, works))}", flush=True)
    for work in works:
        (work / arguments.module).write_text(source, encoding="utf-8")
    # The unmutated module must pass, or the copy is wrong and no mutant can tell anything.
    outcome, baseline = run_tests(works[0], arguments.tests, timeout=3600)
    if outcome != "passed":
        print(f"the unmutated module fails its tests ({outcome}); nothing measured")
        return 1
    print(f"{arguments.module}: {len(mutants)} mutants; baseline {baseline:.0f}s", flush=True)
    idle: queue.Queue[Path] = queue.Queue()
    for work in works:
        idle.put(work)

    def measure(number: int) -> str:
        work = idle.get()
        try:
            target = work / arguments.module
            target.write_text(mutated_source(source, mutants[number]), encoding="utf-8")
            timeout = baseline * arguments.timeout_multiplier
            outcome, _took = run_tests(work, arguments.tests, timeout)
            target.write_text(source, encoding="utf-8")
        finally:
            idle.put(work)
        verdict = {"failed": "killed", "passed": "survived"}.get(outcome, outcome)
        mutant = mutants[number]
        print(f"{number}: {verdict}: line {mutant.line}: {mutant.change}", flush=True)
        return verdict

    counts: dict[str, int] = {}
    with ThreadPoolExecutor(max_workers=len(works)) as pool:
        for verdict in pool.map(measure, chosen):
            counts[verdict] = counts.get(verdict, 0) + 1
    print(" ".join(f"{verdict} {count}" for verdict, count in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
