"""One pass over many declarations: shared answers, the same verdicts as one at a time."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.rooted import RootedHost
from hermes_decl.models import Declaration
from hermes_decl.resolver.availability import Availability, availability, availability_of_all
from hermes_decl.resolver.matching import MAX_MATCHES
from hermes_decl.testing import FakeHost


def _decl(name: str, *locations: object, os_family: str = "linux") -> Declaration:
    app = {os_family: {"presence": "executable", "location": list(locations)}}
    return parse_declaration(name, app, {"app": True}, where="test")


def _one_at_a_time(decls: list[Declaration], host: object) -> tuple[Availability, ...]:
    return tuple(availability(decl, host=host) for decl in decls)  # type: ignore[arg-type]


MIXED = [
    _decl("paths", "/opt/vendor/bin/tool", "$HOME/.local/vendor/tool"),
    _decl("command", {"kind": "command", "name": "tool"}),
    _decl("missing-command", {"kind": "command", "name": "absent"}),
    _decl("suite", "/opt/suite-*/app/bin/run", "/opt/app/run"),
    _decl("suite-again", "/opt/suite-*/other/bin/run"),
    _decl("flatpak", {"kind": "flatpak", "app_id": "org.example.Tool"}),
    _decl("unset", "$UNSET_VARIABLE/tool"),
    _decl("nested", "/opt/*/bin/*"),
]


def _fake() -> FakeHost:
    host = FakeHost("linux", env={"HOME": "/home/u", "PATH": "/usr/bin"}, home="/home/u")
    host.add_executable("/home/u/.local/vendor/tool")
    host.add_executable("/home/u/.local/bin/tool")
    host.add_executable("/opt/suite-1.2/app/bin/run")
    host.add_executable("/opt/suite-2.0/other/bin/run")
    host.add_dir("/opt/suite-2.10")
    host.add_executable("/var/lib/flatpak/exports/bin/org.example.Tool")
    return host


def test_a_pass_gives_each_declaration_the_verdict_and_trace_it_gets_alone_on_a_fake_host() -> None:
    host = _fake()
    together = availability_of_all(MIXED, host=host)
    assert together == _one_at_a_time(MIXED, host)
    assert [verdict.state for verdict in together] == [
        "available",
        "available",
        "missing_app",
        "available",
        "available",
        "available",
        "missing_app",
        "missing_app",
    ]
    assert together[3].path == "/opt/suite-1.2/app/bin/run"
    assert [candidate.path for candidate in together[3].trace] == [
        "/opt/suite-2.10/app/bin/run",
        "/opt/suite-2.0/app/bin/run",
        "/opt/suite-1.2/app/bin/run",
    ]


def test_a_pass_gives_the_same_verdicts_on_a_rooted_host(tmp_path: Path) -> None:
    for path in ("home/u/.local/vendor/tool", "usr/bin/tool", "opt/suite-2.0/other/bin/run"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(b"#!/bin/sh\n")
    (tmp_path / "opt/suite-1.2/app/bin").mkdir(parents=True)
    host = RootedHost(tmp_path, "linux", env={"HOME": "/home/u", "PATH": "/usr/bin"})
    together = availability_of_all(MIXED, host=host)
    assert together == _one_at_a_time(MIXED, host)
    assert [verdict.path for verdict in together[:2]] == [
        "/home/u/.local/vendor/tool",
        "/usr/bin/tool",
    ]
    assert together[3].state == "missing_app"
    assert together[4].path == "/opt/suite-2.0/other/bin/run"


def test_a_folder_is_listed_once_per_pass_whatever_number_of_declarations_look_there() -> None:
    host = _fake()
    decls = [_decl(f"suite-{n}", f"/opt/suite-*/app{n}/bin/run") for n in range(5)]
    host.reset_calls()
    availability_of_all(decls, host=host)
    assert [args for method, args in host.call_log if method == "list_dir"] == [("/opt",)]
    host.reset_calls()
    _one_at_a_time(decls, host)
    assert [args for method, args in host.call_log if method == "list_dir"] == [("/opt",)] * 5


def test_a_pass_looks_for_the_overrides_file_and_each_place_once() -> None:
    host = _fake()
    places = ("/opt/vendor/bin/tool", {"kind": "command", "name": "tool"})
    decls = [_decl(f"same-{number}", *places) for number in range(3)]
    host.reset_calls()
    availability_of_all(decls, host=host)
    assert host.calls["read_file"] == 1
    assert host.calls["which"] == 1
    checked = [args for method, args in host.call_log if method == "is_file"]
    assert len(checked) == len(set(checked))
    host.reset_calls()
    _one_at_a_time(decls, host)
    assert host.calls["read_file"] == 3
    assert host.calls["which"] == 3


def test_the_next_pass_sees_the_host_as_it_is_then() -> None:
    host = _fake()
    decls = [_decl("late", "/opt/suite-*/late/bin/run"), _decl("tool", "/opt/late/tool")]
    assert [v.state for v in availability_of_all(decls, host=host)] == ["missing_app"] * 2
    host.add_executable("/opt/suite-3.0/late/bin/run")
    host.add_executable("/opt/late/tool")
    after = availability_of_all(decls, host=host)
    assert [verdict.path for verdict in after] == ["/opt/suite-3.0/late/bin/run", "/opt/late/tool"]


def test_a_pattern_past_the_match_bound_is_cut_as_when_alone() -> None:
    host = FakeHost("linux")
    for number in range(MAX_MATCHES + 20):
        host.add_dir(f"/many/v{number}")
    decls = [_decl("bound", "/many/v*/app"), _decl("bound-again", "/many/*/app")]
    together = availability_of_all(decls, host=host)
    assert together == _one_at_a_time(decls, host)
    assert [verdict.state for verdict in together] == ["missing_app"] * 2
    assert together[0].trace[-1].outcome == "incomplete"
    assert together[0].trace[-1].detail == (
        "matches were tried, but the search was cut short: stopped at 256 matches of 'v*'"
    )


def test_a_listing_the_host_cut_short_is_said_in_each_declaration_of_a_pass() -> None:
    host = FakeHost("linux", max_dir_entries=3)
    for name in ("a1", "a2", "a3", "a4"):
        host.add_dir(f"/cut/{name}")
    decls = [_decl("first", "/cut/a*/x"), _decl("second", "/cut/a*/y")]
    together = availability_of_all(decls, host=host)
    assert together == _one_at_a_time(decls, host)
    assert [verdict.trace[-1].detail for verdict in together] == [
        "matches were tried, but the search was cut short: "
        "the host listed only part of /cut (3 entries)"
    ] * 2


def test_an_invalid_overrides_file_is_reported_once_and_ignored_by_every_declaration(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from hermes_decl.resolver.overrides import clear_overrides_cache

    clear_overrides_cache()
    host = _fake()
    host.add_file("/home/u/.config/hermes-decl/overrides.yaml", b"paths: [unclosed\n")
    with caplog.at_level(logging.WARNING, logger="hermes_decl"):
        together = availability_of_all(MIXED, host=host)
    assert together == _one_at_a_time(MIXED, host)
    assert len([r for r in caplog.records if "overrides file" in r.getMessage()]) == 1


def test_a_pass_refuses_an_os_family_that_is_none_of_the_three() -> None:
    with pytest.raises(ValueError, match=r"os_family must be one of win32, darwin, linux"):
        availability_of_all(MIXED, host=_fake(), os_family="beos")  # type: ignore[arg-type]


_NAMES = ("a", "b", "v1.2", "v2.0", "v10")
_FILES = st.lists(
    st.tuples(st.sampled_from(("/opt", "/usr/bin", "/home/u/.local/bin")), st.sampled_from(_NAMES))
    .map(lambda parts: f"{parts[0]}/{parts[1]}")
    .flatmap(lambda folder: st.sampled_from((folder, f"{folder}/{_NAMES[0]}", f"{folder}/bin/b"))),
    max_size=12,
)
_LOCATIONS = st.one_of(
    st.sampled_from(
        (
            "/opt/*/a",
            "/opt/v*/bin/b",
            "/opt/*",
            "$HOME/.local/bin/a",
            "/usr/bin/v*/a",
            "/opt/*/*/b",
        )
    ),
    st.sampled_from(_NAMES).map(lambda name: {"kind": "command", "name": name}),
)
_DECLS = st.lists(st.lists(_LOCATIONS, min_size=1, max_size=3), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=_FILES, plans=_DECLS)
def test_any_pass_agrees_with_each_declaration_alone(
    files: list[str], plans: list[list[object]]
) -> None:
    host = FakeHost("linux", env={"HOME": "/home/u", "PATH": "/usr/bin"}, home="/home/u")
    for path in files:
        with contextlib.suppress(ValueError):  # a file where another path needs a folder
            host.add_executable(path)
    decls = [_decl(f"d{index}", *plan) for index, plan in enumerate(plans)]
    assert availability_of_all(decls, host=host) == _one_at_a_time(decls, host)


def test_a_match_under_the_automounter_root_is_refused_in_each_declaration_of_a_pass() -> None:
    host = FakeHost("linux")
    host.add_dir("/net/server")
    host.add_dir("/nut")
    decls = [_decl("first", "/n*t/app"), _decl("second", "/n*t/app")]
    together = availability_of_all(decls, host=host)
    assert together == _one_at_a_time(decls, host)
    refused = "/net is under /net, where the automounter would contact a host"
    assert [[(c.path, c.outcome, c.detail) for c in verdict.trace] for verdict in together] == [
        [("/nut/app", "absent", None), (None, "refused", refused)]
    ] * 2
