"""The PE reader at the edge of each bound and structure, on tiny images built in the test.

Each image takes its headers and its ``VS_VERSIONINFO`` from ``build_pe`` and a resource section
written here: the root directory a case is about, then RT_VERSION's names directory, its
languages directory, one data entry and the version block.
"""

from __future__ import annotations

import io
import struct

import pytest

from hermes_decl.resolver.readers import MAX_RESOURCE_TYPES, pe_file_version
from hermes_decl.testing_pe import FILE_ALIGNMENT, RSRC_RVA, RT_VERSION, build_pe

VERSION = "1.2.3.4"
BUILT = build_pe(VERSION)
(PE_AT,) = struct.unpack_from("<I", BUILT, 0x3C)
COFF_AT = PE_AT + 4
OPTIONAL_AT = COFF_AT + 20
(OPTIONAL_SIZE,) = struct.unpack_from("<H", BUILT, COFF_AT + 16)
FILE_ALIGNMENT_AT = OPTIONAL_AT + 36
DIRECTORY_COUNT_AT = OPTIONAL_AT + 108
RESOURCE_DIRECTORY_AT = OPTIONAL_AT + 112 + 2 * 8
SECTION_FIELDS_AT = OPTIONAL_AT + OPTIONAL_SIZE + 8
(BUILT_VERSION_BLOCK_RVA, BUILT_VERSION_BLOCK_SIZE) = struct.unpack_from(
    "<II", BUILT, FILE_ALIGNMENT + 72
)
VERSION_BLOCK = BUILT[FILE_ALIGNMENT + BUILT_VERSION_BLOCK_RVA - RSRC_RVA :][
    :BUILT_VERSION_BLOCK_SIZE
]
FIXED_INFO_END = 40 + 52
"""Where VS_FIXEDFILEINFO ends in the version block: after a 6-byte header, a 32-byte key and
2 bytes of padding, 52 bytes long."""
SUBDIRECTORY = 0x8000_0000
NAMES = -1
"""A root entry's target standing for RT_VERSION's names directory, wherever it lands."""


def patched(data: bytes, offset: int, fmt: str, *values: int) -> bytes:
    """``data`` with ``values`` packed over the bytes at ``offset``."""
    packed = struct.pack(fmt, *values)
    return data[:offset] + packed + data[offset + len(packed) :]


def directory(entries: list[tuple[int, int]], named: int = 0) -> bytes:
    """A resource directory whose first ``named`` entries are counted as named, the rest ids."""
    header = struct.pack("<IIHHHH", 0, 0, 0, 0, named, len(entries) - named)
    return header + b"".join(struct.pack("<II", *entry) for entry in entries)


def resources(
    root: list[tuple[int, int]],
    named: int = 0,
    *,
    names_header: tuple[int, int, int] = (0, 0, 1),
    version_size: int = len(VERSION_BLOCK),
    root_counts: tuple[int, int] | None = None,
    rva: int = RSRC_RVA,
) -> bytes:
    """A resource section: ``root`` (``NAMES`` for the names directory), then the version's path.

    ``names_header`` is the names directory's MinorVersion and its counts of named and id
    entries (it holds one entry whatever they say); ``version_size`` the data entry's Size;
    ``root_counts`` the root's counts of named and id entries, when not those of ``root``;
    ``rva`` the section's RVA, which the data entry's RVA counts from.
    """
    names = 16 + 8 * len(root)
    languages = names + 24
    data_entry = languages + 24
    block = data_entry + 16
    entries = [(name, SUBDIRECTORY | names if target == NAMES else target) for name, target in root]
    names_directory = struct.pack("<IIHHHH", 0, 0, 0, *names_header)
    root_directory = directory(entries, named)
    if root_counts is not None:
        root_directory = patched(root_directory, 12, "<HH", *root_counts)
    return (
        root_directory
        + names_directory
        + struct.pack("<II", 1, SUBDIRECTORY | languages)
        + directory([(0x409, data_entry)])
        + struct.pack("<IIII", rva + block, version_size, 0, 0)
        + VERSION_BLOCK
    )


def image(
    rsrc: bytes,
    *,
    data_at: int = FILE_ALIGNMENT,
    raw_at: int | None = None,
    raw_size: int | None = None,
    file_alignment: int = FILE_ALIGNMENT,
    directory_count: int = 16,
    rva: int = RSRC_RVA,
) -> bytes:
    """``build_pe``'s headers over ``rsrc`` at file offset ``data_at``.

    The section header says its raw data is at ``raw_at`` (default ``data_at``) and
    ``raw_size`` long (default all of ``rsrc``) and loaded at ``rva``, where the resource
    data directory points; the optional header declares ``directory_count`` data directories.
    """
    size = len(rsrc) if raw_size is None else raw_size
    pointer = data_at if raw_at is None else raw_at
    headers = patched(BUILT[:FILE_ALIGNMENT], SECTION_FIELDS_AT, "<IIII", size, rva, size, pointer)
    headers = patched(headers, RESOURCE_DIRECTORY_AT, "<II", rva, len(rsrc))
    headers = patched(headers, FILE_ALIGNMENT_AT, "<I", file_alignment)
    headers = patched(headers, DIRECTORY_COUNT_AT, "<I", directory_count)
    return headers.ljust(data_at, b"\0") + rsrc


VERSION_ONLY = resources([(RT_VERSION, NAMES)])
HIGH_RVA = 0x8000_1000
"""A section RVA with the top bit set: read as a signed field it would lie before the image."""
TAIL_HEADERS = BUILT[PE_AT:FILE_ALIGNMENT]
"""A second copy of the PE headers and section table, for an image to carry at its end."""
OTHER_TYPES = [(1000 + index, 0) for index in range(MAX_RESOURCE_TYPES)]

IMAGES: dict[str, tuple[bytes, str | None]] = {
    "as testing_pe builds it": (BUILT, VERSION),
    "RT_VERSION alone": (image(VERSION_ONLY), VERSION),
    "RT_VERSION after another type": (image(resources([(3, 0), (RT_VERSION, NAMES)])), VERSION),
    "no RT_VERSION": (image(resources([(3, NAMES)])), None),
    "named entries before the ids": (
        image(resources([(SUBDIRECTORY | 0x400, 0), (SUBDIRECTORY | 0x500, 0), (16, NAMES)], 2)),
        VERSION,
    ),
    "a named entry is never taken for RT_VERSION": (
        image(resources([(RT_VERSION, NAMES)], named=1)),
        None,
    ),
    "RT_VERSION the last of MAX_RESOURCE_TYPES ids": (
        image(resources([*OTHER_TYPES[1:], (RT_VERSION, NAMES)])),
        VERSION,
    ),
    "RT_VERSION one past MAX_RESOURCE_TYPES ids": (
        image(resources([*OTHER_TYPES, (RT_VERSION, NAMES)])),
        None,
    ),
    "a names directory counting 1 named and 65535 ids": (
        image(resources([(RT_VERSION, NAMES)], names_header=(0, 1, 0xFFFF))),
        VERSION,
    ),
    "an empty names directory, its MinorVersion set": (
        image(resources([(RT_VERSION, NAMES)], names_header=(0x100, 0, 0))),
        None,
    ),
    "a version resource that ends with its VS_FIXEDFILEINFO": (
        image(resources([(RT_VERSION, NAMES)], version_size=FIXED_INFO_END)),
        VERSION,
    ),
    "a version resource that ends a byte inside its VS_FIXEDFILEINFO": (
        image(resources([(RT_VERSION, NAMES)], version_size=FIXED_INFO_END - 1)),
        None,
    ),
    "a root counting 65535 ids, RT_VERSION among the first MAX_RESOURCE_TYPES": (
        image(resources([*OTHER_TYPES[1:], (RT_VERSION, NAMES)], root_counts=(0, 0xFFFF))),
        VERSION,
    ),
    "RT_VERSION pointing at its names directory without the subdirectory bit": (
        image(resources([(RT_VERSION, 16 + 8)])),
        None,
    ),
    "NumberOfRvaAndSizes at its largest": (
        image(VERSION_ONLY, directory_count=0xFFFF_FFFF),
        VERSION,
    ),
    "PointerToRawData off a sector boundary, the largest alignment": (
        image(VERSION_ONLY, raw_at=FILE_ALIGNMENT + 0x10, file_alignment=0x8000_0000),
        VERSION,
    ),
    "PointerToRawData off a sector boundary, sector alignment": (
        image(VERSION_ONLY, raw_at=FILE_ALIGNMENT + 0x10),
        VERSION,
    ),
    "PointerToRawData off a sector boundary, smaller alignment": (
        image(VERSION_ONLY, data_at=FILE_ALIGNMENT + 0x10, file_alignment=0x10),
        VERSION,
    ),
    "the version block ends exactly at the section's end": (
        image(VERSION_ONLY, raw_size=len(VERSION_ONLY)),
        VERSION,
    ),
    "the version block ends one byte past the section's end": (
        image(VERSION_ONLY, raw_size=len(VERSION_ONLY) - 1),
        None,
    ),
    "resources in a section at an RVA with the top bit set": (
        image(resources([(RT_VERSION, NAMES)], rva=HIGH_RVA), rva=HIGH_RVA),
        VERSION,
    ),
    "e_lfanew pointing at a second set of headers at the end of the file": (
        patched(BUILT, 0x3C, "<I", len(BUILT)) + TAIL_HEADERS,
        VERSION,
    ),
    "e_lfanew with the top bit set, a second set of headers at the end of the file": (
        patched(BUILT, 0x3C, "<I", (1 << 32) - len(TAIL_HEADERS)) + TAIL_HEADERS,
        None,
    ),
}


@pytest.mark.parametrize(("data", "expected"), IMAGES.values(), ids=list(IMAGES))
def test_pe_file_version(data: bytes, expected: str | None) -> None:
    assert pe_file_version(data) == expected
    assert pe_file_version(io.BytesIO(data)) == expected


def test_every_cut_short_image_is_unreadable() -> None:
    """Every prefix of an image short of its version block's end reads as no version."""
    data = image(VERSION_ONLY)
    whole = len(data)
    for length in range(whole):
        assert pe_file_version(data[:length]) is None, length
    assert pe_file_version(data) == VERSION


class SeekOnly:
    """Something with a ``seek`` but no ``read``: no binary file."""

    def seek(self, offset: int, whence: int = 0) -> int:
        return offset


class ReadOnly:
    """Something with a ``read`` but no ``seek``: no seekable binary file."""

    def read(self, size: int = -1) -> bytes:
        return BUILT[: max(size, 0)]


@pytest.mark.parametrize("given", [SeekOnly(), ReadOnly()], ids=["seek only", "read only"])
def test_half_a_file_is_no_file(given: object) -> None:
    assert pe_file_version(given) is None  # type: ignore[arg-type]
