"""``hermes-decl override`` and what ``explain`` shows of the overrides, through the real CLI."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_decl.overrides_text import HEADER
from tests.process_starts import run_started

ROOT = Path(__file__).parent.parent
OS_HERE = "win32" if sys.platform == "win32" else "darwin" if sys.platform == "darwin" else "linux"


def run(*args: str, overrides: Path, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m hermes_decl`` with the overrides file named by the environment."""
    env = {**os.environ, "HERMES_DECL_OVERRIDES": str(overrides)}
    if home is not None:
        env["HOME"] = str(home)
    return run_started(
        [sys.executable, "-m", "hermes_decl", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_adding_places_writes_the_file_newest_first(tmp_path: Path) -> None:
    target = tmp_path / "cfg" / "overrides.yaml"
    first = run("override", "vendor-studio", "/opt/a/vs", "--os", "linux", overrides=target)
    assert (first.returncode, first.stderr) == (0, "")
    assert first.stdout == f"{target}: vendor-studio: linux: added /opt/a/vs, tried first\n"
    second = run("override", "vendor-studio", "/opt/b/vs", "--os", "linux", overrides=target)
    assert second.returncode == 0
    assert target.read_text() == HEADER + "vendor-studio:\n  linux:\n  - /opt/b/vs\n  - /opt/a/vs\n"
    again = run("override", "vendor-studio", "/opt/b/vs", "--os", "linux", overrides=target)
    assert (again.returncode, again.stdout) == (
        0,
        f"{target}: vendor-studio: linux: /opt/b/vs is already listed\n",
    )
    assert [p.name for p in target.parent.iterdir()] == ["overrides.yaml"]  # no temporary left


def test_the_place_is_validated_before_anything_is_written(tmp_path: Path) -> None:
    target = tmp_path / "overrides.yaml"
    result = run("override", "vs", "apps/vs", "--os", "linux", overrides=target)
    assert result.returncode == 2
    assert result.stderr == (
        "hermes-decl override: error: 'apps/vs' must start with /, ~ or $VAR (got 'apps/vs')\n"
    )
    assert not target.exists()
    windows = run("override", "vs", "/opt/vs.exe", "--os", "win32", overrides=target)
    assert windows.returncode == 2
    assert "must start at a drive root" in windows.stderr
    ok = run("override", "vs", "%LOCALAPPDATA%\\VS\\vs.exe", "--os", "win32", overrides=target)
    assert ok.returncode == 0
    assert target.read_text().endswith("win32:\n  - '%LOCALAPPDATA%\\VS\\vs.exe'\n")


def test_an_invalid_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "overrides.yaml"
    target.write_text("vs:\n  linux: relative\n")
    result = run("override", "vs", "/opt/vs", "--os", "linux", overrides=target)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"{target}:2:10: vs.linux: must start with /, ~ or $VAR (got 'relative'; to find a "
        "command on PATH use {kind: command, name: relative})",
        f"{target}: not changed: fix the problems above first",
    ]
    assert target.read_text() == "vs:\n  linux: relative\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX links and modes")
def test_a_linked_file_is_written_through_the_link_keeping_its_mode(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "overrides.yaml"
    real.parent.mkdir()
    real.write_text("# mine\nother: {linux: /opt/other}\n")
    real.chmod(0o640)
    link = tmp_path / "overrides.yaml"
    link.symlink_to(real)
    result = run("override", "vs", "/opt/vs", "--os", "linux", overrides=link)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert real.read_text() == "# mine\nother: {linux: /opt/other}\nvs:\n  linux:\n  - /opt/vs\n"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_explain_shows_the_places_that_came_from_the_overrides(tmp_path: Path) -> None:
    portable = tmp_path / "apps" / "inkwell"
    portable.parent.mkdir()
    portable.write_bytes(b"#!/bin/sh\n")
    target = tmp_path / "overrides.yaml"
    added = run("override", "inkwell-mcp", str(portable), "--os", OS_HERE, overrides=target)
    assert added.returncode == 0, added.stderr
    shown = run("explain", "examples/linux-tool.yaml", "--os", "linux", overrides=target)
    if OS_HERE != "linux":
        # The place was written for this OS: the Linux evaluation ignores it and finds nothing.
        assert (shown.returncode, shown.stderr) == (1, "")
        assert "  state:    missing_app (not offered)" in shown.stdout.splitlines()
        return
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert f"  overrides: {target} (tried first)" in lines
    assert f"    override[0] path: {portable}: present" in lines
    as_json = run("explain", "examples/linux-tool.yaml", "--json", overrides=target)
    (entry,) = json.loads(as_json.stdout)
    assert entry["overrides_file"] == str(target)
    assert entry["overrides"] == {"file": str(target), "valid": True, "issues": []}
    assert entry["trace"][0] == {
        "index": 0,
        "kind": "path",
        "path": str(portable),
        "outcome": "present",
        "detail": None,
        "version": None,
        "source": "overrides",
        "via": None,
        "entry": None,
        "version_detail": None,
    }


def test_explain_reports_an_invalid_overrides_file(tmp_path: Path) -> None:
    target = tmp_path / "overrides.yaml"
    target.write_text("inkwell-mcp:\n  linux: [}\n")
    # This OS's own rules, under which the overrides path (C:\... on Windows) is well rooted.
    shown = run("explain", "examples/linux-tool.yaml", "--os", OS_HERE, overrides=target)
    assert shown.returncode in (0, 1)  # offered or not, as this machine has the application
    assert shown.stderr == ""  # shown once, on stdout, and not warned about as well
    assert shown.stdout.startswith(
        f"{target}: ignored, the overrides file is invalid:\n{target}:2:"
    )
    as_json = run(
        "explain", "examples/linux-tool.yaml", "--os", OS_HERE, "--json", overrides=target
    )
    (entry,) = json.loads(as_json.stdout)
    assert entry["overrides"]["valid"] is False
    assert entry["overrides"]["issues"][0]["file"] == str(target)
    assert entry["overrides"]["issues"][0]["line"] == 2
