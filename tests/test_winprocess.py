"""The Windows process check's logic, on every OS, through a fake kernel32."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from hermes_decl.resolver import winprocess
from hermes_decl.resolver.host import ProcessInfo
from hermes_decl.resolver.winprocess import (
    ERROR_ACCESS_DENIED,
    FILETIME_EPOCH,
    STILL_ACTIVE,
    filetime_to_epoch,
    process_running,
    windows_interactive_session,
    windows_own_process,
    windows_process_info,
)


class FakeKernel32:
    """A ``ProcessApi`` whose answers the test sets, recording every call."""

    def __init__(
        self,
        *,
        handle: int | None = 40,
        error: int = 87,
        code: int | None = STILL_ACTIVE,
        raise_on: str = "",
    ) -> None:
        self.handle, self.error, self.code, self.raise_on = handle, error, code, raise_on
        self.calls: list[tuple[str, int]] = []

    def _call(self, name: str, arg: int) -> None:
        self.calls.append((name, arg))
        if name == self.raise_on:
            raise OSError(6, "The handle is invalid")

    def open_process(self, pid: int) -> int | None:
        self._call("open", pid)
        return self.handle

    def last_error(self) -> int:
        self._call("last_error", 0)
        return self.error

    def exit_code(self, handle: int) -> int | None:
        self._call("exit_code", handle)
        return self.code

    def close(self, handle: int) -> None:
        self._call("close", handle)


def test_a_running_process_is_alive_and_its_handle_is_closed() -> None:
    api = FakeKernel32()
    assert process_running(4242, api)
    assert api.calls == [("open", 4242), ("exit_code", 40), ("close", 40)]


@pytest.mark.parametrize("code", [0, 1, 258, 260, None])
def test_an_exited_process_is_not_alive(code: int | None) -> None:
    api = FakeKernel32(code=code)
    assert not process_running(4242, api)
    assert api.calls[-1] == ("close", 40)


@pytest.mark.parametrize(("error", "alive"), [(ERROR_ACCESS_DENIED, True), (87, False), (0, False)])
def test_open_failures(error: int, alive: bool) -> None:
    # Access denied: a more privileged user's process, which exists. Invalid parameter: no such id.
    api = FakeKernel32(handle=None, error=error)
    assert process_running(4242, api) is alive
    assert ("close", 40) not in api.calls


@pytest.mark.parametrize("raise_on", ["open", "last_error", "exit_code", "close"])
def test_api_errors_count_as_not_alive(raise_on: str) -> None:
    api = FakeKernel32(handle=None if raise_on == "last_error" else 40, raise_on=raise_on)
    assert process_running(4242, api) is False
    if raise_on == "exit_code":
        assert api.calls[-1] == ("close", 40)  # the handle is closed even when the query fails


def test_the_ctypes_binding_exists_only_on_windows() -> None:
    assert hasattr(winprocess, "windows_pid_exists") is (sys.platform == "win32")


# -- owner, session and start --------------------------------------------------------------------

SID = "S-1-5-21-1004336348-1177238915-682003330-1001"
CREATED = FILETIME_EPOCH + 17_000_000_000_000_000  # 1_700_000_000 seconds after 1970


class FakeFacts(FakeKernel32):
    """A ``ProcessFactsApi``: the process's token SID, creation time and sessions."""

    def __init__(
        self,
        *,
        sid: str | None = SID,
        own_sid: str | None = SID,
        created: int | None = CREATED,
        sessions: dict[int | None, int | None] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.sid, self.own_sid, self.created = sid, own_sid, created
        self.sessions = {None: 1, 4242: 1} if sessions is None else sessions

    def owner_sid(self, handle: int | None) -> str | None:
        self._call("owner_sid", -1 if handle is None else handle)
        return self.own_sid if handle is None else self.sid

    def session_id(self, pid: int | None) -> int | None:
        self._call("session_id", -1 if pid is None else pid)
        return self.sessions.get(pid)

    def creation_time(self, handle: int) -> int | None:
        self._call("creation_time", handle)
        return self.created


WINDOWS_FACTS: dict[str, tuple[dict[str, Any], ProcessInfo | None]] = {
    "running": ({}, ProcessInfo(SID, 1_700_000_000.0, 1)),
    "no-such-process": ({"handle": None, "error": 87}, None),
    "exited": ({"code": 0}, None),
    "more-privileged-user": (
        {"handle": None, "error": ERROR_ACCESS_DENIED},
        ProcessInfo(None, None, 1),
    ),
    "token-unreadable": ({"sid": None}, ProcessInfo(None, 1_700_000_000.0, 1)),
    "not-a-sid": ({"sid": "S-1-5-x\n"}, ProcessInfo(None, 1_700_000_000.0, 1)),
    "times-unreadable": ({"created": None}, ProcessInfo(SID, None, 1)),
    "created-before-1970": ({"created": 5}, ProcessInfo(SID, None, 1)),
    "session-unreadable": ({"sessions": {None: 1}}, ProcessInfo(SID, 1_700_000_000.0, None)),
    "an-api-failure": ({"raise_on": "creation_time"}, None),
}


@pytest.mark.parametrize(
    ("setup", "expected"), list(WINDOWS_FACTS.values()), ids=list(WINDOWS_FACTS)
)
def test_windows_process_info(setup: dict[str, Any], expected: ProcessInfo | None) -> None:
    api = FakeFacts(**setup)
    assert windows_process_info(4242, api) == expected
    opened = api.handle is not None
    assert api.calls.count(("close", 40)) == (1 if opened else 0)


def test_windows_own_process_and_session() -> None:
    assert windows_own_process(FakeFacts()) == ProcessInfo(SID, None, 1)
    assert windows_own_process(FakeFacts(own_sid=None)) == ProcessInfo(None, None, 1)
    assert windows_own_process(FakeFacts(raise_on="owner_sid")) == ProcessInfo(None, None)
    assert windows_interactive_session(FakeFacts(sessions={None: 1})) is True
    assert windows_interactive_session(FakeFacts(sessions={None: 0})) is False
    assert windows_interactive_session(FakeFacts(sessions={})) is None
    assert windows_interactive_session(FakeFacts(raise_on="session_id")) is None


def test_filetimes() -> None:
    assert filetime_to_epoch(FILETIME_EPOCH + 15_000_000) == 1.5
    assert filetime_to_epoch(FILETIME_EPOCH) is None
    assert filetime_to_epoch(0) is None


def test_the_live_facts_api_exists_only_on_windows() -> None:
    assert hasattr(winprocess, "live_process_api") is (sys.platform == "win32")
