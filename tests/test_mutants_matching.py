"""``*`` matching and home expansion cases a mutation review found untested (SPEC 6.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import OsFamily
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.budget import MAX_NAMES_LISTED, WorkBudget
from hermes_decl.resolver.evaluation_pass import EvaluationPass
from hermes_decl.resolver.expand import Expansion, expand, join
from hermes_decl.resolver.host import Listing
from hermes_decl.resolver.matching import (
    MAX_MATCHES,
    MAX_SCANNED_ENTRIES,
    StarPattern,
    search_pattern,
)
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
    ("a*b*cb", "axcb", None),
    ("a*b*cb", "axbcb", "x"),
]


@pytest.mark.parametrize(
    ("segment", "name", "expected"),
    STAR_TEXTS,
    ids=[f"{segment}~{name}" for segment, name, _ in STAR_TEXTS],
)
def test_star_text(segment: str, name: str, expected: str | None) -> None:
    assert StarPattern(segment, ignore_case=False).star_text(name) == expected


FOLDED_STAR_TEXTS: list[tuple[str, str, str | None]] = [
    ("vendor *", "VENDOR 2", "2"),
    ("A*B*", "aİb", "İ"),
    ("İ*", "İx", "x"),
    ("İ*", "i̇x", None),
]


@pytest.mark.parametrize(
    ("segment", "name", "expected"),
    FOLDED_STAR_TEXTS,
    ids=[f"{segment}~{name}" for segment, name, _ in FOLDED_STAR_TEXTS],
)
def test_star_text_ignoring_case(segment: str, name: str, expected: str | None) -> None:
    """Names are folded like the segment, except where folding would change their length."""
    assert StarPattern(segment, ignore_case=True).star_text(name) == expected


def test_a_windows_search_is_written_with_backslashes() -> None:
    host = FakeHost("win32").add_executable("C:\\Program Files\\Vendor App 2\\vendor.exe")
    search = search_pattern("C:/Program Files/Vendor App */vendor.exe", "win32", host)
    assert search.paths == ("C:\\Program Files\\Vendor App 2\\vendor.exe",)


def test_the_match_cap_is_said_only_when_names_were_left() -> None:
    host = FakeHost("linux")
    for number in range(MAX_MATCHES):
        host.add_dir(f"/store/v{number:03}")
    assert search_pattern("/store/v*", "linux", host).cut_short == ()
    host.add_dir("/store/zz")
    assert search_pattern("/store/v*", "linux", host).cut_short == (
        f"stopped at {MAX_MATCHES} matches of 'v*'",
    )


def test_a_windows_match_at_the_end_is_written_with_backslashes() -> None:
    host = FakeHost("win32").add_dir("C:\\Vendor\\App 2")
    assert search_pattern("C:/Vendor/App *", "win32", host).paths == ("C:\\Vendor\\App 2",)


class ListingHost(FakeHost):
    """A FakeHost whose ``list_dir`` answers the listings the test gives."""

    def __init__(self, listings: dict[str, Listing], os_family: OsFamily = "linux") -> None:
        super().__init__(os_family)
        self.listings = listings

    def list_dir(self, path: str) -> Listing:
        super().list_dir(path)
        return self.listings.get(path, Listing())


FOLDERS = 10
PER_FOLDER = 100_000


@pytest.mark.parametrize(
    ("extra", "cut_short"),
    [(0, ()), (1, (f"stopped after examining {MAX_SCANNED_ENTRIES} entries",))],
    ids=["exactly the budget", "one past the budget"],
)
def test_the_scan_budget_at_its_edge(extra: int, cut_short: tuple[str, ...]) -> None:
    """The folder names count too: 10 of them, then 10 folders holding the rest of the budget."""
    assert FOLDERS * PER_FOLDER == MAX_SCANNED_ENTRIES
    full = Listing(f"n{number:06}" for number in range(PER_FOLDER))
    folders = Listing(f"d{number}" for number in range(FOLDERS))
    listings = {"/a": folders, **{f"/a/{folder}": full for folder in folders}}
    listings["/a/d9"] = Listing(list(full)[: PER_FOLDER - FOLDERS + extra])
    host = ListingHost(listings)
    for shared in (None, EvaluationPass(host)):
        assert search_pattern("/a/*/x*", "linux", host, shared=shared).cut_short == cut_short


def test_a_spent_budget_lists_no_further_folder() -> None:
    """11 folder names, then 10 folders spending the rest: the eleventh is never listed."""
    full = Listing(f"n{number:06}" for number in range(PER_FOLDER))
    folders = Listing(f"d{number:02}" for number in range(FOLDERS + 1))
    listings = {"/a": folders, **{f"/a/{folder}": full for folder in folders}}
    listings["/a/d00"] = Listing(list(full)[: PER_FOLDER - FOLDERS - 1])
    host = ListingHost(listings)
    search = search_pattern("/a/*/x*", "linux", host)
    assert search.cut_short == (f"stopped after examining {MAX_SCANNED_ENTRIES} entries",)
    assert host.calls["list_dir"] == 1 + FOLDERS


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


def test_a_windows_join_writes_every_separator_as_a_backslash() -> None:
    assert join("win32", "C:/Program Files", "Vendor", "app.exe") == (
        "C:\\Program Files\\Vendor\\app.exe"
    )
    assert join("linux", "/opt/", "vendor", "app") == "/opt/vendor/app"


def test_a_windows_drive_root_is_listed_and_named_with_a_backslash() -> None:
    host = ListingHost({"C:\\": Listing(["Vendor 2"], truncated=True)}, "win32")
    search = search_pattern("C:/Vendor *", "win32", host)
    assert search.paths == ("C:\\Vendor 2",)
    assert search.cut_short == ("the host listed only part of C:\\ (1 entries)",)


@pytest.mark.parametrize(
    ("left", "paths", "cut_short"),
    [
        (3, ("/a/x2",), ()),
        (2, (), (f"stopped: the evaluation examined {MAX_NAMES_LISTED:,} listed names",)),
    ],
    ids=["the folder fits what is left", "the folder is one name past what is left"],
)
def test_a_pass_scans_a_folder_whole_only_within_the_evaluation_budget(
    left: int, paths: tuple[str, ...], cut_short: tuple[str, ...]
) -> None:
    """A pattern's own bound is far, the evaluation's near: alone or in a pass, it stops there."""
    host = ListingHost({"/a": Listing(["n0", "n1", "x2"])})
    for shared in (None, EvaluationPass(host)):
        budget = WorkBudget()
        budget.names_listed = MAX_NAMES_LISTED - left
        search = search_pattern("/a/x*", "linux", host, budget, shared=shared)
        assert (search.paths, search.cut_short) == (paths, cut_short)
        assert budget.names_listed == MAX_NAMES_LISTED


def test_a_pass_says_a_folder_stopped_at_the_match_bound_as_a_search_alone_does() -> None:
    """Exactly ``MAX_MATCHES`` matches and a name after them: the search stopped before it."""
    names = [f"v{number:03}" for number in range(MAX_MATCHES)]
    host = ListingHost({"/a": Listing([*names, "zz"])})
    for shared in (None, EvaluationPass(host)):
        search = search_pattern("/a/v*", "linux", host, shared=shared)
        assert search.paths == tuple(f"/a/{name}" for name in sorted(names, reverse=True))
        assert search.cut_short == ("stopped at 256 matches of 'v*'",)


def test_a_pass_lists_a_windows_folder_by_windows_rules() -> None:
    """A name Windows cannot join is left out of a pass's listing, as of a search alone."""
    host = ListingHost({"C:\\": Listing(["Vendor:1", "Vendor 2"])}, "win32")
    for shared in (None, EvaluationPass(host)):
        search = search_pattern("C:/Vendor*", "win32", host, shared=shared)
        assert search.paths == ("C:\\Vendor 2",)
        assert search.cut_short == ("ignored 1 names listed in C:\\ that are not plain names",)


CONTACT = "where the automounter would contact a host"


def test_each_star_segment_keeps_the_refusals_of_the_ones_before() -> None:
    """On macOS ``/*`` reaches ``/net`` and ``S*`` then ``/Network/Servers``: both are told."""
    host = FakeHost("darwin").add_dir("/net/host").add_dir("/Network/Servers/box")
    host.add_dir("/Network/Sandbox").add_dir("/Users/Shared")
    for shared in (None, EvaluationPass(host)):
        host.call_log.clear()
        search = search_pattern("/*/S*", "darwin", host, shared=shared)
        assert search.paths == ("/Network/Sandbox", "/Users/Shared")
        assert search.refused == (
            f"/net is under /net, {CONTACT}",
            f"/Network/Servers is under /Network/Servers, {CONTACT}",
        )
        assert host.call_log == [("list_dir", (folder,)) for folder in ("/", "/Network", "/Users")]


def test_the_literal_segments_before_a_star_are_joined_in_the_windows_form() -> None:
    """Two plain segments, then a ``*``: the folder listed is ``C:\\Vendor\\Tools``, as named."""
    host = ListingHost({"C:\\Vendor\\Tools": Listing(["App 2", "App 10", "Other"])}, "win32")
    for shared in (None, EvaluationPass(host)):
        host.call_log.clear()
        search = search_pattern("C:/Vendor/Tools/App */bin/app.exe", "win32", host, shared=shared)
        assert search.paths == (
            "C:\\Vendor\\Tools\\App 10\\bin\\app.exe",
            "C:\\Vendor\\Tools\\App 2\\bin\\app.exe",
        )
        assert host.call_log == [("list_dir", ("C:\\Vendor\\Tools",))]


def test_a_star_whose_every_match_is_an_automounter_root_reaches_nothing_below() -> None:
    """``/n*t`` matches only ``/net``: nothing under it is looked at, and the refusal is told."""
    host = FakeHost("linux").add_executable("/net/host/app")
    for shared in (None, EvaluationPass(host)):
        host.call_log.clear()
        search = search_pattern("/n*t/host/app", "linux", host, shared=shared)
        assert search.paths == ()
        assert search.refused == (f"/net is under /net, {CONTACT}",)
        assert host.call_log == [("list_dir", ("/",))]
