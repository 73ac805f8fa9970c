"""Per-copy versions from Windows uninstall entries (SPEC 6.4): each copy is credited on its own."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.models import Declaration
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.host import UninstallEntry
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.testing import FakeHost

VERSION = {"kind": "uninstall_registry", "display_name_prefix": "Vendor App"}
THROUGH_ENTRIES = {
    "kind": "uninstall_registry",
    "display_name_prefix": "Vendor App",
    "file": "v.exe",
}


def decl(location: Any, minimum: str | None = "2.3.0") -> Declaration:
    app = {"win32": {"presence": "executable", "location": location, "version": VERSION}}
    requires: dict[str, Any] = {"app": True}
    if minimum is not None:
        requires["min_version"] = minimum
    return parse_declaration("vendor", app, requires, where="test")


Entry = tuple[str, str | None, str | None]

CASES: list[tuple[str, Any, list[Entry], list[str], tuple[str, str | None, str | None]]] = [
    (
        "two-copies-found-through-their-entries",
        THROUGH_ENTRIES,
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", "C:\\New")],
        ["C:\\Old\\v.exe", "C:\\New\\v.exe"],
        ("available", "2.5", "C:\\New\\v.exe"),
    ),
    (
        "two-copies-by-path-held-by-their-entries",
        ["C:\\Old\\v.exe", "C:\\New\\v.exe"],
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", "C:\\New")],
        ["C:\\Old\\v.exe", "C:\\New\\v.exe"],
        ("available", "2.5", "C:\\New\\v.exe"),
    ),
    (
        "either-separator-any-case-trailing-separator-quotes",
        ["C:\\New\\bin\\v.exe"],
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", '"c:/NEW/"')],
        ["C:\\New\\bin\\v.exe"],
        ("available", "2.5", "C:\\New\\bin\\v.exe"),
    ),
    (
        "a-folder-does-not-hold-its-longer-sibling",
        ["C:\\Newer\\v.exe"],
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", "C:\\New")],
        ["C:\\Newer\\v.exe"],
        ("version_too_old", None, "C:\\Newer\\v.exe"),
    ),
    (
        "the-deepest-holding-folder-wins",
        ["C:\\Vendor\\Pro\\v.exe"],
        [("Vendor App", "1.0", "C:\\Vendor"), ("Vendor App Pro", "3.0", "C:\\Vendor\\Pro")],
        ["C:\\Vendor\\Pro\\v.exe"],
        ("available", "3.0", "C:\\Vendor\\Pro\\v.exe"),
    ),
    (
        "the-only-matching-entry-without-a-folder",
        ["C:\\Portable\\v.exe"],
        [("Vendor App 2.4", "2.4", None), ("Other", "9.0", "C:\\Portable")],
        ["C:\\Portable\\v.exe"],
        ("available", "2.4", "C:\\Portable\\v.exe"),
    ),
    (
        "several-matching-entries-none-holding-it",
        ["C:\\Portable\\v.exe"],
        [("Vendor App 2.4", "2.4", None), ("Vendor App 2.6", "2.6", "C:\\Else")],
        ["C:\\Portable\\v.exe"],
        ("version_too_old", None, "C:\\Portable\\v.exe"),
    ),
    (
        "no-matching-entry",
        ["C:\\Portable\\v.exe"],
        [("Other", "9.0", "C:\\Portable")],
        ["C:\\Portable\\v.exe"],
        ("version_too_old", None, "C:\\Portable\\v.exe"),
    ),
    (
        "equally-deep-entries-that-disagree",
        ["C:\\Vendor\\v.exe"],
        [("Vendor App", "2.5", "C:\\Vendor"), ("Vendor App x86", "2.1", "c:\\vendor")],
        ["C:\\Vendor\\v.exe"],
        ("version_too_old", None, "C:\\Vendor\\v.exe"),
    ),
    (
        "equally-deep-entries-that-agree",
        ["C:\\Vendor\\v.exe"],
        [("Vendor App", "2.5", "C:\\Vendor"), ("Vendor App (user)", "2.5", "C:\\Vendor")],
        ["C:\\Vendor\\v.exe"],
        ("available", "2.5", "C:\\Vendor\\v.exe"),
    ),
    (
        "the-entry-found-through-has-no-version",
        THROUGH_ENTRIES,
        [("Vendor App", None, "C:\\Vendor")],
        ["C:\\Vendor\\v.exe"],
        ("version_too_old", None, "C:\\Vendor\\v.exe"),
    ),
]


def fake_host(entries: list[Entry], files: list[str]) -> FakeHost:
    host = FakeHost("win32")
    for name, version, folder in entries:
        host.add_uninstall_entry(name, version, folder)
    for file in files:
        host.add_executable(file)
    return host


@pytest.mark.parametrize(
    ("location", "entries", "files", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_each_copy_gets_its_own_uninstall_version(
    location: Any, entries: list[Entry], files: list[str], expected: tuple[str, str, str]
) -> None:
    host = fake_host(entries, files)
    result = availability(decl(location), host=host)
    assert (result.state, result.version, result.path) == expected
    assert host.calls["uninstall_entries"] == 1  # read once per evaluation, not once per copy


DETAILS = [
    (
        "two-copies-found-through-their-entries",
        [
            ("2.1", "DisplayVersion of the uninstall entry 'Vendor App 2.1' it was found through"),
            ("2.5", "DisplayVersion of the uninstall entry 'Vendor App 2.5' it was found through"),
        ],
    ),
    (
        "two-copies-by-path-held-by-their-entries",
        [
            (
                "2.1",
                "DisplayVersion of the uninstall entry 'Vendor App 2.1' whose InstallLocation "
                "holds it",
            ),
            (
                "2.5",
                "DisplayVersion of the uninstall entry 'Vendor App 2.5' whose InstallLocation "
                "holds it",
            ),
        ],
    ),
    (
        "the-only-matching-entry-without-a-folder",
        [
            (
                "2.4",
                "DisplayVersion of the uninstall entry 'Vendor App 2.4' (the only one matching "
                "'Vendor App')",
            )
        ],
    ),
    (
        "several-matching-entries-none-holding-it",
        [
            (
                None,
                "2 uninstall entries match 'Vendor App' and none has an InstallLocation holding it",
            )
        ],
    ),
    ("no-matching-entry", [(None, "no uninstall entry's DisplayName starts with 'Vendor App'")]),
    (
        "equally-deep-entries-that-disagree",
        [
            (
                None,
                "uninstall entries 'Vendor App' and 'Vendor App x86' hold it, with different "
                "versions",
            )
        ],
    ),
    (
        "the-entry-found-through-has-no-version",
        [(None, "the uninstall entry 'Vendor App' it was found through has no DisplayVersion")],
    ),
]


@pytest.mark.parametrize(("case", "expected"), DETAILS, ids=[d[0] for d in DETAILS])
def test_the_trace_says_where_each_version_came_from(
    case: str, expected: list[tuple[str | None, str]]
) -> None:
    _, location, entries, files, _ = next(c for c in CASES if c[0] == case)
    result = availability(decl(location, minimum="99"), host=fake_host(entries, files))
    present = [c for c in result.trace if c.outcome == "present"]
    assert [(c.version, c.version_detail) for c in present] == expected


def test_the_trace_names_the_entry_a_copy_was_found_through() -> None:
    host = fake_host(
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", "C:\\New")],
        ["C:\\Old\\v.exe", "C:\\New\\v.exe"],
    )
    result = availability(decl(THROUGH_ENTRIES), host=host)
    assert [(c.path, c.via, c.entry) for c in result.trace] == [
        ("C:\\Old\\v.exe", "uninstall_entry", UninstallEntry("Vendor App 2.1", "2.1", "C:\\Old")),
        ("C:\\New\\v.exe", "uninstall_entry", UninstallEntry("Vendor App 2.5", "2.5", "C:\\New")),
    ]


def test_without_a_minimum_the_first_copy_keeps_its_own_version() -> None:
    host = fake_host(
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", "C:\\New")],
        ["C:\\Old\\v.exe", "C:\\New\\v.exe"],
    )
    result = availability(decl(["C:\\New\\v.exe", "C:\\Old\\v.exe"], minimum=None), host=host)
    assert (result.state, result.version, result.path) == ("available", "2.5", "C:\\New\\v.exe")


def test_two_copies_in_a_rooted_tree(tmp_path: Path) -> None:
    for folder in ("Old", "New"):
        (tmp_path / "C" / folder).mkdir(parents=True)
        (tmp_path / "C" / folder / "v.exe").write_bytes(b"MZ")
    host = RootedHost(
        tmp_path,
        "win32",
        uninstall_entries=[
            UninstallEntry("Vendor App 2.1", "2.1", "C:\\Old"),
            UninstallEntry("Vendor App 2.5", "2.5", "C:\\New"),
        ],
    )
    result = availability(decl(THROUGH_ENTRIES), host=host)
    assert (result.state, result.version, result.path) == ("available", "2.5", "C:\\New\\v.exe")
    too_new = availability(decl(THROUGH_ENTRIES, minimum="3"), host=host)
    assert (too_new.state, too_new.version, too_new.path) == (
        "version_too_old",
        "2.5",
        "C:\\New\\v.exe",
    )


# -- a host that read only part of the uninstall entries ----------------------------------------


def cut_host(entries: list[Entry], files: list[str], bound: int) -> FakeHost:
    host = FakeHost("win32", max_registry_entries=bound)
    for name, version, folder in entries:
        host.add_uninstall_entry(name, version, folder)
    for file in files:
        host.add_executable(file)
    return host


CUT_SEARCHES: list[tuple[str, list[Entry], str, list[str]]] = [
    (
        "the-match-is-past-the-bound",
        [("Other", "1.0", "C:\\Other"), ("Vendor App 2.5", "2.5", "C:\\New")],
        "missing_app",
        ["incomplete"],
    ),
    (
        "a-match-before-the-bound-is-too-old",
        [("Vendor App 2.1", "2.1", "C:\\Old"), ("Vendor App 2.5", "2.5", "C:\\New")],
        "version_too_old",
        ["present", "incomplete"],
    ),
]


@pytest.mark.parametrize(
    ("entries", "state", "outcomes"),
    [case[1:] for case in CUT_SEARCHES],
    ids=[case[0] for case in CUT_SEARCHES],
)
def test_a_cut_list_of_entries_is_said_in_the_trace(
    entries: list[Entry], state: str, outcomes: list[str]
) -> None:
    host = cut_host(entries, ["C:\\Old\\v.exe", "C:\\New\\v.exe"], bound=1)
    result = availability(decl(THROUGH_ENTRIES), host=host)
    assert result.state == state
    assert [c.outcome for c in result.trace] == outcomes
    last = result.trace[-1]
    assert (last.path, last.via, last.detail) == (
        None,
        "uninstall_entry",
        "the host read only 1 uninstall entries, stopping at a bound; an entry past them may "
        "match 'Vendor App'",
    )


def test_a_whole_list_of_entries_ends_without_an_incomplete_place() -> None:
    host = cut_host([("Vendor App 2.1", "2.1", "C:\\Old")], ["C:\\Old\\v.exe"], bound=1)
    result = availability(decl(THROUGH_ENTRIES), host=host)
    assert [c.outcome for c in result.trace] == ["present"]


def test_the_only_match_in_a_cut_list_is_not_credited_as_the_only_one() -> None:
    entries: list[Entry] = [("Vendor App 2.4", "2.4", None), ("Vendor App 2.1", "2.1", None)]
    host = cut_host(entries, ["C:\\Vendor\\v.exe"], bound=1)
    result = availability(decl(["C:\\Vendor\\v.exe"], minimum="2.3"), host=host)
    assert (result.state, result.version) == ("version_too_old", None)
    assert result.trace[0].version_detail == (
        "the uninstall entry 'Vendor App 2.4' matches 'Vendor App' without an InstallLocation "
        "holding it, and the host read only part of the entries, so it may not be the only one"
    )
