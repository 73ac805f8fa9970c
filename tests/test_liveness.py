"""The runtime endpoint reader: every rule on FakeHost, real files, and a token never shown."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.protocol import FileRead
from hermes_decl.models import AppDef, Declaration, OsFamily
from hermes_decl.resolver.availability import availability
from hermes_decl.resolver.host import ProcessInfo
from hermes_decl.resolver.live_host import LiveHost, current_os_family
from hermes_decl.resolver.liveness import (
    MAX_PID,
    MAX_RUNTIME_FILE_BYTES,
    MAX_TOKEN_CHARS,
    MAX_URL_CHARS,
    START_TIME_SLACK_S,
    Endpoint,
    NoEndpoint,
    NoEndpointCode,
    read_endpoint,
)
from hermes_decl.resolver.rooted_host import RootedHost
from hermes_decl.testing import FakeHost
from tests.process_starts import popen_started
from tests.processes import another_users_process

T = TypeVar("T")

SENTINEL = "SENTINEL-TOKEN-7f3a"
PID = 4242
OS_FAMILIES: tuple[OsFamily, ...] = ("linux", "darwin", "win32")

TEMPLATES: dict[OsFamily, str] = {
    "linux": "~/.vendor/server.json",
    "darwin": "~/Library/Vendor/server.json",
    "win32": "%LOCALAPPDATA%/Vendor/McpServer/server.json",
}
RUNTIME: dict[OsFamily, str] = {
    "linux": "/home/dev/.vendor/server.json",
    "darwin": "/Users/dev/Library/Vendor/server.json",
    "win32": "C:\\Users\\dev\\AppData\\Local\\Vendor\\McpServer\\server.json",
}
APP: dict[OsFamily, str] = {
    "linux": "/opt/vendor/studio",
    "darwin": "/opt/vendor/studio",
    "win32": "C:\\Vendor\\studio.exe",
}

needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX filesystem objects")

if sys.platform == "win32":

    def make_fifo(path: Path) -> None:
        raise NotImplementedError

else:

    def make_fifo(path: Path) -> None:
        os.mkfifo(path)


def raw_app(os_family: OsFamily = "linux", /, **liveness_keys: object) -> dict[str, Any]:
    """An ``app`` mapping with one OS block whose liveness is ``server_json`` (keys override)."""
    live: dict[str, object] = {"kind": "server_json", "path": TEMPLATES[os_family]}
    live.update(liveness_keys)
    return {os_family: {"presence": "executable", "location": APP[os_family], "liveness": live}}


def declaration(os_family: OsFamily = "linux", /, **liveness_keys: object) -> Declaration:
    return parse_declaration(
        "vendor-studio",
        raw_app=raw_app(os_family, **liveness_keys),
        raw_requires={"app": True},
        where="test",
    )


def app_def(os_family: OsFamily = "linux", /, **liveness_keys: object) -> AppDef:
    found = declaration(os_family, **liveness_keys).app_for(os_family)
    assert found is not None
    return found


def fake_host(os_family: OsFamily = "linux") -> FakeHost:
    if os_family == "win32":
        return FakeHost(
            "win32",
            env={"LOCALAPPDATA": "C:\\Users\\dev\\AppData\\Local"},
            home="C:\\Users\\dev",
        )
    return FakeHost(os_family, home="/home/dev" if os_family == "linux" else "/Users/dev")


def runtime_bytes(**fields: object) -> bytes:
    return json.dumps(fields).encode()


OMIT = object()


def good(**overrides: object) -> bytes:
    fields: dict[str, object] = {"pid": PID, "http": "http://127.0.0.1:5000", "token": SENTINEL}
    fields.update(overrides)
    return runtime_bytes(**{key: value for key, value in fields.items() if value is not OMIT})


def host_with(data: bytes, os_family: OsFamily = "linux", *, alive: bool = True) -> FakeHost:
    host = fake_host(os_family).add_file(RUNTIME[os_family], data)
    return host.add_process(PID) if alive else host


def read(data: bytes, os_family: OsFamily = "linux", /, **liveness_keys: object) -> object:
    return read_endpoint(app_def(os_family, **liveness_keys), host=host_with(data, os_family))


def refused(data: bytes, code: NoEndpointCode, **liveness_keys: object) -> NoEndpoint:
    result = read(data, **liveness_keys)
    assert isinstance(result, NoEndpoint), result
    assert result.code is code, result
    assert SENTINEL not in repr(result)
    return result


def within(seconds: float, call: Callable[[], T]) -> T:
    """``call()``'s result, failing the test if it takes longer than ``seconds`` (a hang)."""
    result: list[T] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still blocked after {seconds}s"
    return result[0]


# -- good endpoints -------------------------------------------------------------------------------


@pytest.mark.parametrize("os_family", OS_FAMILIES)
@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:5000", "http://127.0.0.1:5000/mcp"),
        ("http://localhost:5000", "http://localhost:5000/mcp"),
        ("http://LocalHost:8080/", "http://localhost:8080/mcp"),
        ("HTTP://127.0.0.1:1", "http://127.0.0.1:1/mcp"),
        ("http://[::1]:65535", "http://[::1]:65535/mcp"),
    ],
)
def test_each_loopback_form_gives_an_endpoint(os_family: OsFamily, url: str, expected: str) -> None:
    host = host_with(good(http=url), os_family)
    result = read_endpoint(app_def(os_family), host=host)
    assert result == Endpoint(expected, SENTINEL)
    assert isinstance(result, Endpoint)
    assert result.token is not None and result.token.reveal() == SENTINEL
    assert host.call_log[-4:] == [
        ("process_alive", (PID,)),
        ("process_info", (PID,)),
        ("own_process", ()),
        ("folders_above", (RUNTIME[os_family],)),
    ]
    assert ("read_file_facts", (RUNTIME[os_family], MAX_RUNTIME_FILE_BYTES + 1)) in host.call_log
    assert host.calls["read_file"] == host.calls["file_mtime"] == 0


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:5000/api/other?x=1#frag",
        "http://127.0.0.1:5000/../../etc",
        "http://127.0.0.1:5000?redirect=http://evil.example",
        "http://127.0.0.1:5000#@evil.example",
    ],
)
def test_the_files_path_query_and_fragment_are_ignored(url: str) -> None:
    assert read(good(http=url)) == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)


def test_the_declared_endpoint_path_and_keys_are_used() -> None:
    data = runtime_bytes(processId=PID, url="http://localhost:7000/x", secret=SENTINEL)
    result = read(
        data, pid_key="processId", url_key="url", token_key="secret", endpoint_path="/v1/mcp"
    )
    assert result == Endpoint("http://localhost:7000/v1/mcp", SENTINEL)


@pytest.mark.parametrize("token", [OMIT, None, ""])
def test_a_missing_null_or_empty_token_is_none(token: object) -> None:
    result = read(good(token=token))
    assert result == Endpoint("http://127.0.0.1:5000/mcp", None)
    assert repr(result) == "Endpoint(url='http://127.0.0.1:5000/mcp', token=None)"


def test_the_longest_token_and_the_highest_pid_are_accepted() -> None:
    token = "t" * MAX_TOKEN_CHARS
    host = fake_host().add_file(RUNTIME["linux"], good(pid=MAX_PID, token=token))
    result = read_endpoint(app_def(), host=host.add_process(MAX_PID))
    assert result == Endpoint("http://127.0.0.1:5000/mcp", token)


def test_a_utf8_bom_and_utf16_are_read() -> None:
    assert isinstance(read(b"\xef\xbb\xbf" + good()), Endpoint)
    assert isinstance(read(good().decode().encode("utf-16")), Endpoint)


def test_extra_keys_are_ignored() -> None:
    assert isinstance(read(good(version="2.4", nested={"a": [1, 2, {"b": None}]})), Endpoint)


def test_a_file_of_exactly_the_limit_is_read() -> None:
    data = good()
    data += b" " * (MAX_RUNTIME_FILE_BYTES - len(data))
    assert len(data) == MAX_RUNTIME_FILE_BYTES
    assert isinstance(read(data), Endpoint)


# -- the Endpoint and NoEndpoint objects ---------------------------------------------------------


def test_endpoint_repr_hides_the_token() -> None:
    endpoint = Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)
    expected = "Endpoint(url='http://127.0.0.1:5000/mcp', token=<hidden>)"
    assert repr(endpoint) == str(endpoint) == f"{endpoint}" == expected
    shown_in_containers = repr([endpoint]) + repr({"e": endpoint}) + str((endpoint,))
    assert SENTINEL not in shown_in_containers + f"{endpoint} {endpoint!r}"


def test_endpoint_is_frozen_and_compares_by_value() -> None:
    endpoint = Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)
    assert endpoint == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)
    assert endpoint != Endpoint("http://127.0.0.1:5000/mcp", "other")
    assert hash(endpoint) == hash(Endpoint("http://127.0.0.1:5000/mcp", SENTINEL))
    with pytest.raises(dataclasses.FrozenInstanceError):
        endpoint.token = None  # type: ignore[misc]


def test_no_endpoint_codes_are_stable() -> None:
    assert {code.value for code in NoEndpointCode} == {
        "no_liveness",
        "path_refused",
        "missing_file",
        "file_too_large",
        "bad_json",
        "other_os",
        "keys_overlap",
        "bad_pid",
        "bad_url",
        "bad_token",
        "dead_process",
        "other_user",
        "stale_file",
        "untrusted_file",
        "unchecked_process",
    }
    code: str = NoEndpointCode.DEAD_PROCESS
    assert code == "dead_process"
    assert str(NoEndpointCode.BAD_URL) == "bad_url"


# -- before the file is read ---------------------------------------------------------------------


def test_no_liveness_source_asks_nothing() -> None:
    decl = parse_declaration(
        "plain",
        raw_app={"linux": {"presence": "executable", "location": "/opt/x"}},
        raw_requires={"app": True},
        where="test",
    )
    found = decl.app_for("linux")
    assert found is not None
    host = fake_host()
    result = read_endpoint(found, host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.NO_LIVENESS
    assert result.path is None
    assert host.call_log == []


@pytest.mark.parametrize("os_family", ["darwin", "win32"])
def test_a_block_for_another_os_is_refused_untouched(os_family: OsFamily) -> None:
    # A win32 path on a Linux machine would be a relative path; it is never looked at.
    host = host_with(good())
    result = read_endpoint(app_def(os_family), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.OTHER_OS
    assert result.reason == f"the declaration's block is for {os_family} but the host is linux"
    assert host.call_log == []


@pytest.mark.parametrize(
    "keys", [{"token_key": "pid"}, {"token_key": "http"}, {"token_key": "k", "url_key": "k"}]
)
def test_a_token_key_shared_with_the_pid_or_url_is_refused_untouched(
    keys: dict[str, str],
) -> None:
    host = host_with(good())
    result = read_endpoint(app_def(**keys), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.KEYS_OVERLAP
    assert host.call_log == []


def test_an_unset_variable_refuses_the_path_untouched() -> None:
    host = FakeHost("win32").add_file(RUNTIME["win32"], good()).add_process(PID)
    result = read_endpoint(app_def("win32"), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.PATH_REFUSED
    assert "LOCALAPPDATA" in result.reason
    assert result.path is None
    assert host.calls["read_file_facts"] == 0


def test_an_unknown_home_refuses_the_path_untouched() -> None:
    host = FakeHost("linux").add_file(RUNTIME["linux"], good()).add_process(PID)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.PATH_REFUSED
    assert host.calls["read_file_facts"] == 0


@pytest.mark.parametrize("value", ["relative/dir", "\\\\server\\share", "C:\\a\\..\\..\\b"])
def test_an_unsafe_expansion_is_refused_untouched(value: str) -> None:
    host = FakeHost("win32", env={"LOCALAPPDATA": value}).add_process(PID)
    result = read_endpoint(app_def("win32"), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.PATH_REFUSED
    assert host.calls["read_file_facts"] == 0


# -- the file ------------------------------------------------------------------------------------


def test_a_missing_file() -> None:
    host = fake_host().add_process(PID)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE
    assert result.path == RUNTIME["linux"]
    assert RUNTIME["linux"] in result.reason
    assert host.calls["process_alive"] == 0


def test_a_directory_where_the_file_should_be() -> None:
    host = fake_host().add_dir(RUNTIME["linux"]).add_process(PID)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE


def test_one_byte_over_the_limit_is_refused() -> None:
    data = good()
    data += b" " * (MAX_RUNTIME_FILE_BYTES + 1 - len(data))
    refused(data, NoEndpointCode.FILE_TOO_LARGE)
    refused(data + b" " * 10**6, NoEndpointCode.FILE_TOO_LARGE)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"   ",
        b"not json",
        b"[]",
        b'"a string"',
        b"42",
        b"null",
        b'{"pid": 4242, "http": "http://127.0.0.1:5000",}',
        b'{"pid": 4242, "pid": 4242, "http": "http://127.0.0.1:5000"}',
        b'{"pid": 4242, "http": "http://127.0.0.1:5000", "x": {"a": 1, "a": 2}}',
        b'{"pid": 4242, "http": "http://127.0.0.1:5000", "x": NaN}',
        b'{"pid": 4242, "http": "http://127.0.0.1:5000", "x": Infinity}',
        b'{"pid": 4242, "http": "http://127.0.0.1:5000", "x": -Infinity}',
        b'{"pid": 4242, "http": "http://127.0.0.1:5000", "x": 1' + b"0" * 5000 + b"}",
        b'{"pid": 4242, "http": "http://127.0.0.1:5000", "x": "\xff\xfe"}',
        b'{"pid": 4242, "http": "http://127.0.0.1:5000"} {}',
        b"[" * 30000 + b"]" * 30000,
        b'{"a":' * 10000 + b"1" + b"}" * 10000,
    ],
)
def test_anything_but_one_strict_json_object_is_refused(data: bytes) -> None:
    refused(data, NoEndpointCode.BAD_JSON)


@pytest.mark.parametrize(
    "pid", [OMIT, None, "4242", 4242.0, True, False, 0, -1, MAX_PID + 1, 2**64, [4242], {"p": 1}]
)
def test_a_bad_pid_is_refused_before_asking_the_host(pid: object) -> None:
    host = host_with(good(pid=pid))
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.BAD_PID
    assert host.calls["process_alive"] == 0


def test_a_dead_process_means_a_stale_file() -> None:
    host = host_with(good(), alive=False)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.DEAD_PROCESS
    assert (
        result.reason
        == f"runtime file {RUNTIME['linux']} names process {PID}, which is not running"
    )
    assert host.calls["process_alive"] == 1


BAD_URLS = [
    # not plain http
    "https://127.0.0.1:5000",
    "ws://127.0.0.1:5000",
    "ftp://127.0.0.1:5000",
    "file:///etc/passwd",
    "http:/127.0.0.1:5000",
    "http:127.0.0.1:5000",
    "//127.0.0.1:5000",
    "127.0.0.1:5000",
    "httpx://127.0.0.1:5000",
    # userinfo
    "http://user@127.0.0.1:5000",
    "http://user:pass@127.0.0.1:5000",
    "http://@127.0.0.1:5000",
    "http://:@127.0.0.1:5000",
    "http://127.0.0.1:5000@evil.example:80",
    "http://127.0.0.1:5000\\@evil.example",
    # not a loopback host
    "http://127.0.0.2:5000",
    "http://0.0.0.0:5000",
    "http://192.168.1.10:5000",
    "http://evil.example:5000",
    "http://localhost.:5000",
    "http://localhost.evil.example:5000",
    "http://127.0.0.1.nip.io:5000",
    "http://2130706433:5000",
    "http://0x7f000001:5000",
    "http://[::ffff:127.0.0.1]:5000",
    "http://[0:0:0:0:0:0:0:1]:5000",
    "http://[::1%25lo]:5000",
    "http://::1:5000",
    "http://[::1:5000",
    "http://[::1]]:5000",
    "http://:5000",
    "http://evil.example#@127.0.0.1:5000",
    "http://evil.example?@127.0.0.1:5000",
    # the port
    "http://127.0.0.1",
    "http://127.0.0.1:",
    "http://127.0.0.1:0",
    "http://127.0.0.1:65536",
    "http://127.0.0.1:99999",
    "http://127.0.0.1:-1",
    "http://127.0.0.1:+80",
    "http://127.0.0.1:080",
    "http://127.0.0.1:5e3",
    "http://127.0.0.1:http",
    "http://127.0.0.1:5000:6000",
    "http://[::1]",
    # characters a parser would drop or reinterpret
    "http://127.0.0.1:5000\t",
    "\thttp://127.0.0.1:5000",
    " http://127.0.0.1:5000",
    "http://127.0.0.1:50\n00",
    "http://127.0.0.1:5000 /x",
    "http://127.0.0.1:5000/\x00",
    "http://１２７.0.0.1:5000",
    "http://localhost\u3002:5000",
    "http://127.0.0.1:５０００",
    # not a string, or too long
    "",
    "http://127.0.0.1:5000/" + "a" * MAX_URL_CHARS,
]


@pytest.mark.parametrize("url", BAD_URLS)
def test_a_bad_url_is_refused(url: str) -> None:
    result = refused(good(http=url), NoEndpointCode.BAD_URL)
    assert url not in result.reason or url == ""


@pytest.mark.parametrize("url", [OMIT, None, 5000, ["http://127.0.0.1:5000"], {"u": 1}, True])
def test_a_url_that_is_not_a_string_is_refused(url: object) -> None:
    refused(good(http=url), NoEndpointCode.BAD_URL)


@pytest.mark.parametrize(
    "token",
    [
        42,
        True,
        ["t"],
        {"t": "t"},
        SENTINEL + " x",
        SENTINEL + "\r\nX-Injected: 1",
        SENTINEL + "\x00",
        SENTINEL + "\u00e9",
        "t" * (MAX_TOKEN_CHARS + 1),
    ],
)
def test_a_bad_token_is_refused(token: object) -> None:
    refused(good(token=token), NoEndpointCode.BAD_TOKEN)


def test_the_file_is_checked_before_the_process() -> None:
    host = host_with(good(http="https://127.0.0.1:5000"), alive=False)
    result = read_endpoint(app_def(), host=host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.BAD_URL
    assert host.calls["process_alive"] == 0


@pytest.mark.parametrize("path", ["@evil.example/", "?q=1", "#f", ":6000/x", "/\tx", "/a b"])
def test_the_rebuilt_url_is_checked_again(path: str) -> None:
    # The models only allow plain paths; should one slip past them (a model_copy skips
    # validation), joining it must still not change the host, port or path.
    live = app_def()
    hostile = live.model_copy(
        update={"liveness": live.liveness.model_copy(update={"endpoint_path": path})}
    )
    assert hostile.endpoint_path == path
    result = read_endpoint(hostile, host=host_with(good()))
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.BAD_URL


# -- real files ----------------------------------------------------------------------------------


def live_app_def(directory: Path) -> tuple[AppDef, Path]:
    """A declaration whose runtime file is ``server.json`` in ``directory``, by absolute path."""
    runtime_file = directory / "server.json"
    os_family = current_os_family()
    assert os_family is not None, "the tests run on Windows, macOS or Linux"
    return app_def(os_family, path=str(runtime_file)), runtime_file


def live_result(found: AppDef) -> object:
    return within(10, lambda: read_endpoint(found, host=LiveHost()))


def test_a_real_file_names_this_live_process(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    path.write_bytes(good(pid=os.getpid()))
    assert live_result(found) == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)


def test_the_default_host_is_the_live_machine(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    path.write_bytes(good(pid=os.getpid()))
    assert read_endpoint(found) == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)


def test_a_real_file_naming_an_exited_process(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    child = popen_started([sys.executable, "-c", "pass"])
    child.wait(timeout=60)
    path.write_bytes(good(pid=child.pid))
    result = live_result(found)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.DEAD_PROCESS


def test_a_real_directory(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    path.mkdir()
    result = live_result(found)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE


def test_a_sparse_gigabyte_is_refused_quickly(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    with open(path, "wb") as handle:
        handle.write(good(pid=os.getpid()))
        handle.truncate(1 << 30)
    started = time.monotonic()
    result = live_result(found)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.FILE_TOO_LARGE
    assert time.monotonic() - started < 5


@needs_posix
def test_a_fifo_does_not_block(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    make_fifo(path)
    started = time.monotonic()
    result = within(5, lambda: read_endpoint(found, host=LiveHost()))
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE
    assert time.monotonic() - started < 5


@needs_posix
@pytest.mark.parametrize("target", ["server.json", "elsewhere/missing.json"])
def test_a_symlink_loop_or_dangling_link(tmp_path: Path, target: str) -> None:
    found, path = live_app_def(tmp_path)
    path.symlink_to(target)
    result = live_result(found)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE


@needs_posix
def test_a_link_to_a_good_file_is_followed(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    (tmp_path / "real.json").write_bytes(good(pid=os.getpid()))
    path.symlink_to("real.json")
    assert live_result(found) == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)


def test_a_rooted_tree(tmp_path: Path) -> None:
    runtime = tmp_path / "home" / "dev" / ".vendor" / "server.json"
    runtime.parent.mkdir(parents=True)
    runtime.write_bytes(good(http="http://localhost:6123/ignored"))
    alive = RootedHost(tmp_path, env={"HOME": "/home/dev"}, live_pids=[PID])
    assert read_endpoint(app_def(), host=alive) == Endpoint("http://localhost:6123/mcp", SENTINEL)
    dead = RootedHost(tmp_path, env={"HOME": "/home/dev"})
    result = read_endpoint(app_def(), host=dead)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.DEAD_PROCESS


@needs_posix
def test_a_rooted_tree_fifo_and_loop(tmp_path: Path) -> None:
    directory = tmp_path / "home" / "dev" / ".vendor"
    directory.mkdir(parents=True)
    host = RootedHost(tmp_path, env={"HOME": "/home/dev"}, live_pids=[PID])
    make_fifo(directory / "server.json")
    result = within(5, lambda: read_endpoint(app_def(), host=host))
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE
    (directory / "server.json").unlink()
    (directory / "server.json").symlink_to("server.json")
    result = within(5, lambda: read_endpoint(app_def(), host=host))
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.MISSING_FILE


# -- the token is never shown --------------------------------------------------------------------

SENTINEL_FILES: list[bytes] = [
    good(),
    good(http="http://127.0.0.1:5000/?token=" + SENTINEL + "#" + SENTINEL),
    good(http="http://127.0.0.1:5000/" + SENTINEL),
    good(http="http://" + SENTINEL + "@127.0.0.1:5000"),
    good(http="http://" + SENTINEL + ":5000"),
    good(http=SENTINEL),
    good(pid=SENTINEL),
    good(pid=None, token=SENTINEL),
    good(token=SENTINEL + "\n"),
    good(token=[SENTINEL]),
    good(token=SENTINEL * 300),
    good(**{SENTINEL: SENTINEL}),
    b'{"token": "' + SENTINEL.encode() + b'", "token": "' + SENTINEL.encode() + b'"}',
    b'{"token": "' + SENTINEL.encode() + b'", "pid": NaN}',
    b'{"token": "' + SENTINEL.encode() + b'" broken',
    b'["' + SENTINEL.encode() + b'"]',
    b"\xff" + SENTINEL.encode(),
    good() + b" " * MAX_RUNTIME_FILE_BYTES,
]


def shown(value: object) -> str:
    """Everything a value shows of itself: ``repr``, ``str`` and formatting."""
    return f"{value!r} {value!s} {value}"


@pytest.mark.parametrize("alive", [True, False])
@pytest.mark.parametrize("keys", [{}, {"token_key": "pid"}, {"token_key": "http"}])
@pytest.mark.parametrize("data", SENTINEL_FILES)
def test_the_token_never_shows(
    data: bytes, keys: dict[str, str], alive: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    decl = declaration(**keys)
    found = decl.app_for("linux")
    assert found is not None
    host = host_with(data, alive=alive)
    result = read_endpoint(found, host=host)  # never raises
    seen = [shown(result), shown(found), shown(decl), shown(host)]
    if isinstance(result, NoEndpoint):
        seen += [result.reason, shown(result.code), str(result.path)]
    else:
        assert result.url.startswith("http://127.0.0.1:5000/mcp")
        seen.append(result.url)
    verdict = availability(decl, host=host)
    seen += [shown(verdict), verdict.sentence(), shown(verdict.trace)]
    if not verdict.offerable:
        seen.append(verdict.refusal())
    seen += [shown(candidate) for candidate in verdict.trace]
    seen += [record.getMessage() for record in caplog.records]
    seen += [shown(record.args) for record in caplog.records]
    seen.append(caplog.text)
    for text in seen:
        assert SENTINEL not in text


def test_an_exception_from_the_host_carries_no_token() -> None:
    class FailingHost(FakeHost):
        def process_alive(self, pid: int) -> bool:
            raise RuntimeError(f"host failed for process {pid}")

    host = FailingHost(home="/home/dev").add_file(RUNTIME["linux"], good())
    with pytest.raises(RuntimeError) as caught:
        read_endpoint(app_def(), host=host)
    text = "".join(traceback.format_exception(caught.value))
    assert "host failed" in text
    assert SENTINEL not in text
    assert SENTINEL not in repr(caught.value.__context__) + repr(caught.value.__cause__)


# -- availability never reads the runtime file (SPEC 8) ------------------------------------------


@pytest.mark.parametrize("os_family", OS_FAMILIES)
def test_availability_never_reads_the_runtime_file(os_family: OsFamily) -> None:
    host = host_with(good(), os_family).add_file(APP[os_family], b"binary")
    verdict = availability(declaration(os_family), host=host)
    assert verdict.state == "available"
    assert host.calls["process_alive"] == 0
    touched = [args for _method, args in host.call_log]
    assert all(RUNTIME[os_family] not in args for args in touched)
    assert all(
        "server.json" not in str(arg) and "McpServer" not in str(arg)
        for args in touched
        for arg in args
    )


# -- the process must be this user's, and the file its own ---------------------------------------

START = 1_700_000_000.0


def checked(host: FakeHost, os_family: OsFamily = "linux") -> Endpoint | NoEndpoint:
    result = read_endpoint(app_def(os_family), host=host)
    assert SENTINEL not in repr(result)
    return result


PROCESS_CHECKS: dict[str, tuple[dict[str, Any], float, NoEndpointCode | None, str]] = {
    "this-users-process": ({}, START + 60, None, ""),
    "written-as-it-started": ({}, START, None, ""),
    "written-within-the-slack": ({}, START - START_TIME_SLACK_S, None, ""),
    "another-users-process": (
        {"user": "0"},
        START + 60,
        NoEndpointCode.OTHER_USER,
        "names process 4242, which belongs to another user",
    ),
    "another-session": (
        {"session": 0},
        START + 60,
        NoEndpointCode.OTHER_USER,
        "names process 4242, which runs in another session",
    ),
    "a-reused-pid": (
        {},
        START - START_TIME_SLACK_S - 0.5,
        NoEndpointCode.STALE_FILE,
        "is older than process 4242, so an earlier process wrote it and the id was reused",
    ),
    "a-start-that-cannot-be-read": (
        {"started": None},
        START + 60,
        NoEndpointCode.UNCHECKED_PROCESS,
        "names process 4242, but the file or the process start cannot be dated",
    ),
}


@pytest.mark.parametrize(
    ("process", "mtime", "code", "reason"), list(PROCESS_CHECKS.values()), ids=list(PROCESS_CHECKS)
)
def test_the_process_check(
    process: dict[str, Any], mtime: float, code: NoEndpointCode | None, reason: str
) -> None:
    host = FakeHost("win32", env={"LOCALAPPDATA": "C:\\Users\\dev\\AppData\\Local"}, session=1)
    host.add_file(RUNTIME["win32"], good(), mtime=mtime)
    host.add_process(PID, **{"started": START, **process})
    result = checked(host, "win32")
    if code is None:
        assert result == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL)
        assert isinstance(result, Endpoint)
        assert (result.pid, result.path) == (PID, RUNTIME["win32"])
    else:
        assert isinstance(result, NoEndpoint)
        assert (result.code, result.reason) == (code, f"runtime file {RUNTIME['win32']} {reason}")


def test_a_process_whose_owner_cannot_be_read_is_not_trusted() -> None:
    host = fake_host().add_file(RUNTIME["linux"], good()).add_unreadable_process(PID)
    result = checked(host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.UNCHECKED_PROCESS
    assert result.reason.endswith("names process 4242, whose owner could not be read")
    assert host.calls["own_process"] == 0


def test_a_host_that_does_not_know_its_own_user_trusts_no_process() -> None:
    class NoUserHost(FakeHost):
        def own_process(self) -> ProcessInfo:
            return ProcessInfo(None, None)

    host = NoUserHost(home="/home/dev").add_file(RUNTIME["linux"], good()).add_process(PID)
    result = checked(host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.UNCHECKED_PROCESS
    assert result.reason.endswith("but this host's user is unknown")


def test_a_process_whose_session_cannot_be_read_is_not_trusted() -> None:
    class NoSessionHost(FakeHost):
        def process_info(self, pid: int) -> ProcessInfo | None:
            found = super().process_info(pid)
            return None if found is None else ProcessInfo(found.user, found.started, None)

    host = NoSessionHost("win32", env={"LOCALAPPDATA": "C:\\Users\\dev\\AppData\\Local"}, session=1)
    host.add_file(RUNTIME["win32"], good()).add_process(PID)
    result = checked(host, "win32")
    assert isinstance(result, NoEndpoint)
    assert (result.code, result.reason) == (
        NoEndpointCode.UNCHECKED_PROCESS,
        f"runtime file {RUNTIME['win32']} names process 4242, whose session could not be read",
    )


def test_a_process_that_ends_between_the_questions_is_not_running() -> None:
    class VanishingHost(FakeHost):
        def process_info(self, pid: int) -> ProcessInfo | None:
            return None

    host = VanishingHost(home="/home/dev").add_file(RUNTIME["linux"], good()).add_process(PID)
    result = checked(host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.DEAD_PROCESS


def test_an_undated_file_is_refused() -> None:
    class UndatedHost(FakeHost):
        def read_file_facts(self, path: str, size: int) -> FileRead | None:
            found = super().read_file_facts(path, size)
            return None if found is None else dataclasses.replace(found, mtime=None)

    host = UndatedHost(home="/home/dev").add_file(RUNTIME["linux"], good()).add_process(PID)
    result = checked(host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.UNCHECKED_PROCESS


def test_pid_1_as_another_user_yields_no_endpoint_and_no_token() -> None:
    host = fake_host().add_file(RUNTIME["linux"], good(pid=1)).add_process(1, user="0")
    result = checked(host)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.OTHER_USER


@needs_posix
def test_a_real_file_naming_another_users_process(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    with another_users_process() as pid:
        path.write_bytes(good(pid=pid))
        result = live_result(found)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.OTHER_USER


def test_a_real_file_older_than_its_process_is_stale(tmp_path: Path) -> None:
    found, path = live_app_def(tmp_path)
    path.write_bytes(good(pid=os.getpid()))
    hour_ago = time.time() - 3600
    info = LiveHost().process_info(os.getpid())
    assert info is not None and info.started is not None
    before_this_process = min(hour_ago, info.started - 3600)
    os.utime(path, (before_this_process, before_this_process))
    result = live_result(found)
    assert isinstance(result, NoEndpoint)
    assert result.code is NoEndpointCode.STALE_FILE
