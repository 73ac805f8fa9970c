"""The version readers: Info.plist and PE version resources, on real samples and hostile input.

The PE samples under fixtures/pe are built by fixtures/pe/build.sh; pefile serves as an
independent oracle for them and locates the structures that the corruption table breaks.
"""

from __future__ import annotations

import functools
import io
import plistlib
import struct
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pefile
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hermes_decl.resolver.readers import (
    MAX_PE_SECTIONS,
    MAX_PLIST_BYTES,
    MAX_VERSION_RESOURCE_BYTES,
    pe_file_version,
    plist_version,
)

PE_SAMPLES = Path(__file__).parent / "fixtures" / "pe"

SAMPLE_VERSIONS = {
    "version64.exe": "2.3.0.12594",  # PRODUCTVERSION 9.8.7.6 must not leak in
    "version32.exe": "1.65535.0.7",
    "version.dll": "10.0.19041.1",
    "multi.exe": "7.0.0.407",  # first name (named before ids), its first language (0x407)
    "novers.exe": None,  # resources, but no RT_VERSION
    "plain.exe": None,  # no resource directory at all
}


@functools.cache
def sample(name: str) -> bytes:
    return (PE_SAMPLES / name).read_bytes()


def field(structure: pefile.Structure, name: str) -> int:
    """A numeric field of a pefile structure (pefile sets them by name at run time)."""
    value = getattr(structure, name)
    assert isinstance(value, int)
    return value


def pefile_version(data: bytes) -> str | None:
    """The version pefile reports: its first VS_FIXEDFILEINFO."""
    with pefile.PE(data=data) as pe:
        if not hasattr(pe, "VS_FIXEDFILEINFO") or not pe.VS_FIXEDFILEINFO:
            return None
        fixed = pe.VS_FIXEDFILEINFO[0]
        most, least = field(fixed, "FileVersionMS"), field(fixed, "FileVersionLS")
        return f"{most >> 16}.{most & 0xFFFF}.{least >> 16}.{least & 0xFFFF}"


# ---------------------------------------------------------------------------------------------
# PE: the samples


@pytest.mark.parametrize(("name", "expected"), SAMPLE_VERSIONS.items())
def test_sample_version(name: str, expected: str | None) -> None:
    assert pe_file_version(sample(name)) == expected


@pytest.mark.parametrize("name", SAMPLE_VERSIONS)
def test_pefile_agrees_on_every_sample(name: str) -> None:
    data = sample(name)
    assert pe_file_version(data) == pefile_version(data)


def test_the_samples_are_the_shapes_they_claim() -> None:
    """A rebuild that changed what a sample is would make the other tests prove less."""
    magic = {}
    for name in SAMPLE_VERSIONS:
        with pefile.PE(data=sample(name)) as pe:
            magic[name] = field(pe.OPTIONAL_HEADER, "Magic")
            is_dll = bool(field(pe.FILE_HEADER, "Characteristics") & 0x2000)
            assert is_dll == name.endswith(".dll"), name
            assert hasattr(pe, "DIRECTORY_ENTRY_RESOURCE") == (name != "plain.exe"), name
    assert magic == {name: 0x10B if "32" in name else 0x20B for name in SAMPLE_VERSIONS}
    for name in SAMPLE_VERSIONS:
        assert len(sample(name)) <= 8 * 1024, name


@pytest.mark.parametrize("name", SAMPLE_VERSIONS)
def test_a_file_object_reads_the_same(name: str) -> None:
    data = sample(name)
    with (PE_SAMPLES / name).open("rb") as file:
        assert pe_file_version(file) == pe_file_version(data)


class CountingFile(io.BytesIO):
    """A binary file that counts what is read from it and refuses unbounded reads."""

    def __init__(self, data: bytes, *, chunk: int | None = None) -> None:
        super().__init__(data)
        self.reads = 0
        self.bytes_read = 0
        self.chunk = chunk

    def read(self, size: int | None = -1, /) -> bytes:
        assert size is not None, "an unbounded read"
        assert size >= 0, "an unbounded read"
        if self.chunk is not None:
            size = min(size, self.chunk)
        data = super().read(size)
        self.reads += 1
        self.bytes_read += len(data)
        return data


@pytest.mark.parametrize("name", ["version64.exe", "version32.exe", "version.dll"])
def test_a_large_file_costs_a_few_small_reads(name: str) -> None:
    padded = sample(name) + bytes(8 * 1024 * 1024)  # an 8 MiB overlay after the image
    file = CountingFile(padded)
    assert pe_file_version(file) == SAMPLE_VERSIONS[name]
    assert file.bytes_read < 4 * 1024
    assert file.reads <= 12


def test_short_reads_from_a_file_are_completed() -> None:
    file = CountingFile(sample("version64.exe"), chunk=3)
    assert pe_file_version(file) == "2.3.0.12594"


class UnseekableFile(io.BytesIO):
    def seek(self, offset: int, whence: int = 0, /) -> int:
        raise io.UnsupportedOperation("seek")


def test_an_unseekable_or_closed_file_is_unreadable() -> None:
    assert pe_file_version(UnseekableFile(sample("version64.exe"))) is None
    closed = io.BytesIO(sample("version64.exe"))
    closed.close()
    assert pe_file_version(closed) is None


def test_a_file_that_ends_after_the_version_resource_still_reads() -> None:
    data = sample("version64.exe")
    layout = Layout.of(data)
    assert pe_file_version(data[: layout.version_block + layout.version_size]) == "2.3.0.12594"


def test_other_objects_than_bytes_are_read_like_bytes() -> None:
    data = sample("version64.exe")
    assert pe_file_version(cast(bytes, bytearray(data))) == "2.3.0.12594"
    assert pe_file_version(cast(bytes, memoryview(data))) == "2.3.0.12594"


# ---------------------------------------------------------------------------------------------
# PE: truncated and corrupted input


@dataclass(frozen=True)
class Layout:
    """File offsets of the structures on the way to a sample's version, as pefile finds them."""

    pe_header: int
    file_header: int
    optional_header: int
    resource_data_directory: int
    section_table: int
    section_count: int
    resource_root: int
    version_type_entry: int
    name_directory: int
    language_directory: int
    language_entry: int
    data_entry: int
    version_block: int
    version_size: int
    fixed_info: int
    resource_section_header: int

    @classmethod
    def of(cls, data: bytes) -> Layout:
        with pefile.PE(data=data) as pe:
            root = pe.DIRECTORY_ENTRY_RESOURCE
            (version_type,) = [entry for entry in root.entries if entry.id == 16]
            names = version_type.directory
            languages = names.entries[0].directory
            data_entry = languages.entries[0].data.struct
            optional = pe.OPTIONAL_HEADER
            return cls(
                pe_header=field(pe.DOS_HEADER, "e_lfanew"),
                file_header=pe.FILE_HEADER.get_file_offset(),
                optional_header=optional.get_file_offset(),
                # pefile's optional header ends where the data directories begin
                resource_data_directory=optional.get_file_offset() + optional.sizeof() + 2 * 8,
                section_table=pe.sections[0].get_file_offset(),
                section_count=len(pe.sections),
                resource_root=root.struct.get_file_offset(),
                version_type_entry=version_type.struct.get_file_offset(),
                name_directory=names.struct.get_file_offset(),
                language_directory=languages.struct.get_file_offset(),
                language_entry=languages.entries[0].struct.get_file_offset(),
                data_entry=data_entry.get_file_offset(),
                version_block=pe.get_offset_from_rva(field(data_entry, "OffsetToData")),
                version_size=field(data_entry, "Size"),
                fixed_info=pe.VS_FIXEDFILEINFO[0].get_file_offset(),
                resource_section_header=pe.sections[-1].get_file_offset(),
            )

    def offsets(self) -> list[int]:
        """The file offsets of all the structures."""
        counts = {"section_count", "version_size"}
        return [value for key, value in vars(self).items() if key not in counts]

    def relative(self, offset: int) -> int:
        """A file offset in .rsrc as an offset from the resource root, as directories hold it."""
        return offset - self.resource_root


def patch(data: bytes, offset: int, fmt: str, *values: int | bytes) -> bytes:
    packed = struct.pack(fmt, *values)
    return data[:offset] + packed + data[offset + len(packed) :]


def grow_resource_section(data: bytes, at: Layout, extra: int) -> tuple[bytes, int]:
    """The sample with ``extra`` zero bytes at the end of .rsrc, and the RVA where they start.

    .rsrc is the last section of the samples and ends the file, so growing it is appending.
    """
    header = at.resource_section_header + 8
    _, rva, raw_size, raw_at = struct.unpack_from("<IIII", data, header)
    assert raw_at + raw_size == len(data)
    grown = patch(data, header, "<IIII", raw_size + extra, rva, raw_size + extra, raw_at)
    return grown + bytes(extra), rva + raw_size


def resource_directory(*entries: tuple[int, int]) -> bytes:
    """An IMAGE_RESOURCE_DIRECTORY with id entries (id, OffsetToData)."""
    header = struct.pack("<IIHHHH", 0, 0, 0, 0, 0, len(entries))
    return header + b"".join(struct.pack("<II", *entry) for entry in entries)


Corruption = Callable[[bytes, Layout], bytes]

CORRUPTIONS: dict[str, Corruption] = {
    "empty": lambda d, at: b"",
    "bad MZ": lambda d, at: b"ZM" + d[2:],
    "e_lfanew past EOF": lambda d, at: patch(d, 0x3C, "<I", len(d) + 16),
    "e_lfanew at the top of the address space": lambda d, at: patch(d, 0x3C, "<I", 0xFFFF_FFFF),
    "bad PE signature": lambda d, at: patch(d, at.pe_header, "<4s", b"PE\0\1"),
    "no sections": lambda d, at: patch(d, at.file_header + 2, "<H", 0),
    "one section too many": lambda d, at: patch(d, at.file_header + 2, "<H", MAX_PE_SECTIONS + 1),
    "huge NumberOfSections": lambda d, at: patch(d, at.file_header + 2, "<H", 0xFFFF),
    "ROM optional header": lambda d, at: patch(d, at.optional_header, "<H", 0x107),
    "optional header without directories": lambda d, at: patch(
        d, at.file_header + 16, "<H", at.resource_data_directory - at.optional_header
    ),
    "two data directories": lambda d, at: patch(d, at.resource_data_directory - 2 * 8 - 4, "<I", 2),
    "no resource directory": lambda d, at: patch(d, at.resource_data_directory, "<II", 0, 0),
    "resource RVA outside sections": lambda d, at: patch(
        d, at.resource_data_directory, "<I", 0x7FFF_0000
    ),
    "no RT_VERSION": lambda d, at: patch(d, at.version_type_entry, "<I", 17),
    "RT_VERSION is a data entry": lambda d, at: patch(
        d, at.version_type_entry + 4, "<I", at.relative(at.data_entry)
    ),
    "self-referencing resource root": lambda d, at: patch(
        d, at.version_type_entry + 4, "<I", 0x8000_0000
    ),
    "self-referencing name directory": lambda d, at: patch(
        d, at.name_directory + 16 + 4, "<I", 0x8000_0000 | at.relative(at.name_directory)
    ),
    "directory offset past EOF": lambda d, at: patch(
        d, at.version_type_entry + 4, "<I", 0x8000_0000 | 0x7FFF_0000
    ),
    "empty name directory": lambda d, at: patch(d, at.name_directory + 12, "<HH", 0, 0),
    "empty language directory": lambda d, at: patch(d, at.language_directory + 12, "<HH", 0, 0),
    "a fourth directory level": lambda d, at: patch(
        d, at.language_entry + 4, "<I", 0x8000_0000 | at.relative(at.language_directory)
    ),
    "data entry RVA outside sections": lambda d, at: patch(d, at.data_entry, "<I", 0x7FFF_0000),
    "data entry size past EOF": lambda d, at: patch(
        d, at.data_entry + 4, "<I", len(d) - at.version_block + 16
    ),
    "data entry size over the bound": lambda d, at: patch(
        d, at.data_entry + 4, "<I", MAX_VERSION_RESOURCE_BYTES + 1
    ),
    "data entry size too small for VS_FIXEDFILEINFO": lambda d, at: patch(
        d, at.data_entry + 4, "<I", at.fixed_info - at.version_block + 51
    ),
    "empty version resource": lambda d, at: patch(d, at.data_entry + 4, "<I", 0),
    "bad VS_VERSION_INFO key": lambda d, at: patch(d, at.version_block + 6, "<H", ord("W")),
    "no fixed file info": lambda d, at: patch(d, at.version_block + 2, "<H", 0),
    "bad VS_FIXEDFILEINFO signature": lambda d, at: patch(d, at.fixed_info, "<I", 0xFEEF04BC),
}


TRUNCATIONS: dict[str, Callable[[Layout], int]] = {
    "inside MZ": lambda at: 1,
    "before e_lfanew": lambda at: 0x3C,
    "inside the DOS header": lambda at: 0x3E,
    "at the PE signature": lambda at: at.pe_header,
    "at the COFF header": lambda at: at.file_header,
    "inside the COFF header": lambda at: at.file_header + 10,
    "at the optional header": lambda at: at.optional_header,
    "at the resource data directory": lambda at: at.resource_data_directory,
    "at the section table": lambda at: at.section_table,
    "inside the last section header": lambda at: at.section_table + 40 * at.section_count - 1,
    "at the resource root": lambda at: at.resource_root,
    "inside the resource root": lambda at: at.resource_root + 15,
    "at the RT_VERSION entry": lambda at: at.version_type_entry,
    "at the name directory": lambda at: at.name_directory,
    "at the language directory": lambda at: at.language_directory,
    "at the data entry": lambda at: at.data_entry,
    "at the version resource": lambda at: at.version_block,
    "inside the VS_VERSION_INFO key": lambda at: at.version_block + 20,
    "at VS_FIXEDFILEINFO": lambda at: at.fixed_info,
    "inside VS_FIXEDFILEINFO": lambda at: at.fixed_info + 12,
    "before the version resource ends": lambda at: at.version_block + at.version_size - 1,
}
CORRUPTED_SAMPLES = ["version64.exe", "version32.exe"]


@pytest.mark.parametrize("name", CORRUPTED_SAMPLES)
@pytest.mark.parametrize("corruption", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_corrupted_input_is_unreadable(name: str, corruption: Corruption) -> None:
    data = sample(name)
    broken = corruption(data, Layout.of(data))
    assert broken != data
    assert pe_file_version(broken) is None
    assert pe_file_version(io.BytesIO(broken)) is None


@pytest.mark.parametrize("name", CORRUPTED_SAMPLES)
@pytest.mark.parametrize("cut", TRUNCATIONS.values(), ids=TRUNCATIONS.keys())
def test_truncated_input_is_unreadable(name: str, cut: Callable[[Layout], int]) -> None:
    data = sample(name)
    length = cut(Layout.of(data))
    assert 0 < length < len(data)
    assert pe_file_version(data[:length]) is None
    assert pe_file_version(io.BytesIO(data[:length])) is None


def test_the_version_resource_size_bound() -> None:
    data = sample("version64.exe")
    at = Layout.of(data)
    grown, _ = grow_resource_section(data, at, MAX_VERSION_RESOURCE_BYTES)
    at_bound = patch(grown, at.data_entry + 4, "<I", MAX_VERSION_RESOURCE_BYTES)
    assert pe_file_version(at_bound) == "2.3.0.12594"
    over = patch(grown, at.data_entry + 4, "<I", MAX_VERSION_RESOURCE_BYTES + 1)
    assert pe_file_version(over) is None


@pytest.mark.parametrize(
    ("language_directory", "expected"),
    [(72, "2.3.0.12594"), (0, None), (32, None)],
    ids=["a sound tree", "looping back to the root", "looping onto itself"],
)
def test_a_resource_tree_that_loops_is_unreadable(
    language_directory: int, expected: str | None
) -> None:
    """A tree whose root's first entry is a data entry, so that a loop back to it would "work".

    root (0): type 3 → the data entry, type 16 → names (32); names: id 1 → ``language_directory``;
    data entry (56): the real version resource; languages (72): 0x409 → the data entry.
    """
    data = sample("version64.exe")
    at = Layout.of(data)
    version = data[at.data_entry : at.data_entry + 16]
    grown, tree_rva = grow_resource_section(data, at, 0x200)
    tree = (
        resource_directory((3, 56), (16, 0x8000_0000 | 32))
        + resource_directory((1, 0x8000_0000 | language_directory))
        + version
        + resource_directory((0x409, 56))
    )
    tree_at = len(data)
    grown = grown[:tree_at] + tree + grown[tree_at + len(tree) :]
    grown = patch(grown, at.resource_data_directory, "<II", tree_rva, len(tree))
    assert pe_file_version(grown) == expected


def test_the_section_count_bound() -> None:
    """With an overlay to read them from, MAX_PE_SECTIONS entries are read and one more is not.

    The real sections come first in the table; the ones made up from the bytes after it are
    never reached.
    """
    data = sample("version64.exe")
    at = Layout.of(data)
    padded = data + bytes(MAX_PE_SECTIONS * 40)
    at_bound = patch(padded, at.file_header + 2, "<H", MAX_PE_SECTIONS)
    assert pe_file_version(at_bound) == "2.3.0.12594"
    over = patch(padded, at.file_header + 2, "<H", MAX_PE_SECTIONS + 1)
    assert pe_file_version(over) is None


def test_raw_data_starts_at_a_sector_boundary() -> None:
    """As the loader and pefile do, PointerToRawData is rounded down to 512 bytes."""
    data = sample("version64.exe")
    at = Layout.of(data)
    raw_at_field = at.resource_section_header + 20
    (raw_at,) = struct.unpack_from("<I", data, raw_at_field)
    off_boundary = patch(data, raw_at_field, "<I", raw_at + 0x10)
    assert pe_file_version(off_boundary) == "2.3.0.12594"
    assert pefile_version(off_boundary) == "2.3.0.12594"


def test_the_layout_is_in_file_order() -> None:
    """The truncation table walks the structures in the order the file holds them."""
    for name in CORRUPTED_SAMPLES:
        at = Layout.of(sample(name))
        cuts = [cut(at) for cut in TRUNCATIONS.values()]
        assert cuts == sorted(cuts), name


# ---------------------------------------------------------------------------------------------
# PE: arbitrary and mutated bytes


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=4096))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    assert isinstance(pe_file_version(data), str | None)
    assert isinstance(plist_version(data), str | None)


@st.composite
def mutated_samples(draw: st.DrawFn) -> bytes:
    """A real sample with a few bytes changed, mostly in the structures the reader walks."""
    name = draw(st.sampled_from(sorted(SAMPLE_VERSIONS)))
    data = bytearray(sample(name))
    hot = [0x3C, *_structure_offsets(name)]
    for _ in range(draw(st.integers(1, 6))):
        anywhere = st.integers(0, len(data) - 1)
        near = st.sampled_from(hot).flatmap(
            lambda at: st.integers(max(0, at - 4), min(len(data) - 1, at + 24))
        )
        data[draw(st.one_of(anywhere, near))] = draw(st.integers(0, 255))
    if draw(st.booleans()):
        del data[draw(st.integers(0, len(data))) :]
    return bytes(data)


@functools.cache
def _structure_offsets(name: str) -> tuple[int, ...]:
    if SAMPLE_VERSIONS[name] is None:
        return ()
    return tuple(Layout.of(sample(name)).offsets())


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_samples())
def test_mutated_samples_never_raise(data: bytes) -> None:
    assert isinstance(pe_file_version(data), str | None)
    assert pe_file_version(io.BytesIO(data)) == pe_file_version(data)


# ---------------------------------------------------------------------------------------------
# plist


def xml(top: Any) -> bytes:
    return plistlib.dumps(top, fmt=plistlib.FMT_XML)


def binary(top: Any) -> bytes:
    return plistlib.dumps(top, fmt=plistlib.FMT_BINARY)


FORMATS = pytest.mark.parametrize("dump", [xml, binary], ids=["xml", "binary"])


@FORMATS
@pytest.mark.parametrize(
    ("top", "expected"),
    [
        ({"CFBundleShortVersionString": "2.3.1", "CFBundleVersion": "2301"}, "2.3.1"),
        ({"CFBundleVersion": "2301"}, "2301"),
        ({"CFBundleShortVersionString": "", "CFBundleVersion": "2301"}, "2301"),
        ({"CFBundleShortVersionString": " \t\n", "CFBundleVersion": "2301"}, "2301"),
        ({"CFBundleShortVersionString": 3, "CFBundleVersion": "2301"}, "2301"),
        ({"CFBundleShortVersionString": ["2.3"], "CFBundleVersion": "2301"}, "2301"),
        ({"CFBundleShortVersionString": b"2.3", "CFBundleVersion": "2301"}, "2301"),
        ({"CFBundleShortVersionString": " 2.3.1 "}, "2.3.1"),
        ({"CFBundleShortVersionString": "", "CFBundleVersion": ""}, None),
        ({"CFBundleVersion": 2301}, None),
        ({"CFBundleVersion": True}, None),
        ({"CFBundleName": "Studio"}, None),
        ({}, None),
    ],
    ids=[
        "short version first",
        "bundle version alone",
        "empty short version",
        "blank short version",
        "integer short version",
        "array short version",
        "data short version",
        "stripped",
        "both empty",
        "integer bundle version",
        "boolean bundle version",
        "neither",
        "empty dict",
    ],
)
def test_plist_version(dump: Callable[[Any], bytes], top: Any, expected: str | None) -> None:
    assert plist_version(dump(top)) == expected


@FORMATS
@pytest.mark.parametrize(
    "top",
    [["CFBundleVersion", "1.0"], "1.0", 1, True],
    ids=["array", "string", "integer", "boolean"],
)
def test_plist_top_level_must_be_a_dict(dump: Callable[[Any], bytes], top: Any) -> None:
    assert plist_version(dump(top)) is None


VALID_XML = xml({"CFBundleVersion": "1.0"})
VALID_BINARY = binary({"CFBundleVersion": "1.0"})


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not a plist at all",
        b"\x00" * 64,
        VALID_XML[: len(VALID_XML) // 2],
        VALID_BINARY[:-1],
        VALID_BINARY[: len(VALID_BINARY) // 2],
        b"bplist00" + b"\xff" * 40,
        VALID_XML.replace(b"<string>1.0</string>", b"<integer>1.0</integer>"),
        VALID_XML.replace(b"<string>1.0</string>", b"<data>!!!</data>"),
        VALID_XML.replace(b"<string>1.0</string>", b"<date>yesterday</date>"),
        VALID_XML.replace(b"<string>1.0</string>", b"<integer>" + b"9" * 5000 + b"</integer>"),
        VALID_XML.replace(b"<key>", b"<clef>"),
        b'<?xml version="1.0"?><plist><dict><key>CFBundleVersion</key>',
        "<?xml version='1.0' encoding='utf-8'?><plist>\udcff</plist>".encode(
            "utf-8", "surrogatepass"
        ),
    ],
    ids=[
        "empty",
        "text",
        "zeros",
        "xml cut in half",
        "binary without its last byte",
        "binary cut in half",
        "binary trailer garbage",
        "non-integer integer",
        "bad base64",
        "bad date",
        "integer past int's digit limit",
        "unknown element",
        "unclosed xml",
        "undecodable xml",
    ],
)
def test_garbage_plists_are_unreadable(data: bytes) -> None:
    assert plist_version(data) is None


def test_entity_expansion_is_refused() -> None:
    laughs = b"".join(
        b'<!ENTITY l%d "%s">' % (level, b"&l%d;" % (level - 1) * 10) for level in range(1, 10)
    )
    data = (
        b'<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY l0 "ha">' + laughs + b"]>"
        b"<plist><dict><key>CFBundleVersion</key><string>&l9;</string></dict></plist>"
    )
    assert plist_version(data) is None


def _deep_binary_plist(depth: int) -> bytes:
    """A binary plist {"CFBundleVersion": [[[…]]]} nested ``depth`` arrays deep, written by hand."""
    objects = [b"\xd1" + struct.pack(">HH", 1, 2), b"\x5f\x10\x0f" + b"CFBundleVersion"]
    objects += [b"\xa1" + struct.pack(">H", index + 1) for index in range(2, depth + 1)]
    objects.append(b"\xa0")
    offsets, body = [], b"bplist00"
    for obj in objects:
        offsets.append(len(body))
        body += obj
    table = b"".join(struct.pack(">I", offset) for offset in offsets)
    trailer = struct.pack(">6xBBQQQ", 4, 2, len(objects), 0, len(body))
    return body + table + trailer


def test_deep_binary_nesting_is_unreadable() -> None:
    data = _deep_binary_plist(sys.getrecursionlimit() + 100)
    with pytest.raises((RecursionError, plistlib.InvalidFileException)):
        plistlib.loads(data)  # what the reader has to survive
    assert plist_version(data) is None
    assert plistlib.loads(_deep_binary_plist(5))["CFBundleVersion"] == [[[[[]]]]]


@FORMATS
def test_size_bound(dump: Callable[[Any], bytes]) -> None:
    def padded(size: int) -> bytes:
        padding = 0
        for _ in range(3):  # a binary plist's length field grows with the padding
            data = dump({"CFBundleVersion": "4.5", "Padding": "x" * padding})
            padding += size - len(data)
        assert len(data) == size
        return data

    assert plist_version(padded(MAX_PLIST_BYTES)) == "4.5"
    too_large = padded(MAX_PLIST_BYTES + 1)
    assert plistlib.loads(too_large)["CFBundleVersion"] == "4.5"
    assert plist_version(too_large) is None


# Text that XML can carry unchanged: no surrogates, control characters or non-characters.
_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Cn")), max_size=12)
_VALUES = st.one_of(
    _TEXT,
    st.sampled_from(["", " ", "  \t", " 1.2 "]),
    st.integers(-(2**63), 2**63 - 1),
    st.booleans(),
    st.binary(max_size=4),
    st.lists(_TEXT, max_size=2),
)


@given(
    short=st.none() | _VALUES,
    bundle=st.none() | _VALUES,
    dump=st.sampled_from([xml, binary]),
)
def test_plist_rule_on_generated_dicts(
    short: object, bundle: object, dump: Callable[[Any], bytes]
) -> None:
    top: dict[str, object] = {"CFBundleName": "Studio"}
    if short is not None:
        top["CFBundleShortVersionString"] = short
    if bundle is not None:
        top["CFBundleVersion"] = bundle
    data = dump(top)
    expected = next(
        (v.strip() for v in (short, bundle) if isinstance(v, str) and v.strip()),
        None,
    )
    assert plist_version(data) == expected


@st.composite
def mutated_plists(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from([VALID_XML, VALID_BINARY])))
    for _ in range(draw(st.integers(1, 4))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data)


@settings(max_examples=300)
@given(mutated_plists())
def test_mutated_plists_never_raise(data: bytes) -> None:
    assert isinstance(plist_version(data), str | None)


class _TextReader:
    """A stream whose read() returns text, not bytes."""

    def seek(self, offset: int, whence: int = 0) -> int:
        return offset

    def read(self, size: int = -1) -> str:
        return "MZ" * max(size, 1)


@pytest.mark.parametrize(
    "given",
    [None, 42, "MZ", io.StringIO("MZ text"), _TextReader(), [b"MZ"]],
    ids=["none", "int", "str", "text-io", "text-reader", "list"],
)
def test_the_readers_never_raise_whatever_they_are_handed(given: object) -> None:
    assert pe_file_version(given) is None  # type: ignore[arg-type]
    assert plist_version(given) is None  # type: ignore[arg-type]
