"""Reading the Windows registry through a small winreg-like seam, so the logic runs on every OS.

``LiveHost`` passes the real ``winreg`` module on Windows; tests pass a fake object with the same
few functions and constants. Every enumeration is bounded and every access error is skipped: a
key that cannot be opened or a value that cannot be read counts as absent. A key with more
subkeys than the bound is read up to it and the answer is marked ``truncated``, so no reader
takes a cut list for the whole one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Protocol, TypeVar

from hermes_decl.resolver.host import Listing, UninstallEntries, UninstallEntry

UNINSTALL_KEY = r"SOFTWARE\Microsoft\Windows\CurrentVersion\Uninstall"
"""The uninstall key, read under HKLM (both registry views) and HKCU."""

DISPLAY_CLASS_KEY = r"SYSTEM\CurrentControlSet\Control\Class\{4d36e968-e325-11ce-bfc1-08002be10318}"
"""The display-adapter device class key; each adapter is a four-digit subkey (``0000``…)."""

MAX_SUBKEYS = 4096
"""At most this many subkeys of one key are enumerated; past it the answer is marked truncated."""

MAX_VALUE_CHARS = 32768
"""A string value longer than this counts as absent (Windows paths stop at 32767 characters)."""

HandleT = TypeVar("HandleT")


class RegistryApi(Protocol[HandleT]):
    """The part of ``winreg`` this module uses; the real module satisfies it structurally."""

    @property
    def HKEY_LOCAL_MACHINE(self) -> int: ...

    @property
    def HKEY_CURRENT_USER(self) -> int: ...

    @property
    def KEY_READ(self) -> int: ...

    @property
    def KEY_WOW64_64KEY(self) -> int: ...

    @property
    def KEY_WOW64_32KEY(self) -> int: ...

    def OpenKey(
        self, key: HandleT | int, sub_key: str, reserved: int = ..., access: int = ..., /
    ) -> HandleT:
        """Open a subkey; raises ``OSError`` when it is missing or access is denied."""
        ...

    def EnumKey(self, key: HandleT, index: int, /) -> str:
        """The name of the ``index``-th subkey; raises ``OSError`` past the last one."""
        ...

    def QueryValueEx(self, key: HandleT, name: str, /) -> tuple[Any, int]:
        """A value and its registry type; raises ``OSError`` when it is missing."""
        ...

    def CloseKey(self, hkey: HandleT, /) -> None:
        """Close an opened key."""
        ...


class _Enumeration:
    """What enumerating subkeys found out besides the subkeys: whether a bound cut it."""

    def __init__(self) -> None:
        self.truncated = False


def read_uninstall_entries(api: RegistryApi[HandleT]) -> UninstallEntries:
    """Uninstall entries from HKLM's 64-bit view, its 32-bit (WOW6432Node) view, then HKCU.

    Within a view, entries come in the registry's subkey order. On 32-bit Windows both HKLM
    views are the same key, so an entry already read from the first view is not repeated. When
    a view has more than ``MAX_SUBKEYS`` entries, the answer is marked ``truncated``.
    """
    views = (
        (api.HKEY_LOCAL_MACHINE, api.KEY_READ | api.KEY_WOW64_64KEY),
        (api.HKEY_LOCAL_MACHINE, api.KEY_READ | api.KEY_WOW64_32KEY),
        (api.HKEY_CURRENT_USER, api.KEY_READ),
    )
    entries: list[UninstallEntry] = []
    hklm_seen: set[tuple[str, UninstallEntry]] = set()
    enumeration = _Enumeration()
    for root, access in views:
        for subkey_name, entry in _uninstall_view(api, root, access, enumeration):
            if root == api.HKEY_LOCAL_MACHINE:
                if (subkey_name, entry) in hklm_seen:
                    continue
                hklm_seen.add((subkey_name, entry))
            entries.append(entry)
    return UninstallEntries(entries, truncated=enumeration.truncated)


def read_display_device_ids(api: RegistryApi[HandleT]) -> Listing:
    """The ``MatchingDeviceId`` of every display adapter (``PCI\\VEN_10DE&DEV_…``), in key order.

    When the class key has more than ``MAX_SUBKEYS`` subkeys, the answer is marked ``truncated``.
    """
    access = api.KEY_READ | api.KEY_WOW64_64KEY
    ids: list[str] = []
    enumeration = _Enumeration()
    adapters = _subkeys(api, api.HKEY_LOCAL_MACHINE, DISPLAY_CLASS_KEY, access, enumeration)
    for subkey_name, handle in adapters:
        if len(subkey_name) != 4 or not subkey_name.isdigit():
            continue  # "Properties", "Configuration": not adapters
        device_id = _string_value(api, handle, "MatchingDeviceId")
        if device_id is not None:
            ids.append(device_id)
    return Listing(ids, truncated=enumeration.truncated)


def _uninstall_view(
    api: RegistryApi[HandleT], root: int, access: int, enumeration: _Enumeration
) -> Iterator[tuple[str, UninstallEntry]]:
    """Each uninstall subkey of one registry view, with the values the resolver reads."""
    for subkey_name, handle in _subkeys(api, root, UNINSTALL_KEY, access, enumeration):
        yield (
            subkey_name,
            UninstallEntry(
                display_name=_string_value(api, handle, "DisplayName"),
                display_version=_string_value(api, handle, "DisplayVersion"),
                install_location=_string_value(api, handle, "InstallLocation"),
            ),
        )


def _subkeys(
    api: RegistryApi[HandleT], root: int, path: str, access: int, enumeration: _Enumeration
) -> Iterator[tuple[str, HandleT]]:
    """Each openable subkey of ``root\\path`` (at most ``MAX_SUBKEYS``), opened with ``access``.

    The handle is only valid until the iteration moves on; unreadable subkeys are skipped. When
    the key has a subkey past the bound, ``enumeration.truncated`` becomes True.
    """
    parent = _open(api, root, path, access)
    if parent is None:
        return
    try:
        for index in range(MAX_SUBKEYS + 1):
            try:
                name = api.EnumKey(parent, index)
            except OSError:
                break  # ERROR_NO_MORE_ITEMS, or the key went away
            if index == MAX_SUBKEYS:
                enumeration.truncated = True
                break
            if not isinstance(name, str) or not name:
                continue
            child = _open(api, parent, name, access)
            if child is None:
                continue
            try:
                yield name, child
            finally:
                _close(api, child)
    finally:
        _close(api, parent)


def _open(api: RegistryApi[HandleT], key: HandleT | int, path: str, access: int) -> HandleT | None:
    """An opened subkey, or None when it is missing or cannot be opened."""
    try:
        return api.OpenKey(key, path, 0, access)
    except (OSError, ValueError, TypeError):
        return None


def _close(api: RegistryApi[HandleT], handle: HandleT) -> None:
    """Close a key, ignoring errors (a failed close changes nothing we read)."""
    with contextlib.suppress(OSError):
        api.CloseKey(handle)


def _string_value(api: RegistryApi[HandleT], handle: HandleT, name: str) -> str | None:
    """A string value (REG_SZ or REG_EXPAND_SZ, unexpanded); None when missing, blank or odd.

    A value of another type, a blank string, or one longer than ``MAX_VALUE_CHARS`` counts as
    absent; text after an embedded NUL is dropped, as Windows itself would read it.
    """
    try:
        value, _value_type = api.QueryValueEx(handle, name)
    except (OSError, ValueError, TypeError):
        return None
    if not isinstance(value, str) or len(value) > MAX_VALUE_CHARS:
        return None
    value = value.split("\0", 1)[0]
    return value if value.strip() else None
