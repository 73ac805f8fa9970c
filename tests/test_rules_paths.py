"""Path-string rules of SPEC 3.2 (and 3.1 for ``liveness.path``), one table per rule family.

Every table is written from SPEC.md. An invalid path string inside a list is reported at the
list item (``app.<os>.location[1]``); a lone path string at ``app.<os>.location``; a liveness
path at ``app.<os>.liveness.path``.
"""

from __future__ import annotations

import pytest

from hermes_decl.models import AppDef, PathLocation
from tests.rules_helpers import ROOTED, one_os, os_block, parse, rows
from tests.rules_helpers import issues as issues_of

ALL_OS = ("win32", "darwin", "linux")


def _app_def(raw_app: object, os_family: str) -> AppDef:
    decl = parse(raw_app)
    assert decl.app is not None
    app_def = decl.app.for_os(os_family)
    assert app_def is not None
    return app_def


def _stored_path(os_family: str, raw: str) -> str:
    app_def = _app_def(one_os(os_family, [raw]), os_family)
    assert len(app_def.locations) == 1
    location = app_def.locations[0]
    assert isinstance(location, PathLocation)
    return location.path


# --- valid paths per OS: (os, raw path, path as stored) -------------------------------------

VALID_PATHS: dict[str, tuple[str, str, str]] = {
    # win32: drive roots with either separator, ~, ~user, %VAR%, $VAR, ${VAR}
    "win32-drive-backslash": ("win32", r"C:\Program Files\Vendor\vendor.exe", ""),
    "win32-drive-slash": ("win32", "C:/Program Files/Vendor/vendor.exe", ""),
    "win32-drive-lowercase": ("win32", r"d:\tools\vendor.exe", ""),
    "win32-drive-root-only": ("win32", "C:\\", ""),
    "win32-tilde-backslash": ("win32", r"~\AppData\Local\vendor.exe", ""),
    "win32-tilde-slash": ("win32", "~/vendor/vendor.exe", ""),
    "win32-tilde-alone": ("win32", "~", ""),
    "win32-tilde-user": ("win32", r"~alice\vendor\vendor.exe", ""),
    "win32-percent-var": ("win32", r"%ProgramFiles%\Vendor\vendor.exe", ""),
    "win32-percent-x86": ("win32", r"%ProgramFiles(x86)%\Vendor\vendor.exe", ""),
    "win32-percent-slash": ("win32", "%LOCALAPPDATA%/Vendor/vendor.exe", ""),
    "win32-percent-space-in-name": ("win32", r"%My Vendor Dir%\vendor.exe", ""),
    "win32-percent-alone": ("win32", "%ProgramFiles%", ""),
    "win32-percent-var-then-text": ("win32", r"%ProgramFiles%Vendor\vendor.exe", ""),
    "win32-dollar-var": ("win32", r"$HOME\vendor\vendor.exe", ""),
    "win32-dollar-brace": ("win32", r"${LOCALAPPDATA}\Vendor\vendor.exe", ""),
    "win32-dollar-underscore": ("win32", "$_VENDOR_1/vendor.exe", ""),
    "win32-percent-literal-later": ("win32", r"C:\Vendor 100%\vendor.exe", ""),
    # `*` within a segment; other glob characters are literal
    "win32-star-in-segment": ("win32", r"C:\Program Files\Vendor App *\vendor.exe", ""),
    "win32-star-segments": ("win32", r"%ProgramFiles%\Vendor*\bin\*.exe", ""),
    "win32-literal-glob-chars": ("win32", r"C:\Vendor[1]\ven?or{a,b}.exe", ""),
    # dots that are not a `..` segment
    "win32-dotdot-prefix": ("win32", r"C:\Vendor\..x\vendor.exe", ""),
    "win32-dotdot-suffix": ("win32", r"C:\Vendor\x..\vendor.exe", ""),
    "win32-single-dot": ("win32", r"C:\Vendor\.\vendor.exe", ""),
    # stripped of surrounding whitespace, inner spaces kept
    "win32-stripped": ("win32", "  C:\\Vendor App\\vendor.exe\t\n", "C:\\Vendor App\\vendor.exe"),
    # POSIX
    "darwin-root": ("darwin", "/Applications/Vendor.app", ""),
    "darwin-tilde": ("darwin", "~/Applications/Vendor.app", ""),
    "darwin-tilde-user": ("darwin", "~alice/Applications/Vendor.app", ""),
    "darwin-dollar": ("darwin", "$HOME/Applications/Vendor.app", ""),
    "darwin-dollar-brace": ("darwin", "${HOME}/Applications/Vendor.app", ""),
    "darwin-star": ("darwin", "/Applications/Vendor *.app", ""),
    "darwin-percent-literal": ("darwin", "/Applications/100% Vendor.app", ""),
    "darwin-stripped": ("darwin", " /Applications/Vendor.app ", "/Applications/Vendor.app"),
    "linux-root": ("linux", "/opt/vendor/bin/vendor", ""),
    "linux-root-only": ("linux", "/", ""),
    "linux-tilde": ("linux", "~/.local/bin/vendor", ""),
    "linux-tilde-alone": ("linux", "~", ""),
    "linux-tilde-user": ("linux", "~alice/bin/vendor", ""),
    "linux-dollar": ("linux", "$HOME/bin/vendor", ""),
    "linux-dollar-alone": ("linux", "$VENDOR_HOME", ""),
    "linux-dollar-brace": ("linux", "${XDG_DATA_HOME}/vendor/bin/vendor", ""),
    "linux-percent-literal-mid": ("linux", "/opt/50%/vendor", ""),
    "linux-percent-var-mid-literal": ("linux", "/opt/%VENDOR%/bin/vendor", ""),
    "linux-star-in-segment": ("linux", "/opt/Vendor App */bin/vendor", ""),
    "linux-star-segments": ("linux", "/opt/vendor-*/bin/*", ""),
    "linux-star-two-segments": ("linux", "/opt/*/*/vendor", ""),
    "linux-percent-after-var-literal": ("linux", "$HOME/%APPDATA%/vendor", ""),
    "darwin-tilde-alone": ("darwin", "~", ""),
    "linux-literal-glob-chars": ("linux", "/opt/vendor[1]/ven?or{a,b}", ""),
    "linux-three-dots": ("linux", "/opt/.../vendor", ""),
    "linux-dotdot-prefix": ("linux", "/opt/..vendor/bin", ""),
    "linux-dotdot-suffix": ("linux", "/opt/vendor../bin", ""),
    "linux-colon-not-scheme": ("linux", "/opt/vendor:2/bin", ""),
    "linux-backslash-inside": ("linux", "/opt/vendor\\bin", ""),
    "linux-stripped": ("linux", "\t /opt/vendor/bin/vendor \r\n", "/opt/vendor/bin/vendor"),
    # names that only look like Windows devices, and device names outside win32
    "win32-console-is-no-device": ("win32", r"C:\Vendor\CONSOLE\vendor.exe", ""),
    "win32-com10-is-no-device": ("win32", r"C:\Vendor\COM10.exe", ""),
    "win32-device-inside-a-name": ("win32", r"C:\Vendor\xNUL\conx.exe", ""),
    "win32-dotless-i-is-no-device": ("win32", "C:\\Vendor\\con\u0131n$", ""),
    "win32-leading-space-is-no-device": ("win32", r"C:\Vendor\ CON\vendor.exe", ""),
    "darwin-device-name": ("darwin", "/Volumes/CON/Vendor.app", ""),
    "linux-device-name": ("linux", "/opt/nul/aux.sh", ""),
}


@pytest.mark.parametrize(("os_family", "raw", "stored"), rows(VALID_PATHS), ids=list(VALID_PATHS))
def test_valid_path_is_stored_stripped_not_expanded(os_family: str, raw: str, stored: str) -> None:
    assert _stored_path(os_family, raw) == (stored or raw)


# --- invalid paths: (os, raw path, code), reported at app.<os>.location[1] -------------------

INVALID_PATHS: dict[str, tuple[str, str, str]] = {
    # win32 rooting
    "win32-bare-file": ("win32", "vendor.exe", "path_not_rooted"),
    "win32-relative-dir": ("win32", r"Vendor\vendor.exe", "path_not_rooted"),
    "win32-dot-relative": ("win32", r".\vendor.exe", "path_not_rooted"),
    "win32-root-without-drive": ("win32", r"\Vendor\vendor.exe", "path_not_rooted"),
    "win32-slash-root-without-drive": ("win32", "/Vendor/vendor.exe", "path_not_rooted"),
    "win32-drive-relative": ("win32", "C:vendor.exe", "path_not_rooted"),
    "win32-drive-alone": ("win32", "C:", "path_not_rooted"),
    "win32-two-letter-drive": ("win32", r"CD:\vendor.exe", "path_not_rooted"),
    "win32-empty-percent-name": ("win32", r"%%\vendor.exe", "path_not_rooted"),
    "win32-unterminated-percent": ("win32", r"%ProgramFiles\vendor.exe", "path_not_rooted"),
    "win32-percent-name-with-equals": ("win32", r"%A=B%\vendor.exe", "path_not_rooted"),
    "win32-percent-name-with-slash": ("win32", r"%A/B%\vendor.exe", "path_not_rooted"),
    "win32-dollar-digit": ("win32", r"$1VENDOR\vendor.exe", "path_not_rooted"),
    "win32-dollar-empty": ("win32", r"$\vendor.exe", "path_not_rooted"),
    "win32-dollar-brace-digit": ("win32", r"${1X}\vendor.exe", "path_not_rooted"),
    "win32-dollar-brace-unclosed": ("win32", r"${HOME\vendor.exe", "path_not_rooted"),
    # POSIX rooting
    "darwin-relative": ("darwin", "Applications/Vendor.app", "path_not_rooted"),
    "darwin-drive": ("darwin", r"C:\Vendor\vendor", "path_not_rooted"),
    "linux-relative": ("linux", "opt/vendor", "path_not_rooted"),
    "linux-dot-relative": ("linux", "./vendor", "path_not_rooted"),
    "linux-bare-name": ("linux", "vendor", "path_not_rooted"),
    "linux-drive-backslash": ("linux", r"C:\Vendor\vendor", "path_not_rooted"),
    "linux-drive-slash": ("linux", "C:/Vendor/vendor", "path_not_rooted"),
    "linux-backslash-root": ("linux", r"\opt\vendor", "path_not_rooted"),
    "linux-dollar-digit": ("linux", "$1/vendor", "path_not_rooted"),
    "linux-dollar-brace-digit": ("linux", "${1}/vendor", "path_not_rooted"),
    "linux-dollar-brace-unclosed": ("linux", "${HOME/vendor", "path_not_rooted"),
    "linux-percent-not-a-variable": ("linux", "%vendor/bin", "path_not_rooted"),
    # a leading %VAR% is a Windows form on darwin / linux
    "darwin-percent-var": ("darwin", "%HOME%/Applications/Vendor.app", "path_windows_variable"),
    "linux-percent-var": ("linux", "%HOME%/bin/vendor", "path_windows_variable"),
    "linux-percent-x86": ("linux", "%ProgramFiles(x86)%/vendor", "path_windows_variable"),
    "linux-percent-var-alone": ("linux", "%LOCALAPPDATA%", "path_windows_variable"),
    # blank
    "win32-empty": ("win32", "", "blank"),
    "darwin-spaces": ("darwin", "   ", "blank"),
    "linux-whitespace": ("linux", "\t\n ", "blank"),
    # NUL
    "win32-nul": ("win32", "C:\\Ven\x00dor\\vendor.exe", "path_nul"),
    "linux-nul": ("linux", "/opt/ven\x00dor", "path_nul"),
}


@pytest.mark.parametrize(("os_family", "raw", "code"), rows(INVALID_PATHS), ids=list(INVALID_PATHS))
def test_invalid_path_in_list(os_family: str, raw: str, code: str) -> None:
    app = one_os(os_family, [ROOTED[os_family], raw])
    assert issues_of(app) == [(f"app.{os_family}.location[1]", code)]


# --- UNC / device / double-separator paths, on every OS --------------------------------------

NETWORK_PATHS: dict[str, str] = {
    "unc-backslash": r"\\server\share\vendor.exe",
    "unc-slash": "//server/share/vendor",
    "slash-backslash": r"/\vendor",
    "backslash-slash": "\\/vendor",
    "device-namespace": r"\\?\C:\Vendor\vendor.exe",
    "device-dot": r"\\.\pipe\vendor",
    "device-unc": r"\\?\UNC\server\share\vendor.exe",
    "triple-slash": "///opt/vendor",
    "unc-after-strip": "   //server/share",
}

NETWORK_CASES: dict[str, tuple[str, str]] = {
    f"{os_family}-{name}": (os_family, raw)
    for os_family in ALL_OS
    for name, raw in NETWORK_PATHS.items()
}


@pytest.mark.parametrize(("os_family", "raw"), rows(NETWORK_CASES), ids=list(NETWORK_CASES))
def test_network_paths_are_rejected_on_every_os(os_family: str, raw: str) -> None:
    app = one_os(os_family, [ROOTED[os_family], raw])
    assert issues_of(app) == [(f"app.{os_family}.location[1]", "path_network")]


# --- `..` segments, URL schemes, `**` and Windows device names --------------------------------

SEGMENT_RULES: dict[str, tuple[str, str, str]] = {
    "win32-parent-backslash": ("win32", r"C:\Vendor\..\vendor.exe", "path_parent"),
    "win32-parent-slash": ("win32", "C:/Vendor/../vendor.exe", "path_parent"),
    "win32-parent-mixed": ("win32", "C:\\Vendor/..\\vendor.exe", "path_parent"),
    "win32-parent-trailing": ("win32", r"C:\Vendor\..", "path_parent"),
    "win32-parent-after-var": ("win32", r"%APPDATA%\..\vendor.exe", "path_parent"),
    "win32-parent-after-tilde": ("win32", r"~\..\vendor.exe", "path_parent"),
    "darwin-parent": ("darwin", "/Applications/../Vendor.app", "path_parent"),
    "darwin-parent-after-tilde": ("darwin", "~/../Vendor.app", "path_parent"),
    "linux-parent-slash": ("linux", "/opt/../vendor", "path_parent"),
    "linux-parent-trailing": ("linux", "/opt/vendor/..", "path_parent"),
    "linux-parent-backslash": ("linux", "/opt/vendor/..\\bin", "path_parent"),
    "linux-parent-both-backslash": ("linux", "/opt\\..\\vendor", "path_parent"),
    "linux-parent-after-var": ("linux", "$HOME/../vendor", "path_parent"),
    "win32-url": ("win32", r"C:\Vendor\http://example.com/vendor.exe", "path_url"),
    "darwin-url": ("darwin", "/Applications/file://Vendor.app", "path_url"),
    "linux-url": ("linux", "/opt/vendor/https://example.com", "path_url"),
    "linux-url-after-var": ("linux", "$HOME/s3://bucket/vendor", "path_url"),
    "linux-url-plus-scheme": ("linux", "~/git+ssh://host/vendor", "path_url"),
    "linux-url-uppercase-scheme": ("linux", "/opt/HTTP://host/vendor", "path_url"),
    "linux-url-dot-dash-scheme": ("linux", "/opt/x-y.z+w://host", "path_url"),
    "win32-double-star": ("win32", r"C:\Vendor\**\vendor.exe", "path_double_star"),
    "darwin-double-star": ("darwin", "/Applications/**/Vendor.app", "path_double_star"),
    "linux-double-star-segment": ("linux", "/opt/**/vendor", "path_double_star"),
    "linux-double-star-in-name": ("linux", "/opt/vendor**", "path_double_star"),
    "linux-double-star-mid-name": ("linux", "~/ven**dor/bin", "path_double_star"),
    # a segment Windows opens as a device: any case, any extension, trailing dots or spaces
    "win32-device-con": ("win32", r"C:\Vendor\CON\vendor.exe", "path_device"),
    "win32-device-nul-extension": ("win32", r"C:\Vendor\nul.txt", "path_device"),
    "win32-device-two-extensions": ("win32", r"C:\Vendor\Nul.tar.gz", "path_device"),
    "win32-device-after-variable": ("win32", r"%APPDATA%\com1", "path_device"),
    "win32-device-after-tilde": ("win32", "~/conout$.log", "path_device"),
    "win32-device-conin": ("win32", r"C:\x\CONIN$", "path_device"),
    "win32-device-com0": ("win32", r"C:\x\COM0\v.exe", "path_device"),
    "win32-device-lpt9-dots-spaces": ("win32", r"C:\x\LPT9 . .", "path_device"),
    "win32-device-space-before-extension": ("win32", r"C:\x\aux .txt", "path_device"),
    "win32-device-colon": ("win32", r"C:\x\PRN:stream", "path_device"),
    "win32-device-superscript": ("win32", "C:\\x\\COM\u00b9", "path_device"),
    "win32-device-with-star-after": ("win32", r"C:\x\NUL\Vendor *\v.exe", "path_device"),
    "win32-device-then-stripped-space": ("win32", "C:\\x\\NUL\u3000", "path_device"),
}


@pytest.mark.parametrize(("os_family", "raw", "code"), rows(SEGMENT_RULES), ids=list(SEGMENT_RULES))
def test_parent_url_double_star_and_device_segments(os_family: str, raw: str, code: str) -> None:
    app = one_os(os_family, [ROOTED[os_family], raw])
    assert issues_of(app) == [(f"app.{os_family}.location[1]", code)]


# --- a lone path string is reported at app.<os>.location (no index) --------------------------

LONE_PATHS: dict[str, tuple[str, str, str]] = {
    "win32-not-rooted": ("win32", "vendor.exe", "path_not_rooted"),
    "win32-network": ("win32", r"\\server\share\vendor.exe", "path_network"),
    "darwin-windows-variable": ("darwin", "%HOME%/Vendor.app", "path_windows_variable"),
    "linux-blank": ("linux", "  ", "blank"),
    "linux-empty": ("linux", "", "blank"),
    "linux-parent": ("linux", "/opt/../vendor", "path_parent"),
    "linux-double-star": ("linux", "/opt/**", "path_double_star"),
}


@pytest.mark.parametrize(("os_family", "raw", "code"), rows(LONE_PATHS), ids=list(LONE_PATHS))
def test_lone_path_error_has_no_index(os_family: str, raw: str, code: str) -> None:
    assert issues_of(one_os(os_family, raw)) == [(f"app.{os_family}.location", code)]


def test_lone_path_is_a_list_of_one_stored_stripped() -> None:
    decl = parse(one_os("linux", "  /opt/vendor/bin/vendor  "))
    assert decl.app is not None
    assert decl.app.linux is not None
    assert len(decl.app.linux.locations) == 1
    location = decl.app.linux.locations[0]
    assert isinstance(location, PathLocation)
    assert location.path == "/opt/vendor/bin/vendor"


# --- liveness.path: the rules of a location path, without `*` --------------------------------

VALID_LIVENESS_PATHS: dict[str, tuple[str, str, str]] = {
    "win32-localappdata": ("win32", r"%LOCALAPPDATA%\Vendor\McpServer\server.json", ""),
    "win32-drive-slash": ("win32", "C:/ProgramData/Vendor/server.json", ""),
    "win32-tilde": ("win32", r"~\Vendor\server.json", ""),
    "darwin-tilde": ("darwin", "~/Library/Application Support/Vendor/server.json", ""),
    "linux-runtime-dir": ("linux", "$XDG_RUNTIME_DIR/vendor/server.json", ""),
    "linux-absolute": ("linux", "/run/vendor/server.json", ""),
    "linux-brace": ("linux", "${HOME}/.config/vendor/server.json", ""),
    "linux-stripped": ("linux", "  /run/vendor/server.json\n", "/run/vendor/server.json"),
}


@pytest.mark.parametrize(
    ("os_family", "raw", "stored"), rows(VALID_LIVENESS_PATHS), ids=list(VALID_LIVENESS_PATHS)
)
def test_valid_liveness_path(os_family: str, raw: str, stored: str) -> None:
    liveness = {"kind": "server_json", "path": raw}
    app_def = _app_def({os_family: os_block(os_family, liveness=liveness)}, os_family)
    assert app_def.liveness_kind == "server_json"
    assert app_def.liveness_path == (stored or raw)


INVALID_LIVENESS_PATHS: dict[str, tuple[str, str, str]] = {
    "win32-star": ("win32", r"%LOCALAPPDATA%\Vendor App *\server.json", "path_star"),
    "darwin-star": ("darwin", "~/Library/Vendor/*.json", "path_star"),
    "linux-star": ("linux", "/run/vendor-*/server.json", "path_star"),
    "win32-not-rooted": ("win32", r"Vendor\server.json", "path_not_rooted"),
    "linux-not-rooted": ("linux", "server.json", "path_not_rooted"),
    "linux-drive": ("linux", r"C:\Vendor\server.json", "path_not_rooted"),
    "linux-windows-variable": (
        "linux",
        "%LOCALAPPDATA%/Vendor/server.json",
        "path_windows_variable",
    ),
    "darwin-windows-variable": ("darwin", "%APPDATA%/server.json", "path_windows_variable"),
    "win32-network": ("win32", r"\\server\share\server.json", "path_network"),
    "linux-network": ("linux", "//host/run/server.json", "path_network"),
    "darwin-device": ("darwin", r"\\.\pipe\server.json", "path_network"),
    "win32-parent": ("win32", r"%LOCALAPPDATA%\..\server.json", "path_parent"),
    "linux-parent": ("linux", "/run/vendor/../server.json", "path_parent"),
    "linux-url": ("linux", "/run/http://host/server.json", "path_url"),
    "linux-empty": ("linux", "", "blank"),
    "win32-blank": ("win32", "   ", "blank"),
    "linux-nul": ("linux", "/run/ven\x00dor.json", "path_nul"),
    "win32-device": ("win32", r"%LOCALAPPDATA%\Vendor\CON.json", "path_device"),
}


@pytest.mark.parametrize(
    ("os_family", "raw", "code"), rows(INVALID_LIVENESS_PATHS), ids=list(INVALID_LIVENESS_PATHS)
)
def test_invalid_liveness_path(os_family: str, raw: str, code: str) -> None:
    liveness = {"kind": "server_json", "path": raw}
    app = {os_family: os_block(os_family, liveness=liveness)}
    assert issues_of(app) == [(f"app.{os_family}.liveness.path", code)]


# --- non-string paths ------------------------------------------------------------------------

NON_STRING_PATHS: dict[str, tuple[object, str]] = {
    "bytes-lone": (b"/opt/vendor", "app.linux.location"),
    "int-lone": (42, "app.linux.location"),
    "bool-lone": (True, "app.linux.location"),
    "bytes-item": (["/opt/vendor", b"/opt/vendor"], "app.linux.location[1]"),
    "int-item": (["/opt/vendor", 7], "app.linux.location[1]"),
    "float-item": ([1.5], "app.linux.location[0]"),
    "list-item": ([["/opt/vendor"]], "app.linux.location[0]"),
    "null-item": (["/opt/vendor", None], "app.linux.location[1]"),
}


@pytest.mark.parametrize(("raw", "loc"), rows(NON_STRING_PATHS), ids=list(NON_STRING_PATHS))
def test_non_string_location_is_wrong_type(raw: object, loc: str) -> None:
    assert issues_of(one_os("linux", raw)) == [(loc, "wrong_type")]
