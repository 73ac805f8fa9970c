"""Hostile runtime files: whatever bytes or JSON-ish document a runtime file holds, on a fake host,
in a real fixture tree or on the live host, reading it answers an endpoint or a stated reason,
never raises, and shows the token nowhere."""

from __future__ import annotations

import codecs
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from hermes_decl.hosts.live.host import LiveHost, current_os_family
from hermes_decl.hosts.protocol import MAX_PID
from hermes_decl.hosts.rooted import RootedHost
from hermes_decl.runtime.liveness import (
    MAX_INT_DIGITS,
    MAX_RUNTIME_FILE_BYTES,
    MAX_TOKEN_CHARS,
    Endpoint,
    NoEndpoint,
    NoEndpointCode,
    read_endpoint,
)
from hermes_decl.testing import FakeHost
from tests.server_json_app import server_json_app as app_def

needs_posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and modes")

SENTINEL = "SENTINEL-HOSTILE-RUNTIME-FILE-77aa"
FAKE_PID = 4242
LIVE = "<the host's live process>"
"""Stands in a drawn document for the process id that is alive on the host it is read on."""

STATED = frozenset(NoEndpointCode) - {
    NoEndpointCode.NO_LIVENESS,
    NoEndpointCode.OTHER_OS,
    NoEndpointCode.KEYS_OVERLAP,
    NoEndpointCode.PATH_REFUSED,
    NoEndpointCode.MISSING_FILE,
}
"""What a runtime file that exists may be answered with: not running, untrusted, unreadable."""

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10 ** (MAX_INT_DIGITS - 2), max_value=10 ** (MAX_INT_DIGITS + 2))
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


def mostly(usual: object, *others: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``usual`` three times in four, else one of ``others``: most files then get past one
    check to the next."""
    return st.sampled_from([True, True, True, False]).flatmap(
        lambda common: st.just(usual) if common else st.one_of(*others)
    )


PIDS = mostly(LIVE, st.sampled_from([0, -1, MAX_PID + 1, True, "4242", 4242.5, [LIVE]]), VALUES)
URLS = mostly(
    "http://127.0.0.1:5000",
    st.sampled_from(
        [
            "http://localhost:5000/other?q#f",
            "http://[::1]:5000",
            "https://127.0.0.1:5000",
            "http://user@127.0.0.1:5000",
            "http://10.0.0.1:5000",
            "http://127.0.0.1:99999",
            "http://127.0.0.1:05000",
            "http://127.0.0.1:5000\n",
            "http://127.0.0.1\t:5000",
            "http://[::1%25lo]:5000",
            "http://127.0.0.1:" + "9" * 5000,
        ]
    ),
    VALUES,
)
TOKENS = mostly(
    SENTINEL,
    st.sampled_from(
        [
            SENTINEL + "\r\nX-Injected: 1",
            SENTINEL + "\x00",
            "\x1b[31m" + SENTINEL,
            " " + SENTINEL,
            SENTINEL + "\u00e9",
            SENTINEL + "\u200b",
            SENTINEL * (MAX_TOKEN_CHARS // len(SENTINEL) + 1),
            "",
            None,
        ]
    ),
    st.builds(lambda head, tail: head + SENTINEL + tail, st.text(max_size=8), st.text(max_size=8)),
    VALUES,
)
KEYS = ("pid", "http", "token")


@st.composite
def documents(draw: st.DrawFn) -> dict[str, Any]:
    """A mapping with some of the runtime file's keys, each any value, and some others."""
    found: dict[str, Any] = {}
    for key, values in zip(KEYS, (PIDS, URLS, TOKENS), strict=True):
        if draw(st.sampled_from([True] * 9 + [False])):
            found[key] = draw(values)
    if draw(st.booleans()):
        return found
    found.update(draw(st.dictionaries(st.text(max_size=6), VALUES, max_size=3)))
    return found


def _substituted(value: Any, pid: int) -> Any:
    if value == LIVE:
        return pid
    if isinstance(value, list):
        return [_substituted(item, pid) for item in value]
    return value


ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32", "latin-1", "cp1252")


@st.composite
def files(draw: st.DrawFn) -> Callable[[int], bytes]:
    """The bytes of a runtime file, given the live process id of the host it is read on."""
    kind = draw(st.sampled_from(["bytes", "document", "document", "mangled", "not-an-object"]))
    if kind == "bytes":
        data = draw(st.binary(max_size=600))
        return lambda pid: data
    document = draw(documents())
    encoding = draw(st.sampled_from(("utf-8",) * len(ENCODINGS) + ENCODINGS))
    ascii_only = draw(st.booleans())
    padding = draw(st.sampled_from([0] * 8 + [MAX_RUNTIME_FILE_BYTES - 40, MAX_RUNTIME_FILE_BYTES]))
    cut = draw(st.integers(0, 1 << 16))
    junk = draw(st.binary(min_size=1, max_size=6))
    trailer = draw(st.sampled_from([""] * 8 + [' , "pid": 1', "}", "x", "\x00", " NaN", "\n"]))

    def render(pid: int) -> bytes:
        value: Any = {key: _substituted(item, pid) for key, item in document.items()}
        if kind == "not-an-object":
            value = list(value.values())
        text = json.dumps(value, ensure_ascii=ascii_only, allow_nan=True)
        if trailer.startswith(" ,"):
            text = text[:-1] + trailer + "}"
        else:
            text += trailer
        text += " " * padding
        data = codecs.encode(text, encoding, "replace")
        if kind == "mangled":
            at = cut % (len(data) + 1)
            data = data[:at] + junk + data[at:]
        return data

    return render


Reader = Callable[[bytes], "Endpoint | NoEndpoint"]


@contextmanager
def readers() -> Iterator[dict[str, tuple[int, Reader]]]:
    """Each host a runtime file is read on, with its live process id: a ``FakeHost``, a
    ``RootedHost`` over a real tree and the live host over a real folder."""
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "tree"
        folder = tree / "home" / "dev" / ".vendor"
        folder.mkdir(parents=True)
        live_folder = Path(scratch) / "live"
        live_folder.mkdir()
        for step in (folder, folder.parent, folder.parent.parent, tree, live_folder):
            step.chmod(0o755)
        Path(scratch).chmod(0o755)
        fake_decl = app_def("linux", "~/.vendor/server.json")
        live_os = current_os_family()
        assert live_os is not None
        live_decl = app_def(live_os, str(live_folder / "server.json"))
        rooted = RootedHost(tree, env={"HOME": "/home/dev"}, live_pids=[FAKE_PID])

        def on_fake(data: bytes) -> Endpoint | NoEndpoint:
            host = FakeHost("linux", home="/home/dev").add_process(FAKE_PID)
            return read_endpoint(
                fake_decl, host=host.add_file("/home/dev/.vendor/server.json", data)
            )

        def written(path: Path, data: bytes) -> None:
            path.write_bytes(data)
            path.chmod(0o600)

        def on_tree(data: bytes) -> Endpoint | NoEndpoint:
            written(folder / "server.json", data)
            return read_endpoint(fake_decl, host=rooted)

        def on_live(data: bytes) -> Endpoint | NoEndpoint:
            written(live_folder / "server.json", data)
            return read_endpoint(live_decl, host=LiveHost())

        yield {
            "fake": (FAKE_PID, on_fake),
            "rooted": (FAKE_PID, on_tree),
            "live": (os.getpid(), on_live),
        }


def assert_stated(result: Endpoint | NoEndpoint, token_written: bool) -> None:
    """An endpoint to a loopback host, or a reason among those a file that exists may get; the
    token shown nowhere."""
    shown = f"{result!r} {result!s}"
    if isinstance(result, NoEndpoint):
        assert result.code in STATED, result
        shown += result.reason
    else:
        assert isinstance(result, Endpoint)
        assert result.url.startswith(("http://127.0.0.1:", "http://localhost:", "http://[::1]:")), (
            result.url
        )
        if token_written and result.token is not None:
            assert SENTINEL in result.token.reveal()
    assert SENTINEL not in shown


VALID = json.dumps({"pid": LIVE, "http": "http://127.0.0.1:5000", "token": SENTINEL})


@needs_posix
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(render=files())
@example(render=lambda pid: VALID.replace(json.dumps(LIVE), str(pid)).encode())
@example(render=lambda pid: b"[" * 50_000)
@example(render=lambda pid: b'{"pid": ' + b"9" * 50_000 + b"}")
@example(render=lambda pid: b"\xef\xbb\xbf" + VALID.replace(json.dumps(LIVE), str(pid)).encode())
@example(render=lambda pid: VALID.replace(json.dumps(LIVE), str(pid)).encode("utf-16"))
@example(
    render=lambda pid: b'{"pid": NaN, "http": Infinity, "token": "' + SENTINEL.encode() + b'"}'
)
@example(render=lambda pid: b'{"token": "' + SENTINEL.encode() + b'\xff\xfe"}')
def test_a_hostile_runtime_file_gives_a_stated_answer(render: Callable[[int], bytes]) -> None:
    with readers() as hosts:
        for pid, read in hosts.values():
            data = render(pid)
            result = read(data)
            event(result.code if isinstance(result, NoEndpoint) else "endpoint")
            assert_stated(result, SENTINEL.encode() in data)


@needs_posix
def test_a_plain_runtime_file_is_read_on_every_host() -> None:
    """The harness reaches the end of the checks: a valid file gives its endpoint everywhere."""
    with readers() as hosts:
        for name, (pid, read) in hosts.items():
            result = read(VALID.replace(json.dumps(LIVE), str(pid)).encode())
            assert result == Endpoint("http://127.0.0.1:5000/mcp", SENTINEL), name


HOSTILE: dict[str, tuple[bytes, NoEndpointCode]] = {
    "deep-nesting": (b"[" * 50_000, NoEndpointCode.BAD_JSON),
    "huge-integer": (b'{"pid": ' + b"9" * 50_000 + b"}", NoEndpointCode.BAD_JSON),
    "nan": (b'{"pid": NaN}', NoEndpointCode.BAD_JSON),
    "not-utf": (b'{"pid": 1, "http": "\xff\xfe"}', NoEndpointCode.BAD_JSON),
    "too-large": (b" " * (MAX_RUNTIME_FILE_BYTES + 1), NoEndpointCode.FILE_TOO_LARGE),
    "a-list": (b"[4242]", NoEndpointCode.BAD_JSON),
    "pid-a-string": (b'{"pid": "4242"}', NoEndpointCode.BAD_PID),
    "token-with-crlf": (
        b'{"pid": 4242, "http": "http://127.0.0.1:1", "token": "' + SENTINEL.encode() + b'\\r\\n"}',
        NoEndpointCode.BAD_TOKEN,
    ),
}


@needs_posix
@pytest.mark.parametrize(("data", "code"), HOSTILE.values(), ids=list(HOSTILE))
def test_each_hostile_shape_has_its_code_on_every_host(data: bytes, code: NoEndpointCode) -> None:
    with readers() as hosts:
        for name, (_pid, read) in hosts.items():
            result = read(data)
            assert isinstance(result, NoEndpoint) and result.code is code, (name, result)
            assert SENTINEL not in repr(result) + result.reason
