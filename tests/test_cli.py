"""The ``hermes-decl`` command through its real entry points, and the README's examples."""

from __future__ import annotations

import gc
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import hermes_decl
from hermes_decl import cli
from hermes_decl.models import OS_FAMILIES
from hermes_decl.schema_files import schema_path
from tests.process_starts import run_started

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
VALID_EXAMPLES = [
    "examples/vendor-studio.yaml",
    "examples/linux-tool.yaml",
    "examples/gpu-renderer.yaml",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m hermes_decl`` from the repository root, as a user would."""
    return run_started(
        [sys.executable, "-m", "hermes_decl", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_console_script_is_installed() -> None:
    script = Path(sys.executable).with_name("hermes-decl")
    if not script.exists():
        pytest.skip("the console script is not installed next to this interpreter")
    result = run_started([str(script), "--help"], capture_output=True, text=True, check=False)
    assert result.returncode == 0
    assert "check" in result.stdout and "explain" in result.stdout and "schema" in result.stdout


PROGRAM = """
import atexit, gc, sys
from hermes_decl import cli
atexit.register(lambda: print("atexit ran", flush=True))
sys.argv = ["hermes-decl", "check", sys.argv[1]]
before, main = gc.get_threshold(), cli.main
def recorded():
    print("threshold while running", gc.get_threshold()[0])
    return main()
cli.main = recorded
status = cli.program()
restored = gc.get_threshold() == before
print("status", status, "frozen", gc.get_freeze_count() > 0, "restored", restored)
"""


def test_the_program_collects_less_often_and_sets_what_it_built_aside_before_exiting() -> None:
    result = run_started(
        [sys.executable, "-c", PROGRAM, VALID_EXAMPLES[1]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-2:] == ["status 0 frozen True restored True", "atexit ran"]
    assert f"threshold while running {cli.YOUNG_OBJECTS_PER_COLLECTION}" in result.stdout
    assert f"{VALID_EXAMPLES[1]}: ok" in result.stdout


def test_the_entry_points_run_the_program_and_main_leaves_the_collector_alone() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'hermes-decl = "hermes_decl.cli:program"' in pyproject
    assert "sys.exit(program())" in (ROOT / "hermes_decl" / "__main__.py").read_text("utf-8")
    frozen = gc.get_freeze_count()
    assert cli.main(["check", str(ROOT / VALID_EXAMPLES[1])]) == 0
    assert gc.get_freeze_count() == frozen  # a caller's process is its own


def _sub_parser(parser: Any, name: str) -> Any:
    [subparsers] = [action for action in parser._actions if action.dest == "command"]
    return subparsers.choices[name]


@pytest.mark.parametrize(
    "arguments",
    [
        ["check", "a.yaml", "--format", "json", "--color", "never"],
        ["check", "--files-from", "-", "-j", "2"],
        ["explain", "a.yaml", "--os", "win32"],
        ["schema"],
        ["init", "--help-me"],
        ["override", "--help-me"],
    ],
    ids=lambda arguments: arguments[0],
)
def test_a_command_named_first_is_read_by_its_own_parser_alone_as_by_the_whole(
    arguments: list[str],
) -> None:
    """The program builds only the named command's options: its help, its readings and its
    errors are the whole parser's."""
    (command,) = cli._commands_for(arguments)
    assert command.name == arguments[0]
    alone, whole = cli._parser((command,)), cli._parser()
    assert (
        _sub_parser(alone, command.name).format_help()
        == _sub_parser(whole, command.name).format_help()
    )
    readings = []
    for parser in (alone, whole):
        try:
            readings.append(vars(parser.parse_args(arguments)))
        except SystemExit as exit:
            readings.append({"exit": exit.code})
    assert readings[0] == readings[1]


@pytest.mark.parametrize("arguments", [[], ["--help"], ["--version"], ["chek"], ["-x", "check"]])
def test_without_a_command_named_first_every_command_is_built(arguments: list[str]) -> None:
    assert cli._commands_for(arguments) == cli.COMMANDS


LINUX_UNCHECKED = (
    "requires.min_version: warning: is not checked on Linux: Linux has no version source, so "
    "app.linux is gated on presence only"
)
VENDOR_STUDIO_WARNING = f'examples/vendor-studio.yaml:36:18: ["vendor-studio"].{LINUX_UNCHECKED}'
GPU_RENDERER_WARNING = f'examples/gpu-renderer.yaml:19:18: ["raytrace-mcp"].{LINUX_UNCHECKED}'
"""The examples' one warning each: their minimum version is not checked by their Linux block."""


def test_check_valid_files() -> None:
    result = run("check", *VALID_EXAMPLES)
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        VENDOR_STUDIO_WARNING,
        "examples/vendor-studio.yaml: ok (vendor-studio)",
        "examples/linux-tool.yaml: ok (inkwell-mcp)",
        GPU_RENDERER_WARNING,
        "examples/gpu-renderer.yaml: ok (raytrace-mcp)",
    ]


def test_check_reports_every_problem_with_file_line_column() -> None:
    result = run("check", "examples/broken.yaml", "examples/linux-tool.yaml")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 5
    assert all(
        re.match(r'examples/broken\.yaml:\d+:\d+: \["broken-server"\]\.', line)
        for line in lines[:4]
    )
    assert lines[4] == "examples/linux-tool.yaml: ok (inkwell-mcp)"


def test_check_json(tmp_path: Path) -> None:
    result = run("check", "--json", "examples/broken.yaml")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["valid"] is False
    issues = report["files"][0]["issues"]
    assert [(i["loc"], i["code"], i["line"], i["column"]) for i in issues] == [
        ('["broken-server"].app.win32.presence', "invalid_choice", 6, 17),
        ('["broken-server"].app.win32.location[0]', "path_not_rooted", 8, 11),
        ('["broken-server"].app.win32.location[1]', "kind_wrong_os", 9, 11),
        ('["broken-server"].requires.min_versoin', "unknown_key", 12, 5),
    ]


def test_check_at_selects_a_nested_mapping(tmp_path: Path) -> None:
    manifest = tmp_path / "plugin.yaml"
    manifest.write_text(
        "name: my-plugin\n"
        "hermes:\n"
        "  servers:\n"
        "    srv:\n"
        "      app: { linux: { presence: executable, location: /opt/x } }\n"
        "      requires: { app: true, gpu: amd }\n",
        encoding="utf-8",
    )
    result = run("check", "--at", "hermes.servers", str(manifest))
    assert result.returncode == 1
    assert (
        result.stdout
        == f"{manifest}:6:35: hermes.servers.srv.requires.gpu: must be 'nvidia' (got 'amd')\n"
    )


def test_check_a_missing_file_is_unreadable_input() -> None:
    result = run("check", "no/such/file.yaml", "examples/broken.yaml")
    assert result.returncode == 2
    assert result.stdout.startswith(
        "no/such/file.yaml: cannot be read (No such file or directory)\n"
    )


def test_explain_json_on_a_snapshot() -> None:
    result = run(
        "explain",
        "examples/vendor-studio.yaml",
        "--host",
        "examples/hosts/windows-old-studio.yaml",
        "--json",
    )
    assert result.returncode == 1  # not offered
    [verdict] = json.loads(result.stdout)
    assert verdict["state"] == "version_too_old"
    assert verdict["offerable"] is False
    assert verdict["version"] == "2.2.7.4410"
    assert [c["outcome"] for c in verdict["trace"]] == ["present", "present"]


def test_explain_json_writes_every_fact_in_a_fixed_order() -> None:
    result = run(
        "explain",
        "examples/gpu-renderer.yaml",
        "--host",
        "examples/hosts/linux-nvidia-workstation.yaml",
        "--json",
    )
    place = "/opt/raytrace/bin/raytrace"
    verdict = {
        "file": "examples/gpu-renderer.yaml",
        "server": "raytrace-mcp",
        "state": "available",
        "offerable": True,
        "sentence": "Raytrace is available.",
        "display_name": "Raytrace",
        "os_family": "linux",
        "os_version": None,
        "min_os_version": None,
        "gpu": "nvidia",
        "machine": "x86_64",
        "arch": ["x86_64"],
        "install": {"brew": "raytrace"},
        "version": None,
        "min_version": "5.0",
        "version_checked": False,  # Linux has no version source
        "path": place,
        "overrides_file": None,
        "trace": [
            {
                "index": 0,
                "kind": "path",
                "path": place,
                "outcome": "present",
                "detail": None,
                "version": None,
                "source": "declaration",
                "via": None,
                "entry": None,
                "version_detail": None,
            }
        ],
        "untraced": 0,
        "overrides": {
            "file": "/home/ada/.config/hermes-decl/overrides.yaml",
            "valid": True,
            "issues": [],
        },
    }
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == json.dumps([verdict], indent=2) + "\n"


def test_explain_forced_os_and_server() -> None:
    result = run(
        "explain", "examples/gpu-renderer.yaml", "--os", "darwin", "--server", "raytrace-mcp"
    )
    assert result.returncode == 1
    assert "state:    unsupported_os (not offered)" in result.stdout
    assert "Raytrace is not available on macOS." in result.stdout


def test_explain_on_this_machine_gives_a_state() -> None:
    result = run("explain", "examples/vendor-studio.yaml", "--json")
    [verdict] = json.loads(result.stdout)
    assert verdict["state"] in {
        "available",
        "missing_app",
        "version_too_old",
        "unsupported_os",
        "unsupported_os_version",  # a Windows older than the example's min_os_version
    }
    assert result.returncode == (0 if verdict["offerable"] else 1)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("explain", "examples/vendor-studio.yaml", "--server", "nope"), "no server 'nope'"),
        (("chek", "x.yaml"), "invalid choice: 'chek'"),
        (("explain", "examples/vendor-studio.yaml", "--os", "macos"), "invalid choice: 'macos'"),
        ((), "the following arguments are required: COMMAND"),
        (("check",), "the following arguments are required: FILE"),
    ],
    ids=["unknown-server", "unknown-command", "unknown-os", "no-command", "no-file"],
)
def test_usage_errors_say_what_to_type(args: tuple[str, ...], expected: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert expected in result.stderr


def test_explain_reports_a_broken_file_or_snapshot(tmp_path: Path) -> None:
    broken = run("explain", "examples/broken.yaml")
    assert broken.returncode == 3
    assert "examples/broken.yaml:6:17:" in broken.stderr
    snapshot = tmp_path / "host.yaml"
    snapshot.write_text("os_family: beos\n", encoding="utf-8")
    result = run("explain", "examples/linux-tool.yaml", "--host", str(snapshot))
    assert result.returncode == 2
    assert (
        f"{snapshot}:1:12: os_family: must be 'win32', 'darwin' or 'linux' (got 'beos')"
        in result.stderr
    )


@pytest.mark.parametrize("draft", ["2020-12", "07"])
@pytest.mark.parametrize("single", [False, True])
def test_schema_prints_the_committed_schema(draft: str, single: bool) -> None:
    """The file's own UTF-8 bytes, whatever the console's encoding (cp1252 on Windows)."""
    result = run_started(
        [sys.executable, "-m", "hermes_decl", "schema", "--draft", draft]
        + (["--single"] if single else []),
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0
    stem = "declaration" if single else "declarations"
    suffix = ".draft-07" if draft == "07" else ""
    committed = (ROOT / "schema" / f"{stem}{suffix}.schema.json").read_bytes()
    assert result.stdout == committed


@pytest.mark.parametrize("command", ["check", "explain", "schema"])
def test_help_everywhere(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0
    assert result.stdout.startswith("usage: hermes-decl " + command)


# -- the README says what the examples do ------------------------------------------------------

CONSOLE_BLOCKS = re.findall(r"```console\n\$ hermes-decl (.*?)\n(.*?)```", README, flags=re.DOTALL)


def test_the_readme_has_console_examples() -> None:
    assert len(CONSOLE_BLOCKS) >= 4


@pytest.mark.parametrize(("command", "output"), CONSOLE_BLOCKS, ids=[c for c, _ in CONSOLE_BLOCKS])
def test_every_readme_example_prints_what_the_readme_shows(command: str, output: str) -> None:
    result = run(*command.split())
    assert result.stdout == output


def test_the_readme_first_command_checks_the_valid_examples() -> None:
    first = re.search(r"```sh\n(.*?)\n```", README, flags=re.DOTALL)
    assert first is not None
    assert "hermes-decl check " + " ".join(VALID_EXAMPLES) in first.group(1)
    assert "hermes-decl explain examples/vendor-studio.yaml" in first.group(1)


def test_every_example_file_is_covered() -> None:
    examples = {path.relative_to(ROOT).as_posix() for path in (ROOT / "examples").glob("*.yaml")}
    assert examples == {*VALID_EXAMPLES, "examples/broken.yaml"}
    snapshots = {path.name for path in (ROOT / "examples" / "hosts").glob("*.yaml")}
    assert snapshots == {
        "windows-old-studio.yaml",
        "linux-nvidia-workstation.yaml",
        "linux-grace-hopper.yaml",
        "mac-monterey-apple-silicon.yaml",
        "windows-studio-running.yaml",
    }
    for path in (ROOT / "examples").rglob("*.yaml"):
        if path.parent.name != "hosts":
            assert path.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")


def test_explain_json_reports_a_broken_file_as_json() -> None:
    result = run("explain", "--json", "examples/broken.yaml")
    assert result.returncode == 3
    report = json.loads(result.stdout)
    assert report["valid"] is False
    assert [issue["code"] for issue in report["issues"]] == [
        "invalid_choice",
        "path_not_rooted",
        "kind_wrong_os",
        "unknown_key",
    ]


def test_version() -> None:
    result = run("--version")
    assert (result.returncode, result.stdout) == (0, f"hermes-decl {hermes_decl.__version__}\n")


EXIT_HELP = [
    (
        (),
        "exit status: 0 when every file is valid (check), every server is offered (explain), the "
        "place was added (override) or the file was written (init); 1 when a file has problems, "
        "a server is not offered, the overrides file cannot be changed or init's file exists; 2 "
        "for a usage error or input that cannot be read, such as a missing file; 3 when explain "
        "is given an invalid file.",
    ),
    (
        ("check",),
        "exit status: 0 when every file is valid (warnings included, unless --strict); 1 when a "
        "file has problems, or warnings with --strict; 2 for a usage error, input that cannot "
        "be read (such as a missing file), or a -j worker process that stopped before it "
        "finished.",
    ),
    (
        ("explain",),
        "exit status: 0 when every server is offered; 1 when a server is not offered; 2 for a "
        "usage error or input that cannot be read, such as a missing file or a bad snapshot; 3 "
        "when a file is invalid (has a declaration error).",
    ),
    (
        ("schema",),
        "exit status: 0 when the schema (or its path) was printed; 2 for a usage error.",
    ),
    (
        ("init",),
        "exit status: 0 when the declaration was written; 1 when FILE exists (without --force) or "
        "cannot be written; 2 for a usage error, such as an unknown OS family.",
    ),
    (
        ("override",),
        "exit status: 0 when the place was added or is already listed; 1 when the overrides file "
        "has problems, cannot be found or cannot be written; 2 for a usage error, such as a PATH "
        "that breaks the rules of a location.",
    ),
]


@pytest.mark.parametrize(
    ("args", "statuses"), EXIT_HELP, ids=[" ".join(args) or "top" for args, _ in EXIT_HELP]
)
def test_help_documents_each_command_s_exit_statuses(args: tuple[str, ...], statuses: str) -> None:
    result = run(*args, "--help")
    assert " ".join(result.stdout.split()).endswith(statuses)


def test_the_readme_gives_the_exit_statuses_of_every_command() -> None:
    header = next(line for line in README.splitlines() if line.startswith("| exit status |"))
    assert header == "| exit status | `check` | `explain` | `schema` | `override` | `init` |"
    assert [command.name for command in cli.COMMANDS] == [
        "check",
        "explain",
        "schema",
        "override",
        "init",
    ]
    rows = [line for line in README.splitlines() if re.match(r"\| [0-9] \|", line)]
    assert [row.split(" | ")[0] for row in rows] == ["| 0", "| 1", "| 2", "| 3"]
    assert "a file is invalid (a declaration error)" in rows[3].split(" | ")[2]


def test_explain_takes_several_files_and_exits_1_when_one_server_is_not_offered() -> None:
    host = "examples/hosts/linux-nvidia-workstation.yaml"
    result = run(
        "explain", "examples/linux-tool.yaml", "examples/vendor-studio.yaml", "--host", host
    )
    assert result.stdout.startswith("examples/linux-tool.yaml: inkwell-mcp\n")
    assert "\n\nexamples/vendor-studio.yaml: vendor-studio\n  state:    missing_app" in (
        result.stdout
    )
    only_offered = run("explain", "examples/linux-tool.yaml", "--host", host)
    assert (result.returncode, only_offered.returncode) == (1, 0)


def test_explain_reports_every_broken_file() -> None:
    result = run("explain", "examples/broken.yaml", "examples/broken.yaml", "--json")
    assert result.returncode == 3
    assert len(json.loads(result.stdout)["issues"]) == 8


def test_os_choices_are_the_models_os_families() -> None:
    assert cli.OS_FAMILIES == OS_FAMILIES


def test_the_overrides_variable_in_help_is_the_resolvers() -> None:
    from hermes_decl.resolver.overrides import OVERRIDES_ENV

    assert cli.OVERRIDES_ENV == OVERRIDES_ENV


@pytest.mark.parametrize(
    ("args", "env", "colored"),
    [
        (("--color", "always"), {}, True),
        (("--color", "never"), {}, False),
        ((), {}, False),  # auto, and the output is a pipe
        (("--color", "auto"), {"NO_COLOR": "1"}, False),
        (("--color", "always"), {"NO_COLOR": "1"}, True),
    ],
    ids=["always", "never", "auto-piped", "auto-no-color", "always-beats-no-color"],
)
def test_colour(args: tuple[str, ...], env: dict[str, str], colored: bool) -> None:
    result = run_started(
        [sys.executable, "-m", "hermes_decl", "check", *args, "examples/broken.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NO_COLOR": "", **env},
    )
    assert ("\x1b[" in result.stdout) is colored
    plain = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout)
    assert plain == run("check", "examples/broken.yaml").stdout


def test_colour_marks_place_key_and_hint() -> None:
    result = run("check", "--color", "always", "examples/broken.yaml")
    last = result.stdout.splitlines()[-1]
    assert last == (
        "\x1b[1mexamples/broken.yaml:12:5\x1b[0m: "
        '\x1b[36m["broken-server"].requires.min_versoin\x1b[0m: '
        "unknown key (\x1b[32mdid you mean 'min_version'?\x1b[0m)"
    )


def test_use_color_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = {"TERM": "xterm"}
    assert cli.use_color(Terminal(), "auto", terminal) is True
    assert cli.use_color(io.StringIO(), "auto", terminal) is False
    assert cli.use_color(Terminal(), "auto", {**terminal, "NO_COLOR": "1"}) is False
    assert cli.use_color(Terminal(), "auto", {**terminal, "NO_COLOR": ""}) is True
    assert cli.use_color(Terminal(), "auto", {"TERM": "dumb"}) is False
    assert cli.use_color(Terminal(), "never", terminal) is False
    assert cli.use_color(io.StringIO(), "always", {"NO_COLOR": "1"}) is True


IMPORTS = """
import sys
from hermes_decl.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
heavy = ("hermes_decl.resolver", "hermes_decl.schema", "hermes_decl.snapshot")
heavy = sorted(name for name in sys.modules if name.startswith(heavy))
print(",".join(heavy))
"""


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("--help",), ""),
        (("check", "--help"), ""),
        (("check", "examples/vendor-studio.yaml"), ""),
        (("schema",), "hermes_decl.schema,hermes_decl.schema.files"),
    ],
    ids=["help", "check-help", "check", "schema"],
)
def test_check_and_help_do_not_import_the_resolver(args: tuple[str, ...], allowed: str) -> None:
    result = run_started(
        [sys.executable, "-c", IMPORTS, *args],
        cwd=ROOT,
        capture_output=True,
        encoding="utf-8",  # the schema is printed as UTF-8 whatever the console's encoding
        timeout=120,
        check=False,
    )
    assert result.stdout.splitlines()[-1] == allowed


def test_schema_path_prints_the_installed_file() -> None:
    result = run("schema", "--path", "--draft", "07")
    assert result.returncode == 0
    assert Path(result.stdout.strip()) == schema_path("draft-07")


def test_a_folder_is_unreadable_input_to_explain(tmp_path: Path) -> None:
    result = run("explain", str(tmp_path))
    assert result.returncode == 2
    assert result.stderr.startswith(f"{tmp_path}: ")
