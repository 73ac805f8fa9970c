"""One evaluation, one budget: the locations of one OS block are capped at parse, every
evaluation's work (names listed, places checked, candidates) is bounded as a whole, and the
trace keeps its first places and counts the rest."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.errors import DeclarationError
from hermes_decl.hosts.protocol import Listing
from hermes_decl.loader import load_declarations_text
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.models.locations import MAX_LOCATIONS
from hermes_decl.overrides_text import parse_overrides
from hermes_decl.resolver.app import Candidate
from hermes_decl.resolver.availability import Availability, availability
from hermes_decl.resolver.budget import (
    MAX_CANDIDATES,
    MAX_NAMES_LISTED,
    MAX_TRACE,
)
from hermes_decl.testing import FakeHost


def _issues(error: pytest.ExceptionInfo[DeclarationError]) -> list[tuple[str, str, str]]:
    return [(issue.loc, issue.code, issue.message) for issue in error.value.issues]


def _many_patterns_text(count: int) -> str:
    """The declarations file of the report: one server whose block lists ``/x/*/y`` often."""
    places = "".join("        - /x/*/y\n" for _ in range(count))
    return (
        "studio:\n  app:\n    linux:\n      presence: executable\n      location:\n"
        f"{places}  requires:\n    app: true\n"
    )


def _overrides_text(count: int) -> bytes:
    places = "".join("    - /opt/x/bin/x\n" for _ in range(count))
    return f"studio:\n  linux:\n{places}".encode()


PARSE_CAPS: dict[str, tuple[Callable[[], object], list[tuple[str, str, str]]]] = {
    "the-report-s-33000-patterns": (
        lambda: load_declarations_text(_many_patterns_text(33_000), where="d.yaml"),
        [
            (
                "studio.app.linux.location",
                "too_many_locations",
                "must list at most 64 places (got 33,000)",
            )
        ],
    ),
    "one-place-past-the-cap": (
        lambda: load_declarations_text(_many_patterns_text(MAX_LOCATIONS + 1), where="d.yaml"),
        [
            (
                "studio.app.linux.location",
                "too_many_locations",
                "must list at most 64 places (got 65)",
            )
        ],
    ),
    "the-overrides-file": (
        lambda: parse_overrides(_overrides_text(MAX_LOCATIONS + 1), where="o.yaml"),
        [("studio.linux", "too_many_locations", "must list at most 64 places (got 65)")],
    ),
}


@pytest.mark.parametrize(("parse", "issues"), PARSE_CAPS.values(), ids=list(PARSE_CAPS))
def test_an_os_block_lists_at_most_the_capped_number_of_places(
    parse: Callable[[], object], issues: list[tuple[str, str, str]]
) -> None:
    with pytest.raises(DeclarationError) as caught:
        parse()
    assert _issues(caught) == issues


def test_a_block_at_the_cap_is_valid() -> None:
    declarations = load_declarations_text(_many_patterns_text(MAX_LOCATIONS), where="d.yaml")
    assert len(declarations["studio"].app_for("linux").locations) == MAX_LOCATIONS  # type: ignore[union-attr]


class ListingHost(FakeHost):
    """A FakeHost whose ``list_dir`` answers the listings given, however large."""

    def __init__(self, os_family: OsFamily, listings: dict[str, Listing]) -> None:
        super().__init__(os_family)
        self.listings = listings

    def list_dir(self, path: str) -> Listing:
        super().list_dir(path)
        return self.listings.get(path, Listing())


def _declaration(os_family: OsFamily, locations: Sequence[object]) -> Declaration:
    app = {os_family: {"presence": "executable", "location": locations}}
    return parse_declaration("studio", app, {"app": True}, where="test")


def _folders_host(count: int) -> FakeHost:
    host = FakeHost("linux")
    for number in range(count):
        host.add_dir(f"/x/d{number:03}")
    return host


def _patterns_over_many_folders() -> Availability:
    return availability(_declaration("linux", ["/x/*/y"] * MAX_LOCATIONS), host=_folders_host(300))


def _commands_with_many_extensions() -> Availability:
    pathext = ";".join(f".E{number}" for number in range(60))
    env = {
        "PATHEXT": pathext,
        "PATH": "C:\\Tools",
        "LOCALAPPDATA": "C:\\Users\\u\\AppData\\Local",
        "ProgramFiles": "C:\\Program Files",
    }
    host = FakeHost("win32", env=env, home="C:\\Users\\u")
    commands = [{"kind": "command", "name": f"tool{number}"} for number in range(MAX_LOCATIONS)]
    return availability(_declaration("win32", commands), host=host)


def _patterns_over_huge_folders() -> Availability:
    names = Listing(f"n{number:07}" for number in range(100_000))
    folders = Listing(f"d{number:02}" for number in range(20))
    host = ListingHost("linux", {"/a": folders, **{f"/a/{folder}": names for folder in folders}})
    host.add_executable("/opt/studio/bin/studio")
    locations = ["/a/*/x*", "/a/*/y*", "/opt/studio/bin/studio"]
    return availability(_declaration("linux", locations), host=host)


def _spent(what: str) -> str:
    return f"stopped at the evaluation's work budget ({what}); later places were not examined"


CUT = "no folder matched what was seen, but the search was cut short: "

BUDGETS: dict[str, tuple[Callable[[], Availability], int, int, Candidate]] = {
    "candidates": (
        _patterns_over_many_folders,
        MAX_TRACE + 16,
        MAX_CANDIDATES - MAX_TRACE - 15,
        Candidate(
            15, "path", None, "incomplete", _spent("the evaluation produced 4,096 candidates")
        ),
    ),
    "places-checked": (
        _commands_with_many_extensions,
        111,
        0,
        Candidate(13, "command", None, "incomplete", _spent("the evaluation checked 4,096 places")),
    ),
    "names-listed": (
        _patterns_over_huge_folders,
        3,
        0,
        Candidate(
            2, "path", None, "incomplete", _spent("the evaluation examined 1,000,000 listed names")
        ),
    ),
}


@pytest.mark.parametrize(
    ("evaluate", "traced", "untraced", "last"), BUDGETS.values(), ids=list(BUDGETS)
)
def test_one_budget_bounds_the_whole_evaluation_and_its_end_is_said(
    evaluate: Callable[[], Availability], traced: int, untraced: int, last: Candidate
) -> None:
    result = evaluate()
    assert (result.state, len(result.trace), result.untraced) == ("missing_app", traced, untraced)
    assert result.trace[-1] == last


def test_a_pattern_past_the_names_budget_says_so_in_its_own_candidate() -> None:
    trace = _patterns_over_huge_folders().trace
    assert [(c.path, c.outcome, c.detail) for c in trace[:2]] == [
        ("/a/*/x*", "incomplete", CUT + "stopped after examining 1000000 entries"),
        (
            "/a/*/y*",
            "incomplete",
            CUT + f"stopped: the evaluation examined {MAX_NAMES_LISTED:,} listed names",
        ),
    ]


def test_the_trace_keeps_its_first_places_and_every_bound_hit_and_counts_the_rest() -> None:
    result = availability(_declaration("linux", ["/x/*/y"] * 2), host=_folders_host(300))
    assert (len(result.trace), result.untraced) == (MAX_TRACE + 2, 256)
    assert [c.outcome for c in result.trace[MAX_TRACE:]] == ["incomplete", "incomplete"]
    assert [c.index for c in result.trace[MAX_TRACE:]] == [0, 1]


def test_an_evaluation_within_the_budget_is_whole() -> None:
    result = availability(_declaration("linux", ["/x/*/y"]), host=_folders_host(10))
    assert (len(result.trace), result.untraced) == (10, 0)
    assert [c.outcome for c in result.trace] == ["absent"] * 10
