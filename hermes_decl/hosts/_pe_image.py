"""A builder of tiny, valid PE32+ executables that carry a version resource, for fake hosts.

``build_pe("1.2.3.4")`` returns the bytes of an x64 image with a DOS header, PE32+ headers and
one ``.rsrc`` section holding RT_VERSION (16) → id 1 → language 0x409 → a ``VS_VERSIONINFO``
whose ``VS_FIXEDFILEINFO`` carries the file version. It is what ``FakeHost.add_pe`` writes (and
so a host snapshot's ``pe_version``), and lets a test on any OS exercise the ``pe_resource``
version reader without a Windows binary.
"""

from __future__ import annotations

import struct

FILE_ALIGNMENT = 0x200
SECTION_ALIGNMENT = 0x1000
RSRC_RVA = 0x1000
"""Where the ``.rsrc`` section is mapped (the first page after the headers)."""

RT_VERSION = 16
VS_FIXEDFILEINFO_SIGNATURE = 0xFEEF04BD
LANG_EN_US = 0x409

_PE_OFFSET = 0x40
_OPTIONAL_HEADER_SIZE = 240  # PE32+ with 16 data directories
_RESOURCE_DATA_DIRECTORY = 2


def parse_version_quad(version: str) -> tuple[int, int, int, int]:
    """``"1.2.3.4"`` as four 16-bit parts; missing trailing parts are 0 (``"7.1"`` → 7.1.0.0)."""
    parts = version.split(".")
    if not 1 <= len(parts) <= 4 or not all(p.isascii() and p.isdigit() for p in parts):
        raise ValueError(f"a PE version is 1 to 4 dot-separated numbers, got {version!r}")
    numbers = [int(p) for p in parts] + [0] * (4 - len(parts))
    if any(n > 0xFFFF for n in numbers):
        raise ValueError(f"each PE version part must be at most 65535, got {version!r}")
    return numbers[0], numbers[1], numbers[2], numbers[3]


def build_pe(
    file_version: str,
    *,
    product_version: str | None = None,
    string_file_version: str | None = None,
) -> bytes:
    """The bytes of a minimal PE32+ image whose fixed file version is ``file_version``.

    ``product_version`` defaults to the file version. The StringFileInfo's ``FileVersion`` text
    defaults to it too; pass ``string_file_version`` to make it differ (the fixed one is what
    Windows and the resolver report).
    """
    strings = {
        "FileVersion": string_file_version or file_version,
        "ProductVersion": product_version or file_version,
    }
    rsrc = _resource_section(
        parse_version_quad(file_version),
        parse_version_quad(product_version or file_version),
        strings,
    )
    raw_size = _align(len(rsrc), FILE_ALIGNMENT)
    headers = _headers(rsrc_virtual_size=len(rsrc), rsrc_raw_size=raw_size)
    return headers + rsrc.ljust(raw_size, b"\0")


def _align(value: int, alignment: int) -> int:
    """``value`` rounded up to a multiple of ``alignment``."""
    return (value + alignment - 1) // alignment * alignment


def _headers(*, rsrc_virtual_size: int, rsrc_raw_size: int) -> bytes:
    """DOS header, PE signature, COFF header, PE32+ optional header and the section table."""
    dos = bytearray(_PE_OFFSET)
    dos[0:2] = b"MZ"
    struct.pack_into("<I", dos, 0x3C, _PE_OFFSET)

    coff = struct.pack(
        "<HHIIIHH",
        0x8664,  # Machine: x64
        1,  # NumberOfSections
        0,  # TimeDateStamp
        0,  # PointerToSymbolTable
        0,  # NumberOfSymbols
        _OPTIONAL_HEADER_SIZE,
        0x0022,  # EXECUTABLE_IMAGE | LARGE_ADDRESS_AWARE
    )
    size_of_image = _align(RSRC_RVA + rsrc_virtual_size, SECTION_ALIGNMENT)
    optional = struct.pack(
        "<HBBIIIII",
        0x20B,  # Magic: PE32+
        14,  # MajorLinkerVersion
        0,  # MinorLinkerVersion
        0,  # SizeOfCode
        rsrc_raw_size,  # SizeOfInitializedData
        0,  # SizeOfUninitializedData
        0,  # AddressOfEntryPoint (none: a resource-only image)
        0,  # BaseOfCode
    ) + struct.pack(
        "<QIIHHHHHHIIIIHHQQQQII",
        0x140000000,  # ImageBase
        SECTION_ALIGNMENT,
        FILE_ALIGNMENT,
        6,  # MajorOperatingSystemVersion
        0,
        0,  # MajorImageVersion
        0,
        6,  # MajorSubsystemVersion
        0,
        0,  # Win32VersionValue
        size_of_image,
        FILE_ALIGNMENT,  # SizeOfHeaders
        0,  # CheckSum
        2,  # Subsystem: Windows GUI
        0x8160,  # DllCharacteristics: high entropy VA, dynamic base, NX, terminal server aware
        0x100000,  # SizeOfStackReserve
        0x1000,  # SizeOfStackCommit
        0x100000,  # SizeOfHeapReserve
        0x1000,  # SizeOfHeapCommit
        0,  # LoaderFlags
        16,  # NumberOfRvaAndSizes
    )
    directories = bytearray(16 * 8)
    struct.pack_into("<II", directories, _RESOURCE_DATA_DIRECTORY * 8, RSRC_RVA, rsrc_virtual_size)
    section = struct.pack(
        "<8sIIIIIIHHI",
        b".rsrc",
        rsrc_virtual_size,  # VirtualSize
        RSRC_RVA,  # VirtualAddress
        rsrc_raw_size,  # SizeOfRawData
        FILE_ALIGNMENT,  # PointerToRawData: right after the headers
        0,  # PointerToRelocations
        0,  # PointerToLinenumbers
        0,  # NumberOfRelocations
        0,  # NumberOfLinenumbers
        0x40000040,  # INITIALIZED_DATA | MEM_READ
    )
    headers = bytes(dos) + b"PE\0\0" + coff + optional + bytes(directories) + section
    assert len(optional) + len(directories) == _OPTIONAL_HEADER_SIZE
    return headers.ljust(FILE_ALIGNMENT, b"\0")


def _resource_section(
    file_version: tuple[int, int, int, int],
    product_version: tuple[int, int, int, int],
    strings: dict[str, str],
) -> bytes:
    """The ``.rsrc`` contents: three directory levels, one data entry, then VS_VERSIONINFO."""
    type_dir = 0
    name_dir = type_dir + 16 + 8
    lang_dir = name_dir + 16 + 8
    data_entry = lang_dir + 16 + 8
    version_info = data_entry + 16
    info = _version_info(file_version, product_version, strings)

    def directory(entry_id: int, offset: int, *, subdirectory: bool) -> bytes:
        target = offset | 0x80000000 if subdirectory else offset
        return struct.pack("<IIHHHH", 0, 0, 0, 0, 0, 1) + struct.pack("<II", entry_id, target)

    return (
        directory(RT_VERSION, name_dir, subdirectory=True)
        + directory(1, lang_dir, subdirectory=True)
        + directory(LANG_EN_US, data_entry, subdirectory=False)
        + struct.pack("<IIII", RSRC_RVA + version_info, len(info), 0, 0)
        + info
    )


def _version_info(
    file_version: tuple[int, int, int, int],
    product_version: tuple[int, int, int, int],
    strings: dict[str, str],
) -> bytes:
    """A ``VS_VERSIONINFO`` block: its ``VS_FIXEDFILEINFO``, a StringFileInfo and a VarFileInfo."""
    fixed = struct.pack(
        "<13I",
        VS_FIXEDFILEINFO_SIGNATURE,
        0x00010000,  # dwStrucVersion
        file_version[0] << 16 | file_version[1],
        file_version[2] << 16 | file_version[3],
        product_version[0] << 16 | product_version[1],
        product_version[2] << 16 | product_version[3],
        0x3F,  # dwFileFlagsMask
        0,  # dwFileFlags
        0x00040004,  # dwFileOS: VOS_NT_WINDOWS32
        1,  # dwFileType: VFT_APP
        0,  # dwFileSubtype
        0,  # dwFileDateMS
        0,  # dwFileDateLS
    )
    string_entries = [
        _block(name, _utf16z(text), value_length=len(text) + 1, text=True)
        for name, text in strings.items()
    ]
    string_table = _block("040904b0", b"", value_length=0, text=True, children=string_entries)
    string_file_info = _block(
        "StringFileInfo", b"", value_length=0, text=True, children=[string_table]
    )
    translation = _block(
        "Translation", struct.pack("<HH", LANG_EN_US, 1200), value_length=4, text=False
    )
    var_file_info = _block("VarFileInfo", b"", value_length=0, text=True, children=[translation])
    return _block(
        "VS_VERSION_INFO",
        fixed,
        value_length=len(fixed),
        text=False,
        children=[string_file_info, var_file_info],
    )


def _utf16z(text: str) -> bytes:
    """``text`` as NUL-terminated UTF-16LE, as version resources store strings."""
    return (text + "\0").encode("utf-16-le")


def _block(
    key: str,
    value: bytes,
    *,
    value_length: int,
    text: bool,
    children: list[bytes] | None = None,
) -> bytes:
    """One version-resource block: header, key, value and children, each 32-bit aligned."""
    body = bytearray(struct.pack("<HHH", 0, value_length, 1 if text else 0) + _utf16z(key))
    body += b"\0" * (_align(len(body), 4) - len(body))
    body += value
    for child in children or []:
        body += b"\0" * (_align(len(body), 4) - len(body))
        body += child
    struct.pack_into("<H", body, 0, len(body))
    return bytes(body)
