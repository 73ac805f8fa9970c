"""Registry enumeration against a fake winreg: view order, odd values, bounds, access errors."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from hermes_decl.resolver.host import Listing, UninstallEntries, UninstallEntry
from hermes_decl.resolver.winregistry import (
    DISPLAY_CLASS_KEY,
    MAX_SUBKEYS,
    MAX_VALUE_CHARS,
    UNINSTALL_KEY,
    RegistryApi,
    read_display_device_ids,
    read_uninstall_entries,
)

REG_SZ, REG_EXPAND_SZ, REG_BINARY, REG_DWORD, REG_MULTI_SZ = 1, 2, 3, 4, 7


@dataclass(eq=False)
class Key:
    """One registry key: ordered subkeys and typed values; ``denied`` makes opening it fail."""

    subkeys: dict[str, Key] = field(default_factory=dict)
    values: dict[str, tuple[Any, int]] = field(default_factory=dict)
    denied: bool = False
    enum_fails_at: int | None = None


@dataclass(frozen=True)
class Handle:
    """An opened key in the fake registry."""

    key: Key
    serial: int


class FakeWinreg:
    """The winreg functions and constants the module uses, over in-memory hives.

    HKLM has a 64-bit and a 32-bit view (chosen by KEY_WOW64_32KEY); on a 32-bit Windows both
    views are the same hive. Every open handle is tracked so tests can check they are closed.
    """

    HKEY_LOCAL_MACHINE = 0x80000002
    HKEY_CURRENT_USER = 0x80000001
    KEY_READ = 0x20019
    KEY_WOW64_64KEY = 0x0100
    KEY_WOW64_32KEY = 0x0200

    def __init__(self, *, wow64: bool = True) -> None:
        self.hklm64 = Key()
        self.hklm32 = Key() if wow64 else self.hklm64
        self.hkcu = Key()
        self.open_handles: set[Handle] = set()
        self.calls: Counter[str] = Counter()
        self._serial = 0

    def hive(self, root: int, access: int) -> Key:
        if root == self.HKEY_CURRENT_USER:
            return self.hkcu
        return self.hklm32 if access & self.KEY_WOW64_32KEY else self.hklm64

    def ensure(self, hive: Key, path: str) -> Key:
        key = hive
        for part in path.split("\\"):
            key = key.subkeys.setdefault(part, Key())
        return key

    def OpenKey(
        self, key: Handle | int, sub_key: str, reserved: int = 0, access: int = 0
    ) -> Handle:
        self.calls["OpenKey"] += 1
        current = key.key if isinstance(key, Handle) else self.hive(key, access)
        for part in sub_key.split("\\"):
            found = next((v for k, v in current.subkeys.items() if k.lower() == part.lower()), None)
            if found is None:
                raise FileNotFoundError(2, "The system cannot find the file specified")
            current = found
        if current.denied:
            raise PermissionError(5, "Access is denied")
        self._serial += 1
        handle = Handle(current, self._serial)
        self.open_handles.add(handle)
        return handle

    def EnumKey(self, key: Handle, index: int) -> str:
        self.calls["EnumKey"] += 1
        if key.key.enum_fails_at is not None and index >= key.key.enum_fails_at:
            raise OSError(259, "No more data is available")
        names = list(key.key.subkeys)
        if index >= len(names):
            raise OSError(259, "No more data is available")
        return names[index]

    def QueryValueEx(self, key: Handle, name: str) -> tuple[Any, int]:
        self.calls["QueryValueEx"] += 1
        if name not in key.key.values:
            raise FileNotFoundError(2, "The system cannot find the file specified")
        return key.key.values[name]

    def CloseKey(self, hkey: Handle) -> None:
        self.calls["CloseKey"] += 1
        self.open_handles.remove(hkey)


def uninstall(hive: Key, registry: FakeWinreg, name: str, **values: Any) -> Key:
    """An uninstall subkey with string values (or (value, type) pairs)."""
    key = registry.ensure(hive, UNINSTALL_KEY + "\\" + name)
    for value_name, value in values.items():
        key.values[value_name] = value if isinstance(value, tuple) else (value, REG_SZ)
    return key


def test_fake_winreg_satisfies_the_protocol() -> None:
    api: RegistryApi[Handle] = FakeWinreg()
    assert read_uninstall_entries(api) == ()
    assert read_display_device_ids(api) == ()


def test_entries_come_from_hklm_then_wow6432node_then_hkcu() -> None:
    reg = FakeWinreg()
    uninstall(reg.hkcu, reg, "{user}", DisplayName="User Tool", DisplayVersion="3")
    uninstall(reg.hklm32, reg, "{x86}", DisplayName="Legacy Studio", InstallLocation=r"C:\x86")
    uninstall(
        reg.hklm64,
        reg,
        "Vendor Studio",
        DisplayName="Vendor Studio 2024",
        DisplayVersion="24.1.0",
        InstallLocation=r"C:\Program Files\Vendor",
    )
    uninstall(reg.hklm64, reg, "Another", DisplayName="Another")
    assert read_uninstall_entries(reg) == (
        UninstallEntry("Vendor Studio 2024", "24.1.0", r"C:\Program Files\Vendor"),
        UninstallEntry("Another", None, None),
        UninstallEntry("Legacy Studio", None, r"C:\x86"),
        UninstallEntry("User Tool", "3", None),
    )
    assert reg.open_handles == set()
    assert reg.calls["OpenKey"] == reg.calls["CloseKey"]


def test_on_32_bit_windows_the_shared_view_is_not_repeated() -> None:
    reg = FakeWinreg(wow64=False)
    uninstall(reg.hklm64, reg, "A", DisplayName="A")
    uninstall(reg.hkcu, reg, "A", DisplayName="A")
    assert read_uninstall_entries(reg) == (
        UninstallEntry("A", None, None),
        UninstallEntry("A", None, None),  # HKCU's own entry stays
    )


def test_missing_values_and_missing_keys() -> None:
    reg = FakeWinreg()
    uninstall(reg.hklm64, reg, "empty")
    assert read_uninstall_entries(reg) == (UninstallEntry(None, None, None),)
    assert read_uninstall_entries(FakeWinreg()) == ()


@pytest.mark.parametrize(
    "value",
    [
        (42, REG_DWORD),
        (b"\x01\x02", REG_BINARY),
        (["a", "b"], REG_MULTI_SZ),
        (None, REG_SZ),
        ("", REG_SZ),
        ("   ", REG_SZ),
        ("x" * (MAX_VALUE_CHARS + 1), REG_SZ),
        ("\0hidden", REG_SZ),
    ],
)
def test_odd_values_count_as_absent(value: tuple[Any, int]) -> None:
    reg = FakeWinreg()
    uninstall(reg.hklm64, reg, "odd", DisplayName=value, DisplayVersion="1.0")
    assert read_uninstall_entries(reg) == (UninstallEntry(None, "1.0", None),)


def test_string_values_are_kept_unexpanded_and_cut_at_nul() -> None:
    reg = FakeWinreg()
    uninstall(
        reg.hklm64,
        reg,
        "s",
        DisplayName="Vendor\0garbage",
        InstallLocation=(r"%ProgramFiles%\Vendor", REG_EXPAND_SZ),
        DisplayVersion="x" * MAX_VALUE_CHARS,
    )
    (entry,) = read_uninstall_entries(reg)
    assert entry.display_name == "Vendor"
    assert entry.install_location == r"%ProgramFiles%\Vendor"
    assert entry.display_version == "x" * MAX_VALUE_CHARS


def test_access_errors_skip_the_subkey_or_the_view() -> None:
    reg = FakeWinreg()
    uninstall(reg.hklm64, reg, "A", DisplayName="A")
    uninstall(reg.hklm64, reg, "Locked", DisplayName="Locked").denied = True
    uninstall(reg.hklm64, reg, "B", DisplayName="B")
    uninstall(reg.hklm32, reg, "C", DisplayName="C")
    reg.ensure(reg.hklm32, UNINSTALL_KEY).denied = True
    uninstall(reg.hkcu, reg, "D", DisplayName="D")
    names = [entry.display_name for entry in read_uninstall_entries(reg)]
    assert names == ["A", "B", "D"]
    assert reg.open_handles == set()


def test_enumeration_errors_end_the_view() -> None:
    reg = FakeWinreg()
    for name in "ABCD":
        uninstall(reg.hklm64, reg, name, DisplayName=name)
    reg.ensure(reg.hklm64, UNINSTALL_KEY).enum_fails_at = 2
    assert [e.display_name for e in read_uninstall_entries(reg)] == ["A", "B"]


@pytest.mark.parametrize(
    ("subkeys", "view", "truncated"),
    [
        (MAX_SUBKEYS + 100, "hklm64", True),
        (MAX_SUBKEYS + 1, "hkcu", True),
        (MAX_SUBKEYS, "hklm64", False),
    ],
    ids=["past-the-bound", "one-past-the-bound-in-hkcu", "exactly-the-bound"],
)
def test_subkeys_are_bounded_and_a_cut_is_marked(subkeys: int, view: str, truncated: bool) -> None:
    reg = FakeWinreg()
    parent = reg.ensure(getattr(reg, view), UNINSTALL_KEY)
    for index in range(subkeys):
        parent.subkeys[f"k{index:05d}"] = Key(values={"DisplayName": (f"n{index}", REG_SZ)})
    entries = read_uninstall_entries(reg)
    assert isinstance(entries, UninstallEntries)
    assert (len(entries), entries.truncated) == (MAX_SUBKEYS, truncated)
    assert entries[-1].display_name == f"n{MAX_SUBKEYS - 1}"
    # One look past the bound tells a cut key from a full one; the other views have no key.
    assert reg.calls["EnumKey"] == MAX_SUBKEYS + 1
    assert reg.open_handles == set()


@pytest.mark.parametrize(
    ("adapters", "truncated"),
    [(MAX_SUBKEYS + 1, True), (MAX_SUBKEYS, False)],
    ids=["past-the-bound", "exactly-the-bound"],
)
def test_display_adapters_are_bounded_and_a_cut_is_marked(adapters: int, truncated: bool) -> None:
    reg = FakeWinreg()
    for index in range(adapters):
        display_adapter(reg, f"{index:04d}", r"PCI\VEN_1414&DEV_008E")
    ids = read_display_device_ids(reg)
    assert isinstance(ids, Listing)
    assert (len(ids), ids.truncated) == (MAX_SUBKEYS, truncated)


def display_adapter(reg: FakeWinreg, name: str, device_id: Any = None) -> Key:
    key = reg.ensure(reg.hklm64, DISPLAY_CLASS_KEY + "\\" + name)
    if device_id is not None:
        key.values["MatchingDeviceId"] = (
            device_id if isinstance(device_id, tuple) else (device_id, REG_SZ)
        )
    return key


def test_display_device_ids_from_the_adapter_class_key() -> None:
    reg = FakeWinreg()
    display_adapter(reg, "0000", r"pci\ven_8086&dev_a7a0")
    display_adapter(reg, "0001", r"PCI\VEN_10DE&DEV_2820&SUBSYS_0B2A1028")
    display_adapter(reg, "Properties").denied = True
    display_adapter(reg, "Configuration", "not an adapter")
    display_adapter(reg, "0002")  # an adapter without the value
    display_adapter(reg, "0003", (7, REG_DWORD))
    display_adapter(reg, "0004").denied = True
    display_adapter(reg, "12345", r"PCI\VEN_1002")  # not a four-digit adapter key
    assert read_display_device_ids(reg) == (
        r"pci\ven_8086&dev_a7a0",
        r"PCI\VEN_10DE&DEV_2820&SUBSYS_0B2A1028",
    )
    assert reg.open_handles == set()


def test_display_class_key_is_read_in_the_64_bit_view() -> None:
    reg = FakeWinreg()
    reg.ensure(reg.hklm32, DISPLAY_CLASS_KEY + "\\0000").values["MatchingDeviceId"] = (
        r"PCI\VEN_1002",
        REG_SZ,
    )
    assert read_display_device_ids(reg) == ()


def test_a_failing_close_changes_nothing() -> None:
    class ClosingFails(FakeWinreg):
        def CloseKey(self, hkey: Handle) -> None:
            super().CloseKey(hkey)
            raise OSError(6, "The handle is invalid")

    reg = ClosingFails()
    uninstall(reg.hklm64, reg, "A", DisplayName="A")
    assert [e.display_name for e in read_uninstall_entries(reg)] == ["A"]
