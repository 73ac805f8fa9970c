"""Who listens on a loopback TCP port of a Linux machine, and which processes hold the socket.

The kernel's ``NETLINK_SOCK_DIAG`` dump of listening TCP sockets gives each one's local address
and port, owner uid and inode, and walks the listening sockets only; when it does not answer,
each line of ``/proc/net/tcp`` and ``/proc/net/tcp6`` is one socket with the same facts in hex
(each 32-bit word of the address as the machine stores it; state ``0A`` is listening), read
whole. The processes holding a socket are those with a descriptor linking to
``socket:[<inode>]`` under ``/proc/<pid>/fd`` (only this user's processes can be read, unless
it is root). The parsers take bytes and never raise, so they are tested on every OS;
``tcp_listeners`` is what ``LiveHost`` asks on Linux.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from hermes_decl._regular_file import open_regular
from hermes_decl.hosts.live.file_primitives import list_dir_names, read_link
from hermes_decl.hosts.protocol import TcpListener

__all__ = [
    "LISTEN_STATE",
    "MAX_FDS_PER_PROCESS",
    "MAX_PROCESSES",
    "MAX_SOCKET_TABLE_BYTES",
    "SocketLine",
    "diag_listeners",
    "holders",
    "linux_tcp_listeners",
    "parse_diag_messages",
    "parse_socket_table",
    "reachable_from",
    "read_table",
    "tcp_listeners",
]

MAX_SOCKET_TABLE_BYTES = 16 * 1024 * 1024
"""At most this much of ``/proc/net/tcp`` (or ``tcp6``) is read; a longer table tells nothing."""

MAX_PROCESSES = 100_000
"""At most this many ``/proc/<pid>`` entries are looked through for a socket's holders."""

MAX_FDS_PER_PROCESS = 100_000
"""At most this many descriptors of one process are looked at."""

TABLE_CHUNK = 64 * 1024
"""``/proc`` tables are read this much at a time."""

DIAG_CHUNK = 64 * 1024
"""A ``sock_diag`` answer is received this much at a time."""

DIAG_TIMEOUT_S = 1.0
"""The kernel answers a ``sock_diag`` dump at once; this long without an answer is none."""

NETLINK_SOCK_DIAG = 4
SOCK_DIAG_BY_FAMILY = 20
NLMSG_ERROR, NLMSG_DONE = 2, 3
_DUMP_FLAGS = 0x1 | 0x300
"""``NLM_F_REQUEST | NLM_F_DUMP``."""

_NLMSG_HEADER = struct.Struct("=IHHII")
"""``struct nlmsghdr``: length, type, flags, sequence, port id."""

_DIAG_REQUEST = struct.Struct("=BBBBI")
"""``struct inet_diag_req_v2`` up to its socket id: family, protocol, extensions, pad, states."""

_DIAG_SOCKID_BYTES = 48
"""``struct inet_diag_sockid``, all zero in a dump request."""

_DIAG_MSG = struct.Struct("=BBxx2s2x16s16x4x8x12xII")
"""``struct inet_diag_msg``: family, state, (timer, retransmits), source port (big-endian),
(destination port), source address, (destination, interface, cookie, expiry, queues), uid,
inode."""


LISTEN_STATE = 0x0A
"""``TCP_LISTEN`` in the kernel's numbering of socket states."""

_REACHES = {
    "127.0.0.1": ("127.0.0.1", "0.0.0.0", "::", "::ffff:7f00:1"),
    "::1": ("::1", "::"),
}
"""The local addresses whose listeners a connection to a loopback address may reach: its own
(IPv4-mapped too, as ``ipaddress`` writes it), and the wildcards (``::`` takes IPv4 too unless the
socket is IPv6-only, which is not shown)."""


@dataclass(frozen=True)
class SocketLine:
    """One socket of the table: its local address (as ``ipaddress`` writes it) and port, its
    state, the user id that owns it and its inode."""

    address: str
    port: int
    state: int
    uid: int
    inode: int


def _address(text: bytes, byteorder: str) -> str | None:
    """An address of the table (``0100007F``, or 32 hex digits for IPv6) in normal form."""
    if len(text) not in (8, 32):
        return None
    try:
        words = [int(text[i : i + 8], 16) for i in range(0, len(text), 8)]
        order: Literal["little", "big"] = "little" if byteorder == "little" else "big"
        raw = b"".join(word.to_bytes(4, order) for word in words)
        return str(ipaddress.ip_address(raw))
    except ValueError:
        return None


def _hex(text: bytes) -> int | None:
    """A field of hex digits, or None."""
    if not text or len(text) > 16:
        return None
    try:
        return int(text, 16)
    except ValueError:
        return None


def _decimal(text: bytes) -> int | None:
    """A field of at most 20 decimal digits, or None."""
    return int(text) if text.isdigit() and len(text) <= 20 else None


def parse_socket_table(
    table: bytes, byteorder: str = sys.byteorder, *, listening_only: bool = False
) -> tuple[SocketLine, ...]:
    """Every readable line of a ``/proc/net/tcp`` or ``tcp6`` table (only the listening ones
    when asked, which skips decoding the others); lines that do not parse are left out (the
    heading among them)."""
    found: list[SocketLine] = []
    for line in table.split(b"\n")[1:]:
        fields = line.split()
        if len(fields) < 10 or (listening_only and _hex(fields[3]) != LISTEN_STATE):
            continue
        local, _, port_text = fields[1].partition(b":")
        address = _address(local, byteorder)
        port, state = _hex(port_text), _hex(fields[3])
        uid, inode = _decimal(fields[7]), _decimal(fields[9])
        if address is None or port is None or state is None or uid is None or inode is None:
            continue
        found.append(SocketLine(address, port, state, uid, inode))
    return tuple(found)


def reachable_from(
    address: str, port: int, sockets: Iterable[SocketLine]
) -> tuple[SocketLine, ...]:
    """The listening sockets a connection to a loopback ``address`` and ``port`` may reach."""
    places = _REACHES.get(address, (address,))
    return tuple(
        found
        for found in sockets
        if found.state == LISTEN_STATE and found.port == port and found.address in places
    )


def holders(
    inodes: Iterable[int],
    list_dir: Callable[[str], tuple[str, ...]],
    link: Callable[[str], str | None],
) -> dict[int, tuple[int, ...]]:
    """For each socket inode, the processes with a descriptor of it (in ``/proc`` order)."""
    wanted = {f"socket:[{inode}]": inode for inode in inodes}
    held: dict[int, list[int]] = {inode: [] for inode in wanted.values()}
    for name in list_dir("/proc")[:MAX_PROCESSES]:
        if not name.isdigit():
            continue
        for fd in list_dir(f"/proc/{name}/fd")[:MAX_FDS_PER_PROCESS]:
            inode = wanted.get(link(f"/proc/{name}/fd/{fd}") or "")
            if inode is not None and int(name) not in held[inode]:
                held[inode].append(int(name))
    return {inode: tuple(pids) for inode, pids in held.items()}


def parse_diag_messages(data: bytes) -> tuple[tuple[SocketLine, ...], bool] | None:
    """The sockets of one ``sock_diag`` answer (``struct inet_diag_msg`` in netlink messages),
    and whether the dump is done; None for an error message or bytes that do not parse."""
    found: list[SocketLine] = []
    offset = 0
    while offset + _NLMSG_HEADER.size <= len(data):
        length, kind = _NLMSG_HEADER.unpack_from(data, offset)[:2]
        if length < _NLMSG_HEADER.size or offset + length > len(data):
            return None
        if kind == NLMSG_DONE:
            return tuple(found), True
        if kind == NLMSG_ERROR or length < _NLMSG_HEADER.size + _DIAG_MSG.size:
            return None
        family, state, sport, source, uid, inode = _DIAG_MSG.unpack_from(
            data, offset + _NLMSG_HEADER.size
        )
        raw = source[:4] if family == socket.AF_INET else source
        port = int.from_bytes(sport, "big")
        found.append(SocketLine(str(ipaddress.ip_address(raw)), port, state, uid, inode))
        offset += (length + 3) & ~3
    return tuple(found), False


def diag_listeners() -> tuple[SocketLine, ...] | None:
    """Every listening TCP socket, IPv4 and IPv6, from ``NETLINK_SOCK_DIAG`` (which walks the
    listening sockets only, unlike ``/proc/net/tcp``); None when the kernel does not answer."""
    if not hasattr(socket, "AF_NETLINK"):
        return None
    found: list[SocketLine] = []
    for family in (socket.AF_INET, socket.AF_INET6):
        request = _NLMSG_HEADER.pack(
            _NLMSG_HEADER.size + _DIAG_REQUEST.size + _DIAG_SOCKID_BYTES,
            SOCK_DIAG_BY_FAMILY,
            _DUMP_FLAGS,
            1,
            0,
        ) + _DIAG_REQUEST.pack(family, socket.IPPROTO_TCP, 0, 0, 1 << LISTEN_STATE)
        try:
            with socket.socket(socket.AF_NETLINK, socket.SOCK_DGRAM, NETLINK_SOCK_DIAG) as diag:
                diag.settimeout(DIAG_TIMEOUT_S)
                diag.send(request + bytes(_DIAG_SOCKID_BYTES))
                received = 0
                while True:
                    data = diag.recv(DIAG_CHUNK)
                    received += len(data)
                    parsed = parse_diag_messages(data)
                    if not data or parsed is None or received > MAX_SOCKET_TABLE_BYTES:
                        return None
                    found += parsed[0]
                    if parsed[1]:
                        break
        except (OSError, ValueError):
            return None
    return tuple(found)


def linux_tcp_listeners(
    address: str,
    port: int,
    read: Callable[[str, int], bytes | None],
    list_dir: Callable[[str], tuple[str, ...]],
    link: Callable[[str], str | None],
    diag: Callable[[], tuple[SocketLine, ...] | None] = lambda: None,
) -> tuple[TcpListener, ...] | None:
    """The listeners a connection to ``address`` and ``port`` may reach, with their owners and
    holders, from ``diag`` or else the socket tables; None when neither can be read whole."""
    from_diag = diag()
    sockets: list[SocketLine] = list(from_diag or ())
    for table in ("/proc/net/tcp", "/proc/net/tcp6") if from_diag is None else ():
        data = read(table, MAX_SOCKET_TABLE_BYTES + 1)
        if data is None and table.endswith("6"):
            continue  # a kernel without IPv6 has no such table
        if data is None or len(data) > MAX_SOCKET_TABLE_BYTES:
            return None
        sockets += parse_socket_table(data, listening_only=True)
    listening = reachable_from(address, port, sockets)
    held = holders((found.inode for found in listening), list_dir, link) if listening else {}
    return tuple(TcpListener(str(found.uid), held[found.inode]) for found in listening)


def read_table(path: str, size: int) -> bytes | None:
    """At most ``size`` bytes of a ``/proc`` table, read in small chunks (the kernel writes it a
    page at a time, so a large buffer per read only costs); None when it cannot be read."""
    try:
        fd = open_regular(path)
    except (OSError, ValueError):
        return None
    chunks: list[bytes] = []
    total = 0
    try:
        while total < size:
            chunk = os.read(fd, min(TABLE_CHUNK, size - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    return b"".join(chunks)


def tcp_listeners(address: str, port: int) -> tuple[TcpListener, ...] | None:
    """What ``LiveHost.tcp_listeners`` answers on Linux."""
    return linux_tcp_listeners(address, port, read_table, list_dir_names, read_link, diag_listeners)
