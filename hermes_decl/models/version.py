"""How to read the installed application's version (SPEC 3.1, ``version``)."""

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from hermes_decl.models.common import OS_FAMILIES, OsFamily
from hermes_decl.models.kinds import KindVariant
from hermes_decl.models.path_rules import PLAIN_NAME

VersionKind = Literal["none", "pe_resource", "plist", "uninstall_registry"]


class NoVersion(KindVariant):
    """No version source: the application is gated on presence only."""

    KIND: ClassVar[str] = "none"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    kind: Literal["none"] = Field(default="none", description="Do not read a version.")


class PeResourceVersion(KindVariant):
    """The fixed file version of the executable's version resource (Windows)."""

    KIND: ClassVar[str] = "pe_resource"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("win32",)
    kind: Literal["pe_resource"] = Field(
        description="Read VS_FIXEDFILEINFO from the executable's version resource."
    )


class PlistVersion(KindVariant):
    """The bundle's ``Contents/Info.plist`` version (macOS)."""

    KIND: ClassVar[str] = "plist"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("darwin",)
    kind: Literal["plist"] = Field(
        description="Read CFBundleShortVersionString, else CFBundleVersion, from Info.plist."
    )


class UninstallRegistryVersion(KindVariant):
    """The DisplayVersion of the first matching Windows uninstall entry."""

    KIND: ClassVar[str] = "uninstall_registry"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("win32",)
    kind: Literal["uninstall_registry"] = Field(
        description="Read DisplayVersion of the first uninstall entry whose DisplayName matches."
    )
    display_name_prefix: Annotated[str, PLAIN_NAME] = Field(
        description="The start of the uninstall entry's DisplayName.", examples=["Vendor App"]
    )


NO_VERSION = NoVersion.model_construct()
"""The default version source. Made without validating, so that no model class is built at import:
pydantic-core would reuse a built class's own validator in the fast one."""

VERSION_VARIANTS: tuple[type[KindVariant], ...] = (
    NoVersion,
    PeResourceVersion,
    PlistVersion,
    UninstallRegistryVersion,
)

VersionSpec = NoVersion | PeResourceVersion | PlistVersion | UninstallRegistryVersion
"""Any version source."""
