"""Fuzz the PE version reader: ``pe_file_version`` returns ``a.b.c.d`` or None, never raises.

Input layout: by default the input is the file's bytes (seeds are the samples built by
tests/fixtures/pe/build.sh and images from ``hermes_decl.testing_pe``). A first byte below 0x08
makes the rest drive a generator: a minimal PE32+ image with a random file version, then patched
with interesting 8/16/32-bit values at header, section-table and resource offsets. Unpatched, the
reader must give exactly the version built in.

Every input is read three ways, which must agree: from ``bytes``, from an ``io.BytesIO``, and
from a stream that returns at most a few bytes per ``read`` call. The file is read with a few
seeks (at most ``MAX_SEEKS``) and a bounded number of bytes (at most ``MAX_BYTES_READ``), however
large it claims to be.

    python fuzz/fuzz_pe.py -atheris_runs=200000 fuzz/work/pe fuzz/corpus/pe
"""

from __future__ import annotations

import io
import re
import struct
import sys
from pathlib import Path

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader, main
from hermes_decl.resolver.readers import pe_file_version
from hermes_decl.testing_pe import FILE_ALIGNMENT, build_pe

MAX_SEEKS = 12
"""Headers (4 reads), the root resource directory (2), two more levels, the data entry, the
version resource: ten seeks; two spare."""
MAX_BYTES_READ = 64 + 24 + 240 + 96 * 40 + 16 + 256 * 8 + 2 * 24 + 16 + 64 * 1024
"""The most the reader may take: each structure on its way at its largest bound."""

_VERSION = re.compile(r"(\d+)\.(\d+)\.(\d+)\.(\d+)")
_PE_AT = 0x40
_OFFSETS = (
    0x3C,  # e_lfanew
    _PE_AT,  # PE signature
    _PE_AT + 6,  # NumberOfSections
    _PE_AT + 20,  # SizeOfOptionalHeader
    _PE_AT + 24,  # Magic
    _PE_AT + 24 + 36,  # FileAlignment
    _PE_AT + 24 + 108,  # NumberOfRvaAndSizes
    _PE_AT + 24 + 112 + 16,  # the resource directory's RVA
    _PE_AT + 24 + 112 + 20,  # … and size
    _PE_AT + 24 + 240 + 8,  # the section's VirtualSize
    _PE_AT + 24 + 240 + 12,  # VirtualAddress
    _PE_AT + 24 + 240 + 16,  # SizeOfRawData
    _PE_AT + 24 + 240 + 20,  # PointerToRawData
    FILE_ALIGNMENT + 12,  # the root resource directory's entry counts
    FILE_ALIGNMENT + 16,  # its first entry: the type id…
    FILE_ALIGNMENT + 20,  # … and the name directory's offset
    FILE_ALIGNMENT + 24 + 12,  # the name directory's entry counts
    FILE_ALIGNMENT + 24 + 20,  # the language directory's offset
    FILE_ALIGNMENT + 48 + 20,  # the data entry's offset
    FILE_ALIGNMENT + 72,  # the data entry: the version resource's RVA…
    FILE_ALIGNMENT + 76,  # … and size
    FILE_ALIGNMENT + 88,  # VS_VERSIONINFO: wLength
    FILE_ALIGNMENT + 90,  # wValueLength
    FILE_ALIGNMENT + 94,  # the "VS_VERSION_INFO" key
    FILE_ALIGNMENT + 128,  # VS_FIXEDFILEINFO's signature
    FILE_ALIGNMENT + 136,  # dwFileVersionMS
)
_VALUES = (
    0,
    1,
    2,
    0x10,
    0x34,
    0x7F,
    0x80,
    0xFF,
    0x100,
    0x200,
    0x1000,
    0xFFFF,
    0x7FFF_FFFF,
    0x8000_0000,
)


class _Trickle(io.BytesIO):
    """A seekable stream that returns at most ``chunk`` bytes per read and counts its use."""

    def __init__(self, data: bytes, chunk: int) -> None:
        super().__init__(data)
        self.chunk = chunk
        self.seeks = 0
        self.taken = 0

    def seek(self, offset: int, whence: int = 0, /) -> int:
        self.seeks += 1
        return super().seek(offset, whence)

    def read(self, size: int | None = -1, /) -> bytes:
        if size is None or size < 0 or size > self.chunk:
            size = self.chunk
        chunk = super().read(size)
        self.taken += len(chunk)
        return chunk


def _generated(reader: ByteReader) -> tuple[bytes, str | None]:
    """PE bytes, and the version they must give when nothing was patched (else None)."""
    quad = [reader.below(0x10000) if reader.chance(1, 2) else reader.below(12) for _ in range(4)]
    version = ".".join(map(str, quad))
    image = bytearray(build_pe(version))
    patched = False
    for _ in range(reader.below(5)):
        patched = True
        at = reader.pick(_OFFSETS) if reader.chance(2, 3) else reader.below(len(image) + 16)
        width = reader.pick((1, 2, 4))
        value = reader.pick(_VALUES) if reader.chance(2, 3) else reader.below(1 << 32)
        packed = struct.pack("<I", value % (1 << 32))[:width]
        if reader.chance(1, 8):
            image[at:] = b""  # cut the file short here
        else:
            image[at : at + width] = packed
    return bytes(image), None if patched else version


def TestOneInput(data: bytes) -> None:
    expected: str | None = None
    exact = False
    if data[:1] and data[0] < 0x08:
        data, expected = _generated(ByteReader(data[1:]))
        exact = expected is not None
    found = pe_file_version(data)
    if found is not None:
        match = _VERSION.fullmatch(found)
        assert match is not None, found
        assert all(int(part) <= 0xFFFF for part in match.groups()), found
    if exact:
        assert found == expected, (found, expected)
    assert pe_file_version(io.BytesIO(data)) == found
    stream = _Trickle(data, 1 + len(data) % 7)
    assert pe_file_version(stream) == found
    assert stream.seeks <= MAX_SEEKS, stream.seeks
    assert stream.taken <= MAX_BYTES_READ, stream.taken


if __name__ == "__main__":
    main(TestOneInput, "pe")
