"""Reading a found application's version from bytes: a bundle's Info.plist, a PE version resource.

Pure functions without host access: the caller reads through the ``Host`` and hands over the bytes
(or, for the PE reader, an open seekable binary file). Neither function raises because of what it
is given; anything unreadable, truncated or hostile gives None.
"""

from __future__ import annotations

import functools
import plistlib
import struct
from collections.abc import Callable
from typing import BinaryIO

MAX_PLIST_BYTES = 1 << 20
"""The largest Info.plist read; a larger one is unreadable without being parsed."""

MAX_PE_SECTIONS = 96
"""The most sections a PE may declare (the limit the PE format documentation gives)."""

MAX_RESOURCE_TYPES = 256
"""The most id entries of the root resource directory looked through for ``RT_VERSION``."""

MAX_VERSION_RESOURCE_BYTES = 64 * 1024
"""The largest version resource read (real ones are a few KiB at most)."""

_PLIST_VERSION_KEYS = ("CFBundleShortVersionString", "CFBundleVersion")


def plist_version(data: bytes) -> str | None:
    """The version an Info.plist (XML or binary) declares, or None when it declares none.

    ``CFBundleShortVersionString``, else ``CFBundleVersion``; a missing, blank or non-string value
    counts as absent. The top level must be a dictionary. Input over ``MAX_PLIST_BYTES`` is not
    parsed.
    """
    return plist_string(data, _PLIST_VERSION_KEYS)


def plist_string(data: bytes, keys: tuple[str, ...]) -> str | None:
    """The first of ``keys`` a plist (XML or binary) holds as non-blank text, stripped; else None.

    The top level must be a dictionary; input over ``MAX_PLIST_BYTES`` is not parsed. Never
    raises, whatever the bytes.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)) or len(data) > MAX_PLIST_BYTES:
        return None
    try:
        top = plistlib.loads(bytes(data))
    except Exception:
        # plistlib documents only InvalidFileException, but malformed input reaches it through
        # expat (ExpatError), base64 (binascii.Error), int/float/date parsing (ValueError,
        # OverflowError), the binary format's offset tables and object references (IndexError,
        # KeyError, TypeError, struct.error, RecursionError on deep nesting) and text decoding
        # (UnicodeDecodeError). Which of these a given input raises is an implementation detail
        # of the running Python, and this is the boundary where untrusted bytes must turn into
        # "unreadable", so everything is caught here. XML entity declarations, the way to a
        # billion-laughs expansion, are refused by plistlib itself; the size bound above caps the
        # rest of the work.
        return None
    if not isinstance(top, dict):
        return None
    for key in keys:
        value = top.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def pe_file_version(data: bytes | BinaryIO) -> str | None:
    """The fixed file version of a PE file's version resource, as ``a.b.c.d``, or None.

    The version is ``dwFileVersionMS``/``dwFileVersionLS`` of the ``VS_FIXEDFILEINFO`` in the first
    ``RT_VERSION`` resource: the first entry under type 16, then its first language, as the
    Windows resource loader and ``pefile`` take it. ``data`` is the whole file or an open seekable
    binary file; from a file only the headers and the structures on the way to the version
    resource are read, about ten small reads however large the file, and the file position is
    left wherever the last read ended. Anything else, and any file that fails to read, gives None.
    """
    read = _reader_of(data)
    if read is None:
        return None
    try:
        return _PEReader(read).file_version()
    except _Malformed:
        return None


class _Malformed(Exception):
    """What the PE reader raises for anything it cannot read; ``pe_file_version`` returns None."""


_Read = Callable[[int, int], bytes]
"""Exactly ``size`` bytes at file offset ``offset``, else ``_Malformed``."""


def _reader_of(data: bytes | BinaryIO) -> _Read | None:
    """How to read the bytes or binary file handed over; None for anything that is neither."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return functools.partial(_read_buffer, data)
    if callable(getattr(data, "seek", None)) and callable(getattr(data, "read", None)):
        return functools.partial(_read_file, data)
    return None


def _read_buffer(buffer: bytes | bytearray | memoryview, offset: int, size: int) -> bytes:
    """``size`` bytes of an in-memory image, cut like the file they stand for."""
    try:
        chunk = bytes(buffer[offset : offset + size])
    except (ValueError, TypeError, NotImplementedError):
        # A released memoryview (ValueError), a zero-dimensional (TypeError) or a
        # multi-dimensional one (NotImplementedError): none can be sliced as a file.
        raise _Malformed("a memoryview that cannot be sliced") from None
    return _exactly(chunk, offset, size)


def _read_file(file: BinaryIO, offset: int, size: int) -> bytes:
    """``size`` bytes of an open binary file, short reads completed."""
    chunks: list[bytes] = []
    remaining = size
    try:
        file.seek(offset)
        while remaining > 0:
            part = file.read(remaining)
            if not part:
                break
            if not isinstance(part, bytes):
                raise _Malformed(f"the file reads {type(part).__name__}, not bytes")
            chunks.append(part)
            remaining -= len(part)
    except (OSError, ValueError) as error:
        # OSError: an I/O failure, or io.UnsupportedOperation from a file that cannot seek;
        # ValueError: a closed file.
        raise _Malformed(f"the file fails to read at {offset}: {error}") from None
    return _exactly(b"".join(chunks)[:size], offset, size)


def _exactly(chunk: bytes, offset: int, size: int) -> bytes:
    """``chunk`` when it holds all ``size`` bytes asked for; fewer is malformed input."""
    if len(chunk) != size:
        raise _Malformed(f"{size} bytes at {offset} run past the end of the file")
    return chunk


_DOS_HEADER_SIZE = 64
_E_LFANEW_AT = 0x3C
_PE_SIGNATURE = b"PE\0\0"
_COFF_HEADER = "<HHIIIHH"  # Machine, NumberOfSections, …, SizeOfOptionalHeader, Characteristics
_COFF_HEADER_SIZE = struct.calcsize(_COFF_HEADER)
_PE32_MAGIC = 0x10B
_PE32_PLUS_MAGIC = 0x20B
_DATA_DIRECTORIES_AT = {_PE32_MAGIC: 96, _PE32_PLUS_MAGIC: 112}  # in the optional header
_FILE_ALIGNMENT_AT = 36  # in the optional header, both formats
_OPTIONAL_HEADER_READ = 112 + 16 * 8  # PE32+ with all 16 data directories: all that is needed
_RESOURCE_DIRECTORY_INDEX = 2
_SECTION_HEADER_SIZE = 40
_SECTION_FIELDS = "<IIII"  # VirtualSize, VirtualAddress, SizeOfRawData, PointerToRawData
_SECTION_FIELDS_AT = 8  # after the 8-byte name
_SECTOR = 0x200  # the loader reads raw data from 512-byte boundaries

_RESOURCE_DIRECTORY_SIZE = 16  # the counts of named and id entries are its last two words
_RESOURCE_ENTRY = "<II"  # Name (or id), OffsetToData (high bit: a subdirectory)
_RESOURCE_ENTRY_SIZE = struct.calcsize(_RESOURCE_ENTRY)
_RESOURCE_DATA_ENTRY_SIZE = 16  # OffsetToData (an RVA), Size, CodePage, Reserved
_SUBDIRECTORY = 0x8000_0000
_RT_VERSION = 16

_VS_VERSION_INFO_KEY = "VS_VERSION_INFO\0".encode("utf-16-le")
_VS_VERSION_INFO_HEADER = "<HHH"  # wLength, wValueLength, wType
_VS_FIXEDFILEINFO_SIZE = 52
_VS_FIXEDFILEINFO_SIGNATURE = 0xFEEF04BD


def _unpack(fmt: str, buffer: bytes, offset: int = 0) -> tuple[int, ...]:
    """Unpack little-endian unsigned fields, a buffer too short for them being malformed input."""
    try:
        return struct.unpack_from(fmt, buffer, offset)
    except struct.error:
        raise _Malformed(f"{len(buffer)} bytes hold no {fmt!r} at {offset}") from None


class _Section:
    """The file-backed part of one section: RVAs ``[rva, rva + size)`` at ``file_offset``."""

    __slots__ = ("file_offset", "rva", "size")

    def __init__(self, rva: int, size: int, file_offset: int) -> None:
        self.rva = rva
        self.size = size
        self.file_offset = file_offset


class _PEReader:
    """Reads the first version resource of a PE file, touching only the structures on the way.

    Every count and size read from the file is bounded before it is used, every offset is checked
    against the section it falls in (or fails as a short read), and the resource tree is walked
    exactly three levels deep without revisiting a directory.
    """

    def __init__(self, read: _Read) -> None:
        self._read = read
        self._sections: list[_Section] = []

    def file_version(self) -> str:
        resource_rva = self._read_headers()
        data_rva, data_size = self._find_version_resource(resource_rva)
        if data_size > MAX_VERSION_RESOURCE_BYTES:
            raise _Malformed(f"a version resource of {data_size} bytes")
        return _fixed_file_version(self._read_rva(data_rva, data_size), data_rva)

    def _read_rva(self, rva: int, size: int) -> bytes:
        """``size`` bytes at ``rva``, all within the file-backed part of one section."""
        for section in self._sections:
            if section.rva <= rva and rva + size <= section.rva + section.size:
                return self._read(section.file_offset + rva - section.rva, size)
        raise _Malformed(f"RVA {rva:#x}+{size} is in no section's raw data")

    def _read_headers(self) -> int:
        """Read the DOS, COFF and optional headers and the section table; the resource RVA."""
        dos = self._read(0, _DOS_HEADER_SIZE)
        if dos[:2] != b"MZ":
            raise _Malformed("no MZ signature")
        (pe_at,) = _unpack("<I", dos, _E_LFANEW_AT)
        headers = self._read(pe_at, len(_PE_SIGNATURE) + _COFF_HEADER_SIZE)
        if headers[: len(_PE_SIGNATURE)] != _PE_SIGNATURE:
            raise _Malformed("no PE signature")
        _, section_count, _, _, _, optional_size, _ = _unpack(
            _COFF_HEADER, headers, len(_PE_SIGNATURE)
        )
        if not 0 < section_count <= MAX_PE_SECTIONS:
            raise _Malformed(f"{section_count} sections")
        optional_at = pe_at + len(headers)
        optional = self._read(optional_at, min(optional_size, _OPTIONAL_HEADER_READ))

        (magic,) = _unpack("<H", optional)
        directories_at = _DATA_DIRECTORIES_AT.get(magic)
        if directories_at is None:
            raise _Malformed(f"optional header magic {magic:#x}")
        (file_alignment,) = _unpack("<I", optional, _FILE_ALIGNMENT_AT)
        (directory_count,) = _unpack("<I", optional, directories_at - 4)
        if directory_count <= _RESOURCE_DIRECTORY_INDEX:
            raise _Malformed("no resource data directory")
        # An image without resources has RVA 0 here, which no section maps.
        resource_rva, _ = _unpack("<II", optional, directories_at + 8 * _RESOURCE_DIRECTORY_INDEX)

        table = self._read(optional_at + optional_size, section_count * _SECTION_HEADER_SIZE)
        for index in range(section_count):
            _, rva, raw_size, raw_at = _unpack(
                _SECTION_FIELDS, table, index * _SECTION_HEADER_SIZE + _SECTION_FIELDS_AT
            )
            if file_alignment >= _SECTOR:
                # As the loader (and pefile) does: raw data starts at a 512-byte boundary.
                raw_at -= raw_at % _SECTOR
            self._sections.append(_Section(rva, raw_size, raw_at))
        return resource_rva

    def _find_version_resource(self, resource_rva: int) -> tuple[int, int]:
        """Walk type 16 → first name → first language; the version resource's (RVA, size)."""
        target = self._root_entry(resource_rva, _RT_VERSION)
        visited = {0}
        for _level in ("name", "language"):
            if not target & _SUBDIRECTORY:
                raise _Malformed("a resource data entry where a directory belongs")
            directory = target & ~_SUBDIRECTORY
            if directory in visited:
                raise _Malformed("a resource directory that loops")
            visited.add(directory)
            target = self._first_entry(resource_rva, directory)
        if target & _SUBDIRECTORY:
            raise _Malformed("a fourth level of resource directories")
        data_entry = self._read_rva(resource_rva + target, _RESOURCE_DATA_ENTRY_SIZE)
        data_rva, data_size = _unpack("<II", data_entry)
        return data_rva, data_size

    def _root_entry(self, resource_rva: int, type_id: int) -> int:
        """The OffsetToData of the root directory's entry for ``type_id``."""
        header = self._read_rva(resource_rva, _RESOURCE_DIRECTORY_SIZE)
        named_count, id_count = _unpack("<HH", header, _RESOURCE_DIRECTORY_SIZE - 4)
        # Named entries come first; ids need no look at them.
        ids_at = resource_rva + _RESOURCE_DIRECTORY_SIZE + named_count * _RESOURCE_ENTRY_SIZE
        considered = min(id_count, MAX_RESOURCE_TYPES)
        entries = self._read_rva(ids_at, considered * _RESOURCE_ENTRY_SIZE)
        for name, target in struct.iter_unpack(_RESOURCE_ENTRY, entries):
            if name == type_id:
                return int(target)
        raise _Malformed(f"no resource of type {type_id}")

    def _first_entry(self, resource_rva: int, directory: int) -> int:
        """The OffsetToData of the first entry (named or id) of a resource directory."""
        at = resource_rva + directory
        block = self._read_rva(at, _RESOURCE_DIRECTORY_SIZE + _RESOURCE_ENTRY_SIZE)
        named_count, id_count = _unpack("<HH", block, _RESOURCE_DIRECTORY_SIZE - 4)
        if named_count + id_count == 0:
            raise _Malformed("an empty resource directory")
        _, target = _unpack(_RESOURCE_ENTRY, block, _RESOURCE_DIRECTORY_SIZE)
        return target


def _fixed_file_version(block: bytes, rva: int) -> str:
    """``a.b.c.d`` from a VS_VERSIONINFO block loaded at ``rva``."""
    _, value_length, _ = _unpack(_VS_VERSION_INFO_HEADER, block)
    key_at = struct.calcsize(_VS_VERSION_INFO_HEADER)
    key_end = key_at + len(_VS_VERSION_INFO_KEY)
    if block[key_at:key_end] != _VS_VERSION_INFO_KEY:
        raise _Malformed("no VS_VERSION_INFO key")
    if value_length < _VS_FIXEDFILEINFO_SIZE:
        raise _Malformed("no VS_FIXEDFILEINFO")
    # The value starts at the next 32-bit boundary of the loaded image, as Windows reads it.
    fixed_at = -(-(rva + key_end) // 4) * 4 - rva
    if len(block) < fixed_at + _VS_FIXEDFILEINFO_SIZE:
        raise _Malformed("a VS_FIXEDFILEINFO cut short")
    signature, _, most, least = _unpack("<IIII", block, fixed_at)
    if signature != _VS_FIXEDFILEINFO_SIGNATURE:
        raise _Malformed(f"VS_FIXEDFILEINFO signature {signature:#x}")
    return f"{most >> 16}.{most & 0xFFFF}.{least >> 16}.{least & 0xFFFF}"
