"""The Windows process check's logic, on every OS, through a fake kernel32."""

from __future__ import annotations

import sys

import pytest

from hermes_decl.resolver import winprocess
from hermes_decl.resolver.winprocess import (
    ERROR_ACCESS_DENIED,
    STILL_ACTIVE,
    process_running,
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
