"""The tests' process starts: a failed start is tried again, a finished program never is."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.process_starts import STARTS, output_of, popen_started, run_started

TESTS = Path(__file__).parent


class FlakyStarts:
    """A stand-in for ``subprocess.run``/``Popen`` whose first ``failures`` starts raise."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.starts = 0

    def __call__(self, command: list[str], **options: Any) -> str:
        self.starts += 1
        if self.starts <= self.failures:
            raise OSError(1359, "Internal error")
        return "started"


@pytest.fixture(autouse=True)
def no_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.process_starts.time.sleep", lambda seconds: None)


@pytest.mark.parametrize(("name", "start"), [("run", run_started), ("Popen", popen_started)])
@pytest.mark.parametrize("failures", [0, 1, STARTS - 1])
def test_a_failed_start_is_tried_again(
    monkeypatch: pytest.MonkeyPatch, name: str, start: Any, failures: int
) -> None:
    flaky = FlakyStarts(failures)
    monkeypatch.setattr(f"tests.process_starts.subprocess.{name}", flaky)
    assert start(["program"]) == "started"
    assert flaky.starts == failures + 1


@pytest.mark.parametrize(("name", "start"), [("run", run_started), ("Popen", popen_started)])
def test_a_start_that_keeps_failing_raises_after_the_last_try(
    monkeypatch: pytest.MonkeyPatch, name: str, start: Any
) -> None:
    flaky = FlakyStarts(STARTS)
    monkeypatch.setattr(f"tests.process_starts.subprocess.{name}", flaky)
    with pytest.raises(OSError, match="Internal error"):
        start(["program"])
    assert flaky.starts == STARTS


@pytest.mark.parametrize(
    "answer",
    [FileNotFoundError(2, "No such file or directory"), PermissionError(13, "Permission denied")],
    ids=["missing", "forbidden"],
)
def test_a_missing_or_forbidden_program_is_not_tried_again(
    monkeypatch: pytest.MonkeyPatch, answer: OSError
) -> None:
    starts: list[list[str]] = []

    def refusing(command: list[str], **options: Any) -> None:
        starts.append(command)
        raise answer

    monkeypatch.setattr("tests.process_starts.subprocess.run", refusing)
    with pytest.raises(type(answer)):
        run_started(["program"])
    assert starts == [["program"]]


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
