"""The listener must be the application: proven before the token is written, on every OS."""

from __future__ import annotations

import ipaddress
import json
import os
import socket
import struct
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hermes_decl.declaration import parse_declaration
from hermes_decl.hosts.live.host import LiveHost
from hermes_decl.hosts.live.linux_sockets import (
    LISTEN_STATE,
    SocketLine,
    linux_tcp_listeners,
    parse_diag_messages,
    parse_socket_table,
    reachable_from,
)
from hermes_decl.hosts.live.macos_sockets import darwin_tcp_listeners, parse_socket_fdinfo
from hermes_decl.hosts.live.windows_sockets import listening_rows, parse_tcp_table
from hermes_decl.hosts.protocol import ProcessInfo, TcpListener
from hermes_decl.models import Declaration
from hermes_decl.runtime.bearer_token import BearerToken
from hermes_decl.runtime.listener import descends_from, listener_problem
from hermes_decl.runtime.liveness import Endpoint
from hermes_decl.runtime.probe import ProbeOutcome, probe
from hermes_decl.runtime.probe_flow import (
    UNVERIFIED_DETAIL,
    Connect,
    Reply,
    ReplyKind,
    Send,
    conversation,
)
from hermes_decl.runtime.status import StatusState, astatus, status
from hermes_decl.testing import FakeHost
from tests.processes import NOBODY_UID
from tests.servers.loopback import Connection, SdkServer, sdk_server, serve

needs_linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

TOKEN = "SENTINEL-LISTENER-TOKEN-5e1f"
URL_LOCALHOST = "http://localhost:5000/mcp"
PID = 4242
NAME = "Vendor Studio"
APP_PATH = "/opt/vendor/studio"
RUNTIME = "/home/dev/.vendor/server.json"
PORT = 5000

# -- the proof, on FakeHost ----------------------------------------------------------------------


def listening(**setup: Any) -> FakeHost:
    """A host whose process ``PID`` runs, with the listeners ``setup`` names (keyword: a list of
    ``add_listener`` keyword sets)."""
    host = FakeHost("linux", home="/home/dev").add_process(PID)
    for child, parent in setup.pop("children", ()):
        host.add_process(child, parent=parent)
    for listener in setup.pop("listeners", ()):
        host.add_listener(PORT, **listener)
    return host


PROOFS: dict[str, tuple[dict[str, Any], str | None]] = {
    "the-runtime-files-process": ({"listeners": [{"pid": PID}]}, None),
    "its-child": ({"children": [(5000, PID)], "listeners": [{"pid": 5000}]}, None),
    "its-grandchild": (
        {"children": [(5000, PID), (5001, 5000)], "listeners": [{"pid": 5001}]},
        None,
    ),
    "on-the-wildcard-address": ({"listeners": [{"pid": PID, "address": "0.0.0.0"}]}, None),
    "an-os-that-names-the-owner-only": ({"listeners": [{"pid": None}]}, None),
    "nothing-listening": ({}, "no listening socket of this user's can be seen there"),
    "another-users-socket": (
        {"listeners": [{"pid": 77, "user": "1001"}]},
        "another user's socket listens there",
    ),
    "a-squatter-on-the-wildcard-too": (
        {"listeners": [{"pid": PID}, {"pid": 77, "user": "1001", "address": "::"}]},
        "another user's socket listens there",
    ),
    "an-unrelated-process-of-this-user": (
        {"children": [(77, 1)], "listeners": [{"pid": 77}]},
        f"a socket listening there is held by no process of {PID}'s own",
    ),
}


@pytest.mark.parametrize(("setup", "problem"), list(PROOFS.values()), ids=list(PROOFS))
def test_the_listener_proof(setup: dict[str, Any], problem: str | None) -> None:
    host = listening(**setup)
    assert listener_problem(host, "127.0.0.1", PORT, PID) == problem


class TellingHost(FakeHost):
    """A host whose OS answers ``listeners`` for every port (None: it does not tell)."""

    def __init__(self, listeners: tuple[TcpListener, ...] | None, user: str = "1000") -> None:
        super().__init__("linux", user=user)
        self.listeners = listeners

    def tcp_listeners(self, address: str, port: int) -> tuple[TcpListener, ...] | None:
        return self.listeners


TOLD: dict[str, tuple[tuple[TcpListener, ...] | None, str | None]] = {
    "the-os-does-not-tell": (None, "the system does not tell who listens there"),
    "an-owner-that-cannot-be-read": (
        (TcpListener(None, (PID,)),),
        "the owner of a socket listening there cannot be read",
    ),
    "a-socket-no-process-holds": (
        (TcpListener("1000", ()),),
        f"a socket listening there is held by no process of {PID}'s own",
    ),
}


@pytest.mark.parametrize(("listeners", "problem"), list(TOLD.values()), ids=list(TOLD))
def test_what_the_os_does_not_prove_is_unproven(
    listeners: tuple[TcpListener, ...] | None, problem: str | None
) -> None:
    assert listener_problem(TellingHost(listeners), "127.0.0.1", PORT, PID) == problem


def test_a_host_without_its_own_user_proves_nothing() -> None:
    class NoUserHost(TellingHost):
        def own_process(self) -> ProcessInfo:
            return ProcessInfo(None, None)

    host = NoUserHost((TcpListener("1000", (PID,)),))
    assert listener_problem(host, "127.0.0.1", PORT, PID) == "this host's own user is unknown"


def test_an_endpoint_not_from_a_runtime_file_proves_the_owner_only() -> None:
    host = listening(children=[(77, 1)], listeners=[{"pid": 77}])
    assert listener_problem(host, "127.0.0.1", PORT, None) is None
    assert listener_problem(listening(), "127.0.0.1", PORT, None) is not None


def test_the_ancestry_walk_is_bounded_and_stops_at_a_loop() -> None:
    host = FakeHost().add_process(1, parent=2).add_process(2, parent=1)
    assert descends_from(host, 1, 3) is False
    chain = FakeHost()
    for pid in range(2, 200):
        chain.add_process(pid, parent=pid - 1)
    assert descends_from(chain, 60, 1) is True
    assert descends_from(chain, 199, 1) is False  # more than MAX_ANCESTRY steps up


# -- the conversation: an unproven listener gets nothing -----------------------------------------


def test_localhost_falls_back_to_ipv6_only_under_the_same_proof() -> None:
    steps = conversation(URL_LOCALHOST, BearerToken(TOKEN), ("localhost", 5000, "/mcp"), 1.0, 0)
    assert next(steps) == Connect("127.0.0.1", 5000, 1.0)
    second = steps.send(Reply(0.1, ReplyKind.UNVERIFIED))
    assert second == Connect("::1", 5000, pytest.approx(0.9))  # type: ignore[arg-type]
    third = steps.send(Reply(0.2, ReplyKind.DONE))
    assert isinstance(third, Send) and TOKEN.encode() in third.request.wire()


@pytest.mark.parametrize(
    "then", [ReplyKind.UNVERIFIED, ReplyKind.FAILED, ReplyKind.TIMEOUT], ids=str
)
def test_no_proven_listener_is_unverified_listener(then: ReplyKind) -> None:
    steps = conversation(URL_LOCALHOST, BearerToken(TOKEN), ("localhost", 5000, "/mcp"), 1.0, 0)
    next(steps)
    steps.send(Reply(0.1, ReplyKind.UNVERIFIED))
    with pytest.raises(StopIteration) as finished:
        steps.send(Reply(0.2, then))
    result = finished.value.value
    assert (result.outcome, result.reason, result.detail) == (
        ProbeOutcome.UNVERIFIED_LISTENER,
        "unverified_listener",
        UNVERIFIED_DETAIL,
    )
    assert TOKEN not in repr(result)


# -- real sockets: the server records that nothing came ------------------------------------------


def decl() -> Declaration:
    return parse_declaration(
        "vendor-studio",
        raw_app={
            "linux": {
                "presence": "executable",
                "location": APP_PATH,
                "liveness": {"kind": "server_json", "path": "~/.vendor/server.json"},
            }
        },
        raw_requires={"app": True},
        where="test",
    )


def published(port: int) -> FakeHost:
    host = FakeHost("linux", home="/home/dev").add_executable(APP_PATH).add_process(PID)
    data = {"pid": PID, "http": f"http://127.0.0.1:{port}", "token": TOKEN}
    return host.add_file(RUNTIME, json.dumps(data).encode())


RECEIVED: list[bytes] = []
"""What ``recording`` servers received, one entry per connection, raw."""


RECORDING_S = 5.0
"""How long a recording server waits for the client to close: past every probe's deadline here
(2 s), so the client gives up first, however late a loaded machine wakes it."""


def recording(connection: Connection) -> None:
    """Keep every byte the client sends until it closes (or ``RECORDING_S`` pass)."""
    connection.sock.settimeout(RECORDING_S)
    data = b""
    try:
        while chunk := connection.sock.recv(4096):
            data += chunk
    except OSError:
        pass
    RECEIVED.append(data)


HOSTILE: dict[str, dict[str, Any]] = {
    "another-users-listener": {"pid": 77, "user": "1001"},
    "an-unrelated-process": {"pid": 77},
}


@pytest.mark.parametrize("listener", list(HOSTILE.values()), ids=list(HOSTILE))
@pytest.mark.parametrize("asynchronous", [False, True], ids=["status", "astatus"])
def test_an_unproven_listener_is_sent_nothing(listener: dict[str, Any], asynchronous: bool) -> None:
    RECEIVED.clear()
    with serve(recording) as server:
        host = published(server.port).add_process(77).add_listener(server.port, **listener)
        if asynchronous:
            result = asyncio_run(host)
        else:
            result = status(
                decl(),
                host=host,
                is_connected=lambda: True,
                probe=True,
                display_name=NAME,
                deadline=2,
            )
    assert result.state is StatusState.ENDPOINT_UNAVAILABLE
    assert result.probe is not None and result.probe.reason == "unverified_listener"
    assert result.sentence() == (
        f"{NAME} is running, but what listens at its MCP endpoint could not be proven to be "
        f"{NAME}. Restart {NAME}, then try again."
    )
    assert len(server.connections) == 1
    assert RECEIVED == [b""]  # connected, then closed: not a byte, the token least of all


def asyncio_run(host: FakeHost) -> Any:
    import asyncio

    return asyncio.run(
        astatus(
            decl(), host=host, is_connected=lambda: True, probe=True, display_name=NAME, deadline=2
        )
    )


def test_the_applications_own_listener_is_sent_the_request() -> None:
    RECEIVED.clear()
    with serve(recording) as server:
        host = published(server.port).add_listener(server.port, pid=PID)
        status(decl(), host=host, is_connected=lambda: True, probe=True, deadline=2)
    assert len(RECEIVED) == 1 and f"Bearer {TOKEN}".encode() in RECEIVED[0]


# -- the live host -------------------------------------------------------------------------------


def live_runtime(directory: Path, port: int, pid: int) -> Declaration:
    (directory / "studio").write_bytes(b"#!/bin/sh\n")
    data = {"pid": pid, "http": f"http://127.0.0.1:{port}", "token": TOKEN}
    (directory / "server.json").write_bytes(json.dumps(data).encode())
    os_family = "darwin" if sys.platform == "darwin" else "linux"
    return parse_declaration(
        "vendor-studio",
        raw_app={
            os_family: {
                "presence": "executable",
                "location": str(directory / "studio"),
                "liveness": {"kind": "server_json", "path": str(directory / "server.json")},
            }
        },
        raw_requires={"app": True},
        where="test",
    )


@pytest.fixture(scope="module")
def sdk() -> Iterator[SdkServer]:
    with sdk_server(TOKEN, lifetime=120) as server:
        yield server


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX runtime file paths")
def test_a_live_child_listener_of_the_runtime_files_process_is_connected(
    tmp_path: Path, sdk: SdkServer
) -> None:
    # The SDK server is a child of this process, which the runtime file names.
    result = status(
        live_runtime(tmp_path, sdk.port, os.getpid()),
        host=LiveHost(),
        is_connected=lambda: True,
        probe=True,
        display_name=NAME,
        deadline=5,
    )
    assert (result.state, result.probe and result.probe.reason) == (
        StatusState.CONNECTED,
        "answering",
    )


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX runtime file paths")
def test_a_live_listener_of_another_process_is_not_the_application(
    tmp_path: Path, sdk: SdkServer
) -> None:
    RECEIVED.clear()
    with serve(recording) as other:  # this process's own, but the file names the SDK server
        result = status(
            live_runtime(tmp_path, other.port, sdk.process.pid),
            host=LiveHost(),
            is_connected=lambda: True,
            probe=True,
            deadline=5,
        )
    assert result.probe is not None and result.probe.reason == "unverified_listener"
    assert len(other.connections) == 1 and RECEIVED == [b""]


@contextmanager
def another_users_listener() -> Iterator[tuple[int, int]]:
    """A loopback port a child running as ``nobody`` listens on, and a pipe that says how many
    bytes it received on every connection it accepted, when it ends."""
    if sys.platform == "win32":
        raise NotImplementedError("POSIX only")
    else:
        ready_read, ready_write = os.pipe()
        told_read, told_write = os.pipe()
        child = os.fork()
        if child == 0:  # the child: never returns into the test runner
            try:
                os.close(ready_read)
                os.close(told_read)
                os.setgroups([])
                os.setgid(NOBODY_UID)
                os.setuid(NOBODY_UID)
                listener = socket.socket()
                listener.bind(("127.0.0.1", 0))
                listener.listen(4)
                listener.settimeout(10)
                os.write(ready_write, struct.pack("=H", listener.getsockname()[1]))
                received = 0
                try:
                    sock, _ = listener.accept()
                    sock.settimeout(2)
                    while chunk := sock.recv(4096):
                        received += len(chunk)
                except OSError:
                    pass
                os.write(told_write, struct.pack("=I", received))
            finally:
                os._exit(0)
        os.close(ready_write)
        os.close(told_write)
        try:
            (port,) = struct.unpack("=H", os.read(ready_read, 2))
            yield port, told_read
        finally:
            os.waitpid(child, 0)
            os.close(ready_read)
            os.close(told_read)


@needs_linux
def test_a_live_listener_of_another_user_is_sent_nothing(tmp_path: Path) -> None:
    if sys.platform == "win32":
        raise NotImplementedError
    else:
        if os.geteuid() != 0:
            pytest.skip("only root can start a listener as another user (setuid)")
        with another_users_listener() as (port, told):
            found = LiveHost().tcp_listeners("127.0.0.1", port)
            assert found is not None and [listener.user for listener in found] == [str(NOBODY_UID)]
            started = time.monotonic()
            result = status(
                live_runtime(tmp_path, port, os.getpid()),
                host=LiveHost(),
                is_connected=lambda: True,
                probe=True,
                deadline=5,
            )
            assert time.monotonic() - started < 5
            (received,) = struct.unpack("=I", os.read(told, 4))
        assert result.state is StatusState.ENDPOINT_UNAVAILABLE
        assert result.probe is not None and result.probe.reason == "unverified_listener"
        assert received == 0


@needs_linux
def test_a_hand_built_endpoint_to_this_users_listener_is_probed() -> None:
    RECEIVED.clear()
    with serve(recording) as server:
        result = probe(Endpoint(server.url, TOKEN), deadline=2, host=LiveHost())
    assert result.reason == "timeout"  # sent, and the recording server never answers
    assert len(RECEIVED) == 1 and f"Bearer {TOKEN}".encode() in RECEIVED[0]


# -- the OS answers, parsed on every OS ----------------------------------------------------------

PROC_NET_TCP = (
    b"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
    b"timeout inode\n"
    b"   0: 0100007F:1388 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000 "
    b"       0 4711 1 0000000000000000 100 0 0 10 0\n"
    b"   1: 00000000:1388 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001 "
    b"       0 4712 1 0000000000000000 100 0 0 10 0\n"
    b"   2: 0100007F:1388 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000 "
    b"       0 4713 1 0000000000000000 20 4 30 10 -1\n"
    b"   3: 0100007F:1389 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000 "
    b"       0 4714 1 0000000000000000 100 0 0 10 0\n"
    b"   4: garbage\n"
)
PROC_NET_TCP6 = (
    b"  sl  local_address                         remote_address                        st "
    b"tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"
    b"   0: 00000000000000000000000001000000:1388 00000000000000000000000000000000:0000 0A "
    b"00000000:00000000 00:00000000 00000000  1000        0 4715 1 0000000000000000 100 0 0 "
    b"10 0\n"
)


def test_the_linux_tables_and_what_a_loopback_connection_reaches() -> None:
    sockets = parse_socket_table(PROC_NET_TCP, "little") + parse_socket_table(
        PROC_NET_TCP6, "little"
    )
    assert sockets[0] == SocketLine("127.0.0.1", 5000, LISTEN_STATE, 1000, 4711)
    assert sockets[-1] == SocketLine("::1", 5000, LISTEN_STATE, 1000, 4715)
    reached = reachable_from("127.0.0.1", 5000, sockets)
    assert [found.inode for found in reached] == [4711, 4712]
    assert [found.inode for found in reachable_from("::1", 5000, sockets)] == [4715]
    assert parse_socket_table(PROC_NET_TCP, "little", listening_only=True)[2].port == 5001


def test_linux_listeners_and_their_holders() -> None:
    tables = {"/proc/net/tcp": PROC_NET_TCP, "/proc/net/tcp6": PROC_NET_TCP6}
    dirs = {"/proc": ("1", "self", "4242"), "/proc/4242/fd": ("0", "7"), "/proc/1/fd": ()}
    links = {"/proc/4242/fd/0": "/dev/null", "/proc/4242/fd/7": "socket:[4711]"}
    found = linux_tcp_listeners(
        "127.0.0.1",
        5000,
        lambda path, size: tables.get(path),
        lambda path: dirs.get(path, ()),
        links.get,
    )
    assert found == (TcpListener("1000", (4242,)), TcpListener("1001", ()))
    unreadable = linux_tcp_listeners(
        "127.0.0.1", 5000, lambda p, s: None, lambda path: dirs.get(path, ()), links.get
    )
    assert unreadable is None


def diag_message(address: str, port: int, uid: int, inode: int) -> bytes:
    packed = ipaddress.ip_address(address).packed.ljust(16, b"\0")
    family = socket.AF_INET if len(ipaddress.ip_address(address).packed) == 4 else socket.AF_INET6
    body = struct.pack("=BBxx", family, LISTEN_STATE) + port.to_bytes(2, "big") + b"\0\0"
    body += packed + bytes(16 + 4 + 8 + 12) + struct.pack("=II", uid, inode)
    return struct.pack("=IHHII", 16 + len(body), 20, 2, 1, 0) + body


def test_a_sock_diag_answer() -> None:
    done = struct.pack("=IHHII", 20, 3, 2, 1, 0) + b"\0" * 4
    data = diag_message("127.0.0.1", 5000, 1000, 4711) + diag_message("::1", 5000, 1001, 9)
    assert parse_diag_messages(data) == (
        (
            SocketLine("127.0.0.1", 5000, LISTEN_STATE, 1000, 4711),
            SocketLine("::1", 5000, LISTEN_STATE, 1001, 9),
        ),
        False,
    )
    assert parse_diag_messages(done) == ((), True)
    assert parse_diag_messages(struct.pack("=IHHII", 36, 2, 0, 1, 0) + bytes(20)) is None
    assert parse_diag_messages(data[:-1]) is None


def socket_fdinfo(address: str, port: int, state: int = 1, kind: int = 2) -> bytes:
    data = bytearray(792)
    struct.pack_into("=i", data, 24 + 232, kind)
    proto = 24 + 240
    data[proto + 4 : proto + 6] = port.to_bytes(2, "big")
    packed = ipaddress.ip_address(address).packed
    data[proto + 24] = 1 if len(packed) == 4 else 2
    data[proto + 48 + 16 - len(packed) : proto + 64] = packed
    struct.pack_into("=i", data, proto + 80, state)
    return bytes(data)


FDINFOS: dict[str, tuple[bytes, tuple[str, int] | None]] = {
    "ipv4-listener": (socket_fdinfo("127.0.0.1", 5000), ("127.0.0.1", 5000)),
    "ipv6-listener": (socket_fdinfo("::1", 5000), ("::1", 5000)),
    "wildcard-listener": (socket_fdinfo("0.0.0.0", 5000), ("0.0.0.0", 5000)),
    "established": (socket_fdinfo("127.0.0.1", 5000, state=4), None),
    "not-tcp": (socket_fdinfo("127.0.0.1", 5000, kind=1), None),
    "too-short": (socket_fdinfo("127.0.0.1", 5000)[:300], None),
}


@pytest.mark.parametrize(("data", "expected"), list(FDINFOS.values()), ids=list(FDINFOS))
def test_a_macos_socket_fdinfo(data: bytes, expected: tuple[str, int] | None) -> None:
    assert parse_socket_fdinfo(data) == expected


class FakeLibSystem:
    def __init__(self, sockets: dict[int, list[bytes]]) -> None:
        self.sockets = sockets

    def all_pids(self) -> tuple[int, ...] | None:
        return tuple(self.sockets)

    def socket_fds(self, pid: int) -> tuple[int, ...] | None:
        return tuple(range(len(self.sockets[pid])))

    def socket_info(self, pid: int, fd: int) -> bytes | None:
        return self.sockets[pid][fd]


def test_macos_listeners_come_with_their_holders_owner() -> None:
    api = FakeLibSystem(
        {
            4242: [socket_fdinfo("127.0.0.1", 5000), socket_fdinfo("127.0.0.1", 5001)],
            77: [socket_fdinfo("::", 5000)],
            78: [socket_fdinfo("::1", 5000)],
        }
    )
    owners = {4242: ProcessInfo("501", 1.0), 77: ProcessInfo(None, None)}
    found = darwin_tcp_listeners("127.0.0.1", 5000, api, owners.get)
    assert found == (TcpListener("501", (4242,)), TcpListener(None, (77,)))
    assert darwin_tcp_listeners("127.0.0.1", 5000, None, owners.get) is None


def windows_v4_table(*rows: tuple[int, str, int, int]) -> bytes:
    data = struct.pack("=I", len(rows))
    for state, address, port, pid in rows:
        local = int.from_bytes(ipaddress.IPv4Address(address).packed, "little")
        port_field = int.from_bytes(port.to_bytes(2, "big") + b"\0\0", "little")
        data += struct.pack("=6I", state, local, port_field, 0, 0, pid)
    return data


def test_the_windows_listener_tables() -> None:
    table = windows_v4_table(
        (2, "127.0.0.1", 5000, 4242), (2, "0.0.0.0", 5000, 77), (5, "127.0.0.1", 5000, 9)
    )
    rows = parse_tcp_table(table, ipv6=False)
    assert rows == (
        ("127.0.0.1", 5000, 2, 4242),
        ("0.0.0.0", 5000, 2, 77),
        ("127.0.0.1", 5000, 5, 9),
    )
    assert listening_rows("127.0.0.1", 5000, rows) == (4242, 77)
    assert listening_rows("::1", 5000, rows) == ()
    port_field = int.from_bytes((5000).to_bytes(2, "big") + b"\0\0", "little")
    v6 = struct.pack("=I", 1) + struct.pack(
        "=16sII16sIIII", ipaddress.IPv6Address("::1").packed, 0, port_field, bytes(16), 0, 0, 2, 8
    )
    assert parse_tcp_table(v6, ipv6=True) == (("::1", 5000, 2, 8),)
    assert parse_tcp_table(table[:-1], ipv6=False) is None
    assert parse_tcp_table(b"", ipv6=True) is None
