"""The cold-check benchmark runs both of its commands (its ratio is for ``python -m bench``)."""

from __future__ import annotations

import sys
from pathlib import Path

from bench import cold_check
from tests.process_starts import run_started


def test_the_cold_check_benchmark_measures_both_commands() -> None:
    check, baseline = cold_check.measure(runs=1)
    assert check > 0 and baseline > 0
    commands = cold_check._commands()
    assert commands["check"][-2:] == ["check", str(cold_check.EXAMPLE)]
    assert "BaseModel" in commands["baseline"][-1]


HELP_IMPORTS = """
import sys
from hermes_decl.cli import main
try:
    main(["--help"])
except SystemExit:
    pass
print(",".join(sorted(set(sys.modules) & {"secrets", "hmac", "hashlib", "random", "pydantic"})))
"""


def test_the_command_line_itself_imports_no_cryptography_nor_pydantic() -> None:
    """The colour marker is drawn from ``os.urandom``: ``secrets`` (hmac, OpenSSL) is not needed."""
    result = run_started(
        [sys.executable, "-c", HELP_IMPORTS],
        cwd=Path(__file__).parent.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert (result.returncode, result.stdout.splitlines()[-1]) == (0, "")
