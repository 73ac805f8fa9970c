"""Verdicts and sentences a mutation review found untested: the too-old copy named (SPEC 6), an
unknown OS, an OS too old, and the errors of misuse (SPEC 8)."""

from __future__ import annotations

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.default import use_host
from hermes_decl.models import Declaration, OsFamily
from hermes_decl.resolver.availability import (
    Availability,
    AvailabilityState,
    availability,
    availability_of_all,
)
from hermes_decl.resolver.budget import MAX_TRACE
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


APP_ON_LINUX = {"linux": {"presence": "executable", "location": "/opt/vendor/vendor"}}


def test_an_os_none_of_the_three_is_named_in_words() -> None:
    decl = parse_declaration("srv", APP_ON_LINUX, {"app": True}, where="t")
    result = availability(decl, host=FakeHost(None))
    assert (result.state, result.os_family) == (AvailabilityState.UNSUPPORTED_OS, None)
    assert result.sentence() == "srv is not available on this operating system."


OS_TOO_OLD = [
    ("linux", "Linux 9", "machine"),
    ("darwin", "macOS 9", "Mac"),
    ("win32", "Windows 9", "PC"),
    (None, "an operating system 9", "machine"),
]


@pytest.mark.parametrize(
    ("os_family", "floor", "machine"), OS_TOO_OLD, ids=[str(row[0]) for row in OS_TOO_OLD]
)
def test_an_os_too_old_names_the_machine_of_its_system(
    os_family: OsFamily | None, floor: str, machine: str
) -> None:
    verdict = Availability(
        AvailabilityState.UNSUPPORTED_OS_VERSION,
        name="srv",
        os_family=os_family,
        min_os_version="9",
        os_version="8",
    )
    assert verdict.sentence() == f"srv needs {floor} or newer; this {machine} runs 8."
    assert verdict.refusal() == f"srv is unavailable: unsupported_os_version, needs {floor}."


def test_an_offered_verdict_has_no_refusal_to_explain() -> None:
    with pytest.raises(ValueError, match=r"^refusal") as refused:
        Availability(AvailabilityState.AVAILABLE, name="srv").refusal()
    assert (
        str(refused.value)
        == "refusal() explains a refused verdict; srv is available, which is offered"
    )


def test_a_verdict_in_a_condition_says_what_to_read_instead() -> None:
    with pytest.raises(TypeError) as refused:
        bool(Availability(AvailabilityState.AVAILABLE))
    assert str(refused.value) == "an Availability has no truth value: read .offerable or .state"


def test_an_available_verdict_without_a_version_names_none() -> None:
    verdict = Availability(AvailabilityState.AVAILABLE, name="srv")
    assert verdict.sentence() == "srv is available."


def test_an_os_family_none_of_the_three_is_refused_with_the_choices() -> None:
    decl = parse_declaration("srv", APP_ON_LINUX, {"app": True}, where="t")
    with pytest.raises(ValueError, match=r"^os_family") as refused:
        availability(decl, host=FakeHost("linux"), os_family="beos")  # type: ignore[arg-type]
    assert str(refused.value) == "os_family must be one of win32, darwin, linux (got 'beos')"


def test_no_host_given_is_the_host_chosen_with_use_host() -> None:
    decl = parse_declaration("srv", APP_ON_LINUX, {"app": True}, where="t")
    with use_host(FakeHost("linux").add_executable("/opt/vendor/vendor")):
        result = availability(decl)
    assert (result.state, result.path, result.os_family) == (
        AvailabilityState.AVAILABLE,
        "/opt/vendor/vendor",
        "linux",
    )


def test_an_unreadable_copy_keeps_why_its_version_is_unknown() -> None:
    host = FakeHost("win32").add_file(PLACES[0], b"not a PE image")
    app = {
        "win32": {
            "presence": "executable",
            "location": PLACES[0],
            "version": {"kind": "pe_resource"},
        }
    }
    decl = parse_declaration("vendor", app, {"app": True, "min_version": "2.0"}, where="t")
    result = availability(decl, host=host)
    assert [(c.path, c.outcome, c.version, c.version_detail) for c in result.trace] == [
        (PLACES[0], "present", None, "it has no readable version resource")
    ]


def test_a_copy_without_a_version_or_a_place_is_named_without_one() -> None:
    verdict = Availability(AvailabilityState.VERSION_TOO_OLD, name="srv", min_version="2.0")
    assert verdict.sentence_parts() == (
        "srv is installed, but no version could be read from it; version 2.0 or newer is required.",
        "Check that it is srv 2.0 or newer, then try again.",
    )


def test_no_version_is_read_from_a_place_where_nothing_was_found() -> None:
    host = FakeHost("win32").add_pe(PLACES[1], "3.0")
    app = {
        "win32": {
            "presence": "executable",
            "location": list(PLACES[:2]),
            "version": {"kind": "pe_resource"},
        }
    }
    decl = parse_declaration("vendor", app, {"app": True, "min_version": "2.0"}, where="t")
    result = availability(decl, host=host)
    assert [(c.path, c.outcome, c.version, c.version_detail) for c in result.trace] == [
        (PLACES[0], "absent", None, None),
        (PLACES[1], "present", "3.0.0.0", None),
    ]


def test_the_trace_keeps_its_first_places_when_no_bound_is_hit() -> None:
    host = FakeHost("linux")
    for top in ("a", "b"):
        for number in range(200):
            host.add_dir(f"/{top}/d{number:03}")
    app = {"linux": {"presence": "executable", "location": ["/a/*/vendor", "/b/*/vendor"]}}
    decl = parse_declaration("vendor", app, {"app": True}, where="t")
    result = availability(decl, host=host)
    assert (result.state, len(result.trace), result.untraced) == (
        AvailabilityState.MISSING_APP,
        MAX_TRACE,
        400 - MAX_TRACE,
    )
    assert {c.outcome for c in result.trace} == {"absent"}


def _on_darwin() -> Declaration:
    app = {"darwin": {"presence": "executable", "location": ["/opt/vendor/vendor"]}}
    return parse_declaration("srv", app, {"app": True}, where="t")


def test_a_pass_evaluates_for_the_os_family_asked_not_the_hosts() -> None:
    decl = _on_darwin()
    host = FakeHost("linux").add_executable("/opt/vendor/vendor")
    (result,) = availability_of_all([decl], host=host, os_family="darwin")
    assert (result.state, result.path, result.os_family) == (
        AvailabilityState.AVAILABLE,
        "/opt/vendor/vendor",
        "darwin",
    )


def test_a_pass_with_no_host_given_asks_the_host_chosen_with_use_host() -> None:
    decl = _on_darwin()
    with use_host(FakeHost("darwin").add_executable("/opt/vendor/vendor")):
        (result,) = availability_of_all([decl])
    assert (result.state, result.path, result.os_family) == (
        AvailabilityState.AVAILABLE,
        "/opt/vendor/vendor",
        "darwin",
    )


def test_a_pass_asks_the_host_given_not_the_one_chosen_with_use_host() -> None:
    decl = _on_darwin()
    with use_host(FakeHost("linux")):
        (result,) = availability_of_all(
            [decl],
            host=FakeHost("darwin").add_executable("/opt/vendor/vendor"),
        )
    assert (result.state, result.path, result.os_family) == (
        AvailabilityState.AVAILABLE,
        "/opt/vendor/vendor",
        "darwin",
    )
