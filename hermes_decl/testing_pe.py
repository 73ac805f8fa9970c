"""The PE-image builder behind ``FakeHost.add_pe``, for tests (``hermes_decl.hosts._pe_image``)."""

from __future__ import annotations

from hermes_decl.hosts._pe_image import (
    FILE_ALIGNMENT,
    LANG_EN_US,
    RSRC_RVA,
    RT_VERSION,
    SECTION_ALIGNMENT,
    VS_FIXEDFILEINFO_SIGNATURE,
    build_pe,
    parse_version_quad,
)

__all__ = [
    "FILE_ALIGNMENT",
    "LANG_EN_US",
    "RSRC_RVA",
    "RT_VERSION",
    "SECTION_ALIGNMENT",
    "VS_FIXEDFILEINFO_SIGNATURE",
    "build_pe",
    "parse_version_quad",
]
