"""``python -m bench`` takes no arguments: it says so, and refuses others before measuring."""

from __future__ import annotations

import pytest

from bench.__main__ import RESULTS, main


@pytest.mark.parametrize(
    ("arguments", "status"),
    [(["--help"], 0), (["-h"], 0), (["--bogus"], 2), (["parse"], 2)],
    ids=["help", "short help", "unknown option", "stray argument"],
)
def test_arguments_are_answered_before_any_benchmark_runs(
    arguments: list[str], status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    written = RESULTS.stat().st_mtime_ns
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    assert exited.value.code == status
    captured = capsys.readouterr()
    assert "usage: python -m bench [-h]" in captured.out + captured.err
    assert "| benchmark" not in captured.out  # no table: nothing was measured
    assert RESULTS.stat().st_mtime_ns == written
