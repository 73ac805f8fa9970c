"""No frame of a runtime-file read holds the token's text: when any host call after the read
fails, an error reporter that captures every local of every frame of the package finds the
token only as a hidden ``BearerToken``, in no ``str`` or ``bytes`` and in no ``repr``."""

from __future__ import annotations

import dataclasses
import json
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar, cast

import pytest

from hermes_decl.hosts.protocol import Host
from hermes_decl.hosts.rooted import RootedHost
from hermes_decl.runtime.bearer_token import BearerToken
from hermes_decl.runtime.liveness import Endpoint, read_endpoint
from hermes_decl.testing import FakeHost
from tests.server_json_app import server_json_app as app_def
from tests.test_token_frames import PACKAGE, Reporter

SENTINEL = "SENTINEL-RUNTIME-FILE-TOKEN-51c7-NEVER-SHOWN"
PID = 4242
RUNTIME = "/home/dev/.vendor/server.json"
DOCUMENT = json.dumps({"pid": PID, "http": "http://127.0.0.1:5000", "token": SENTINEL}).encode()
AFTER_THE_READ = (
    "read_file_facts",
    "process_alive",
    "process_info",
    "own_process",
    "folders_above",
)
"""The host calls ``read_endpoint`` makes from the read of the file on, in order."""


class HostBroke(RuntimeError):
    """Raised by a host method the test makes fail."""


_Host = TypeVar("_Host", FakeHost, RootedHost)


def failing_at(host_class: type[_Host], failing: str | None) -> type[_Host]:
    """``host_class`` whose method named ``failing`` raises ``HostBroke`` once its real answer
    was computed (the other calls answer as they do); ``None``: ``host_class`` itself."""
    if failing is None:
        return host_class
    real = getattr(host_class, failing)

    def broken(self: _Host, *args: object) -> object:
        real(self, *args)
        raise HostBroke(failing)

    failing_class = type(f"Failing{host_class.__name__}", (host_class,), {failing: broken})
    return cast("type[_Host]", failing_class)


def fake_host(tmp_path: Path, failing: str | None) -> Host:
    host = failing_at(FakeHost, failing)("linux", home="/home/dev").add_process(PID)
    return host.add_file(RUNTIME, DOCUMENT)


def rooted_host(tmp_path: Path, failing: str | None) -> Host:
    folder = tmp_path / "home" / "dev" / ".vendor"
    folder.mkdir(parents=True)
    (folder / "server.json").write_bytes(DOCUMENT)
    (folder / "server.json").chmod(0o600)
    for step in (folder, folder.parent, folder.parent.parent, tmp_path):
        step.chmod(0o755)
    return failing_at(RootedHost, failing)(tmp_path, env={"HOME": "/home/dev"}, live_pids=[PID])


HOSTS = {"fake": fake_host, "rooted": rooted_host}


def _holding(value: object, seen: set[int], depth: int = 0) -> Iterator[str]:
    """Where inside ``value`` a ``str`` or ``bytes`` holds the token: containers, dataclass
    fields and instance attributes are opened; a ``BearerToken`` is the wrapper, and is not."""
    if depth > 12 or id(value) in seen or isinstance(value, (BearerToken, type, types.ModuleType)):
        return
    seen.add(id(value))
    if isinstance(value, str):
        if SENTINEL in value:
            yield repr(value[:40])
    elif isinstance(value, (bytes, bytearray, memoryview)):
        if SENTINEL.encode() in bytes(value):
            yield repr(bytes(value)[:40])
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _holding(key, seen, depth + 1)
            yield from _holding(item, seen, depth + 1)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            yield from _holding(item, seen, depth + 1)
    elif dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            yield from _holding(getattr(value, field.name), seen, depth + 1)
    elif hasattr(value, "__dict__"):
        yield from _holding(vars(value), seen, depth + 1)


def _held_in(trace: types.TracebackType | None, host: Host) -> list[str]:
    """Every local of every package frame of a traceback that holds the token's text."""
    held: list[str] = []
    while trace is not None:
        frame = trace.tb_frame
        if frame.f_code.co_filename.startswith(PACKAGE):
            for name, value in frame.f_locals.items():
                if value is not host:  # the host stands for the machine, whose file holds it
                    found = _holding(value, set())
                    held += [f"{frame.f_code.co_name}.{name}: {where}" for where in found]
        trace = trace.tb_next
    return held


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes in the rooted tree")
@pytest.mark.parametrize("failing", AFTER_THE_READ, ids=list(AFTER_THE_READ))
@pytest.mark.parametrize("make", list(HOSTS.values()), ids=list(HOSTS))
def test_no_frame_of_a_failing_read_holds_the_token(
    tmp_path: Path, make: Callable[[Path, str | None], Host], failing: str
) -> None:
    host = make(tmp_path, failing)
    with pytest.raises(HostBroke, match=f"^{failing}$") as caught:
        read_endpoint(app_def(), host=host)
    reporter = Reporter()
    trace = caught.value.__traceback__
    assert _held_in(trace, host) == []
    while trace is not None:
        reporter.frame(trace.tb_frame)
        trace = trace.tb_next
    assert "_read" in reporter.reached
    assert SENTINEL not in reporter.text()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes in the rooted tree")
@pytest.mark.parametrize("make", list(HOSTS.values()), ids=list(HOSTS))
def test_the_same_read_without_a_failure_gives_the_token(
    tmp_path: Path, make: Callable[[Path, str | None], Host]
) -> None:
    endpoint = read_endpoint(app_def(), host=make(tmp_path, None))
    assert isinstance(endpoint, Endpoint) and endpoint.token is not None
    assert endpoint.token.reveal() == SENTINEL
