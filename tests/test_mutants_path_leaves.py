"""What a path's fast pattern leaves to the explaining check (``tests/MUTATION.md``): for a Windows
location, one case per alternative of its colon rule (a ':' after a later character, first, after
a character that is no letter, twice, or a drive root followed by a second separator); for a POSIX
location, a first segment that is '.' or starts like a network root; for any location, whitespace
where a segment may end (the pattern matches a path as written; the check strips it); for a file
inside an install folder, a segment of whitespace only. A value is stripped before the fast form
sees it where the case is about something else than its whitespace."""

from __future__ import annotations

import re

import pytest
from pydantic_core import SchemaValidator, ValidationError

from hermes_decl.models import OsFamily
from hermes_decl.models.path_rules import LOCATION_PATHS, RELATIVE_FILE
from hermes_decl.models.text_rules import Accept

WIN32 = LOCATION_PATHS["win32"].accept


def _fast_keeps(accept: Accept, value: str) -> str | None:
    """What pydantic-core's fast form keeps of ``value`` (its ``$`` is the end of the text, where
    Python's also matches before a last line break), or None."""
    try:
        kept: str = SchemaValidator(accept.core_schema()).validate_python(value)
    except ValidationError:
        return None
    return kept


def _left_to_the_check(os_family: OsFamily, value: str, *, fast_sees: str) -> None:
    """``value`` is one the location rule's fast form may leave, refuses as ``fast_sees``, and
    whose check keeps it stripped."""
    accept = LOCATION_PATHS[os_family].accept
    assert accept.may_leave(value) is True
    assert _fast_keeps(accept, fast_sees) is None
    assert LOCATION_PATHS[os_family].check(value) == value.strip()


LEFT = {
    "two-colons": "C:\\ab:c",
    "two-colons-space-between": "C:\\a b:c",
    "colon-first": ":x",
    "colon-first-after-space": " :x",
    "colon-after-two-characters": "ab:c",
    "colon-after-x-and-one-more": "Xa:c",
    "colon-after-a-non-letter": "~:",
    "colon-after-a-non-letter-then-text": "~:Vendor",
    "drive-then-two-backslashes": "C:\\\\x",
    "lower-drive-then-two-backslashes": "c:\\\\x",
    "drive-then-two-slashes": "C://x",
    "drive-then-slash-backslash": "C:/\\x",
}
KEPT = {
    "drive-path": "C:\\Vendor\\app.exe",
    "lower-drive-path": "c:/Vendor/app.exe",
    "drive-x-path": "X:\\Vendor\\app.exe",
    "variable-path": "%ProgramFiles%\\Vendor\\app.exe",
    "no-colon": "Vendor\\app.exe",
}


@pytest.mark.parametrize("value", LEFT.values(), ids=list(LEFT))
def test_a_colon_the_fast_pattern_does_not_judge_is_left_to_the_check(value: str) -> None:
    assert WIN32.may_leave(value) is True
    assert _fast_keeps(WIN32, value.strip()) is None


@pytest.mark.parametrize("value", KEPT.values(), ids=list(KEPT))
def test_a_drive_colon_is_the_fast_patterns_own(value: str) -> None:
    assert WIN32.may_leave(value) is False


# A POSIX path whose first segment is '.' (which the OS skips) or starts like a network root
# ('/net', and on macOS '/Network' in any case) is left to the check, which knows the roots.
POSIX_LEFT = {
    "linux-dot-first": ("linux", "/./opt/vendor"),
    "linux-dot-first-after-space": ("linux", " /./opt"),
    "linux-n-first": ("linux", "/nvendor/app"),
    "darwin-dot-first": ("darwin", "/./opt/vendor"),
    "darwin-upper-n-first": ("darwin", "/Nvendor/app"),
    "darwin-n-first": ("darwin", "/nvendor/app"),
}
POSIX_KEPT = {
    "linux-upper-n-first": ("linux", "/Nvendor/app"),
    "linux-x-first": ("linux", "/Xvendor/app"),
    "linux-plain": ("linux", "/opt/vendor"),
    "darwin-x-first": ("darwin", "/Xvendor/app"),
    "darwin-plain": ("darwin", "/opt/vendor"),
}


@pytest.mark.parametrize(("os_family", "value"), POSIX_LEFT.values(), ids=list(POSIX_LEFT))
def test_a_first_segment_like_a_network_root_is_left_to_the_check(
    os_family: OsFamily, value: str
) -> None:
    _left_to_the_check(os_family, value, fast_sees=value.strip())


@pytest.mark.parametrize(("os_family", "value"), POSIX_KEPT.values(), ids=list(POSIX_KEPT))
def test_any_other_first_segment_is_the_fast_patterns_own(os_family: OsFamily, value: str) -> None:
    accept = LOCATION_PATHS[os_family].accept
    assert accept.may_leave(value) is False
    assert re.search(accept.pattern, value) is not None


# A file inside an install folder may hold a segment of whitespace only, which the fast pattern
# refuses and leaves to the check: first, last, or between two separators of either kind.
FILE_LEFT = {
    "slashes-around": "bin/ /vendor.exe",
    "backslashes-around": "bin\\ \\vendor.exe",
    "slash-then-backslash": "bin/ \\vendor.exe",
    "backslash-then-slash": "bin\\ /vendor.exe",
    "first-then-slash": " /vendor.exe",
    "first-then-backslash": " \\vendor.exe",
    "slash-then-last": "bin/ ",
    "backslash-then-last": "bin\\ ",
}
FILE_KEPT = {
    "slash": "bin/vendor.exe",
    "backslash": "bin\\vendor.exe",
    "spaces-inside-a-segment": "bin / x",
}


@pytest.mark.parametrize("value", FILE_LEFT.values(), ids=list(FILE_LEFT))
def test_a_segment_of_whitespace_only_is_left_to_the_check(value: str) -> None:
    accept = RELATIVE_FILE.accept
    assert accept.may_leave(value) is True
    assert re.search(accept.pattern, value) is None
    assert RELATIVE_FILE.check(value) == value


@pytest.mark.parametrize("value", FILE_KEPT.values(), ids=list(FILE_KEPT))
def test_a_file_without_a_blank_segment_is_the_fast_patterns_own(value: str) -> None:
    assert RELATIVE_FILE.accept.may_leave(value) is False
    assert re.search(RELATIVE_FILE.accept.pattern, value) is not None


# A path's fast pattern matches it as written, so that its length bound is the rule's: a path
# with surrounding whitespace, a segment that starts or ends with whitespace, or whitespace where
# a segment's head may stop (after its leading dots, or on Windows after a start of a device
# name) is left to the check, which strips the path and keeps it.
SPACED_LEFT = {
    "linux-trailing-space": ("linux", "/opt/vendor/app "),
    "linux-leading-space": ("linux", " /opt/vendor/app"),
    "linux-leading-ideographic-space": ("linux", "\u3000/opt/app"),
    "linux-trailing-line-break": ("linux", "/opt/app\n"),
    "linux-segment-ending-in-a-space": ("linux", "/opt/vendor /app"),
    "linux-segment-starting-with-a-space": ("linux", "/opt/ vendor/app"),
    "linux-dot-then-space": ("linux", "/opt/. x/app"),
    "linux-dots-then-no-break-space": ("linux", "/opt/..\u00a0x/app"),
    "darwin-trailing-no-break-space": ("darwin", "/Applications/Vendor.app\u00a0"),
    "win32-trailing-space": ("win32", "C:\\Vendor\\vendor.exe "),
    "win32-device-start-then-space": ("win32", "C:\\A B\\vendor.exe"),
    "win32-device-start-then-space-lower": ("win32", "C:\\co op\\vendor.exe"),
    "win32-segment-ending-in-a-space": ("win32", "%APPDATA%\\Vendor \\vendor.exe"),
    "win32-dots-then-no-break-space": ("win32", "C:\\...\u00a0x\\vendor.exe"),
}
SPACED_KEPT = {
    "linux-space-inside": ("linux", "/opt/Vendor App/bin/app"),
    "darwin-space-inside": ("darwin", "/Applications/Vendor App.app"),
    "win32-program-files": ("win32", "C:\\Program Files\\Vendor App\\vendor.exe"),
    "win32-pattern-after-a-space": ("win32", "%ProgramFiles%/Vendor/Vendor App */vendor.exe"),
    "win32-device-name-then-space": ("win32", "C:\\AUX Tools\\vendor.exe"),
    "win32-device-start-then-letters": ("win32", "C:\\Common Files\\vendor.exe"),
}


@pytest.mark.parametrize(("os_family", "value"), SPACED_LEFT.values(), ids=list(SPACED_LEFT))
def test_whitespace_where_a_segment_may_end_is_left_to_the_check(
    os_family: OsFamily, value: str
) -> None:
    _left_to_the_check(os_family, value, fast_sees=value)


@pytest.mark.parametrize(("os_family", "value"), SPACED_KEPT.values(), ids=list(SPACED_KEPT))
def test_whitespace_inside_a_segment_is_the_fast_patterns_own(
    os_family: OsFamily, value: str
) -> None:
    assert _fast_keeps(LOCATION_PATHS[os_family].accept, value) == value
    assert LOCATION_PATHS[os_family].check(value) == value
