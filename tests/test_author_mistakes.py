"""Each mistake an author commonly makes is refused by ``hermes-decl check`` with the message that
says the fix, and each doubtful but valid declaration is warned about without failing the check.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from pathlib import Path

import pytest

from hermes_decl import DeclarationError, parse_declaration
from hermes_decl.cli import main
from hermes_decl.cli.trace_text import trace_lines
from hermes_decl.loader import load_declarations_file
from hermes_decl.models import text_rules
from hermes_decl.resolver.availability import Availability, AvailabilityState, availability
from hermes_decl.testing import FakeHost

MISTAKES: dict[str, tuple[str, str, str]] = {
    "escape-makes-a-tab": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            '      location: "C:\\tools\\new.exe"\n'
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:17: s.app.win32.location: must not contain control chara"
            "cters such as a tab or a line break (got 'C:\\tools\\new.exe'; in doub"
            "le quotes '\\' starts an escape: use single quotes or '/')"
        ),
    ),
    "unknown-escape": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            '      location: "C:\\Blender\\blender.exe"\n'
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:21: is not valid YAML: found unknown escape character 'B"
            "' (while scanning a double-quoted scalar at line 5, column 17; in doub"
            "le quotes '\\' starts an escape: use single quotes or '/')"
        ),
    ),
    "zero-width-space": (
        "hermes.yaml",
        (
            's:\n  app:\n    display_name: "Gi\\u200bmp"\n'
            "    linux: {presence: executable, location: /usr/bin/gimp}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:3:19: s.app.display_name: must be plain text: no line brea"
            "ks, tabs or other control characters (got 'Gi\\u200bmp')"
        ),
    ),
    "tag-character": (
        "hermes.yaml",
        (
            's:\n  app:\n    display_name: "Gimp\\U000E0041"\n'
            "    linux: {presence: executable, location: /usr/bin/gimp}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:3:19: s.app.display_name: must be plain text: no line brea"
            "ks, tabs or other control characters (got 'Gimp\\U000e0041')"
        ),
    ),
    "bundle-on-linux": (
        "hermes.yaml",
        (
            "s:\n  app:\n    linux: {presence: bundle, location: /opt/gimp}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:3:23: s.app.linux.presence: must be 'executable' under app"
            ".linux: a bundle is a macOS application folder (Something.app), which "
            "Linux does not have (got 'bundle')"
        ),
    ),
    "bundle-without-app": (
        "hermes.yaml",
        (
            "s:\n  app:\n    darwin:\n      presence: bundle\n"
            "      location: {kind: app_bundle, name: GIMP}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:42: s.app.darwin.location.name: must be a bundle folder "
            "name ending in '.app' (got 'GIMP'; write 'GIMP.app')"
        ),
    ),
    "bundle-in-subfolder": (
        "hermes.yaml",
        (
            "s:\n  app:\n    darwin:\n      presence: bundle\n"
            "      location: {kind: app_bundle, name: Vendor/GIMP.app}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:42: s.app.darwin.location.name: must be a bare name with"
            "out '/', '\\' or ':', and not '..' (got 'Vendor/GIMP.app'; a bundle in"
            " a subfolder needs a path location, such as '/Applications/Vendor/GIMP"
            ".app')"
        ),
    ),
    "powershell-variable": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            "      location: $env:ProgramFiles/GIMP/gimp.exe\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:17: s.app.win32.location: must not start with $env:NAME,"
            " which only PowerShell expands; use %NAME% (got '$env:ProgramFiles/GIM"
            "P/gimp.exe'; write '%ProgramFiles%/GIMP/gimp.exe')"
        ),
    ),
    "flatpak-location-id": (
        "hermes.yaml",
        (
            "s:\n  app:\n    linux:\n      presence: executable\n"
            "      location: {kind: flatpak, app_id: gimp}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:41: s.app.linux.location.app_id: must be a Flatpak appli"
            "cation id such as 'com.vendor.Studio': at least three dot-separated pa"
            "rts of letters, digits and '_', none starting with a digit, '-' only i"
            "n the last part; at most 255 characters (got 'gimp')"
        ),
    ),
    "unquoted-percent": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            "      location: %ProgramFiles%/GIMP/gimp.exe\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:17: is not valid YAML: found character '%' that cannot s"
            "tart any token (while scanning for the next token; a value starting wi"
            "th '%' must be quoted: '%ProgramFiles%/Vendor/vendor.exe')"
        ),
    ),
    "tab-indentation": (
        "hermes.yaml",
        (
            's:\n  app:\n\twin32: {presence: executable, location: "C:/x.exe"}\n'
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:3:1: is not valid YAML: found character '\\t' that cannot "
            "start any token (while scanning for the next token; indent with spaces"
            ": YAML allows no tabs there)"
        ),
    ),
    "json-trailing-comma": (
        "hermes.json",
        ('{\n  "s": {\n    "requires": {"app": false},\n  }\n}\n'),
        (
            "hermes.json:3:31: is not valid JSON: trailing comma before '}' (remove"
            " it: JSON allows no comma after the last item)"
        ),
    ),
    "network-path-shown-as-written": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            "      location: '\\\\fileserver\\apps\\gimp.exe'\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:5:17: s.app.win32.location: must not start with two separa"
            "tors: UNC, device and network paths are not allowed (got '\\\\fileserv"
            "er\\apps\\gimp.exe')"
        ),
    ),
    "version-as-number": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            "      location: C:/GIMP/gimp.exe\n"
            "      version: {kind: pe_resource}\n"
            "  requires: {app: true, min_version: 3.6}\n"
        ),
        (
            "hermes.yaml:7:38: s.requires.min_version: must be a string (got 3.6; q"
            "uote it: '3.6', as YAML reads an unquoted 3.10 as the number 3.1)"
        ),
    ),
    "command-as-path": (
        "hermes.yaml",
        (
            "s:\n  app:\n    linux: {presence: executable, location: gimp}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:3:45: s.app.linux.location: must start with /, ~ or $VAR ("
            "got 'gimp'; to find a command on PATH use {kind: command, name: gimp})"
        ),
    ),
    "store-id-as-winget": (
        "hermes.yaml",
        (
            "s:\n  app:\n    win32:\n      presence: executable\n"
            "      location: C:/GIMP/gimp.exe\n"
            "      install: {winget: 9PD9BHGLFC7H}\n"
            "  requires: {app: true}\n"
        ),
        (
            "hermes.yaml:6:25: s.app.win32.install.winget: must be a winget package"
            " identifier such as 'Vendor.Studio': two to eight dot-separated parts "
            "of letters, digits, '_', '+' or '-' (at most 32 each, 128 in all), not"
            " starting with '-' (got '9PD9BHGLFC7H'; a Microsoft Store id is no win"
            "get id: use a url: hint to the Store page)"
        ),
    ),
    "requires-inside-app": (
        "hermes.yaml",
        (
            "s:\n  app:\n    linux: {presence: executable, location: /usr/bin/gimp}"
            "\n    requires: {app: true}\n"
        ),
        (
            "hermes.yaml:4:5: s.app.requires: unknown key (expected 'win32', 'darwi"
            "n', 'linux' or 'display_name'; 'requires' belongs beside 'app', under "
            "the server name)"
        ),
    ),
}
"""Each mistake: the file's name, its text, and the one line ``check`` prints."""


def check(capsys: pytest.CaptureFixture[str], folder: Path, *args: str) -> tuple[int, str]:
    """``hermes-decl check`` run here, and what it printed, with ``folder``'s path left out."""
    status = main(["check", *args])
    printed = capsys.readouterr().out
    return status, printed.replace(f"{folder}/", "")


@pytest.mark.parametrize(("name", "text", "line"), MISTAKES.values(), ids=list(MISTAKES))
def test_each_mistake_is_refused_with_its_fix(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str, line: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    assert check(capsys, tmp_path, str(tmp_path / name)) == (1, line + "\n")


def test_a_double_quoted_escape_written_on_purpose_is_not_told_to_use_single_quotes() -> None:
    from hermes_decl import load_declarations_text

    text = (
        's:\n  app:\n    display_name: "Vendor\\u200bStudio"\n'
        "    linux: {presence: executable, location: /x}\n"
    )
    with pytest.raises(DeclarationError) as raised:
        load_declarations_text(text)
    assert "single quotes" not in str(raised.value)
    assert "control characters (got 'Vendor\\u200bStudio')" in str(raised.value)


# --- the characters free text may not hold ---------------------------------------------------


def test_the_control_class_holds_every_format_character_python_knows() -> None:
    import re

    control = re.compile(f"[{text_rules.CONTROL_CLASS}]")
    format_characters = [
        chr(code) for code in range(0x110000) if unicodedata.category(chr(code)) == "Cf"
    ]
    assert format_characters
    assert [c for c in format_characters if not control.match(c)] == []


def test_the_plain_space_class_is_the_whitespace_that_is_no_control_character() -> None:
    import re

    plain = re.compile(f"[{text_rules.PLAIN_SPACE_CLASS}]")
    controls = re.compile(f"[{text_rules.C0_C1_CLASS}]")
    expected = [chr(c) for c in range(0x110000) if chr(c).isspace() and not controls.match(chr(c))]
    assert [chr(c) for c in range(0x110000) if plain.match(chr(c))] == expected


@pytest.mark.parametrize(
    "text",
    ["Vendor\u200bStudio", "Vendor\u2060", "\ufeffVendor", "Vendor\U000e0041", "Vendor\ud800"],
    ids=["zero-width-space", "word-joiner", "byte-order-mark", "tag-character", "lone-surrogate"],
)
def test_a_display_name_holds_no_invisible_character(text: str) -> None:
    app = {"display_name": text, "linux": {"presence": "executable", "location": "/x"}}
    with pytest.raises(DeclarationError) as raised:
        parse_declaration("s", app, {"app": True}, where="w")
    assert [issue.code for issue in raised.value.issues] == ["control_character"]


@pytest.mark.parametrize(
    ("key", "value"),
    [("name", "gimp\x1b"), ("display_name_prefix", "GIMP\x85"), ("file", "bin/gimp\x7f.exe")],
    ids=["command-name", "entry-prefix", "file"],
)
def test_a_name_or_file_holds_no_control_character(key: str, value: str) -> None:
    location = {"kind": "command", "name": "gimp"}
    if key != "name":
        location = {"kind": "uninstall_registry", "display_name_prefix": "GIMP", "file": "gimp.exe"}
    location[key] = value
    app = {"win32": {"presence": "executable", "location": location}}
    with pytest.raises(DeclarationError) as raised:
        parse_declaration("s", app, {"app": True}, where="w")
    issues = [(issue.loc, issue.code) for issue in raised.value.issues]
    assert issues == [(f"app.win32.location.{key}", "control_character")]


# --- warnings ----------------------------------------------------------------------------------

DOUBTFUL = (
    "# yaml-language-server: $schema=../schema/declarations.schema.json\n"
    "s:\n"
    "  app:\n"
    "    win32:\n"
    "      presence: executable\n"
    "      location: {kind: command, name: gimp}\n"
    "      version: {kind: pe_resource}\n"
    "    linux: {presence: executable, location: /usr/bin/gimp}\n"
    "  requires: {app: true, min_version: '2.10'}\n"
)
WARNINGS = [
    "hermes.yaml:1:33: warning: the yaml-language-server modeline names "
    "'../schema/declarations.schema.json', which is not a file next to this one, so editors "
    "check nothing (give the schema's https:// URL, or a path from this file's folder)",
    "hermes.yaml:7:16: s.app.win32.version: warning: may find no version to read: a command "
    "location can resolve to a .cmd or .bat script, which has no version resource (use a path "
    "location to the .exe)",
    "hermes.yaml:9:38: s.requires.min_version: warning: is not checked on Linux: Linux has no "
    "version source, so app.linux is gated on presence only",
]


@pytest.fixture
def doubtful(tmp_path: Path) -> Path:
    path = tmp_path / "hermes.yaml"
    path.write_text(DOUBTFUL, encoding="utf-8")
    return path


def test_warnings_are_printed_and_pass_the_check(
    capsys: pytest.CaptureFixture[str], doubtful: Path
) -> None:
    status, printed = check(capsys, doubtful.parent, str(doubtful))
    assert (status, printed.splitlines()) == (0, [*WARNINGS, "hermes.yaml: ok (s)"])


def test_strict_fails_the_check_on_warnings(
    capsys: pytest.CaptureFixture[str], doubtful: Path
) -> None:
    status, printed = check(capsys, doubtful.parent, "--strict", "--quiet", str(doubtful))
    assert (status, printed.splitlines()) == (1, WARNINGS)


def test_a_warning_never_changes_what_the_parser_returns(doubtful: Path) -> None:
    loaded = load_declarations_file(doubtful)
    assert list(loaded) == ["s"]
    assert loaded["s"].requires.min_version == "2.10"


def test_a_modeline_naming_an_existing_file_or_a_url_is_not_warned_about(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "schema.json").write_text("{}", encoding="utf-8")
    body = "s:\n  requires: {app: false}\n"
    for modeline in ("schema.json", "https://example.org/declarations.schema.json"):
        path = tmp_path / "hermes.yaml"
        path.write_text(f"# yaml-language-server: $schema={modeline}\n{body}", encoding="utf-8")
        assert check(capsys, tmp_path, "--strict", str(path)) == (0, "hermes.yaml: ok (s)\n")


@pytest.mark.parametrize("strict", [False, True], ids=["plain", "strict"])
def test_json_carries_each_issue_s_severity(
    capsys: pytest.CaptureFixture[str], doubtful: Path, strict: bool
) -> None:
    status, printed = check(
        capsys, doubtful.parent, "--json", *(["--strict"] if strict else []), str(doubtful)
    )
    report = json.loads(printed)
    assert status == (1 if strict else 0)
    assert report["valid"] is not strict
    (file,) = report["files"]
    assert file["valid"] is True
    assert [(i["code"], i["severity"], i["line"]) for i in file["issues"]] == [
        ("schema_modeline_missing", "warning", 1),
        ("pe_resource_on_command", "warning", 7),
        ("min_version_not_on_linux", "warning", 9),
    ]


def test_github_annotations_are_warnings(
    capsys: pytest.CaptureFixture[str], doubtful: Path
) -> None:
    status, printed = check(capsys, doubtful.parent, "--format", "github", str(doubtful))
    assert status == 0
    assert [line.split(" ", 1)[0] for line in printed.splitlines()] == ["::warning"] * 3
    assert printed.splitlines()[2] == (
        "::warning file=hermes.yaml,line=9,col=38,endColumn=39::s.requires.min_version: is not "
        "checked on Linux: Linux has no version source, so app.linux is gated on presence only"
    )


def test_sarif_results_are_warnings(capsys: pytest.CaptureFixture[str], doubtful: Path) -> None:
    status, printed = check(capsys, doubtful.parent, "--format", "sarif", str(doubtful))
    results = json.loads(printed)["runs"][0]["results"]
    assert status == 0
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("schema_modeline_missing", "warning"),
        ("pe_resource_on_command", "warning"),
        ("min_version_not_on_linux", "warning"),
    ]


def test_errors_and_warnings_keep_their_own_severity(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "hermes.yaml"
    path.write_text(DOUBTFUL.replace("presence: executable\n", "presence: exe\n"), "utf-8")
    status, printed = check(capsys, tmp_path, "--format", "sarif", str(path))
    results = json.loads(printed)["runs"][0]["results"]
    assert status == 1
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("invalid_choice", "error"),
        ("schema_modeline_missing", "warning"),
    ]


# --- what explain tells ------------------------------------------------------------------------


def _evaluate(app: Mapping[str, object], host: FakeHost, **requires: object) -> Availability:
    return availability(
        parse_declaration("s", app, {"app": True, **requires}, where="w"), host=host
    )


def test_an_uninstall_location_without_a_matching_entry_leaves_a_trace_line() -> None:
    app = {
        "win32": {
            "presence": "executable",
            "location": {
                "kind": "uninstall_registry",
                "display_name_prefix": "Blender",
                "file": "blender.exe",
            },
        }
    }
    nothing = _evaluate(app, FakeHost("win32"))
    assert trace_lines(nothing.trace) == [
        "location[0] uninstall_registry: -: absent  "
        "(uninstall entries; no entry starts with 'Blender')"
    ]
    without_folder = _evaluate(app, FakeHost("win32").add_uninstall_entry("Blender 4.2", "4.2"))
    assert trace_lines(without_folder.trace) == [
        "location[0] uninstall_registry: -: absent  "
        "(uninstall entry 'Blender 4.2'; it has no InstallLocation)"
    ]
    assert (without_folder.state, without_folder.path) == ("missing_app", None)


LINUX_AND_MAC: dict[str, object] = {
    "linux": {"presence": "executable", "location": "/usr/bin/gimp"},
    "darwin": {
        "presence": "bundle",
        "location": {"kind": "app_bundle", "name": "GIMP.app"},
        "version": {"kind": "plist"},
    },
}


def test_version_checked_says_whether_the_minimum_was_compared() -> None:
    linux = _evaluate(
        LINUX_AND_MAC, FakeHost("linux").add_executable("/usr/bin/gimp"), min_version="2.10"
    )
    mac = FakeHost("darwin").add_bundle("/Applications/GIMP.app", "2.10.38")
    checked = _evaluate(LINUX_AND_MAC, mac, min_version="2.10")
    unset = _evaluate(LINUX_AND_MAC, mac)
    assert [(r.state, r.version_checked) for r in (linux, checked, unset)] == [
        ("available", False),
        ("available", True),
        ("available", False),
    ]
    assert Availability(AvailabilityState.AVAILABLE).version_checked is False


def test_explain_says_a_minimum_is_not_checked_on_linux(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    declarations = tmp_path / "hermes.yaml"
    declarations.write_text(
        "s:\n"
        "  app:\n"
        "    linux: {presence: executable, location: /usr/bin/gimp}\n"
        "    darwin: {presence: bundle, location: {kind: app_bundle, name: GIMP.app}, "
        "version: {kind: plist}}\n"
        "  requires: {app: true, min_version: '2.10'}\n",
        encoding="utf-8",
    )
    host = tmp_path / "host.yaml"
    host.write_text("os_family: linux\nfiles: [/usr/bin/gimp]\n", encoding="utf-8")
    status = main(["explain", str(declarations), "--host", str(host)])
    printed = capsys.readouterr().out.splitlines()
    assert status == 0
    assert "  version:  not checked on linux (it has no version source)" in printed


def test_an_unreadable_version_names_what_could_not_be_read_and_asks_no_update() -> None:
    mac = FakeHost("darwin").add_bundle("/Applications/GIMP.app")  # no version in Info.plist
    result = _evaluate(LINUX_AND_MAC, mac, min_version="2.10")
    assert (result.state, result.version_checked) == ("version_too_old", True)
    assert result.sentence("GIMP") == (
        "GIMP is installed at /Applications/GIMP.app, but no version could be read from it; "
        "version 2.10 or newer is required. Check that it is GIMP 2.10 or newer, then try again."
    )
