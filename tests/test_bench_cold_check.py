"""The cold-check benchmark runs both of its commands (its ratio is for ``python -m bench``)."""

from __future__ import annotations

from bench import cold_check


def test_the_cold_check_benchmark_measures_both_commands() -> None:
    check, baseline = cold_check.measure(runs=1)
    assert check > 0 and baseline > 0
    commands = cold_check._commands()
    assert commands["check"][-2:] == ["check", str(cold_check.EXAMPLE)]
    assert "BaseModel" in commands["baseline"][-1]
