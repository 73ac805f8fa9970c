"""What the harnesses share: a byte reader, declaration-shaped values, error checks, ``main``.

The harnesses decode their input with ``ByteReader`` (not atheris's ``FuzzedDataProvider``), so
that one input means the same thing under atheris, under the plain driver and in the smoke test,
and a crash found by one reproduces with the others.
"""

from __future__ import annotations

import datetime
import functools
import math
import re
import struct
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TypeVar

from hermes_decl.declaration import DeclarationError

_T = TypeVar("_T")

# ---------------------------------------------------------------------------------------------
# Reading choices from bytes


class ByteReader:
    """Turns fuzz bytes into choices; an exhausted reader answers 0, so generation always ends."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._at = 0

    @property
    def remaining(self) -> int:
        return len(self._data) - self._at

    def byte(self) -> int:
        if self._at >= len(self._data):
            return 0
        value = self._data[self._at]
        self._at += 1
        return value

    def below(self, bound: int) -> int:
        """A number in ``[0, bound)`` (0 when ``bound`` is 0 or 1)."""
        if bound <= 1:
            return 0
        if bound <= 0x100:
            return self.byte() % bound
        value = 0
        for _ in range((bound.bit_length() + 7) // 8):
            value = (value << 8) | self.byte()
        return value % bound

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator

    def pick(self, options: Sequence[_T]) -> _T:
        return options[self.below(len(options))]

    def take(self, count: int) -> bytes:
        chunk = self._data[self._at : self._at + count]
        self._at += len(chunk)
        return chunk

    def rest(self) -> bytes:
        return self.take(self.remaining)

    def integer(self) -> int:
        kind = self.below(6)
        if kind == 0:
            return self.below(16)
        if kind == 1:
            return self.pick(INTERESTING_INTS)
        if kind == 2:
            return int.from_bytes(self.take(4), "little", signed=True)
        if kind == 3:
            return int.from_bytes(self.take(8), "little", signed=True)
        if kind == 4:
            power: int = 10 ** self.below(40)  # int ** int is Any to mypy (it may be a float)
            return power if self.chance(1, 2) else -power
        return int.from_bytes(self.take(self.below(32)), "little")

    def floating(self) -> float:
        if self.chance(1, 2):
            return self.pick(INTERESTING_FLOATS)
        raw = self.take(8).ljust(8, b"\0")
        value: float = struct.unpack("<d", raw)[0]
        return value

    def text(self, max_length: int = 24) -> str:
        """Random text: ASCII, UTF-8, any code point (lone surrogates too), or vocabulary glued."""
        length = self.below(max_length + 1)
        kind = self.below(5)
        if kind == 0:
            return "".join(chr(0x20 + self.below(0x5F)) for _ in range(length))
        if kind == 1:
            return self.take(length).decode("utf-8", "replace")
        if kind == 2:
            return "".join(chr(self.below(0x110000)) for _ in range(length))
        if kind == 3:
            return "".join(self.pick(FRAGMENTS) for _ in range(min(length, 6)))
        return "".join(self.pick(ODD_CHARACTERS) for _ in range(length))


INTERESTING_INTS: tuple[int, ...] = (
    0,
    1,
    -1,
    2,
    7,
    255,
    256,
    65535,
    65536,
    2**31 - 1,
    -(2**31),
    2**32,
    2**63 - 1,
    -(2**63),
    2**64,
    10**18,
    10**4300,
    -(10**5000),
)
INTERESTING_FLOATS = (
    0.0,
    -0.0,
    0.5,
    1.0,
    2.3,
    1e308,
    -1e308,
    5e-324,
    math.inf,
    -math.inf,
    math.nan,
)
ODD_CHARACTERS = (
    "\0",
    "\t",
    "\n",
    "\r",
    "\x0b",
    "\x1c",
    "\x85",
    "\xa0",
    "\u2028",
    "\u3000",
    "\ufeff",
    "\ud800",
    "\udfff",
    "\U0001f600",
    "é",
    "İ",
    "ß",
    "٣",
    "３",
    "①",
    "%",
    "$",
    "~",
    "*",
    "?",
    "[",
    "]",
    "{",
    "}",
    "/",
    "\\",
    ":",
    ".",
    "..",
    '"',
    "'",
)

# ---------------------------------------------------------------------------------------------
# The declaration vocabulary

OS_KEYS = ("win32", "darwin", "linux")
NOT_OS_KEYS = ("macos", "windows", "Linux", "win64", "", "osx")
BLOCK_KEYS = ("presence", "location", "version", "liveness")
TYPO_KEYS = ("presense", "locations", "versoin", "livenes", "kinds", "min_versoin", "gpus", "nme")
PRESENCES = ("executable", "bundle", "exe", "Executable", "")
LOCATION_KINDS = ("command", "uninstall_registry", "app_bundle", "flatpak", "snap", "path")
LOCATION_KEYS = {
    "command": "name",
    "uninstall_registry": "display_name_prefix",
    "app_bundle": "name",
    "flatpak": "app_id",
    "snap": "name",
    "path": "path",
}
VERSION_KINDS = ("none", "pe_resource", "plist", "uninstall_registry", "registry", "")
LIVENESS_KINDS = ("none", "server_json", "http")
LIVENESS_KEYS = ("path", "pid_key", "url_key", "token_key", "endpoint_path")
REQUIRES_KEYS = ("app", "min_version", "gpu", "arch")
GPUS = ("nvidia", "amd", "intel", "NVIDIA", "apple_silicon", "")
ARCHES = ("x86_64", "arm64", "amd64", "aarch64", "ARM64", "")
HINT_KEYS = ("winget", "brew_cask", "brew", "flatpak", "snap", "url", "remote", "wingett")
HINT_VALUES = (
    "Vendor.Studio",
    "vendor-studio",
    "vendor-studio@beta",
    "vendor/tap/vendor-cli",
    "com.vendor.Studio",
    "flathub",
    "https://vendor.example/download",
    "https://u:p@vendor.example/",
    "http://vendor.example/",
    "a--b",
    "-x",
    "",
)
DISPLAY_NAMES = ("Vendor Studio", " Vendor", "Vendor\n", "V" * 81, "\u202eoidutS", "")
ALL_KEYS = (
    *OS_KEYS,
    *BLOCK_KEYS,
    *REQUIRES_KEYS,
    "kind",
    "name",
    "app_id",
    "display_name_prefix",
    "file",
    "path",
    *LIVENESS_KEYS[1:],
    "requires",
    "app",
    "display_name",
    "min_os_version",
    "install",
    *HINT_KEYS,
)
PATH_PREFIXES = (
    "/",
    "C:\\",
    "C:/",
    "c:",
    "~",
    "~/",
    "~user/",
    "%ProgramFiles%/",
    "%ProgramFiles(x86)%\\",
    "%A=B%/",
    "%%/",
    "$HOME/",
    "${HOME}/",
    "${1BAD}/",
    "$/",
    "\\\\server\\share\\",
    "//server/share/",
    "/\\x/",
    "\\\\?\\C:\\",
    "\\\\.\\pipe\\",
    "///",
    "x://",
    "file:///",
    "",
    " ",
    "./",
    "../",
)
SEGMENTS = (
    "opt",
    "Vendor",
    "Vendor App *",
    "*",
    "**",
    "..",
    ".",
    "",
    "a b",
    "x.exe",
    "vendor.exe",
    "Vendor.app",
    "[ab]",
    "?",
    "%",
    "$",
    "%TEMP%",
    "$X",
    "é",
    "\0",
    "x://y",
    ":",
    "a:b",
)
FRAGMENTS = (*ALL_KEYS, *PATH_PREFIXES, *SEGMENTS, *GPUS, "2.3.0", "true", "null", "-", "=")


def path_text(reader: ByteReader) -> str:
    """A location or liveness path: a prefix and segments, sometimes padded with whitespace."""
    parts = [reader.pick(SEGMENTS) for _ in range(reader.below(5))]
    if reader.chance(1, 6):
        parts.append(reader.text(8))
    separator = reader.pick(("/", "\\", "/", "//"))
    text = reader.pick(PATH_PREFIXES) + separator.join(parts)
    if reader.chance(1, 8):
        text = reader.pick((" ", "\t", "\n ", "\u3000")) + text + reader.pick((" ", "\n", ""))
    return text


def name_text(reader: ByteReader) -> str:
    """The value of a location kind's key, or of a liveness key."""
    kind = reader.below(6)
    if kind == 0:
        return reader.pick(("vendor", "Vendor App", "com.vendor.App", "Vendor.app", "pid", "http"))
    if kind == 1:
        return reader.pick(("", " ", "..", "a/b", "a\\b", "C:", "x://y", "a:b", ".", "-"))
    if kind == 2:
        return path_text(reader)
    return reader.text()


def version_text(reader: ByteReader) -> str:
    """A version string: dotted digits, sometimes with suffixes, spaces or odd digits."""
    parts = []
    for _ in range(1 + reader.below(6)):
        kind = reader.below(8)
        if kind < 4:
            parts.append(str(reader.below(1000)))
        elif kind == 4:
            parts.append("0" * reader.below(12) + "9" * reader.below(12))
        elif kind == 5:
            parts.append(reader.pick(("beta", "v2", "2-rc1", "", " ", "x", "٣", "３", "+b")))
        elif kind == 6:
            parts.append("1" * reader.below(400))
        else:
            parts.append(reader.text(6))
    return reader.pick(("", "", "v", " ", "V")) + ".".join(parts) + reader.pick(("", "", " (x64)"))


def any_value(reader: ByteReader, depth: int) -> object:
    """Any value the parser may be handed: YAML's types and a few more, nested."""
    kind = reader.below(17 if depth < 6 else 11)
    if kind == 0:
        return None
    if kind == 1:
        return reader.chance(1, 2)
    if kind == 2:
        return reader.integer()
    if kind == 3:
        return reader.floating()
    if kind in (4, 5):
        return reader.text()
    if kind == 6:
        return reader.pick(FRAGMENTS)
    if kind == 7:
        return reader.take(reader.below(16))
    if kind == 8:
        return version_text(reader)
    if kind == 9:
        return path_text(reader)
    if kind == 10:
        return datetime.date(2000 + reader.below(100), 1 + reader.below(12), 1 + reader.below(28))
    if kind == 11:
        return [any_value(reader, depth + 1) for _ in range(reader.below(5))]
    if kind == 12:
        return tuple(any_value(reader, depth + 1) for _ in range(reader.below(4)))
    if kind == 13:
        return frozenset(scalar_key(reader) for _ in range(reader.below(4)))
    if kind == 14:
        return any_mapping(reader, depth + 1)
    if kind == 15:
        return looping(reader, depth)
    return hostile(reader, depth)


class HostileMapping(Mapping[object, object]):
    """A mapping whose reading fails part-way (as a hostile or broken object's might)."""

    def __init__(self, items: dict[object, object], fail_after: int) -> None:
        self._items = items
        self._fail_after = fail_after

    def __getitem__(self, key: object) -> object:
        if self._fail_after == 0:
            raise RuntimeError("cannot read a value")
        return self._items[key]

    def __iter__(self) -> Iterator[object]:
        for index, key in enumerate(self._items):
            if index >= self._fail_after:
                raise RuntimeError("cannot list the keys")
            yield key

    def __len__(self) -> int:
        return len(self._items)


class HostileText(str):
    """A string whose comparison and hashing fail."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("cannot compare")

    def __hash__(self) -> int:
        raise RuntimeError("cannot hash")


def hostile(reader: ByteReader, depth: int) -> object:
    """A value whose own methods fail: the parser must still answer with a DeclarationError."""
    if reader.chance(1, 2):
        return HostileText(reader.pick(FRAGMENTS))
    return HostileMapping(any_mapping(reader, depth + 1), reader.below(4))


def scalar_key(reader: ByteReader) -> object:
    """A mapping key: mostly vocabulary and text, sometimes another hashable value."""
    kind = reader.below(10)
    if kind < 5:
        return reader.pick(ALL_KEYS + TYPO_KEYS)
    if kind < 8:
        return reader.text(12)
    if kind == 8:
        return reader.pick((None, True, False, 0, 1, 2.5, (1, 2), b"app", frozenset()))
    return reader.integer()


def any_mapping(reader: ByteReader, depth: int) -> dict[object, object]:
    return {scalar_key(reader): any_value(reader, depth + 1) for _ in range(reader.below(5))}


def looping(reader: ByteReader, depth: int) -> object:
    """A list or mapping that contains itself, as a YAML anchor can make one."""
    if reader.chance(1, 2):
        items: list[object] = [any_value(reader, depth + 1)]
        items.append(items)
        return items
    mapping: dict[object, object] = {"kind": reader.pick(LOCATION_KINDS)}
    mapping[reader.pick(ALL_KEYS)] = mapping
    return mapping


def maybe_noise(reader: ByteReader, depth: int, make: Callable[[], object]) -> object:
    """Usually what ``make`` builds; sometimes any other value in its place."""
    if reader.chance(1, 10):
        return any_value(reader, depth + 1)
    return make()


def _extra_keys(reader: ByteReader, mapping: dict[object, object], depth: int) -> None:
    for _ in range(reader.below(3) if reader.chance(1, 4) else 0):
        mapping[scalar_key(reader)] = any_value(reader, depth + 1)


def location_item(reader: ByteReader, depth: int) -> object:
    if reader.chance(1, 2):
        return path_text(reader)
    kind = reader.pick(LOCATION_KINDS)
    item: dict[object, object] = {}
    if reader.chance(7, 8):
        item["kind"] = kind
    key = LOCATION_KEYS[kind] if reader.chance(7, 8) else reader.pick(tuple(LOCATION_KEYS.values()))
    item[key] = maybe_noise(reader, depth, lambda: name_text(reader))
    if kind == "uninstall_registry" or reader.chance(1, 8):
        item["file"] = maybe_noise(reader, depth, lambda: _relative_path(reader))
    _extra_keys(reader, item, depth)
    return item


def _relative_path(reader: ByteReader) -> str:
    parts = [reader.pick(SEGMENTS) for _ in range(1 + reader.below(3))]
    lead = reader.pick(("", "", "", "/", "\\", "C:"))
    return lead + reader.pick(("/", "\\")).join(parts)


def location_value(reader: ByteReader, depth: int) -> object:
    shape = reader.below(6)
    if shape == 0:
        return path_text(reader)
    if shape == 1:
        return location_item(reader, depth)
    return [location_item(reader, depth + 1) for _ in range(reader.below(5))]


def version_value(reader: ByteReader, depth: int) -> object:
    spec: dict[object, object] = {}
    if reader.chance(7, 8):
        spec["kind"] = reader.pick(VERSION_KINDS)
    if spec.get("kind") == "uninstall_registry" or reader.chance(1, 8):
        spec["display_name_prefix"] = maybe_noise(reader, depth, lambda: name_text(reader))
    _extra_keys(reader, spec, depth)
    return spec


def liveness_value(reader: ByteReader, depth: int) -> object:
    spec: dict[object, object] = {}
    if reader.chance(7, 8):
        spec["kind"] = reader.pick(LIVENESS_KINDS)
    for key in LIVENESS_KEYS:
        if reader.chance(1, 2):
            if key == "path":
                spec[key] = maybe_noise(reader, depth, lambda: path_text(reader))
            elif key == "endpoint_path":
                spec[key] = maybe_noise(
                    reader,
                    depth,
                    lambda: (
                        reader.pick(("/mcp", "/", "/a/../b", "/x?q", "/x#f", "mcp", "//h/x"))
                        + reader.pick(("", "", reader.text(6)))
                    ),
                )
            else:
                spec[key] = maybe_noise(reader, depth, lambda: name_text(reader))
    _extra_keys(reader, spec, depth)
    return spec


def install_hint(reader: ByteReader, depth: int) -> object:
    """One install hint: usually one package manager key, sometimes two, a remote or a typo."""
    hint: dict[object, object] = {}
    for _ in range(1 + (reader.below(3) == 0)):
        value = reader.pick(HINT_VALUES) if reader.chance(3, 4) else reader.text()
        hint[reader.pick(HINT_KEYS)] = maybe_noise(reader, depth, functools.partial(str, value))
    _extra_keys(reader, hint, depth)
    return hint


def install_value(reader: ByteReader, depth: int) -> object:
    """``install``: one hint or a list of them (maybe empty)."""
    if reader.chance(1, 2):
        return install_hint(reader, depth)
    return [install_hint(reader, depth + 1) for _ in range(reader.below(4))]


def os_block(reader: ByteReader, depth: int) -> object:
    block: dict[object, object] = {}
    makers: dict[str, Callable[[], object]] = {
        "presence": lambda: reader.pick(PRESENCES),
        "location": lambda: location_value(reader, depth + 1),
        "version": lambda: version_value(reader, depth + 1),
        "liveness": lambda: liveness_value(reader, depth + 1),
        "min_os_version": lambda: version_text(reader),
        "install": lambda: install_value(reader, depth + 1),
    }
    for key, make in makers.items():
        if reader.chance(7, 8) if key in ("presence", "location") else reader.chance(1, 2):
            block[key] = maybe_noise(reader, depth, make)
    _extra_keys(reader, block, depth)
    return block


def app_value(reader: ByteReader, depth: int = 0) -> object:
    """An ``app`` block: usually OS keys with declaration-shaped blocks, sometimes anything."""
    if reader.chance(1, 12):
        return any_value(reader, depth)
    app: dict[object, object] = {}
    for _ in range(1 + reader.below(3)):
        key = reader.pick(OS_KEYS) if reader.chance(7, 8) else reader.pick(NOT_OS_KEYS)
        app[key] = (
            None
            if reader.chance(1, 16)
            else maybe_noise(reader, depth, lambda: os_block(reader, depth + 1))
        )
    if reader.chance(1, 4):
        app["display_name"] = reader.pick(DISPLAY_NAMES) if reader.chance(3, 4) else reader.text()
    return app


def requires_value(reader: ByteReader, depth: int = 0) -> object:
    """A ``requires`` block: usually its own keys, sometimes anything."""
    if reader.chance(1, 12):
        return any_value(reader, depth)
    requires: dict[object, object] = {}
    makers: dict[str, Callable[[], object]] = {
        "app": lambda: reader.chance(3, 4),
        "min_version": lambda: (
            ".".join(str(reader.below(20)) for _ in range(1 + reader.below(4)))
            if reader.chance(1, 2)
            else version_text(reader)
        ),
        "gpu": lambda: reader.pick(GPUS),
        "arch": lambda: (
            reader.pick(ARCHES)
            if reader.chance(1, 2)
            else [reader.pick(ARCHES) for _ in range(reader.below(3))]
        ),
    }
    for key, make in makers.items():
        if reader.chance(1, 2):
            requires[key] = maybe_noise(reader, depth, make)
    _extra_keys(reader, requires, depth)
    return requires


# ---------------------------------------------------------------------------------------------
# What every DeclarationError must look like (SPEC 4)

_CODE = re.compile(r"[a-z][a-z0-9_]*")
_PYDANTIC_WORDING = (
    "Input should",
    "Field required",
    "Extra inputs are not permitted",
    "validation error",
    "pydantic",
    "Value error,",
    "Assertion failed",
)
MAX_MESSAGE = 1000
"""A sanity bound on one issue's message: found values are shown shortened to 80 characters."""


def check_error(error: DeclarationError, where: str, *, max_line: int | None = None) -> None:
    """Assert the shape SPEC 4 gives a ``DeclarationError``; ``max_line`` bounds issue lines."""
    assert isinstance(error, DeclarationError)
    assert error.where == where, (error.where, where)
    assert error.issues, "a DeclarationError with no issue"
    for issue in error.issues:
        assert isinstance(issue.loc, str), issue
        assert isinstance(issue.code, str) and _CODE.fullmatch(issue.code), issue
        assert isinstance(issue.message, str) and issue.message, issue
        assert "\n" not in issue.message and "\n" not in issue.loc, issue
        assert len(issue.message) <= MAX_MESSAGE, issue
        for phrase in _PYDANTIC_WORDING:
            assert phrase not in issue.message, issue
        assert (issue.line is None) == (issue.column is None), issue
        if issue.line is not None and issue.column is not None:
            assert isinstance(issue.line, int) and issue.line >= 1, issue
            assert isinstance(issue.column, int) and issue.column >= 1, issue
            if max_line is not None:
                assert issue.line <= max_line, (issue, max_line)
    lines = str(error).split("\n")
    assert len(lines) == len(error.issues), lines
    assert all(line.startswith(where) for line in lines), lines
    repr(error)


# ---------------------------------------------------------------------------------------------
# Running a harness


def main(test_one_input: Callable[[bytes], None], target: str) -> None:
    """Run a harness: with atheris when it is installed, else with the plain-Python driver.

    Arguments are libFuzzer's (``-atheris_runs=N``, ``-timeout=S``, corpus directories…); the
    plain driver understands ``-runs``/``-atheris_runs``, ``-seed``, ``-max_len``, ``-timeout``
    and the corpus directories, and ignores the rest.
    """
    try:
        import atheris
    except ImportError:
        from fuzz import driver

        print("atheris is not installed: running the plain-Python driver", file=sys.stderr)
        sys.exit(driver.main([target, *driver.from_libfuzzer_args(sys.argv[1:])]))
    # Instrument everything loaded so far: hermes_decl, PyYAML, pydantic's Python parts, the
    # standard library modules the targets use. The harness imported them at its top.
    atheris.instrument_all()
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
