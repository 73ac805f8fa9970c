"""Hints of path refusals a mutation review found untested: the command-name bound, the
PowerShell variable's name and a bundle in a subfolder, with their exact words (SPEC 3.2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pydantic_core import PydanticCustomError

from hermes_decl.models import rules

LONGEST = "a" * 64
TOO_LONG = "a" * 65
NOT_ROOTED = "must start with /, ~ or $VAR"
POWERSHELL = "must not start with $env:NAME, which only PowerShell expands; use %NAME%"

HINTED: dict[str, tuple[Callable[[str], str], str, str, str]] = {
    "a command name at the longest hinted": (
        lambda raw: rules.location_path(raw, "linux"),
        LONGEST,
        "path_not_rooted",
        f"{NOT_ROOTED} (got '{LONGEST}'; to find a command on PATH use "
        f"{{kind: command, name: {LONGEST}}})",
    ),
    "a name one longer gets no command hint": (
        lambda raw: rules.location_path(raw, "linux"),
        TOO_LONG,
        "path_not_rooted",
        f"{NOT_ROOTED} (got '{TOO_LONG}')",
    ),
    "a command name of every character a name takes": (
        lambda raw: rules.location_path(raw, "linux"),
        "VendorX-2.0_x+y",
        "path_not_rooted",
        f"{NOT_ROOTED} (got 'VendorX-2.0_x+y'; to find a command on PATH use "
        "{kind: command, name: VendorX-2.0_x+y})",
    ),
    "a command name starting with a digit": (
        lambda raw: rules.location_path(raw, "linux"),
        "7zip",
        "path_not_rooted",
        f"{NOT_ROOTED} (got '7zip'; to find a command on PATH use {{kind: command, name: 7zip}})",
    ),
    "a PowerShell variable of every character a name takes": (
        lambda raw: rules.location_path(raw, "win32"),
        "$env:_Vendor(x86)_1\\vendor.exe",
        "path_powershell_variable",
        f"{POWERSHELL} (got '$env:_Vendor(x86)_1\\vendor.exe'; "
        "write '%_Vendor(x86)_1%\\vendor.exe')",
    ),
    "a bundle in a subfolder": (
        rules.bundle_name,
        "Vendor/Vendor.app",
        "bad_name",
        "must be a bare name without '/', '\\' or ':', and not '..' (got 'Vendor/Vendor.app'; "
        "a bundle in a subfolder needs a path location, such as '/Applications/Vendor/Vendor.app')",
    ),
}


@pytest.mark.parametrize("case", HINTED, ids=HINTED.keys())
def test_a_refusal_gives_the_hint_that_fits(case: str) -> None:
    check, raw, code, message = HINTED[case]
    with pytest.raises(PydanticCustomError) as refused:
        check(raw)
    assert (refused.value.type, refused.value.message()) == (code, message)
