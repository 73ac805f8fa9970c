"""Who listens on a loopback TCP port of a Mac: each process's socket descriptors, from libSystem.

``proc_listallpids`` gives the processes; ``proc_pidinfo(PROC_PIDLISTFDS)`` a process's
descriptors (another user's process answers nothing unless this one is root);
``proc_pidfdinfo(PROC_PIDFDSOCKETINFO)`` a socket's ``struct socket_fdinfo``, whose TCP part
holds the local address and port and the TCP state. The socket's owner is the holding process's
owner (``proc_bsdinfo``). The struct parsing and the decisions run on every OS behind
``DarwinSocketApi``; ``macos.tcp_listeners`` drives it with the real calls.
"""

from __future__ import annotations

import ipaddress
import struct
import sys
from collections.abc import Callable
from typing import Protocol

from hermes_decl.hosts.protocol import ProcessInfo, TcpListener

__all__ = [
    "FDINFO_BYTES",
    "MAX_FDS_PER_PROCESS",
    "MAX_PROCESSES",
    "DarwinSocketApi",
    "darwin_tcp_listeners",
    "parse_socket_fdinfo",
]

MAX_PROCESSES = 100_000
"""At most this many process ids are looked through."""

MAX_FDS_PER_PROCESS = 100_000
"""At most this many descriptors of one process are looked at."""

PROC_PIDLISTFDS = 1
"""The ``proc_pidinfo`` flavor that lists a process's descriptors (``struct proc_fdinfo``)."""

PROC_PIDFDSOCKETINFO = 3
"""The ``proc_pidfdinfo`` flavor that fills a ``struct socket_fdinfo``."""

PROX_FDTYPE_SOCKET = 2
"""``proc_fdtype`` of a socket descriptor."""

FDINFO_BYTES = 2048
"""Room for a ``struct socket_fdinfo`` (792 bytes today); the kernel says how much it filled."""

_SOCKET_INFO = 24
"""Offset of ``struct socket_info`` after ``struct proc_fileinfo``."""

_KIND = _SOCKET_INFO + 232
"""Offset of ``soi_kind``: after ``soi_stat`` (136 bytes), two handles, three ints, eight
shorts, ``soi_oobmark`` and two ``struct sockbuf_info`` (24 bytes each)."""

_PROTO = _SOCKET_INFO + 240
"""Offset of ``soi_proto``, the union whose TCP member is ``struct tcp_sockinfo``."""

_LOCAL_PORT = _PROTO + 4
"""``insi_lport``: the local port, in network byte order in the low bytes of an ``int``."""

_VFLAG = _PROTO + 24
"""``insi_vflag``: ``INI_IPV4`` (1) or ``INI_IPV6`` (2)."""

_LOCAL_ADDRESS = _PROTO + 48
"""``insi_laddr``: 16 bytes, IPv4 in the last four."""

_TCP_STATE = _PROTO + 80
"""``tcpsi_state``, after the 80-byte ``struct in_sockinfo``."""

_NEEDED = _TCP_STATE + 4

SOCKINFO_TCP = 2
"""``soi_kind`` of a TCP socket."""

TSI_S_LISTEN = 1
"""``tcpsi_state`` of a listening socket."""

_REACHES = {"127.0.0.1": ("127.0.0.1", "0.0.0.0", "::"), "::1": ("::1", "::")}
"""The local addresses whose listeners a connection to a loopback address may reach."""


def parse_socket_fdinfo(data: bytes) -> tuple[str, int] | None:
    """The local address and port of a listening TCP socket's ``struct socket_fdinfo``; None
    for any other socket or bytes too short."""
    if len(data) < _NEEDED:
        return None
    (kind,) = struct.unpack_from("=i", data, _KIND)
    (state,) = struct.unpack_from("=i", data, _TCP_STATE)
    if kind != SOCKINFO_TCP or state != TSI_S_LISTEN:
        return None
    # The port's two bytes in network order open the int (every Mac is little-endian).
    port = int.from_bytes(data[_LOCAL_PORT : _LOCAL_PORT + 2], "big")
    raw = data[_LOCAL_ADDRESS : _LOCAL_ADDRESS + 16]
    vflag = data[_VFLAG]
    if vflag & 2:
        address = ipaddress.IPv6Address(raw)
        mapped = address.ipv4_mapped
        return (str(mapped) if mapped is not None else str(address)), port
    if vflag & 1:
        return str(ipaddress.IPv4Address(raw[12:])), port
    return None


class DarwinSocketApi(Protocol):
    """The libSystem calls the listener search needs; each answers None when the call fails."""

    def all_pids(self) -> tuple[int, ...] | None:
        """Every process id (``proc_listallpids``), or None."""
        ...

    def socket_fds(self, pid: int) -> tuple[int, ...] | None:
        """The socket descriptors of a process (``PROC_PIDLISTFDS``), or None."""
        ...

    def socket_info(self, pid: int, fd: int) -> bytes | None:
        """The ``struct socket_fdinfo`` bytes of a descriptor, or None."""
        ...


def darwin_tcp_listeners(
    address: str,
    port: int,
    api: DarwinSocketApi | None,
    owner: Callable[[int], ProcessInfo | None],
) -> tuple[TcpListener, ...] | None:
    """The listening sockets a connection to ``address`` and ``port`` may reach among the
    processes whose descriptors can be read, each with its holder and the holder's owner."""
    pids = api.all_pids() if api is not None else None
    if api is None or pids is None:
        return None
    places = _REACHES.get(address, (address,))
    found: list[TcpListener] = []
    for pid in pids[:MAX_PROCESSES]:
        for fd in (api.socket_fds(pid) or ())[:MAX_FDS_PER_PROCESS]:
            info = api.socket_info(pid, fd)
            local = parse_socket_fdinfo(info) if info is not None else None
            if local is not None and local[1] == port and local[0] in places:
                holder = owner(pid)
                found.append(TcpListener(None if holder is None else holder.user, (pid,)))
    return tuple(found)


if sys.platform == "darwin":
    import ctypes

    def bound_proc_pidinfo(libsystem: ctypes.CDLL) -> Callable[..., int]:
        """libSystem's ``proc_pidinfo`` with its argument and result types set, as both the
        process reader and the listener search call it."""
        pidinfo = libsystem.proc_pidinfo
        pidinfo.argtypes = (
            ctypes.c_int,
            ctypes.c_int,
            ctypes.c_uint64,
            ctypes.c_void_p,
            ctypes.c_int,
        )
        pidinfo.restype = ctypes.c_int
        return pidinfo

    class LibSystemSockets:
        """``DarwinSocketApi`` over the real libSystem."""

        def __init__(self) -> None:
            libsystem = ctypes.CDLL("/usr/lib/libSystem.B.dylib", use_errno=True)
            self._list_pids = libsystem.proc_listallpids
            self._list_pids.argtypes = (ctypes.c_void_p, ctypes.c_int)
            self._list_pids.restype = ctypes.c_int
            self._pidinfo = bound_proc_pidinfo(libsystem)
            self._fdinfo = libsystem.proc_pidfdinfo
            self._fdinfo.argtypes = (
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_int,
                ctypes.c_void_p,
                ctypes.c_int,
            )
            self._fdinfo.restype = ctypes.c_int

        def all_pids(self) -> tuple[int, ...] | None:
            """``proc_listallpids`` into a buffer of ``MAX_PROCESSES`` ids."""
            buffer = (ctypes.c_int * MAX_PROCESSES)()
            count = self._list_pids(buffer, ctypes.sizeof(buffer))
            if count <= 0:
                return None
            return tuple(int(pid) for pid in buffer[: min(count, MAX_PROCESSES)] if pid > 0)

        def socket_fds(self, pid: int) -> tuple[int, ...] | None:
            """``proc_pidinfo(pid, PROC_PIDLISTFDS)``, keeping the socket descriptors."""
            size = self._pidinfo(pid, PROC_PIDLISTFDS, 0, None, 0)
            if size <= 0:
                return None
            entries = min(size // 8 + 16, MAX_FDS_PER_PROCESS)
            buffer = ctypes.create_string_buffer(entries * 8)
            filled = self._pidinfo(pid, PROC_PIDLISTFDS, 0, buffer, len(buffer))
            if filled <= 0:
                return None
            pairs = struct.iter_unpack("=iI", buffer.raw[: filled - filled % 8])
            return tuple(fd for fd, kind in pairs if kind == PROX_FDTYPE_SOCKET)

        def socket_info(self, pid: int, fd: int) -> bytes | None:
            """``proc_pidfdinfo(pid, fd, PROC_PIDFDSOCKETINFO)``, or None."""
            buffer = ctypes.create_string_buffer(FDINFO_BYTES)
            filled = self._fdinfo(pid, fd, PROC_PIDFDSOCKETINFO, buffer, FDINFO_BYTES)
            return buffer.raw[:filled] if filled > 0 else None

    def live_socket_api() -> DarwinSocketApi | None:
        """The real ``DarwinSocketApi``, or None when libSystem cannot be loaded."""
        try:
            return LibSystemSockets()
        except (OSError, AttributeError):
            return None
