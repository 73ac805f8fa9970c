"""The location kinds table (SPEC 3.2): one entry per kind, built from the model variants."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from hermes_decl.models import KIND_LOCATIONS, KindLocation, OsFamily, Presence


@dataclass(frozen=True)
class LocationKind:
    """One location kind: where it is valid, which key names what to find, what it yields."""

    kind: str
    valid_os: tuple[OsFamily, ...]
    key: str
    presence: Presence
    model: type[KindLocation]


LOCATION_KINDS: MappingProxyType[str, LocationKind] = MappingProxyType(
    {
        variant.KIND: LocationKind(
            kind=variant.KIND,
            valid_os=variant.VALID_OS,
            key=variant.KEY,
            presence=variant.PRESENCE,
            model=variant,
        )
        for variant in KIND_LOCATIONS
    }
)
"""Every location kind by name."""
