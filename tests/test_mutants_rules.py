"""Refusals of the path and name checks a mutation review found untested, with their exact words.

The rule tables assert codes; these cases pin the whole message a person reads, with the hint
naming the device, for the refusals whose wording nothing else shows (SPEC 3.2).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic_core import PydanticCustomError

from hermes_decl.models import path_rules, rules
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
    (path_rules.LOCATION_PATHS["win32"], " C:\\Vendor"),
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
