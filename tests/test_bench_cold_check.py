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


COLD = """
import sys
from hermes_decl.cli import main
try:
    main(["check", sys.argv[1]])
except SystemExit:
    pass
from hermes_decl.declaration import parse_declaration
parse_declaration("s", {"linux": {"presence": "executable", "location": "/opt/s"}}, None, where="w")
heavy = {
    "pydantic.root_model",
    "pydantic.plugin._loader",
    "importlib.metadata",
    "hermes_decl.loader.manifest",
}
print(",".join(sorted(heavy & set(sys.modules))))
"""


def test_a_cold_check_and_parse_load_neither_pydantic_plugins_nor_the_manifest_reader() -> None:
    """Building a validator through pydantic loads ``importlib.metadata`` and scans every installed
    distribution for plugins (about 20 ms); a declarations file needs no plugin manifest reader:
    nothing on the common path may load them."""
    result = run_started(
        [sys.executable, "-c", COLD, str(cold_check.EXAMPLE)],
        cwd=Path(__file__).parent.parent,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == ""
    assert "ok (vendor-studio)" in result.stdout
