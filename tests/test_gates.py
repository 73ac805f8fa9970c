"""The two gates: the MCP check_fn and the skill ``requires_apps`` filter (SPEC 9)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from hermes_decl import declaration
from hermes_decl.gates import make_check_fn, refresh, skill_matches_apps
from hermes_decl.testing import FakeHost

APP = {"linux": {"presence": "executable", "location": "/opt/vendor/vendor"}}


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    refresh()
    yield
    declaration.clear()
    refresh()


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


class SwitchableHost(FakeHost):
    """A Linux host whose one executable can appear and disappear."""

    def __init__(self) -> None:
        super().__init__("linux")
        self.installed = True

    def is_file(self, path: str) -> bool:
        super().is_file(path)
        return self.installed and path == "/opt/vendor/vendor"


def test_a_cached_gate_reuses_the_verdict_but_asks_the_connection_every_time() -> None:
    host = SwitchableHost()
    register("srv", {"app": True})
    answers = iter([True, False, True])
    asked: list[bool] = []

    def connection() -> bool:
        asked.append(answer := next(answers))
        return answer

    check = make_check_fn("srv", connection, host=host, max_age=3600)
    assert [check(), check(), check()] == [True, False, True]
    assert len(asked) == 3
    assert host.calls["is_file"] == 1  # evaluated once, on the first connected call


def test_a_cached_gate_goes_stale_at_no_registry_change_nor_refresh() -> None:
    host = SwitchableHost()
    register("srv", {"app": True})
    check = make_check_fn("srv", lambda: True, host=host, max_age=3600)
    assert check() is True
    host.installed = False
    assert check() is True  # within max_age the verdict is reused
    refresh("srv")
    assert check() is False
    host.installed = True
    register("srv", {"app": True})  # any change of the name drops its verdict at once
    assert check() is True
    host.installed = False
    refresh("other")  # another name's refresh keeps this one
    assert check() is True
    refresh()
    assert check() is False
    host.installed = True
    declaration.clear()
    assert check() is True  # unregistered: the connection-only check
    register("srv", {"app": True})
    assert check() is True
    assert host.calls["is_file"] == 5


def test_a_cached_verdict_lives_at_most_max_age() -> None:
    host = SwitchableHost()
    register("srv", {"app": True})
    check = make_check_fn("srv", lambda: True, host=host, max_age=0.01)
    assert check() is True
    host.installed = False
    time.sleep(0.05)
    assert check() is False


def test_an_uncached_gate_evaluates_on_every_call() -> None:
    host = SwitchableHost()
    register("srv", {"app": True})
    check = make_check_fn("srv", lambda: True, host=host)
    assert [check(), check()] == [True, True]
    host.installed = False
    assert check() is False
    assert host.calls["is_file"] == 3


def test_verdicts_are_kept_per_host() -> None:
    present, absent = SwitchableHost(), SwitchableHost()
    absent.installed = False
    register("srv", {"app": True})
    assert make_check_fn("srv", lambda: True, host=present, max_age=60)() is True
    assert make_check_fn("srv", lambda: True, host=absent, max_age=60)() is False


def test_skills_reuse_the_verdict_too() -> None:
    host = SwitchableHost()
    register("srv", {"app": True})
    skill = {"requires_apps": ["srv"]}
    assert skill_matches_apps(skill, host=host, max_age=60) is True
    host.installed = False
    assert skill_matches_apps(skill, host=host, max_age=60) is True
    assert skill_matches_apps(skill, host=host) is False  # no max_age: evaluated now
    refresh("srv")
    assert skill_matches_apps(skill, host=host, max_age=60) is False


@pytest.mark.parametrize(
    "max_age",
    [-1, float("inf"), float("nan"), "60", True],
    ids=["negative", "inf", "nan", "str", "bool"],
)
def test_max_age_must_be_finite_seconds(max_age: Any) -> None:
    message = f"max_age must be None or a finite number of seconds >= 0 (got {max_age!r})"
    with pytest.raises(ValueError, match=re.escape(message)):
        make_check_fn("srv", lambda: True, max_age=max_age)
    with pytest.raises(ValueError, match=re.escape(message)):
        skill_matches_apps({"requires_apps": "srv"}, max_age=max_age)
