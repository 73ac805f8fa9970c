"""Where an application may be: a path string, or one mapping per location kind (SPEC 3.2).

Each location-kind variant carries, as class data, the OS families it is valid under, the key
that names what to find and the presence it yields; ``hermes_decl.resolver.app.LOCATION_KINDS``
is built from these variants, so the table and the union cannot drift apart.
"""

import copy
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, ValidationInfo
from pydantic.json_schema import JsonSchemaValue

from hermes_decl.models.common import OS_FAMILIES, PRESENCES, OsFamily, Presence, fail
from hermes_decl.models.editor_schema import (
    kind_is,
    present_with,
    refusal,
    union_tags,
)
from hermes_decl.models.kinds import KindVariant, kind_union
from hermes_decl.models.one_or_list import OneOrListRule
from hermes_decl.models.path_rules import (
    APP_BUNDLE_NAME,
    BARE_NAME,
    ENTRY_PREFIX,
    LOCATION_PATHS,
    RELATIVE_FILE,
)
from hermes_decl.models.rule_object import (
    Derivation,
    Node,
    Renderer,
    RuleObject,
)
from hermes_decl.models.string_model import StringModel
from hermes_decl.models.text_rules import FLATPAK_APP_ID

BareName = Annotated[str, BARE_NAME]
RelativeFile = Annotated[str, RELATIVE_FILE]


class PathLocation(StringModel):
    """A path string, stored stripped and unexpanded; ``*`` matches text within one segment."""

    KIND: ClassVar[str] = "path"
    OS_FAMILY: ClassVar[OsFamily]

    @property
    def path(self) -> str:
        """The path, stripped of surrounding whitespace, not expanded."""
        return self.root

    @property
    def kind(self) -> Literal["path"]:
        """Always 'path': the kind a trace names this location by."""
        return "path"


class Win32PathLocation(PathLocation):
    """A path under ``app.win32``: a drive root, ``~``, ``%VAR%`` or ``$VAR`` first."""

    OS_FAMILY: ClassVar[OsFamily] = "win32"
    root: Annotated[str, LOCATION_PATHS["win32"]]


class DarwinPathLocation(PathLocation):
    """A path under ``app.darwin``: ``/``, ``~`` or ``$VAR`` first."""

    OS_FAMILY: ClassVar[OsFamily] = "darwin"
    root: Annotated[str, LOCATION_PATHS["darwin"]]


class LinuxPathLocation(PathLocation):
    """A path under ``app.linux``: ``/``, ``~`` or ``$VAR`` first."""

    OS_FAMILY: ClassVar[OsFamily] = "linux"
    root: Annotated[str, LOCATION_PATHS["linux"]]


PATH_LOCATIONS: dict[OsFamily, type[PathLocation]] = {
    "win32": Win32PathLocation,
    "darwin": DarwinPathLocation,
    "linux": LinuxPathLocation,
}


class KindLocation(KindVariant):
    """A location kind: a mapping with ``kind`` and the key that names what to find."""

    KEY: ClassVar[str]
    PRESENCE: ClassVar[Presence]

    @property
    def target(self) -> str:
        """The value of the kind's key: the command, bundle, app id or uninstall entry prefix."""
        value: str = getattr(self, self.KEY)
        return value


class CommandLocation(KindLocation):
    """A command found on the host's PATH (with PATHEXT on Windows)."""

    KIND: ClassVar[str] = "command"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = OS_FAMILIES
    KEY: ClassVar[str] = "name"
    PRESENCE: ClassVar[Presence] = "executable"
    kind: Literal["command"] = Field(description="Find a command on the host's PATH.")
    name: BareName = Field(
        description="The command's name, as typed in a shell.", examples=["blender"]
    )


class UninstallRegistryLocation(KindLocation):
    """An install folder read from the Windows uninstall entries, joined with ``file``."""

    KIND: ClassVar[str] = "uninstall_registry"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("win32",)
    KEY: ClassVar[str] = "display_name_prefix"
    PRESENCE: ClassVar[Presence] = "executable"
    kind: Literal["uninstall_registry"] = Field(
        description="Find the install folder of a Windows uninstall entry."
    )
    display_name_prefix: Annotated[str, ENTRY_PREFIX] = Field(
        description="The start of the uninstall entry's DisplayName.", examples=["Vendor App"]
    )
    file: RelativeFile = Field(
        description="The executable's path relative to the install folder.",
        examples=["bin/vendor.exe"],
    )


class AppBundleLocation(KindLocation):
    """A macOS application bundle in the Applications folders."""

    KIND: ClassVar[str] = "app_bundle"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("darwin",)
    KEY: ClassVar[str] = "name"
    PRESENCE: ClassVar[Presence] = "bundle"
    kind: Literal["app_bundle"] = Field(
        description="Find a bundle in /Applications or ~/Applications."
    )
    name: Annotated[str, APP_BUNDLE_NAME] = Field(
        description="The bundle's folder name, ending in '.app'.", examples=["Vendor.app"]
    )


class FlatpakLocation(KindLocation):
    """A Flatpak application's exported launcher."""

    KIND: ClassVar[str] = "flatpak"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("linux",)
    KEY: ClassVar[str] = "app_id"
    PRESENCE: ClassVar[Presence] = "executable"
    kind: Literal["flatpak"] = Field(description="Find a Flatpak export, system-wide or per user.")
    app_id: Annotated[str, FLATPAK_APP_ID] = Field(
        description="The Flatpak application id, as its install hint takes it.",
        examples=["com.vendor.App"],
    )


class SnapLocation(KindLocation):
    """A Snap package's launcher in the Snap bin folder."""

    KIND: ClassVar[str] = "snap"
    VALID_OS: ClassVar[tuple[OsFamily, ...]] = ("linux",)
    KEY: ClassVar[str] = "name"
    PRESENCE: ClassVar[Presence] = "executable"
    kind: Literal["snap"] = Field(description="Find a Snap package's command in /snap/bin.")
    name: BareName = Field(description="The Snap's command name.", examples=["vendor"])


KIND_LOCATIONS: tuple[type[KindLocation], ...] = (
    CommandLocation,
    UninstallRegistryLocation,
    AppBundleLocation,
    FlatpakLocation,
    SnapLocation,
)
"""Every location-kind variant, in the order the schema and the messages list them."""

LocationSpec = (
    Win32PathLocation
    | DarwinPathLocation
    | LinuxPathLocation
    | CommandLocation
    | UninstallRegistryLocation
    | AppBundleLocation
    | FlatpakLocation
    | SnapLocation
)
"""Any one place in a ``location`` list."""


def presence_mismatch_message(variant: type[KindLocation], presence: Presence) -> str:
    """What is said when a location kind finds something other than the block's presence."""
    article = "an" if variant.PRESENCE == "executable" else "a"
    return (
        f"kind {variant.KIND!r} finds {article} {variant.PRESENCE}, "
        f"but this block's presence is {presence!r}"
    )


class _PresenceCheck(RuleObject):
    """A location kind must find what the block's ``presence`` says: said in JSON Schema on the
    block, per presence, and in the fast schema by the block's variant for each presence."""

    MODE = "after"

    def check(self, location: Any, info: ValidationInfo) -> Any:
        """The location, when its kind finds the block's presence."""
        presence = info.data.get("presence")
        if (
            isinstance(location, KindLocation)
            and presence is not None
            and presence != location.PRESENCE
        ):
            fail("presence_mismatch", presence_mismatch_message(type(location), presence))
        return location

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        generated = renderer.generate_inner(schema["schema"])
        model, pending = renderer.model_frame()
        field = model.model_fields["locations"]
        key = field.alias or "locations"
        tags = set(union_tags(schema["schema"]))
        for presence in PRESENCES:
            others = [v for v in KIND_LOCATIONS if v.KIND in tags and presence != v.PRESENCE]
            if not others:
                continue
            refusals = {
                "allOf": [
                    {
                        "if": kind_is(variant.KIND),
                        "then": {
                            "properties": {
                                "kind": refusal(presence_mismatch_message(variant, presence))
                            }
                        },
                    }
                    for variant in others
                ]
            }
            pending.append(
                {
                    "$comment": "presence_mismatch",
                    "if": present_with("presence", {"const": presence}),
                    "then": {
                        "properties": {
                            key: {
                                "if": {"type": "array"},
                                "then": {"items": refusals},
                                "else": copy.deepcopy(refusals),
                            }
                        }
                    },
                }
            )
        return generated

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        """Said by the block's variant for that presence, whose location union holds only the
        kinds that find it."""
        if presence is None:
            raise TypeError("a presence check outside a block split by presence")
        return derivation.node(schema["schema"], presence)


_PRESENCE_CHECK = _PresenceCheck()


def location_item(os_family: OsFamily) -> Any:
    """The type of one item of ``location`` under an OS block."""
    union = kind_union(
        os_family,
        KIND_LOCATIONS,
        default_kind=None,
        string_variant=PATH_LOCATIONS[os_family],
    )
    return Annotated[union, _PRESENCE_CHECK]


def location_list(os_family: OsFamily) -> Any:
    """The type of a ``location`` value under an OS block: one place or a non-empty list."""
    item = location_item(os_family)
    return Annotated[tuple[item, ...], _LOCATION_LIST]  # type: ignore[valid-type]


EMPTY_LOCATION = "must not be empty: give a path, a location mapping, or a list of them"
"""What is said of an empty ``location`` list."""


MAX_LOCATIONS = 64
"""The most places one OS block's ``location`` (or one OS of the overrides file) may list."""

TOO_MANY_LOCATIONS = f"must list at most {MAX_LOCATIONS} places"
"""What is said of a ``location`` list longer than ``MAX_LOCATIONS``."""

_LOCATION_LIST = OneOrListRule(
    "location",
    EMPTY_LOCATION,
    "One place to look",
    "Location",
    max_items=MAX_LOCATIONS,
    too_many=TOO_MANY_LOCATIONS,
)
