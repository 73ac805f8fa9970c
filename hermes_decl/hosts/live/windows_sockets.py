"""Who listens on a loopback TCP port of a Windows machine, and whose child a process is.

``GetExtendedTcpTable(TCP_TABLE_OWNER_PID_LISTENER)`` from iphlpapi lists the listening sockets
of IPv4 and of IPv6, each with its owning process id; ``NtQueryInformationProcess`` gives a
process's parent (``InheritedFromUniqueProcessId``). The table parsing runs on every OS; the
calls are defined on Windows only, and ``windows`` asks them for ``LiveHost``. When the OS gives
no answer (an emulator without the call, a table that will not fit), the answer is None.
"""

from __future__ import annotations

import ipaddress
import struct
import sys

__all__ = [
    "MAX_TABLE_BYTES",
    "MIB_TCP_STATE_LISTEN",
    "TableRow",
    "listening_rows",
    "parse_tcp_table",
]

MAX_TABLE_BYTES = 16 * 1024 * 1024
"""A listener table that needs more room than this is not read."""

MIB_TCP_STATE_LISTEN = 2
"""``dwState`` of a listening socket."""

_ROW_V4 = struct.Struct("=6I")
"""``MIB_TCPROW_OWNER_PID``: state, local address, local port, remote address and port, pid."""

_ROW_V6 = struct.Struct("=16sII16sIIII")
"""``MIB_TCP6ROW_OWNER_PID``: local address, scope and port, remote address, scope and port,
state, pid."""

_REACHES = {"127.0.0.1": ("127.0.0.1", "0.0.0.0", "::"), "::1": ("::1", "::")}
"""The local addresses whose listeners a connection to a loopback address may reach."""

TableRow = tuple[str, int, int, int]
"""One socket of a table: local address, local port, state, owning process id."""


def _port(field: int) -> int:
    """A port held in network byte order in the low bytes of a ``DWORD``."""
    return int.from_bytes(field.to_bytes(4, "little")[:2], "big")


def parse_tcp_table(data: bytes, ipv6: bool) -> tuple[TableRow, ...] | None:
    """The rows of a ``MIB_TCPTABLE_OWNER_PID`` (or its IPv6 twin); None when the count does
    not fit the bytes."""
    if len(data) < 4:
        return None
    (count,) = struct.unpack_from("=I", data)
    row = _ROW_V6 if ipv6 else _ROW_V4
    if 4 + count * row.size > len(data):
        return None
    rows: list[TableRow] = []
    for index in range(count):
        fields = row.unpack_from(data, 4 + index * row.size)
        if ipv6:
            local, _scope, port, _remote, _rscope, _rport, state, pid = fields
            address = str(ipaddress.IPv6Address(local))
        else:
            state, local_v4, port, _remote_v4, _rport, pid = fields
            address = str(ipaddress.IPv4Address(local_v4.to_bytes(4, "little")))
        rows.append((address, _port(port), state, pid))
    return tuple(rows)


def listening_rows(address: str, port: int, rows: tuple[TableRow, ...]) -> tuple[int, ...]:
    """The owning process ids of the listening rows a connection to ``address`` and ``port``
    may reach."""
    places = _REACHES.get(address, (address,))
    return tuple(
        pid
        for found, found_port, state, pid in rows
        if state == MIB_TCP_STATE_LISTEN and found_port == port and found in places
    )


if sys.platform == "win32":
    import ctypes
    from ctypes import wintypes

    TCP_TABLE_OWNER_PID_LISTENER = 3
    ERROR_INSUFFICIENT_BUFFER = 122
    AF_INET, AF_INET6 = 2, 23
    PROCESS_BASIC_INFORMATION_CLASS = 0

    def tcp_table(ipv6: bool) -> bytes | None:
        """The raw listener table of one address family, or None when the OS does not give it."""
        try:
            iphlpapi = ctypes.WinDLL("iphlpapi")
            get_table = iphlpapi.GetExtendedTcpTable
            get_table.argtypes = (
                ctypes.c_void_p,
                ctypes.POINTER(wintypes.DWORD),
                wintypes.BOOL,
                wintypes.ULONG,
                ctypes.c_int,
                wintypes.ULONG,
            )
            get_table.restype = wintypes.DWORD
            family = AF_INET6 if ipv6 else AF_INET
            size = wintypes.DWORD(0)
            for _ in range(4):
                if size.value > MAX_TABLE_BYTES:
                    return None
                buffer = ctypes.create_string_buffer(max(size.value, 4))
                size.value = len(buffer)
                status = get_table(
                    buffer, ctypes.byref(size), False, family, TCP_TABLE_OWNER_PID_LISTENER, 0
                )
                if status == 0:
                    return buffer.raw[: size.value]
                if status != ERROR_INSUFFICIENT_BUFFER:
                    return None
            return None
        except (OSError, AttributeError, ValueError):
            return None

    class _BasicInformation(ctypes.Structure):
        """``PROCESS_BASIC_INFORMATION``."""

        _fields_ = (
            ("ExitStatus", ctypes.c_long),
            ("PebBaseAddress", ctypes.c_void_p),
            ("AffinityMask", ctypes.c_size_t),
            ("BasePriority", ctypes.c_long),
            ("UniqueProcessId", ctypes.c_size_t),
            ("InheritedFromUniqueProcessId", ctypes.c_size_t),
        )

    def parent_process_id(handle: int) -> int | None:
        """``InheritedFromUniqueProcessId`` of an open process handle, or None."""
        try:
            ntdll = ctypes.WinDLL("ntdll")
            query = ntdll.NtQueryInformationProcess
            query.argtypes = (
                wintypes.HANDLE,
                ctypes.c_int,
                ctypes.c_void_p,
                wintypes.ULONG,
                ctypes.POINTER(wintypes.ULONG),
            )
            query.restype = ctypes.c_long
            info = _BasicInformation()
            written = wintypes.ULONG(0)
            status = query(
                handle,
                PROCESS_BASIC_INFORMATION_CLASS,
                ctypes.byref(info),
                ctypes.sizeof(info),
                ctypes.byref(written),
            )
            if status != 0:
                return None
            return int(info.InheritedFromUniqueProcessId) or None
        except (OSError, AttributeError, ValueError):
            return None
