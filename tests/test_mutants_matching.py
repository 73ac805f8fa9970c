"""``*`` matching and home expansion cases a mutation review found untested (SPEC 6.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.expand import Expansion, expand
from hermes_decl.resolver.matching import StarPattern, search_pattern
from hermes_decl.testing import FakeHost

STAR_TEXTS: list[tuple[str, str, str | None]] = [
    ("Vendor*App*", "Vendor 2 Tool", None),
    ("Vendor*App*", "Vendor 2 App 3", " 2 "),
    ("Vendor*App*", "VendorApp", ""),
    ("*Studio*", "Studio 2", ""),
    ("*Studio*", "My Studio 2", "My "),
    ("*Studio*", "Stud", None),
    ("a*b*b*c", "abc", None),
    ("a*b*b*c", "abbc", ""),
    ("a*b*b*c", "abxc", None),
    ("a*b*b*c", "axbybzc", "x"),
    ("a*b*b*c", "abcbc", ""),
    ("ab*ba", "aba", None),
    ("ab*ba", "abba", ""),
    ("*x", "x", ""),
    ("x*", "y", None),
    ("x*y", "xz", None),
]


@pytest.mark.parametrize(
    ("segment", "name", "expected"),
    STAR_TEXTS,
    ids=[f"{segment}~{name}" for segment, name, _ in STAR_TEXTS],
)
def test_star_text(segment: str, name: str, expected: str | None) -> None:
    assert StarPattern(segment, ignore_case=False).star_text(name) == expected


def test_a_middle_piece_that_is_absent_matches_no_folder() -> None:
    host = FakeHost("linux")
    for folder in ("Vendor 2 Tool", "Vendor 3 App", "Studio 2", "My Studio 1", "Stud"):
        host.add_executable(f"/opt/{folder}/bin/app")
    assert search_pattern("/opt/Vendor*App*/bin/app", "linux", host).paths == (
        "/opt/Vendor 3 App/bin/app",
    )
    assert search_pattern("/opt/*Studio*/bin/app", "linux", host).paths == (
        "/opt/My Studio 1/bin/app",
        "/opt/Studio 2/bin/app",
    )


HOMES: list[tuple[str, str, Expansion]] = [
    ("~/bin/app", "/home/*", Expansion(None, "the home directory of ~ holds a '*'")),
    ("~alice/bin/app", "/home/a*", Expansion(None, "the home directory of ~alice holds a '*'")),
    ("~/bin/app", "/home/u", Expansion("/home/u/bin/app")),
    ("~", "/home/*", Expansion(None, "the home directory of ~ holds a '*'")),
]


@pytest.mark.parametrize(
    ("template", "home", "expected"), HOMES, ids=[f"{t}={h}" for t, h, _ in HOMES]
)
def test_a_star_in_a_home_is_no_wildcard(template: str, home: str, expected: Expansion) -> None:
    host = FakeHost("linux", home=home, users={"alice": home})
    host.add_executable("/home/u/bin/app").add_executable("/home/x/bin/app")
    assert expand(template, "linux", host) == expected


def test_a_home_with_a_star_is_refused_before_anything_is_listed() -> None:
    declaration = parse_declaration(
        "vendor",
        {"linux": {"presence": "executable", "location": "~/bin/app"}},
        {"app": True},
        where="test",
    )
    host = FakeHost("linux", home="/home/*").add_executable("/home/u/bin/app")
    result = availability(declaration, host=host)
    assert (result.state, result.path) == ("missing_app", None)
    assert [(c.outcome, c.detail) for c in result.trace] == [
        ("refused", "the home directory of ~ holds a '*'")
    ]
    assert host.calls == Counter({"getenv": 2, "home": 2})
