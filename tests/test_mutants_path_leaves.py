"""What a Windows location path's fast pattern leaves to the explaining check, one case per
alternative of its colon rule: a ':' after a later character, first, after a character that is no
letter, twice, or a drive root followed by a second separator (``tests/MUTATION.md``)."""

from __future__ import annotations

import re

import pytest

from hermes_decl.models.path_rules import LOCATION_PATHS

WIN32 = LOCATION_PATHS["win32"].accept

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
    assert re.search(WIN32.pattern, value.strip()) is None


@pytest.mark.parametrize("value", KEPT.values(), ids=list(KEPT))
def test_a_drive_colon_is_the_fast_patterns_own(value: str) -> None:
    assert WIN32.may_leave(value) is False
