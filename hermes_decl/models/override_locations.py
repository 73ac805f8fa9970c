"""The user overrides file: extra places to look for a server's application, per OS (SPEC 6.3).

The file maps a server name to OS families, each with one location or a list, exactly the forms
an OS block's ``location`` accepts and with the same rules, so a portable copy in a user's own
folder is found without editing the plugin's declaration.
"""

from typing import Any

from pydantic import ConfigDict, Field, TypeAdapter, model_validator

from hermes_decl._text import choices
from hermes_decl.models.base import FrozenModel
from hermes_decl.models.common import OS_FAMILIES, OsFamily, fail
from hermes_decl.models.locations import LocationSpec, location_list

_HELP = (
    "Extra places to look on {os}, tried before the declaration's own: a path, a location-kind "
    "mapping, or a non-empty list of them."
)


class ServerOverrides(FrozenModel):
    """One server's extra locations, per OS family."""

    win32: location_list("win32") | None = Field(  # type: ignore[valid-type]
        default=None, description=_HELP.format(os="Windows")
    )
    darwin: location_list("darwin") | None = Field(  # type: ignore[valid-type]
        default=None, description=_HELP.format(os="macOS")
    )
    linux: location_list("linux") | None = Field(  # type: ignore[valid-type]
        default=None, description=_HELP.format(os="Linux")
    )

    @model_validator(mode="after")
    def _at_least_one(self) -> "ServerOverrides":
        if not any(self.for_os(os_family) for os_family in OS_FAMILIES):
            fail("no_os_block", f"must give locations for at least one of {choices(OS_FAMILIES)}")
        return self

    def for_os(self, os_family: OsFamily) -> tuple[LocationSpec, ...]:
        """The extra locations for one OS family, in order; empty when there are none."""
        locations: tuple[LocationSpec, ...] | None = getattr(self, os_family)
        return locations or ()


OVERRIDES_ADAPTER: TypeAdapter[dict[str, ServerOverrides]] = TypeAdapter(
    dict[str, ServerOverrides], config=ConfigDict(strict=True)
)
"""Validates a whole overrides file: a mapping of server name to ``ServerOverrides``."""


def overrides_from(data: Any) -> dict[str, ServerOverrides]:
    """Validate overrides data (raises ``ValidationError``); an empty document has none."""
    return {} if data is None else OVERRIDES_ADAPTER.validate_python(data)
