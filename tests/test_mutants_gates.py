"""What the gates log when a check fails, a case a mutation review found untested (SPEC 9)."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from hermes_decl import declaration
from hermes_decl.gates import make_check_fn
from hermes_decl.testing import FakeHost

APP = {"linux": {"presence": "executable", "location": "/opt/vendor/vendor"}}


@pytest.fixture(autouse=True)
def empty_registry() -> Iterator[None]:
    declaration.clear()
    yield
    declaration.clear()


class BrokenHost(FakeHost):
    """A host whose file checks fail outright."""

    def is_file(self, path: str) -> bool:
        raise RuntimeError("the disk is gone")


def broken_connection() -> bool:
    raise ConnectionError("gone")


def test_each_failure_is_logged_with_the_server_name(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="hermes_decl")
    declaration.register("srv", declaration.parse_declaration("srv", APP, {"app": True}, where="t"))
    assert make_check_fn("srv", broken_connection, host=FakeHost("linux"))() is False
    assert make_check_fn("srv", lambda: True, host=BrokenHost("linux"))() is False
    assert [(record.getMessage(), record.exc_info is not None) for record in caplog.records] == [
        ("the connection check of srv failed", True),
        ("evaluating srv failed; it is not offered", True),
    ]
