"""Frozen Pydantic models of a declaration; all validation and defaults live here."""

# The modules that define model classes do not use ``from __future__ import annotations``:
# pydantic evaluates a string annotation again for every subclass of the class that declares it
# (the ClassVars of ``KindVariant``, ``InstallHint``, ``PathLocation``...), which cost first use
# about 3.5 ms; evaluated once, where the class is defined, they cost pydantic little.

# First, so that it defines every model class and then builds the parser's validators before
# any model class can build its own (see validators.py).
from hermes_decl.models import validators as validators
from hermes_decl.models.app_block import AppBlock, AppDef, DarwinAppDef, LinuxAppDef, Win32AppDef
from hermes_decl.models.common import OS_FAMILIES, OsFamily, Presence
from hermes_decl.models.install import (
    INSTALL_HINTS,
    BrewCaskHint,
    BrewHint,
    FlatpakHint,
    InstallHint,
    SnapHint,
    UrlHint,
    WingetHint,
)
from hermes_decl.models.kinds import KindVariant
from hermes_decl.models.liveness_sources import (
    InteractiveSessionLiveness,
    LivenessSpec,
    NoLiveness,
    ServerJsonLiveness,
    StaticLiveness,
)
from hermes_decl.models.locations import (
    KIND_LOCATIONS,
    AppBundleLocation,
    CommandLocation,
    FlatpakLocation,
    KindLocation,
    LocationSpec,
    PathLocation,
    SnapLocation,
    UninstallRegistryLocation,
)
from hermes_decl.models.named_declaration import Declaration
from hermes_decl.models.requires import ARCHES, Arch, Requires
from hermes_decl.models.version import (
    NoVersion,
    PeResourceVersion,
    PlistVersion,
    UninstallRegistryVersion,
    VersionSpec,
)

__all__ = [
    "ARCHES",
    "INSTALL_HINTS",
    "KIND_LOCATIONS",
    "OS_FAMILIES",
    "AppBlock",
    "AppBundleLocation",
    "AppDef",
    "Arch",
    "BrewCaskHint",
    "BrewHint",
    "CommandLocation",
    "DarwinAppDef",
    "Declaration",
    "FlatpakHint",
    "FlatpakLocation",
    "InstallHint",
    "InteractiveSessionLiveness",
    "KindLocation",
    "KindVariant",
    "LinuxAppDef",
    "LivenessSpec",
    "LocationSpec",
    "NoLiveness",
    "NoVersion",
    "OsFamily",
    "PathLocation",
    "PeResourceVersion",
    "PlistVersion",
    "Presence",
    "Requires",
    "ServerJsonLiveness",
    "SnapHint",
    "SnapLocation",
    "StaticLiveness",
    "UninstallRegistryLocation",
    "UninstallRegistryVersion",
    "UrlHint",
    "VersionSpec",
    "Win32AppDef",
    "WingetHint",
]
