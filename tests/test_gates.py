"""The two gates: the MCP check_fn and the skill ``requires_apps`` filter (SPEC 9)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from hermes_decl import declaration
from hermes_decl.gates import make_check_fn, skill_matches_apps
from hermes_decl.testing import FakeHost

APP = {"linux": {"presence": "executable", "location": "/opt/vendor/vendor"}}


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    yield
    declaration.clear()


def register(name: str, requires: dict[str, Any] | None = None) -> None:
    declaration.register(name, declaration.parse_declaration(name, APP, requires, where="t"))


def test_unregistered_server_keeps_the_connection_only_check() -> None:
    host = FakeHost("linux")
    assert make_check_fn("srv", lambda: True, host=host)() is True
    assert make_check_fn("srv", lambda: False, host=host)() is False
    assert sum(host.calls.values()) == 0


def test_registered_server_needs_connection_and_offerable() -> None:
    present = FakeHost("linux").add_executable("/opt/vendor/vendor")
    absent = FakeHost("linux")
    register("srv", {"app": True})
    assert make_check_fn("srv", lambda: True, host=present)() is True
    assert make_check_fn("srv", lambda: True, host=absent)() is False
    assert make_check_fn("srv", lambda: False, host=present)() is False
    # one evaluation (one presence check); the disconnected call evaluated nothing
    assert present.calls["is_file"] == 1


def test_check_fn_reads_the_registry_on_each_call() -> None:
    host = FakeHost("linux")
    check = make_check_fn("srv", lambda: True, host=host)
    assert check() is True
    register("srv", {"app": True})
    assert check() is False
    declaration.unregister("srv")
    assert check() is True


def test_exceptions_count_as_not_offerable() -> None:
    def broken_connection() -> bool:
        raise ConnectionError("gone")

    register("srv", {"app": True})
    assert make_check_fn("srv", broken_connection, host=FakeHost())() is False

    class BrokenHost(FakeHost):
        def is_file(self, path: str) -> bool:
            raise RuntimeError("disk on fire")

    assert make_check_fn("srv", lambda: True, host=BrokenHost("linux"))() is False


def test_check_fn_returns_a_plain_bool() -> None:
    register("srv")
    result = make_check_fn("srv", lambda: 1, host=FakeHost())()
    assert result is True


@pytest.mark.parametrize(
    ("frontmatter", "expected"),
    [
        ({}, True),
        ({"requires_apps": None}, True),
        ({"requires_apps": "present"}, True),
        ({"requires_apps": ["present"]}, True),
        ({"requires_apps": ["present", "no-requirements"]}, True),
        ({"requires_apps": ["present", "absent"]}, False),
        ({"requires_apps": "absent"}, False),
        ({"requires_apps": ["unknown"]}, False),
        ({"requires_apps": "unknown"}, False),
        ({"requires_apps": [1]}, False),
        ({"requires_apps": {"present": True}}, False),
        ({"requires_apps": []}, True),
    ],
    ids=lambda value: repr(value),
)
def test_skill_matches_apps(frontmatter: dict[str, Any], expected: bool) -> None:
    host = FakeHost("linux").add_executable("/opt/vendor/vendor")
    declaration.register(
        "present", declaration.parse_declaration("present", APP, {"app": True}, where="t")
    )
    declaration.register(
        "absent",
        declaration.parse_declaration(
            "absent",
            {"linux": {"presence": "executable", "location": "/nope"}},
            {"app": True},
            where="t",
        ),
    )
    declaration.register(
        "no-requirements", declaration.parse_declaration("no-requirements", None, None, where="t")
    )
    assert skill_matches_apps(frontmatter, host=host) is expected


@pytest.mark.parametrize("frontmatter", [None, ["my-server"], "requires_apps: x"], ids=repr)
def test_frontmatter_that_is_not_a_mapping_hides_the_skill(frontmatter: Any) -> None:
    assert skill_matches_apps(frontmatter) is False
