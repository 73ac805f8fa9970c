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
        f"{DEVICE_RULE} (got 'C:\\\\Vendor\\\\nul.txt'; 'nul.txt' names the device NUL)",
    ),
    "a device segment of an install file": (
        rules.relative_file,
        "bin\\Con .txt",
        "path_device",
        f"{DEVICE_RULE} (got 'bin\\\\Con .txt'; 'Con .txt' names the device CON)",
    ),
    "a one-letter scheme at the start": (
        lambda raw: rules.location_path(raw, "linux"),
        "x://vendor",
        "path_url",
        "must be a file path, not a URL (got 'x://vendor')",
    ),
}


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
