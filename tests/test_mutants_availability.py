"""Which too-old copy a verdict names, a case a mutation review found untested (SPEC 6)."""

from __future__ import annotations

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.testing import FakeHost

PLACES = ("C:\\A\\vendor.exe", "C:\\B\\vendor.exe", "C:\\C\\vendor.exe")

TOO_OLD: list[tuple[tuple[str | None, ...], str, str | None]] = [
    (("1.0", "1.5"), PLACES[1], "1.5.0.0"),
    (("1.5", "1.0"), PLACES[0], "1.5.0.0"),
    (("1.5", "1.5"), PLACES[0], "1.5.0.0"),
    (("1.0", "1.5", "1.5"), PLACES[1], "1.5.0.0"),
    (("1.0", None), PLACES[0], "1.0.0.0"),
    ((None, "1.0"), PLACES[1], "1.0.0.0"),
    ((None, None), PLACES[0], None),
    (("1.2", None, "1.1"), PLACES[0], "1.2.0.0"),
]


@pytest.mark.parametrize(
    ("versions", "named", "version"),
    TOO_OLD,
    ids=["-".join(v or "unreadable" for v in versions) for versions, _, _ in TOO_OLD],
)
def test_the_verdict_names_the_highest_readable_copy_first_found(
    versions: tuple[str | None, ...], named: str, version: str | None
) -> None:
    places = PLACES[: len(versions)]
    host = FakeHost("win32")
    for place, found in zip(places, versions, strict=True):
        if found is None:
            host.add_file(place, b"not a PE image")
        else:
            host.add_pe(place, found)
    app = {
        "win32": {
            "presence": "executable",
            "location": list(places),
            "version": {"kind": "pe_resource"},
        }
    }
    declaration = parse_declaration(
        "vendor", app, {"app": True, "min_version": "2.0"}, where="test"
    )
    result = availability(declaration, host=host)
    assert (result.state, result.path, result.version) == ("version_too_old", named, version)
    assert [(c.path, c.outcome, c.version) for c in result.trace] == [
        (place, "present", None if found is None else f"{found}.0.0")
        for place, found in zip(places, versions, strict=True)
    ]
