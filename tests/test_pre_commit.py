"""The pre-commit hook (``.pre-commit-hooks.yaml``), run by pre-commit on a sample repository.

pre-commit installs this repository into its own environment, as it would for a plugin
repository that lists the hook, then runs it on the files given: a broken declarations file
fails the hook with the CLI's report, a good one passes, other YAML files are left alone, and a
file named like an option is read as a file (the default `args: [--]` ends the options).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parent.parent
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
HOOK = "hermes-decl-check"


def _git(repository: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repository, check=True, capture_output=True, timeout=60)


def _needs_git_and_pre_commit() -> None:
    """Skips on a Windows without git or pre-commit; anywhere else their absence fails the test."""
    if shutil.which("git") is not None and PRE_COMMIT.exists():
        return
    if sys.platform == "win32":
        pytest.skip(
            "git or pre-commit is not installed for this Windows (the Wine leg has neither)"
        )
    pytest.fail("git and pre-commit (a dev extra) are needed to test the pre-commit hook")


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plugin repository with a good, a broken and an unrelated YAML file."""
    _needs_git_and_pre_commit()
    repository = tmp_path_factory.mktemp("plugin")
    _git(repository, "init", "-q")
    (repository / "hermes-declarations.yaml").write_text(
        (ROOT / "examples" / "vendor-studio.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (repository / "broken").mkdir()
    (repository / "broken" / "declarations.yaml").write_text(
        (ROOT / "examples" / "broken.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (repository / "ci.yaml").write_text("jobs: [test]\n", encoding="utf-8")
    _git(repository, "add", ".")
    return repository


def _try_hook(plugin: Path, *files: str) -> subprocess.CompletedProcess[str]:
    """Run the hook on the given files, or on every file of the repository when none are given."""
    environment = {**os.environ, "PRE_COMMIT_HOME": str(plugin.parent / "pre-commit-home")}
    which = ["--files", *files] if files else ["--all-files"]
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(ROOT), HOOK, "--verbose", *which],
        cwd=plugin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=environment,
    )


def test_the_hook_is_declared_for_yaml_and_json_declarations() -> None:
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == HOOK
    assert hook["entry"] == "hermes-decl check"
    assert hook["args"] == ["--"]
    assert hook["language"] == "python"
    assert hook["types_or"] == ["yaml", "json"]


def test_a_broken_declarations_file_fails_the_hook_and_a_good_one_passes(plugin: Path) -> None:
    broken = _try_hook(plugin, "hermes-declarations.yaml", "broken/declarations.yaml")
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "hermes-decl check" in broken.stdout and "Failed" in broken.stdout
    assert (
        'broken/declarations.yaml:12:5: ["broken-server"].requires.min_versoin: '
        "unknown key (did you mean 'min_version'?)"
    ) in broken.stdout
    good = _try_hook(plugin, "hermes-declarations.yaml", "ci.yaml")
    assert good.returncode == 0, good.stdout + good.stderr
    assert "hermes-declarations.yaml: ok (vendor-studio)" in good.stdout
    assert "ci.yaml" not in good.stdout.split("hermes-decl check", 1)[1]


def test_a_file_whose_name_starts_like_an_option_is_checked_as_a_file(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    _needs_git_and_pre_commit()
    repository = tmp_path_factory.mktemp("dashes")
    _git(repository, "init", "-q")
    (repository / "--json-declarations.yaml").write_text(
        (ROOT / "examples" / "broken.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    _git(repository, "add", "--", ".")
    result = _try_hook(repository)
    assert result.returncode == 1, result.stdout + result.stderr
    assert (
        '--json-declarations.yaml:12:5: ["broken-server"].requires.min_versoin: '
        "unknown key (did you mean 'min_version'?)"
    ) in result.stdout
