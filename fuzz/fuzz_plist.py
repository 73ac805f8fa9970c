"""Fuzz the Info.plist reader: ``plist_version(data)`` returns a str or None and never raises.

Input layout: by default the input is the plist's bytes (seeds are XML and binary Info.plists).
A first byte below 0x08 makes the rest drive a generator: a dictionary with the two version keys
(strings, blanks, numbers, dates, data, nested values…) and other keys, written as an XML or a
binary plist, then patched in a few places. Unpatched, the reader must give exactly the version
the dictionary declares (as plistlib reads it back).

    python fuzz/fuzz_plist.py -atheris_runs=200000 fuzz/work/plist fuzz/corpus/plist
"""

from __future__ import annotations

import datetime
import plistlib
import sys
from pathlib import Path
from typing import Any

if not __package__:  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.common import ByteReader, main, version_text
from hermes_decl.resolver.readers import plist_version

KEYS = ("CFBundleShortVersionString", "CFBundleVersion")
OTHER_KEYS = ("CFBundleIdentifier", "CFBundleName", "", "cfbundleversion", "CFBundleVersion ")


def _value(reader: ByteReader, depth: int) -> Any:
    kind = reader.below(10 if depth < 4 else 7)
    if kind < 3:
        return version_text(reader)
    if kind == 3:
        return reader.pick(("", " ", "\t\n", " 1.0 ", "\u3000"))
    if kind == 4:
        return reader.integer() % (1 << 64) - (1 << 63) if reader.chance(1, 2) else 2.5
    if kind == 5:
        return reader.take(reader.below(12))
    if kind == 6:
        return datetime.datetime(2000 + reader.below(50), 1, 1)
    if kind == 7:
        return [_value(reader, depth + 1) for _ in range(reader.below(4))]
    if kind == 8:
        return reader.chance(1, 2)
    return {reader.pick(KEYS + OTHER_KEYS): _value(reader, depth + 1) for _ in range(2)}


def _expected(top: object) -> str | None:
    """What SPEC 6.4 says the reader gives for a top-level object."""
    if not isinstance(top, dict):
        return None
    for key in KEYS:
        value = top.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _generated(reader: ByteReader) -> tuple[bytes, str | None, bool]:
    """Plist bytes, the version they declare, and whether they were patched afterwards."""
    top: Any = {}
    for _ in range(reader.below(5)):
        key = reader.pick(KEYS) if reader.chance(2, 3) else reader.pick(OTHER_KEYS)
        top[key] = _value(reader, 0)
    if reader.chance(1, 10):
        top = _value(reader, 0)
    fmt = plistlib.FMT_BINARY if reader.chance(1, 2) else plistlib.FMT_XML
    try:
        data = plistlib.dumps(top, fmt=fmt, sort_keys=reader.chance(1, 2))
    except (TypeError, ValueError, OverflowError):
        return reader.rest(), None, True  # a value plistlib cannot write: fall back to bytes
    try:
        # What plistlib reads back: it writes some strings (U+FFFF, most control characters)
        # into XML that no XML parser accepts, itself included.
        expected = _expected(plistlib.loads(data))
    except Exception:
        expected = None
    patched = False
    for _ in range(reader.below(4)):
        at = reader.below(len(data) + 1)
        chunk = reader.take(1 + reader.below(8))
        if reader.chance(1, 2):
            data = data[:at] + chunk + data[at + len(chunk) :]
        else:
            data = data[:at] + data[at + len(chunk) :]
        patched = True
    return data, expected, patched


def TestOneInput(data: bytes) -> None:
    expected: str | None = None
    exact = False
    if data[:1] and data[0] < 0x08:
        data, expected, patched = _generated(ByteReader(data[1:]))
        exact = not patched
    found = plist_version(data)
    assert found is None or (isinstance(found, str) and found and found == found.strip()), found
    if exact:
        assert found == expected, (found, expected)


if __name__ == "__main__":
    main(TestOneInput, "plist")
