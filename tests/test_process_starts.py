"""The tests' process starts: a failed start is tried again, a finished program never is."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.process_starts import STARTS, output_of, popen_started, run_started, tried_again

TESTS = Path(__file__).parent


class FlakyStart:
    """A stand-in for a process start whose first ``failures`` tries raise ``answer``."""

    def __init__(self, failures: int, answer: OSError | None = None) -> None:
        self.failures = failures
        self.answer = answer or OSError(1359, "Internal error")
        self.starts = 0

    def __call__(self) -> str:
        self.starts += 1
        if self.starts <= self.failures:
            raise self.answer
        return "started"


@pytest.mark.parametrize("failures", [0, 1, STARTS - 1])
def test_a_failed_start_is_tried_again(failures: int) -> None:
    flaky = FlakyStart(failures)
    assert tried_again(flaky, pause_s=0) == "started"
    assert flaky.starts == failures + 1


def test_a_start_that_keeps_failing_raises_after_the_last_try() -> None:
    flaky = FlakyStart(STARTS)
    with pytest.raises(OSError, match="Internal error"):
        tried_again(flaky, pause_s=0)
    assert flaky.starts == STARTS


@pytest.mark.parametrize(
    "answer",
    [FileNotFoundError(2, "No such file or directory"), PermissionError(13, "Permission denied")],
    ids=["missing", "forbidden"],
)
def test_a_missing_or_forbidden_program_is_not_tried_again(answer: OSError) -> None:
    flaky = FlakyStart(STARTS, answer)
    with pytest.raises(type(answer)):
        tried_again(flaky, pause_s=0)
    assert flaky.starts == 1


def test_both_starts_run_the_program() -> None:
    started = popen_started([sys.executable, "-c", "raise SystemExit(4)"])
    assert started.wait(timeout=60) == 4
    assert run_started([sys.executable, "-c", "raise SystemExit(5)"], timeout=60).returncode == 5


def test_a_program_that_ran_and_failed_is_not_run_again() -> None:
    with pytest.raises(subprocess.CalledProcessError):
        run_started([sys.executable, "-c", "raise SystemExit(3)"], check=True, timeout=60)


def _direct_starts(path: Path) -> list[str]:
    """Where ``path`` calls ``subprocess.run`` or ``subprocess.Popen`` itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"run", "Popen", "call", "check_call", "check_output"}
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "subprocess"
        ):
            found.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    return found


def test_every_process_a_test_starts_goes_through_the_retry() -> None:
    own = {TESTS / "process_starts.py", TESTS / "mutation" / "by_hand.py"}
    direct = [
        where
        for path in sorted(TESTS.rglob("*.py"))
        if path not in own and "node_modules" not in path.parts
        for where in _direct_starts(path)
    ]
    assert direct == []


def test_output_of_is_what_the_program_printed_stripped() -> None:
    assert output_of([sys.executable, "-c", "print('  said  ')"]) == "said"
