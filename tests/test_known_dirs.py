"""The known folders: one table in code, the same table in the README, and relocating variables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hermes_decl.models import OsFamily
from hermes_decl.resolver.known_dirs import (
    APPLICATIONS,
    COMMAND_DIRS,
    CONFIG_DIRS,
    FLATPAK,
    SNAP,
    Entry,
    Relocatable,
    config_dir,
    known_dirs,
)

README = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")


def _cell(entries: tuple[Entry, ...], os_family: OsFamily) -> str:
    sep = "\\" if os_family == "win32" else "/"
    shown = []
    for entry in entries:
        if isinstance(entry, Relocatable):
            shown.append(f"`{entry.default}` (`${entry.variable}{sep}{entry.below}`)")
        else:
            shown.append(f"`{entry}`")
    return ", ".join(shown)


def test_the_readme_table_is_the_code_table() -> None:
    rows = re.findall(r"^\| (`\w+`|overrides file) \| (\w+) \| (.+) \|$", README, flags=re.M)
    expected = [
        *(
            ("`command`", os_family, _cell(dirs, os_family))
            for os_family, dirs in COMMAND_DIRS.items()
        ),
        ("`app_bundle`", "darwin", _cell(APPLICATIONS, "darwin")),
        ("`flatpak`", "linux", _cell(FLATPAK, "linux")),
        ("`snap`", "linux", _cell(SNAP, "linux")),
        *(
            ("overrides file", os_family, _cell((entry,), os_family))
            for os_family, entry in CONFIG_DIRS.items()
        ),
    ]
    assert rows == expected


CONFIG: list[tuple[str, OsFamily, dict[str, str], str]] = [
    ("linux", "linux", {}, "~/.config/hermes-decl"),
    ("linux-xdg", "linux", {"XDG_CONFIG_HOME": "/cfg"}, "$XDG_CONFIG_HOME/hermes-decl"),
    ("linux-xdg-padded", "linux", {"XDG_CONFIG_HOME": " /cfg"}, "~/.config/hermes-decl"),
    ("linux-relative-xdg", "linux", {"XDG_CONFIG_HOME": "cfg"}, "~/.config/hermes-decl"),
    ("linux-blank-xdg", "linux", {"XDG_CONFIG_HOME": "  "}, "~/.config/hermes-decl"),
    (
        "darwin-ignores-xdg",
        "darwin",
        {"XDG_CONFIG_HOME": "/cfg"},
        "~/Library/Application Support/hermes-decl",
    ),
    ("win32", "win32", {}, "%APPDATA%\\hermes-decl"),
]


@pytest.mark.parametrize(
    ("os_family", "env", "expected"), [c[1:] for c in CONFIG], ids=[c[0] for c in CONFIG]
)
def test_the_config_folder(os_family: OsFamily, env: dict[str, str], expected: str) -> None:
    assert config_dir(os_family, env.get) == expected


@pytest.mark.parametrize(
    ("kind", "os_family"),
    [("app_bundle", "linux"), ("flatpak", "darwin"), ("snap", "win32"), ("path", "linux")],
    ids=["bundle-on-linux", "flatpak-on-mac", "snap-on-windows", "not-a-kind"],
)
def test_a_kind_has_no_folders_on_another_os(kind: str, os_family: OsFamily) -> None:
    no_env: dict[str, str] = {}
    assert known_dirs(kind, os_family, no_env.get) == ()
