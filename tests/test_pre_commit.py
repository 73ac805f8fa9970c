"""The pre-commit hook (``.pre-commit-hooks.yaml``), run by pre-commit on a sample repository.

pre-commit installs this repository into its own environment, as it would for a plugin
repository that lists the hook, then runs it on the files given: a broken declarations file
fails the hook with the CLI's report, a good one passes silently, other YAML files are left
alone, and a file named like an option is read as a file (the default args end with ``--``).
The README's ``.pre-commit-config.yaml`` runs as copied, with this checkout as its repo.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from hermes_decl.cli.inputs import DECLARATIONS_FILES, SINGLE_DECLARATION_FILES
from tests.process_starts import output_of, run_started

ROOT = Path(__file__).parent.parent
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")
HOOK = "hermes-decl-check"
SINGLE_HOOK = "hermes-decl-check-single"


def _git(repository: Path, *args: str) -> None:
    run_started(["git", *args], cwd=repository, check=True, capture_output=True, timeout=60)


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
    return run_started(
        [str(PRE_COMMIT), "try-repo", str(ROOT), HOOK, "--verbose", *which],
        cwd=plugin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=environment,
    )


def test_the_hooks_are_declared_for_yaml_and_json_declarations() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert [hook["id"] for hook in hooks] == [HOOK, SINGLE_HOOK]
    plain, single = hooks
    assert (plain["entry"], single["entry"]) == ("hermes-decl check", "hermes-decl check --single")
    assert (plain["files"], single["files"]) == (DECLARATIONS_FILES, SINGLE_DECLARATION_FILES)
    for hook in hooks:
        assert hook["args"] == ["--quiet", "--"]
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
    hook_output = good.stdout.split("hermes-decl check", 1)[1]
    # Quiet on success: no "ok" line, only the copied example's two warnings (its modeline's
    # relative path names no file here, and its minimum version is not checked on Linux).
    mentioned = [line for line in hook_output.splitlines() if "hermes-declarations.yaml" in line]
    places = [re.match(r"hermes-declarations\.yaml:(\d+):(\d+): ", line) for line in mentioned]
    assert [place.groups() if place else None for place in places] == [("1", "33"), ("36", "18")]
    assert all(": warning: " in line for line in mentioned), hook_output
    assert "ci.yaml" not in hook_output


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


def _readme_config() -> dict[str, Any]:
    """The README's ``.pre-commit-config.yaml``, as an author copies it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    [snippet] = [
        block
        for block in re.findall(r"```yaml\n(.*?)```", readme, flags=re.DOTALL)
        if HOOK in block
    ]
    config: dict[str, Any] = yaml.safe_load(snippet)
    return config


def _head() -> str:
    return output_of(["git", "rev-parse", "HEAD"], cwd=ROOT)


def _run_hooks(repository: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PRE_COMMIT_HOME": str(repository.parent / "pre-commit-home")}
    return run_started(
        [str(PRE_COMMIT), "run", "--all-files"],
        cwd=repository,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=environment,
    )


def _manifest(requires: str) -> str:
    return (
        "schema: plugin.v1\n"
        "extensions:\n"
        "  com.nousresearch.hermes:\n"
        "    servers:\n"
        "      inkwell-mcp:\n"
        "        app: { linux: { presence: executable, location: /opt/inkwell/bin/inkwell } }\n"
        f"        requires: {requires}\n"
    )


def test_the_readme_config_checks_my_plugin_plugin_yaml(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The README's config, with this checkout (at its commit) as the repo, in a plugin
    repository: silent on a good ``my-plugin/plugin.yaml``, failing on a broken one."""
    _needs_git_and_pre_commit()
    config = _readme_config()
    [repo] = config["repos"]
    assert repo["rev"] == "main"
    assert [hook["id"] for hook in repo["hooks"]] == [HOOK, SINGLE_HOOK]
    repo.update(repo=str(ROOT), rev=_head())
    repository = tmp_path_factory.mktemp("my-plugin-repo")
    _git(repository, "init", "-q")
    (repository / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (repository / "my-plugin").mkdir()
    plugin_yaml = repository / "my-plugin" / "plugin.yaml"
    plugin_yaml.write_text(_manifest("{ app: true }"), encoding="utf-8")
    _git(repository, "add", ".")
    good = _run_hooks(repository)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "my-plugin/plugin.yaml" not in good.stdout
    assert re.search(r"hermes-decl check\.+Passed", good.stdout), good.stdout
    plugin_yaml.write_text(_manifest("{ app: maybe }"), encoding="utf-8")
    _git(repository, "add", ".")
    broken = _run_hooks(repository)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert re.search(r"hermes-decl check\.+Failed", broken.stdout), broken.stdout
    assert (
        'my-plugin/plugin.yaml:7:26: extensions["com.nousresearch.hermes"].servers["inkwell-mcp"]'
        ".requires.app: must be true or false (got 'maybe')"
    ) in broken.stdout
