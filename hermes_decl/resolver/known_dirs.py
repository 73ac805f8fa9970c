"""The folders each location kind looks in, per OS family, and the user's config folder (SPEC 6.3).

The entries are path templates in declaration form (``~``, ``$VAR``, ``%VAR%``); the resolver
expands them like any declared path, so the answer depends only on the OS asked about and the
host's environment, and a forced ``os_family`` with a fake host agree. A variable that relocates a
folder (``XDG_DATA_HOME``, ``CARGO_HOME``, ``SCOOP``…) is used only when it is set to an absolute
path; otherwise the folder's usual place is used, as the tools themselves do.

``command`` looks in the bin folders below after the host's search path: a host launched from a
desktop gets a PATH without the per-user and package-manager folders a login shell adds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hermes_decl.models import OsFamily
from hermes_decl.models.rules import DRIVE_ROOT

Getenv = Callable[[str], str | None]

PROJECT_FOLDER = "hermes-decl"
"""The subfolder of the user's config folder that holds this library's files."""


@dataclass(frozen=True)
class Relocatable:
    """A folder that an environment variable moves: ``$VAR/below`` when set, else ``default``."""

    variable: str
    below: str
    default: str

    def template(self, os_family: OsFamily, getenv: Getenv) -> str:
        """The template to expand: the variable's form when it holds an absolute path."""
        value = getenv(self.variable)
        if value and _is_absolute(value, os_family):
            sep = "\\" if os_family == "win32" else "/"
            return f"${self.variable}{sep}{self.below}"
        return self.default


Entry = str | Relocatable

APPLICATIONS: tuple[Entry, ...] = ("/Applications", "~/Applications")
FLATPAK: tuple[Entry, ...] = (
    "/var/lib/flatpak/exports/bin",
    Relocatable("XDG_DATA_HOME", "flatpak/exports/bin", "~/.local/share/flatpak/exports/bin"),
)
SNAP: tuple[Entry, ...] = ("/snap/bin",)

_CARGO_POSIX = Relocatable("CARGO_HOME", "bin", "~/.cargo/bin")
_NIX = ("~/.nix-profile/bin", "/nix/var/nix/profiles/default/bin")

COMMAND_DIRS: dict[OsFamily, tuple[Entry, ...]] = {
    "linux": (
        "~/.local/bin",
        "/usr/local/bin",
        _CARGO_POSIX,
        "/snap/bin",
        "~/bin",
        "/home/linuxbrew/.linuxbrew/bin",
        *_NIX,
        "/usr/bin",
    ),
    "darwin": (
        "/opt/homebrew/bin",
        "/usr/local/bin",
        "~/.local/bin",
        _CARGO_POSIX,
        "/opt/local/bin",
        *_NIX,
        "~/bin",
    ),
    "win32": (
        "%LOCALAPPDATA%\\Microsoft\\WinGet\\Links",
        "%ProgramFiles%\\WinGet\\Links",
        Relocatable("SCOOP", "shims", "~\\scoop\\shims"),
        Relocatable("SCOOP_GLOBAL", "shims", "%ProgramData%\\scoop\\shims"),
        Relocatable("ChocolateyInstall", "bin", "%ProgramData%\\chocolatey\\bin"),
        Relocatable("CARGO_HOME", "bin", "~\\.cargo\\bin"),
        "~\\.local\\bin",
    ),
}
"""The bin folders ``command`` looks in after the search path, in order, per OS family."""

CONFIG_DIRS: dict[OsFamily, Entry] = {
    "linux": Relocatable("XDG_CONFIG_HOME", PROJECT_FOLDER, f"~/.config/{PROJECT_FOLDER}"),
    "darwin": f"~/Library/Application Support/{PROJECT_FOLDER}",
    "win32": f"%APPDATA%\\{PROJECT_FOLDER}",
}
"""The folder of the user's configuration for this library (the overrides file), per OS family."""

_KIND_DIRS: dict[tuple[str, OsFamily], tuple[Entry, ...]] = {
    ("app_bundle", "darwin"): APPLICATIONS,
    ("flatpak", "linux"): FLATPAK,
    ("snap", "linux"): SNAP,
    **{("command", os_family): dirs for os_family, dirs in COMMAND_DIRS.items()},
}


def _is_absolute(value: str, os_family: OsFamily) -> bool:
    if os_family == "win32":
        return DRIVE_ROOT.match(value) is not None
    return value.startswith("/")


def _template(entry: Entry, os_family: OsFamily, getenv: Getenv) -> str:
    return entry.template(os_family, getenv) if isinstance(entry, Relocatable) else entry


def known_dirs(kind: str, os_family: OsFamily, getenv: Getenv) -> tuple[str, ...]:
    """The directory templates ``kind`` looks in under ``os_family``; empty where it has none."""
    entries = _KIND_DIRS.get((kind, os_family), ())
    return tuple(_template(entry, os_family, getenv) for entry in entries)


def config_dir(os_family: OsFamily, getenv: Getenv) -> str:
    """The template of this library's folder in the user's config folder under ``os_family``."""
    return _template(CONFIG_DIRS[os_family], os_family, getenv)
