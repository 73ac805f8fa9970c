"""Human output: control characters escaped, any locale, never a traceback; --json stays exact."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_decl.cli import main
from hermes_decl.cli.output import escape_controls, forgiving, say, say_problems
from hermes_decl.declaration import DeclarationError, Issue
from tests.process_starts import run_started

ROOT = Path(__file__).parent.parent

# A folder name (matched by '*') carrying a title and a clear-screen sequence: a declared path
# or server name cannot carry one (control characters are refused in every path and name, so a
# broken declaration shows its hostile name only escaped, in its problems), but what the machine
# lists can.
SERVER = "evil-studio"
HOSTILE_SERVER = '"evil\\ud800\\e]0;pwned\\a"'
DECLARED = "/opt/v*/bin/tool"
FOLDER = "v1\x1b]0;pwned\x07\x1b[2J"
DECLARATION = (
    "evil-studio:\n"
    "  app:\n"
    "    linux:\n"
    "      presence: executable\n"
    "      location: /opt/v*/bin/tool\n"
    "  requires: {app: true}\n"
)
BROKEN = f'{HOSTILE_SERVER}:\n  app: {{linux: {{presence: "exe\\e[2J"}}}}\n'
SNAPSHOT = 'os_family: linux\nfiles: ["/opt/v1\\e]0;pwned\\a\\e[2J/bin/tool"]\n'

LOCALES = {
    "c-locale": {"LC_ALL": "C", "LANG": "C"},
    "ascii-stream": {"PYTHONIOENCODING": "ascii"},
    "utf-8": {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"},
}
COMMANDS = {
    "check-valid": (("check", "{declaration}"), 0),
    "check-broken": (("check", "{broken}"), 1),
    "explain": (("explain", "{declaration}", "--host", "{snapshot}"), 0),
    "explain-broken": (("explain", "{broken}"), 3),
}


def _files(tmp_path: Path) -> dict[str, str]:
    files = {"declaration": DECLARATION, "broken": BROKEN, "snapshot": SNAPSHOT}
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return {name: str(tmp_path / f"{name}.yaml") for name in files}


def _run(arguments: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("LC_", "LANG"))}
    env.pop("PYTHONIOENCODING", None)
    env.update(environment)
    return run_started(
        [sys.executable, "-m", "hermes_decl", *arguments],
        cwd=ROOT,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


def _controls(data: bytes) -> list[int]:
    """Bytes a terminal would act on besides the platform's line ends (``\\r\\n`` on Windows, where
    the CLI's text streams end lines so): C0, DEL, and C1 as UTF-8 encodes them."""
    text = data.decode("utf-8", "replace").replace(os.linesep, "\n")
    return [ord(c) for c in text if c != "\n" and (ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F)]


@pytest.mark.parametrize("environment", LOCALES.values(), ids=list(LOCALES))
@pytest.mark.parametrize(("command", "status"), COMMANDS.values(), ids=list(COMMANDS))
def test_human_output_never_crashes_and_never_reaches_the_terminal_raw(
    tmp_path: Path, environment: dict[str, str], command: tuple[str, ...], status: int
) -> None:
    files = _files(tmp_path)
    result = _run([part.format(**files) for part in command], environment)
    assert result.returncode == status, result.stderr
    assert b"Traceback" not in result.stderr
    assert _controls(result.stdout) == []
    assert _controls(result.stderr) == []
    shown = (result.stdout + result.stderr).decode("ascii", "replace")
    if command[:2] == ("check", "{declaration}"):
        assert shown.endswith("ok (evil-studio)" + os.linesep)
    else:
        assert "\\x1b]0;pwned\\x07" in shown or "\\u001b]0;pwned\\u0007" in shown


@pytest.mark.parametrize("environment", LOCALES.values(), ids=list(LOCALES))
def test_a_usage_error_quotes_a_hostile_argument_escaped(environment: dict[str, str]) -> None:
    # A file name that is not UTF-8 reaches Python as a lone surrogate ('\udcff').
    result = _run(["check", "a.yaml", "--x\x1b]0;pwned\x07\udcff.yaml"], environment)
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr
    assert _controls(result.stderr) == []
    assert result.stderr.decode("ascii", "replace").splitlines()[-2:] == [
        "hermes-decl: error: unrecognized arguments: --x\\x1b]0;pwned\\x07\\udcff.yaml",
        "Try 'hermes-decl --help'.",
    ]


def test_explain_shows_every_hostile_name_escaped(tmp_path: Path) -> None:
    files = _files(tmp_path)
    result = _run(["explain", files["declaration"], "--host", files["snapshot"]], LOCALES["utf-8"])
    found = "/opt/v1\\x1b]0;pwned\\x07\\x1b[2J/bin/tool"
    assert result.stdout.decode("utf-8").splitlines() == [
        f"{files['declaration']}: evil-studio",
        "  state:    available (offered)",
        "  sentence: evil-studio is available.",
        "  os:       linux",
        f"  path:     {found}",
        "  looked at:",
        f"    location[0] path: {found}: present",
    ]


@pytest.mark.parametrize("environment", LOCALES.values(), ids=list(LOCALES))
def test_json_keeps_exact_strings(tmp_path: Path, environment: dict[str, str]) -> None:
    files = _files(tmp_path)
    result = _run(
        ["explain", files["declaration"], "--host", files["snapshot"], "--json"], environment
    )
    assert result.returncode == 0, result.stderr
    assert _controls(result.stdout) == []
    (verdict,) = json.loads(result.stdout)
    assert verdict["server"] == SERVER
    assert verdict["path"] == f"/opt/{FOLDER}/bin/tool"
    assert verdict["trace"][0]["path"] == f"/opt/{FOLDER}/bin/tool"


def test_check_json_keeps_the_location_as_data(tmp_path: Path) -> None:
    files = _files(tmp_path)
    result = _run(["check", files["broken"], "--json"], LOCALES["c-locale"])
    issues = json.loads(result.stdout)["files"][0]["issues"]
    server = '["evil\\ud800\\u001b]0;pwned\\u0007"]'
    assert [(issue["loc"], issue["code"]) for issue in issues] == [
        (server, "control_character"),
        (f"{server}.app.linux.location", "missing_key"),
        (f"{server}.app.linux.presence", "invalid_choice"),
    ]


ESCAPES = {
    "plain-text-untouched": ("línux пути 場所 \u2028", "línux пути 場所 \u2028"),
    "osc-title": ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
    "csi-clear": ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
    "c1-csi": ("a\x9b2Jb", "a\\x9b2Jb"),
    "del": ("a\x7fb", "a\\x7fb"),
    "newline-and-tab-inside-a-line": ("a\nb\tc\r", "a\\x0ab\\x09c\\x0d"),
    "nul": ("a\x00b", "a\\x00b"),
    "lone-surrogate": ("a\ud800b\udfff", "a\\ud800b\\udfff"),
}


@pytest.mark.parametrize(("text", "escaped"), ESCAPES.values(), ids=list(ESCAPES))
def test_escape_controls(text: str, escaped: str) -> None:
    assert escape_controls(text) == escaped


@pytest.mark.parametrize(
    ("encoding", "written"),
    [("ascii", b"evil \\u043f \\ud800\n"), ("utf-8", "evil п \\ud800\n".encode())],
    ids=["ascii", "utf-8"],
)
def test_say_writes_what_any_stream_can_carry(encoding: str, written: bytes) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="strict")
    say(stream, "evil п \ud800")
    stream.flush()
    assert raw.getvalue() == written.replace(b"\n", os.linesep.encode())  # a text stream's newline


def test_say_falls_back_when_a_stream_cannot_be_reconfigured() -> None:
    class Strict(io.StringIO):
        """A text stream that only takes ASCII and has no ``reconfigure``."""

        def write(self, text: str) -> int:
            text.encode("ascii")
            return super().write(text)

    stream = Strict()
    assert forgiving(stream) is stream
    say(stream, "пути")
    assert stream.getvalue() == "\\u043f\\u0443\\u0442\\u0438\n"


def test_say_problems_writes_one_escaped_line_per_issue() -> None:
    stream = io.StringIO()
    error = DeclarationError(
        "plugin\x1b.yaml", [Issue("a", "x", "first\nline"), Issue("", "y", "second")]
    )
    say_problems(stream, error)
    assert stream.getvalue() == "plugin\\x1b.yaml: a: first\\x0aline\nplugin\\x1b.yaml: second\n"


@pytest.mark.parametrize("environment", LOCALES.values(), ids=list(LOCALES))
def test_override_echoes_what_it_added_escaped(tmp_path: Path, environment: dict[str, str]) -> None:
    target = tmp_path / "overrides.yaml"
    result = _run(
        ["override", "evil\x1b]0;pwned\x07", "/opt/v/x", "--os", "linux"],
        {**environment, "HERMES_DECL_OVERRIDES": str(target)},
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert _controls(result.stdout) == []
    assert result.stdout.decode("ascii") == (
        f"{target}: evil\\x1b]0;pwned\\x07: linux: added /opt/v/x, tried first{os.linesep}"
    )


def test_colour_never_lets_a_declared_sequence_through(tmp_path: Path) -> None:
    files = _files(tmp_path)
    command = ["explain", "--color", "always", files["declaration"], "--host", files["snapshot"]]
    result = _run(command, LOCALES["utf-8"])
    assert result.returncode == 0, result.stderr
    text = result.stdout.decode("utf-8")
    ours = {"\x1b[1m", "\x1b[36m", "\x1b[32m", "\x1b[0m"}
    raw = {text[index : text.index("m", index) + 1] for index in _escape_starts(text)}
    assert raw <= ours
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in text


def _escape_starts(text: str) -> list[int]:
    return [index for index, character in enumerate(text) if character == "\x1b"]


def test_a_line_end_of_the_platform_is_no_control_but_a_lone_carriage_return_is() -> None:
    assert _controls(f"a{os.linesep}b{os.linesep}".encode()) == []
    assert _controls(f"a\rb\x1b{os.linesep}".encode()) == [0x0D, 0x1B]


def _windows_stream() -> io.TextIOWrapper:
    """A text stream that ends lines as Windows' console and pipes do: ``\\r\\n``."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="\r\n")


def _written(stream: io.TextIOWrapper) -> bytes:
    stream.flush()
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    return raw.getvalue()


def test_every_line_ends_through_the_text_stream_so_windows_gets_crlf_once(tmp_path: Path) -> None:
    files = _files(tmp_path)
    valid = str(ROOT / "examples" / "linux-tool.yaml")
    stdout, stderr = _windows_stream(), _windows_stream()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        assert main(["check", "--color", "never", valid, files["broken"]]) == 1
        assert main(["check", "--json", valid]) == 0
        assert main(["explain", valid, "--server", "none"]) == 2
    report = {
        "valid": True,
        "files": [{"file": valid, "valid": True, "servers": ["inkwell-mcp"], "issues": []}],
    }
    broken = files["broken"]
    server = '["evil\\ud800\\u001b]0;pwned\\u0007"]'
    presence = "must be 'executable' or 'bundle' (got 'exe\\x1b[2J')"
    name = (
        "must not contain control characters such as a tab or a line break (got "
        "'evil\\ud800\\x1b]0;pwned\\x07'; in double quotes '\\' starts an escape: use single "
        "quotes or '/')"
    )
    assert (
        _written(stdout)
        == (
            f"{valid}: ok (inkwell-mcp)\r\n"
            f"{broken}:1:1: {server}: {name}\r\n"
            f"{broken}:2:9: {server}.app.linux.location: is required\r\n"
            f"{broken}:2:27: {server}.app.linux.presence: {presence}\r\n"
            + json.dumps(report, indent=2).replace("\n", "\r\n")
            + "\r\n"
        ).encode()
    )
    assert _written(stderr) == f"{valid}: no server 'none' (servers: inkwell-mcp)\r\n".encode()
