"""Refusals of the path and name checks a mutation review found untested, with their exact words.

The rule tables assert codes; these cases pin the whole message a person reads, with the hint
naming the device, for the refusals whose wording nothing else shows (SPEC 3.2).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic_core import PydanticCustomError

from hermes_decl.models import OsFamily, path_rules, rules
from hermes_decl.models.text_rules import TextRules

DEVICE_RULE = rules.DEVICE_SEGMENT_MESSAGE

REFUSED: dict[str, tuple[Callable[[str], str], str, str, str]] = {
    "a Windows variable under Linux": (
        lambda raw: rules.location_path(raw, "linux"),
        "%HOME%/bin/vendor",
        "path_windows_variable",
        "%VAR% is a Windows form; under app.linux start with /, ~ or $VAR "
        "(got '%HOME%/bin/vendor')",
    ),
    "a Windows variable under macOS": (
        lambda raw: rules.location_path(raw, "darwin"),
        "%HOME%",
        "path_windows_variable",
        "%VAR% is a Windows form; under app.darwin start with /, ~ or $VAR (got '%HOME%')",
    ),
    "a device segment of a path": (
        lambda raw: rules.location_path(raw, "win32"),
        "C:\\Vendor\\nul.txt",
        "path_device",
        f"{DEVICE_RULE} (got 'C:\\Vendor\\nul.txt'; 'nul.txt' names the device NUL)",
    ),
    "a device segment of an install file": (
        rules.relative_file,
        "bin\\Con .txt",
        "path_device",
        f"{DEVICE_RULE} (got 'bin\\Con .txt'; 'Con .txt' names the device CON)",
    ),
    "a one-letter scheme at the start": (
        lambda raw: rules.location_path(raw, "linux"),
        "x://vendor",
        "path_url",
        "must be a file path, not a URL (got 'x://vendor')",
    ),
}


RULE_WORDS = {
    "blank": "must not be blank",
    "path_nul": "must not contain a NUL character",
    "path_network": (
        "must not start with two separators: UNC, device and network paths are not allowed"
    ),
    "path_parent": "must not contain a '..' segment",
    "path_double_star": "must not contain '**'; '*' matches text within one folder",
    "path_star": "must not contain '*'",
    "windows_not_rooted": "must start at a drive root (C:\\ or C:/), or with ~, %VAR% or $VAR",
    "posix_not_rooted": "must start with /, ~ or $VAR",
    "bad_name": "must be a bare name without '/', '\\' or ':', and not '..'",
    "bad_file": (
        "must be a relative path inside the install folder: no leading separator, no ':', "
        "no empty or '..' segment"
    ),
    "bad_key_name": "must be a simple key name of letters, digits, '_', '.' or '-'",
    "bad_endpoint_path": (
        "must be a plain absolute path such as '/mcp': letters, digits and . _ ~ / - only, "
        "no '..' segment, query, fragment or leading '//'"
    ),
}


def posix_path(raw: str) -> str:
    return rules.location_path(raw, "linux")


def windows_path(raw: str) -> str:
    return rules.location_path(raw, "win32")


def runtime_file(raw: str) -> str:
    return rules.location_path(raw, "linux", allow_star=False)


# (check, value, code, the rule's words, the value as the message shows it)
WORDED: dict[str, tuple[Callable[[str], str], str, str, str, str]] = {
    "a blank path": (posix_path, "  ", "blank", "blank", "'  '"),
    "a NUL in a path": (posix_path, "/opt/a\x00b", "path_nul", "path_nul", "'/opt/a\\x00b'"),
    "a network path": (
        windows_path,
        "\\\\server\\share",
        "path_network",
        "path_network",
        "'\\\\server\\share'",
    ),
    "a parent segment": (posix_path, "/opt/../etc", "path_parent", "path_parent", "'/opt/../etc'"),
    "a double star": (
        posix_path,
        "/opt/**/x",
        "path_double_star",
        "path_double_star",
        "'/opt/**/x'",
    ),
    "a star in a runtime file": (runtime_file, "/opt/*/x", "path_star", "path_star", "'/opt/*/x'"),
    "a Windows segment of two dots and a space": (
        windows_path,
        "C:\\Vendor\\.. \\vendor.exe",
        "path_parent",
        "path_parent",
        "'C:\\Vendor\\.. \\vendor.exe'",
    ),
    "an unrooted Windows path": (
        windows_path,
        "Vendor\\x.exe",
        "path_not_rooted",
        "windows_not_rooted",
        "'Vendor\\x.exe'",
    ),
    "an unrooted POSIX path": (
        posix_path,
        "opt/x",
        "path_not_rooted",
        "posix_not_rooted",
        "'opt/x'",
    ),
    "a blank name": (rules.bare_name, " ", "blank", "blank", "' '"),
    "a name with a separator": (
        rules.bare_name,
        "bin/vendor",
        "bad_name",
        "bad_name",
        "'bin/vendor'",
    ),
    "a name of two dots": (rules.bare_name, " .. ", "bad_name", "bad_name", "' .. '"),
    "a blank install file": (rules.relative_file, "  ", "blank", "blank", "'  '"),
    "an install file under a segment of two dots and a space": (
        rules.relative_file,
        "bin\\.. \\vendor.exe",
        "bad_file",
        "bad_file",
        "'bin\\.. \\vendor.exe'",
    ),
    "a rooted install file": (
        rules.relative_file,
        "\\bin\\vendor.exe",
        "bad_file",
        "bad_file",
        "'\\bin\\vendor.exe'",
    ),
    "blank free text": (rules.non_blank, "\t", "blank", "blank", "'\\t'"),
    "a key with a space": (rules.key_name, "the key", "bad_key_name", "bad_key_name", "'the key'"),
    "an endpoint with a query": (
        rules.endpoint_path,
        "/mcp?x=1",
        "bad_endpoint_path",
        "bad_endpoint_path",
        "'/mcp?x=1'",
    ),
}


@pytest.mark.parametrize("case", list(WORDED))
def test_each_check_says_its_rule_and_the_value_found(case: str) -> None:
    check, raw, code, words, shown = WORDED[case]
    with pytest.raises(PydanticCustomError) as refused:
        check(raw)
    assert (refused.value.type, refused.value.message()) == (
        code,
        f"{RULE_WORDS[words]} (got {shown})",
    )


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_refusal_says_its_rule_and_what_was_found(case: str) -> None:
    check, raw, code, message = REFUSED[case]
    with pytest.raises(PydanticCustomError) as refused:
        check(raw)
    assert (refused.value.type, refused.value.message()) == (code, message)


NOT_LEFT: list[tuple[TextRules, str]] = [
    (path_rules.LOCATION_PATHS["win32"], "C:\\Vendor\\vendor.exe"),
    (path_rules.LOCATION_PATHS["win32"], "d:/tools/vendor.exe"),
    (path_rules.LOCATION_PATHS["win32"], "C:\\Vendor App\\vendor.exe"),
    (path_rules.LOCATION_PATHS["win32"], "%ProgramFiles%\\Vendor"),
    (path_rules.RUNTIME_FILES["win32"], "C:\\Vendor\\run.json"),
    (path_rules.LOCATION_PATHS["linux"], "/opt/vendor/bin/vendor"),
    (path_rules.LOCATION_PATHS["darwin"], "~/Applications/Vendor.app"),
]


@pytest.mark.parametrize(("rule", "value"), NOT_LEFT, ids=[value for _, value in NOT_LEFT])
def test_a_plain_path_is_not_left_to_the_check(rule: TextRules, value: str) -> None:
    assert not rule.accept.may_leave(value)
    assert rule.check(value) == value.strip()


@pytest.mark.parametrize(
    ("text", "two"),
    [
        ("\\\\server\\share", True),
        ("//server", True),
        ("/\\x", True),
        ("/x//y", False),
        ("", False),
    ],
)
def test_a_path_starts_with_two_separators_only_at_its_start(text: str, two: bool) -> None:
    assert rules.starts_with_two_separators(text) is two


NETWORK_ROOT_ANSWERS: dict[str, tuple[str, str, str | None]] = {
    "under /net": ("/net/evil.example/app", "linux", "/net"),
    "/net alone": ("/net", "linux", "/net"),
    "/net and a separator": ("/net/", "linux", "/net"),
    "dot and empty segments": ("/.//./net//evil/app", "linux", "/net"),
    "another case on linux": ("/Net/app", "linux", None),
    "upper case on linux": ("/NET/x", "linux", None),
    "a longer name": ("/netx/app", "linux", None),
    "a shorter name": ("/ne", "linux", None),
    "deeper down": ("/opt/net/app", "linux", None),
    "second segment": ("/x/net", "linux", None),
    "not absolute": ("net/app", "linux", None),
    "the root": ("/", "linux", None),
    "the root's dot": ("/.", "linux", None),
    "nothing": ("", "linux", None),
    "a look-alike letter": ("/n\u0435t/x", "linux", None),
    "macOS's second root on linux": ("/Network/Servers", "linux", None),
    "no roots on windows": ("/net/x", "win32", None),
    "any case on macOS": ("/NET/a", "darwin", "/net"),
    "the servers root": ("/Network/Servers/x", "darwin", "/Network/Servers"),
    "the servers root in other cases": ("/network/SERVERS/x", "darwin", "/Network/Servers"),
    "a long s": ("/Network/\u017fervers/x", "darwin", "/Network/Servers"),
    "a dot between its segments": ("/Network/./Servers", "darwin", "/Network/Servers"),
    "an empty segment between them": ("/Network//Servers", "darwin", "/Network/Servers"),
    "half of it": ("/Network", "darwin", None),
    "another folder between": ("/Network/x/Servers", "darwin", None),
    "a longer first segment": ("/Networks/Servers/x", "darwin", None),
    "a shorter second segment": ("/Network/Server/x", "darwin", None),
}


@pytest.mark.parametrize(
    ("text", "os_family", "root"), NETWORK_ROOT_ANSWERS.values(), ids=list(NETWORK_ROOT_ANSWERS)
)
def test_network_root_names_the_root_a_path_lies_under(
    text: str, os_family: OsFamily, root: str | None
) -> None:
    assert rules.network_root(text, os_family) == root


@pytest.mark.parametrize(
    ("os_family", "roots"), [("linux", "/net"), ("darwin", "/net or /Network/Servers")]
)
def test_a_location_under_a_network_root_is_refused_in_these_words(
    os_family: OsFamily, roots: str
) -> None:
    with pytest.raises(PydanticCustomError) as refused:
        rules.location_path(" /net/evil.example/app ", os_family)
    assert (refused.value.type, refused.value.message()) == (
        "path_network_root",
        f"must not be under {roots}, where the automounter mounts the host the next folder "
        "names: looking there would contact that host; name a local folder "
        "(got '/net/evil.example/app')",
    )


WORDS = {
    **RULE_WORDS,
    "control_character": "must not contain control characters such as a tab or a line break",
    "bundle_not_app": "must be a bundle folder name ending in '.app'",
}

# (check, value, code, the whole message a person reads, hint included)
NAMES_AND_FILES: list[tuple[str, str, str, str]] = [
    (
        "bundle_name",
        "Xcode/Vendor.app",
        "bad_name",
        WORDS["bad_name"] + " (got 'Xcode/Vendor.app'; "
        "a bundle in a subfolder needs a path location, such as '/Applications/Xcode/Vendor.app')",
    ),
    (
        "bare_name",
        "/opt/bin/TeX",
        "bad_name",
        WORDS["bad_name"] + " (got '/opt/bin/TeX'; "
        "write the name alone, 'TeX', or give the whole path as a path location)",
    ),
    ("bare_name", "ven\x00dor", "bad_name", WORDS["bad_name"] + " (got 'ven\\x00dor')"),
    ("relative_file", "bin\x00x", "bad_file", WORDS["bad_file"] + " (got 'bin\\x00x')"),
    (
        "relative_file",
        "C:\\vendor.exe",
        "bad_file",
        WORDS["bad_file"] + " (got 'C:\\vendor.exe'; "
        "write the path from the install folder, such as 'vendor.exe')",
    ),
    (
        "bundle_name",
        "/Applications/Vendor.app",
        "bad_name",
        WORDS["bad_name"] + " (got '/Applications/Vendor.app'; "
        "a bundle given by its path needs a path location: "
        "write location: '/Applications/Vendor.app')",
    ),
    (
        "bundle_name",
        "~/Applications/Vendor.app",
        "bad_name",
        WORDS["bad_name"] + " (got '~/Applications/Vendor.app'; "
        "a bundle given by its path needs a path location: "
        "write location: '~/Applications/Vendor.app')",
    ),
    (
        "bundle_name",
        "Tools/Vendor.app",
        "bad_name",
        WORDS["bad_name"] + " (got 'Tools/Vendor.app'; "
        "a bundle in a subfolder needs a path location, such as '/Applications/Tools/Vendor.app')",
    ),
    (
        "bundle_name",
        "\\Tools\\Vendor.app",
        "bad_name",
        WORDS["bad_name"] + " (got '\\Tools\\Vendor.app'; "
        "a bundle in a subfolder needs a path location, such as '/Applications/Tools\\Vendor.app')",
    ),
    (
        "bundle_name",
        " Tools/Vendor.app",
        "bad_name",
        WORDS["bad_name"] + " (got ' Tools/Vendor.app'; "
        "a bundle in a subfolder needs a path location, such as '/Applications/ Tools/Vendor.app')",
    ),
    (
        "bundle_name",
        "Vendor",
        "bundle_not_app",
        WORDS["bundle_not_app"] + " (got 'Vendor'; write 'Vendor.app')",
    ),
    (
        "bundle_name",
        "Tools/a\x00.app",
        "bad_name",
        WORDS["bad_name"] + " (got 'Tools/a\\x00.app')",
    ),
    (
        "bare_name",
        "/usr/bin/code",
        "bad_name",
        WORDS["bad_name"] + " (got '/usr/bin/code'; "
        "write the name alone, 'code', or give the whole path as a path location)",
    ),
    (
        "bare_name",
        "/usr/bin/",
        "bad_name",
        WORDS["bad_name"] + " (got '/usr/bin/'; "
        "write the name alone, 'bin', or give the whole path as a path location)",
    ),
    (
        "bare_name",
        "/opt/..",
        "bad_name",
        WORDS["bad_name"] + " (got '/opt/..')",
    ),
    (
        "bare_name",
        "C:code",
        "bad_name",
        WORDS["bad_name"] + " (got 'C:code')",
    ),
    (
        "bare_name",
        "/\x00/code",
        "bad_name",
        WORDS["bad_name"] + " (got '/\\x00/code')",
    ),
    (
        "bare_name",
        "ve\tndor",
        "control_character",
        WORDS["control_character"] + " (got 've\\tndor')",
    ),
    (
        "bare_name",
        " .. ",
        "bad_name",
        WORDS["bad_name"] + " (got ' .. ')",
    ),
    (
        "bare_name",
        "/",
        "bad_name",
        WORDS["bad_name"] + " (got '/')",
    ),
    (
        "bare_name",
        "\\bin\\code",
        "bad_name",
        WORDS["bad_name"] + " (got '\\bin\\code')",
    ),
    (
        "entry_prefix",
        "Vendor\u200b",
        "control_character",
        WORDS["control_character"] + " (got 'Vendor\\u200b')",
    ),
    (
        "entry_prefix",
        "Vendor/x",
        "bad_name",
        WORDS["bad_name"] + " (got 'Vendor/x')",
    ),
    ("entry_prefix", " ", "blank", "must not be blank (got ' ')"),
    ("plain_name", " ", "blank", "must not be blank (got ' ')"),
    (
        "plain_name",
        "Ven\u202edor",
        "control_character",
        WORDS["control_character"] + " (got 'Ven\\u202edor')",
    ),
    (
        "plain_name",
        "Ven\tdor",
        "control_character",
        WORDS["control_character"] + " (got 'Ven\\tdor')",
    ),
    ("relative_file", " ", "blank", "must not be blank (got ' ')"),
    (
        "relative_file",
        "bin//x",
        "bad_file",
        WORDS["bad_file"] + " (got 'bin//x')",
    ),
    (
        "relative_file",
        "/bin/x",
        "bad_file",
        WORDS["bad_file"] + " (got '/bin/x')",
    ),
    (
        "relative_file",
        "C:\\Program Files\\Vendor\\vendor.exe",
        "bad_file",
        WORDS["bad_file"] + " (got 'C:\\Program Files\\Vendor\\vendor.exe'; "
        "write the path from the install folder, such as 'vendor.exe')",
    ),
    (
        "relative_file",
        "C:",
        "bad_file",
        WORDS["bad_file"] + " (got 'C:')",
    ),
    (
        "relative_file",
        "C:\\Vendor\\",
        "bad_file",
        WORDS["bad_file"] + " (got 'C:\\Vendor\\')",
    ),
    (
        "relative_file",
        "C:\\Vendor\\..",
        "bad_file",
        WORDS["bad_file"] + " (got 'C:\\Vendor\\..')",
    ),
    (
        "relative_file",
        "C:\\bin\x00\\x",
        "bad_file",
        WORDS["bad_file"] + " (got 'C:\\bin\\x00\\x')",
    ),
    (
        "relative_file",
        "bin\tx",
        "control_character",
        WORDS["control_character"] + " (got 'bin\\tx')",
    ),
    (
        "relative_file",
        "bin/nul",
        "path_device",
        f"{DEVICE_RULE} (got 'bin/nul'; 'nul' names the device NUL)",
    ),
    (
        "relative_file",
        "vendor:stream",
        "bad_file",
        WORDS["bad_file"] + " (got 'vendor:stream')",
    ),
    (
        "relative_file",
        "bin/../x",
        "bad_file",
        WORDS["bad_file"] + " (got 'bin/../x')",
    ),
]


@pytest.mark.parametrize(("check", "raw", "code", "message"), NAMES_AND_FILES)
def test_a_refused_name_or_file_is_told_in_these_words(
    check: str, raw: str, code: str, message: str
) -> None:
    with pytest.raises(PydanticCustomError) as refused:
        getattr(rules, check)(raw)
    assert (refused.value.type, refused.value.message()) == (code, message)
