"""Matching ``*`` segments against host listings (SPEC 6.2): order, budgets, and bounds said."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.resolver.app import Candidate
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.host import Listing
from hermes_decl.resolver.matching import (
    MAX_MATCHES,
    MAX_SCANNED_ENTRIES,
    StarPattern,
    read_pattern,
    search_pattern,
)
from hermes_decl.testing import FakeHost

STARS = [
    ("Vendor App *", "Vendor App 2.10", "2.10"),
    ("Vendor App *", "Vendor App ", ""),
    ("Vendor App *", "Vendor Ap", None),
    ("a*b*c", "axxbyyc", "xx"),
    ("a*b*c", "abbc", ""),
    ("a*a", "a", None),
    ("*", "anything", "anything"),
    ("*.app", "X.app", "X"),
    ("x*" + "*y" * 0 + "z", "x" + "q" * 10_000 + "z", "q" * 10_000),
]


@pytest.mark.parametrize(
    ("segment", "name", "expected"), STARS, ids=[f"{s}~{n[:12]}" for s, n, _ in STARS]
)
def test_star_text(segment: str, name: str, expected: str | None) -> None:
    assert StarPattern(segment, ignore_case=False).star_text(name) == expected


def test_star_text_ignores_case_on_windows_only() -> None:
    assert StarPattern("VENDOR *", ignore_case=True).star_text("vendor 2") == "2"
    assert StarPattern("VENDOR *", ignore_case=False).star_text("vendor 2") is None


def test_matches_are_newest_first_then_by_name_unreadable_last() -> None:
    host = FakeHost("linux")
    for name in [
        "Thing 2.9",
        "Thing 2.10",
        "Thing 10.0b",
        "Thing beta",
        "Thing alpha",
        "Thing 2.10.0",
        "Other 99",
    ]:
        host.add_executable(f"/opt/{name}/bin/thing")
    matches = search_pattern("/opt/Thing */bin/thing", "linux", host).paths
    assert matches == (
        "/opt/Thing 10.0b/bin/thing",
        "/opt/Thing 2.10/bin/thing",
        "/opt/Thing 2.10.0/bin/thing",
        "/opt/Thing 2.9/bin/thing",
        "/opt/Thing alpha/bin/thing",
        "/opt/Thing beta/bin/thing",
    )


def test_several_star_segments_and_the_match_budget() -> None:
    host = FakeHost("linux")
    for outer in range(20):
        for inner in range(20):
            host.add_executable(f"/opt/v{outer}/r{inner}/app")
    matches = search_pattern("/opt/v*/r*/app", "linux", host).paths
    assert len(matches) == MAX_MATCHES  # 400 would match: the first 256, newest folders first
    assert matches[0] == "/opt/v19/r19/app"
    assert matches[-1] == "/opt/v7/r0/app"
    assert host.calls["list_dir"] == 1 + 13  # listing stops once the second '*' has 256


def test_the_first_star_cannot_starve_the_second() -> None:
    host = FakeHost("linux")
    for number in range(MAX_MATCHES):
        host.add_dir(f"/o/d{number:03}")
    host.add_executable("/o/d100/bin/app-2.0")
    assert search_pattern("/o/*/bin/app*", "linux", host).paths == ("/o/d100/bin/app-2.0",)
    host.reset_calls()
    for number in range(300):
        host.add_dir(f"/p/e{number:03}/s1")
    assert len(search_pattern("/p/*/s*", "linux", host).paths) == MAX_MATCHES
    assert host.calls["list_dir"] == 1 + MAX_MATCHES


def test_equal_versions_are_ordered_by_name_whatever_order_the_host_lists() -> None:
    names = ("Thing v2.4", "Thing 2.4.0", "Thing 2.4", "Thing 3")
    host = ListingHost("linux", {"/opt": Listing(names)})
    matches = search_pattern("/opt/Thing *", "linux", host).paths
    assert matches == ("/opt/Thing 3", "/opt/Thing 2.4", "/opt/Thing 2.4.0", "/opt/Thing v2.4")


# --- every listed name is re-checked before it is joined ---------------------------------------


class ListingHost(FakeHost):
    """A FakeHost whose ``list_dir`` answers what the test gives, as a careless host might."""

    def __init__(self, os_family: OsFamily, listings: dict[str, Listing]) -> None:
        super().__init__(os_family)
        self.listings = listings

    def list_dir(self, path: str) -> Listing:
        super().list_dir(path)  # counted and logged like any call
        return self.listings.get(path, Listing())


def _declaration(os_family: OsFamily, location: str) -> Declaration:
    app = {os_family: {"presence": "executable", "location": location}}
    return parse_declaration("vendor", app, {"app": True}, where="test")


def _looked_at(host: FakeHost) -> list[object]:
    return [args[0] for method, args in host.call_log if method in ("is_file", "is_dir")]


HOSTILE_NAMES: dict[str, tuple[OsFamily, str, tuple[str, ...], str, int]] = {
    "posix-parents-separators-nul": (
        "linux",
        "/opt/*/bin/x",
        ("..", ".", "", "a/../../etc", "/etc", "x\0y", "vendor-2"),
        "/opt/vendor-2/bin/x",
        6,
    ),
    "posix-backslash-is-a-plain-name": ("linux", "/opt/*/x", ("v\\1",), "/opt/v\\1/x", 0),
    "windows-separators-drives-devices": (
        "win32",
        "C:\\Apps\\*\\v.exe",
        ("..", "..\\x", "a/b", "a\\b", "C:", "x:y", "CON", "nul.txt", "com1 .", "Vendor 2"),
        "C:\\Apps\\Vendor 2\\v.exe",
        9,
    ),
}


@pytest.mark.parametrize(
    ("os_family", "pattern", "names", "joined", "ignored"),
    HOSTILE_NAMES.values(),
    ids=list(HOSTILE_NAMES),
)
def test_every_listed_name_is_rechecked_before_it_is_joined(
    os_family: OsFamily, pattern: str, names: tuple[str, ...], joined: str, ignored: int
) -> None:
    folder = pattern.rsplit("*", 1)[0].rstrip("\\/")
    host = ListingHost(os_family, {folder: Listing(names)})
    result = availability(_declaration(os_family, pattern), host=host)
    assert result.state == "missing_app"
    assert _looked_at(host) == [joined]  # nothing else is ever touched
    assert (result.trace[0].path, result.trace[0].outcome) == (joined, "absent")
    if ignored:
        assert result.trace[-1].outcome == "incomplete"
        assert result.trace[-1].detail == (
            "matches were tried, but the search was cut short: "
            f"ignored {ignored} names listed in {folder} that are not plain names"
        )
    else:
        assert len(result.trace) == 1


# --- only matches are capped; every bound hit is said in the trace ------------------------------


def test_a_folder_past_the_old_listing_bound_is_searched_whole() -> None:
    host = FakeHost("linux")
    for number in range(5000):
        host.add_dir(f"/store/{number:05}-other")
    host.add_executable("/store/zz-vendor/bin/vendor")  # sorts last
    result = availability(_declaration("linux", "/store/*-vendor/bin/vendor"), host=host)
    assert (result.state, result.path) == ("available", "/store/zz-vendor/bin/vendor")


def _shared_listing(count: int) -> Listing:
    return Listing(f"n{number:07}" for number in range(count))


def _cut_listing_host() -> FakeHost:
    host = FakeHost("linux", max_dir_entries=100)
    for number in range(150):
        host.add_dir(f"/store/{number:03}-other")
    host.add_executable("/store/zz-vendor/bin/vendor")  # among the entries never listed
    return host


def _many_matches_host() -> FakeHost:
    host = FakeHost("linux")
    for number in range(300):
        host.add_dir(f"/store/v{number:03}")
    return host


def _huge_folders_host() -> FakeHost:
    names = _shared_listing(100_000)
    folders = Listing(f"d{number:02}" for number in range(20))
    return ListingHost("linux", {"/a": folders, **{f"/a/{folder}": names for folder in folders}})


BOUNDS: dict[str, tuple[Callable[[], FakeHost], str, int, str]] = {
    "host-cut-its-listing": (
        _cut_listing_host,
        "/store/*-vendor/bin/vendor",
        0,
        "no folder matched what was seen, but the search was cut short: "
        "the host listed only part of /store (100 entries)",
    ),
    "match-cap": (
        _many_matches_host,
        "/store/v*/bin/vendor",
        MAX_MATCHES,
        "matches were tried, but the search was cut short: stopped at 256 matches of 'v*'",
    ),
    "scan-budget": (
        _huge_folders_host,
        "/a/*/x*",
        0,
        "no folder matched what was seen, but the search was cut short: "
        f"stopped after examining {MAX_SCANNED_ENTRIES} entries",
    ),
}


@pytest.mark.parametrize(("make", "pattern", "tried", "detail"), BOUNDS.values(), ids=list(BOUNDS))
def test_a_bound_hit_is_said_in_the_trace_never_read_as_absent(
    make: Callable[[], FakeHost], pattern: str, tried: int, detail: str
) -> None:
    result = availability(_declaration("linux", pattern), host=make())
    assert result.state == "missing_app"
    assert [c.outcome for c in result.trace] == ["absent"] * tried + ["incomplete"]
    assert result.trace[-1] == Candidate(0, "path", pattern, "incomplete", detail)


def test_the_match_budget_is_said_by_the_search() -> None:
    host = FakeHost("linux")
    for outer in range(20):
        for inner in range(20):
            host.add_executable(f"/opt/v{outer}/r{inner}/app")
    search = search_pattern("/opt/v*/r*/app", "linux", host)
    assert search.cut_short == ("stopped at 256 matches of 'r*'",)
    whole = search_pattern("/opt/v1/r*/app", "linux", host)
    assert (len(whole.paths), whole.cut_short) == (20, ())


# --- cost: each segment is prepared once per evaluation, not once per entry --------------------


def test_each_star_segment_is_folded_and_split_once() -> None:
    segment = "Vendor *" + "x*" * 500 + "App"
    host = FakeHost("win32")
    for number in range(2000):
        host.add_dir(f"C:\\Apps\\Other {number}")
    work: Counter[str] = Counter()
    read_pattern.cache_clear()  # a pattern read by an earlier search is not prepared again

    def count(frame: object, event: str, arg: object) -> None:
        if event == "c_call" and getattr(arg, "__self__", None) in (segment, segment.lower()):
            work[getattr(arg, "__name__", "?")] += 1

    sys.setprofile(count)
    try:
        search = search_pattern(f"C:\\Apps\\{segment}", "win32", host)
    finally:
        sys.setprofile(None)
    assert search.paths == ()
    assert work == Counter({"lower": 1, "split": 1})
