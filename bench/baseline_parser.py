"""A plain-Python parser of the declaration rules (SPEC 3.1-3.3), the yardstick of ``bench.parse``.

It takes the same plain mappings as ``hermes_decl.declaration.parse_declaration`` and applies the
same rules without Pydantic: paths per OS, location kinds per OS and presence, version and
liveness kinds, key names, the endpoint path, ``requires`` and its cross-field rules, and unknown
keys with a did-you-mean hint. A valid declaration becomes plain frozen dataclasses; an invalid
one raises ``BaselineError`` with every problem as ``(loc, code, message)``, in reading order.
It is a fair, complete implementation written for speed the way a careful author would write
plain Python, so the benchmark measures what the typed models cost on top of the rules.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

OS_FAMILIES = ("win32", "darwin", "linux")
PRESENCES = ("executable", "bundle")
MAX_SHOWN = 80
MAX_VERSION_DIGITS = 9


class LocationKind(NamedTuple):
    """One location kind: the OS it is valid under, the key naming the target, its presence."""

    valid_os: tuple[str, ...]
    key: str
    presence: str
    keys: tuple[str, ...]


LOCATION_KINDS: dict[str, LocationKind] = {
    "command": LocationKind(OS_FAMILIES, "name", "executable", ("kind", "name")),
    "uninstall_registry": LocationKind(
        ("win32",),
        "display_name_prefix",
        "executable",
        ("kind", "display_name_prefix", "file"),
    ),
    "app_bundle": LocationKind(("darwin",), "name", "bundle", ("kind", "name")),
    "flatpak": LocationKind(("linux",), "app_id", "executable", ("kind", "app_id")),
    "snap": LocationKind(("linux",), "name", "executable", ("kind", "name")),
}
"""SPEC 3.2's table of location kinds."""

VERSION_KINDS: dict[str, tuple[str, ...]] = {
    "none": OS_FAMILIES,
    "pe_resource": ("win32",),
    "plist": ("darwin",),
    "uninstall_registry": ("win32",),
}
"""Each version kind and the OS blocks it is valid under."""

_VERSION_KEYS: dict[str, tuple[str, ...]] = {
    "none": ("kind",),
    "pe_resource": ("kind",),
    "plist": ("kind",),
    "uninstall_registry": ("kind", "display_name_prefix"),
}
_LIVENESS_KEYS: dict[str, tuple[str, ...]] = {
    "none": ("kind",),
    "server_json": ("kind", "path", "pid_key", "url_key", "token_key", "endpoint_path"),
}
_OS_BLOCK_KEYS = ("presence", "location", "version", "liveness")
_REQUIRES_KEYS = ("app", "min_version", "gpu")

_SEPARATORS = "\\/"
_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_DIGITS = frozenset("0123456789")
_NAME_START = _LETTERS | {"_"}
_NAME_REST = _NAME_START | _DIGITS
_SCHEME = _LETTERS | _DIGITS | frozenset("+.-")
_KEY_NAME = _LETTERS | _DIGITS | frozenset("_.-")
_ENDPOINT = _LETTERS | _DIGITS | frozenset("._~/-")
_PLAIN_KEY = _LETTERS | _DIGITS | frozenset("_-")


# --- what a valid declaration becomes -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Location:
    """One place: ``kind`` is ``path`` or a location kind; ``target`` the path or the key value."""

    kind: str
    target: str
    file: str | None = None


@dataclass(frozen=True, slots=True)
class Version:
    """Where the version is read; ``display_name_prefix`` only for ``uninstall_registry``."""

    kind: str = "none"
    display_name_prefix: str | None = None


@dataclass(frozen=True, slots=True)
class Liveness:
    """Where a running application publishes its endpoint, with the defaults filled."""

    kind: str = "none"
    path: str | None = None
    pid_key: str = "pid"
    url_key: str = "http"
    token_key: str = "token"
    endpoint_path: str = "/mcp"


@dataclass(frozen=True, slots=True)
class AppDef:
    """The application on one OS family."""

    os_family: str
    app_id: str
    presence: str
    locations: tuple[Location, ...]
    version: Version
    liveness: Liveness


@dataclass(frozen=True, slots=True)
class AppBlock:
    """The ``app`` block: one optional ``AppDef`` per OS family."""

    win32: AppDef | None = None
    darwin: AppDef | None = None
    linux: AppDef | None = None


@dataclass(frozen=True, slots=True)
class Requires:
    """The ``requires`` block with its defaults."""

    app: bool = False
    min_version: str | None = None
    gpu: str | None = None


@dataclass(frozen=True, slots=True)
class Declaration:
    """One parsed declaration."""

    name: str
    app: AppBlock | None
    requires: Requires


# --- problems -------------------------------------------------------------------------------------


class Problem(NamedTuple):
    """One problem: the dotted data location, a stable code, and the author-facing message."""

    loc: str
    code: str
    message: str


class BaselineError(ValueError):
    """An invalid declaration; ``problems`` lists every problem in reading order."""

    def __init__(self, where: str, problems: tuple[Problem, ...]) -> None:
        super().__init__(where, problems)
        self.where = where
        self.problems = problems

    def __str__(self) -> str:
        return "\n".join(
            f"{self.where}: {p.loc}: {p.message}" if p.loc else f"{self.where}: {p.message}"
            for p in self.problems
        )


Step = tuple[str | int, int]
"""One step into the data: a key or a list index, and its position in reading order."""
Path = tuple[Step, ...]

_NOT_SHOWN = object()


def _show(value: object) -> str:
    """A found value as messages quote it, shortened, never raising."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."


def _choices(options: Iterable[str]) -> str:
    """Options listed as 'a', 'b' or 'c'."""
    quoted = [repr(option) for option in options]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _closest(found: object, options: Iterable[str]) -> str | None:
    """The did-you-mean suggestion: the closest option by difflib's default cutoff."""
    if not isinstance(found, str):
        return None
    close = difflib.get_close_matches(found, list(options), n=1)
    return close[0] if close else None


def _loc(path: Path) -> str:
    """A path as a dotted location (``app.win32.location[1]``); odd keys quoted, long ones cut."""
    text = ""
    for key, _ in path:
        if isinstance(key, int):
            text += f"[{key}]"
        elif len(key) <= MAX_SHOWN and key and all(char in _PLAIN_KEY for char in key):
            text += f".{key}" if text else key
        else:
            shown = key if len(key) <= MAX_SHOWN else key[: MAX_SHOWN - 3] + "..."
            text += f"[{json.dumps(shown)}]"
    return text


class _Report:
    """Problems as they are found, each with its place in reading order."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found: list[tuple[tuple[int, ...], Problem]] = []

    def add(
        self,
        path: Path,
        code: str,
        message: str,
        value: object = _NOT_SHOWN,
        hint: str | None = None,
    ) -> None:
        """Record one problem; ``value`` is quoted as what was found, ``hint`` added after it."""
        details = [] if value is _NOT_SHOWN else [f"got {_show(value)}"]
        if hint:
            details.append(hint)
        if details:
            message = f"{message} ({'; '.join(details)})"
        problem = Problem(_loc(path), code, message)
        self.found.append((tuple(place for _, place in path), problem))

    def sorted(self) -> tuple[Problem, ...]:
        """Every problem in reading order (a missing key sorts after its mapping's keys)."""
        self.found.sort(key=lambda entry: entry[0])
        return tuple(problem for _, problem in self.found)


def _position(raw: Mapping[Any, Any], key: str) -> int:
    """Where ``key`` sits among the string keys of ``raw``; after them all when it is absent."""
    position = 0
    for candidate in raw:
        if candidate == key and isinstance(candidate, str):
            return position
        if isinstance(candidate, str):
            position += 1
    return position


def _fields(
    raw: object, path: Path, accepted: tuple[str, ...], report: _Report
) -> dict[str, tuple[Any, int]] | None:
    """Check a mapping's shape and keys; the known keys whose value is not null, with positions.

    Unknown keys are reported at the key (null or not), with the closest accepted key as a hint;
    None means the mapping itself is unusable (not a mapping, or a key that is not a string).
    """
    if type(raw) is not dict and not isinstance(raw, Mapping):
        report.add(path, "wrong_type", "must be a mapping", raw)
        return None
    known: dict[str, tuple[Any, int]] = {}
    unknown: list[tuple[str, int]] = []
    for position, (key, value) in enumerate(raw.items()):
        if type(key) is not str and not isinstance(key, str):
            report.add(path, "non_string_key", "keys must be strings", key)
            return None
        if key in accepted:
            if value is not None:
                known[key] = (value, position)
        else:
            unknown.append((key, position))
    for key, position in unknown:
        suggestion = _closest(key, accepted)
        hint = f"did you mean {suggestion!r}?" if suggestion else f"expected {_choices(accepted)}"
        report.add((*path, (key, position)), "unknown_key", "unknown key", hint=hint)
    return known


def _string(
    fields: dict[str, tuple[Any, int]],
    raw: Mapping[Any, Any],
    key: str,
    path: Path,
    report: _Report,
) -> tuple[str | None, Path]:
    """A required string field: its value (None when missing or not a string) and its path."""
    entry = fields.get(key)
    if entry is None:
        report.add((*path, (key, _position(raw, key))), "missing_key", "is required")
        return None, path
    value, position = entry
    here = (*path, (key, position))
    if not isinstance(value, str):
        report.add(here, "wrong_type", "must be a string", value)
        return None, here
    return value, here


# --- value rules ----------------------------------------------------------------------------------


def _segments(text: str) -> list[str]:
    """A path's segments, with both separators."""
    return text.replace("\\", "/").split("/")


def _is_parent(segment: str, windows: bool) -> bool:
    """Whether a segment climbs to the parent folder."""
    if segment == "..":
        return True
    # Windows trims trailing dots and spaces from a name, so '.. ' and '...' act as '..' there.
    return windows and segment[:2] == ".." and not segment.strip(". ")


def _has_scheme(text: str) -> bool:
    """Whether ``scheme://`` occurs anywhere, in linear time."""
    pieces = text.split("://")
    for piece in pieces[:-1]:
        end = len(piece)
        start = end
        while start > 0 and piece[start - 1] in _SCHEME:
            start -= 1
        if any(char in _LETTERS for char in piece[start:end]):
            return True
    return False


def _variable_end(text: str) -> int:
    """The length of a leading ``$NAME`` or ``${NAME}``, or 0 when there is none."""
    if text[:1] != "$":
        return 0
    braced = text[1:2] == "{"
    index = 2 if braced else 1
    if index >= len(text) or text[index] not in _NAME_START:
        return 0
    index += 1
    while index < len(text) and text[index] in _NAME_REST:
        index += 1
    if braced:
        return index + 1 if text[index : index + 1] == "}" else 0
    return index


def _windows_variable(text: str) -> bool:
    """Whether ``text`` starts with ``%NAME%`` (NAME without '%', '=', '/' or '\\')."""
    if text[:1] != "%":
        return False
    close = text.find("%", 1)
    return close > 1 and not any(char in "=/\\" for char in text[1:close])


def _rooted(text: str, os_family: str) -> bool:
    """Whether a path starts where its OS allows: a root, a drive, ``~`` or a variable."""
    if text[0] == "~" or _variable_end(text):
        return True
    if os_family == "win32":
        drive = len(text) >= 3 and text[0] in _LETTERS and text[1] == ":" and text[2] in "\\/"
        return drive or _windows_variable(text)
    return text[0] == "/"


def _path(
    raw: str, os_family: str, path: Path, report: _Report, *, star: bool = True
) -> str | None:
    """A path string's rules for its OS block; the stripped path, or None after reporting."""
    text = raw.strip()
    if not text:
        report.add(path, "blank", "must not be blank", raw)
    elif "\x00" in text:
        report.add(path, "path_nul", "must not contain a NUL character", text)
    elif text[0] in _SEPARATORS and text[1:2] != "" and text[1] in _SEPARATORS:
        report.add(path, "path_network", "must not start with two separators", text)
    elif "://" in text and _has_scheme(text):
        report.add(path, "path_url", "must be a file path, not a URL", text)
    elif any(_is_parent(segment, os_family == "win32") for segment in _segments(text)):
        report.add(path, "path_parent", "must not contain a '..' segment", text)
    elif "**" in text:
        report.add(path, "path_double_star", "must not contain '**'", text)
    elif not star and "*" in text:
        report.add(path, "path_star", "must not contain '*'", text)
    elif os_family == "win32" and any(_is_device(segment) for segment in _segments(text)):
        report.add(path, "path_device", "must not have a Windows device segment", text)
    elif _rooted(text, os_family):
        return text
    elif os_family == "win32":
        report.add(
            path,
            "path_not_rooted",
            "must start at a drive root (C:\\ or C:/), or with ~, %VAR% or $VAR",
            text,
        )
    elif _windows_variable(text):
        report.add(path, "path_windows_variable", "%VAR% is a Windows form", text)
    else:
        report.add(path, "path_not_rooted", "must start with /, ~ or $VAR", text)
    return None


def _bare_name(value: str, path: Path, report: _Report) -> bool:
    """Check a kind's key value: non-blank, no separator, no ':', not '..'."""
    if not value.strip():
        report.add(path, "blank", "must not be blank", value)
        return False
    if "/" in value or "\\" in value or ":" in value or "\x00" in value or value.strip() == "..":
        report.add(path, "bad_name", "must be a bare name without '/', '\\' or ':'", value)
        return False
    return True


def _relative_file(value: str, path: Path, report: _Report) -> bool:
    """Check ``file``: relative, no drive or stream, no empty or '..' segment."""
    if not value.strip():
        report.add(path, "blank", "must not be blank", value)
        return False
    segments = _segments(value)
    if (
        ":" in value
        or "\x00" in value
        or "" in segments
        or any(_is_parent(segment, True) for segment in segments)
    ):
        report.add(path, "bad_file", "must be a relative path inside the install folder", value)
        return False
    if any(_is_device(segment) for segment in segments):
        report.add(path, "path_device", "must not have a Windows device segment", value)
        return False
    return True


_DEVICES = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [port + digit for port in ("COM", "LPT") for digit in "0123456789\u00b9\u00b2\u00b3"]
)


def _is_device(segment: str) -> bool:
    """Whether Windows opens a segment as a device: its name before any '.' or ':' and spaces."""
    name = segment.partition(".")[0].partition(":")[0].rstrip(" ")
    if not name[:-1].isascii() or not (name[-1:].isascii() or name[-1:] in "\u00b9\u00b2\u00b3"):
        return False
    return name.upper() in _DEVICES


def _key_name(value: str, path: Path, report: _Report) -> bool:
    """Check a runtime-file key: ASCII letters, digits, '_', '.' and '-' only."""
    if value and _KEY_NAME.issuperset(value):
        return True
    report.add(path, "bad_key_name", "must be a simple key name", value)
    return False


def _endpoint_path(value: str, path: Path, report: _Report) -> bool:
    """Check the MCP endpoint path: a plain absolute path with no '..', query or '//'."""
    if (
        value[:1] == "/"
        and value[1:2] != "/"
        and _ENDPOINT.issuperset(value)
        and ".." not in value.split("/")
    ):
        return True
    report.add(path, "bad_endpoint_path", "must be a plain absolute path such as '/mcp'", value)
    return False


def _min_version(value: str, path: Path, report: _Report) -> bool:
    """Check ``min_version``: ASCII dotted numeric, each part at most nine digits."""
    parts = value.split(".")
    if not all(part and _DIGITS.issuperset(part) for part in parts):
        report.add(path, "bad_version", "must be a dotted numeric version such as '2.3.0'", value)
        return False
    if any(len(part) > MAX_VERSION_DIGITS for part in parts):
        report.add(path, "bad_version", "each part must have at most 9 digits", value)
        return False
    return True


def _one_of(value: object, options: tuple[str, ...], path: Path, report: _Report) -> bool:
    """Check that a value is one of a few strings (wrong_type when not a string at all)."""
    if isinstance(value, str) and value in options:
        return True
    code = "invalid_choice" if isinstance(value, str) else "wrong_type"
    report.add(path, code, f"must be {_choices(options)}", value)
    return False


# --- the blocks -----------------------------------------------------------------------------------


def _wrong_os(kind: str, table: Mapping[str, tuple[str, ...]], path: Path, report: _Report) -> None:
    """Report a kind used under an OS block it is not valid for."""
    valid = " or ".join(f"app.{name}" for name in table[kind])
    report.add(path, "kind_wrong_os", f"kind {kind!r} is only valid under {valid}")


_LOCATION_OS = {kind: spec.valid_os for kind, spec in LOCATION_KINDS.items()}


def _location(
    raw: object, os_family: str, presence: str | None, path: Path, report: _Report
) -> Location | None:
    """One place of a ``location`` list: a path string or a location-kind mapping."""
    if isinstance(raw, str):
        text = _path(raw, os_family, path, report)
        return None if text is None else Location("path", text)
    if type(raw) is not dict and not isinstance(raw, Mapping):
        kinds = [kind for kind, valid in _LOCATION_OS.items() if os_family in valid]
        report.add(
            path, "wrong_type", f"must be a path or a mapping with kind {_choices(kinds)}", raw
        )
        return None
    kind, usable = _checked_kind(raw, _LOCATION_OS, os_family, None, path, path, report)
    if kind is None:
        return None
    spec = LOCATION_KINDS[kind]
    mark = len(report.found)
    fields = _fields(raw, path, spec.keys, report)
    if fields is None:
        return None
    target, here = _string(fields, raw, spec.key, path, report)
    if target is not None:
        if spec.key == "display_name_prefix" and not target.strip():
            report.add(here, "blank", "must not be blank", target)
        else:
            _bare_name(target, here, report)
    file = None
    if kind == "uninstall_registry":
        file, here = _string(fields, raw, "file", path, report)
        if file is not None:
            _relative_file(file, here, report)
    if not usable or len(report.found) != mark or target is None:
        return None
    if presence is not None and presence != spec.presence:
        article = "an" if spec.presence == "executable" else "a"
        report.add(
            path,
            "presence_mismatch",
            f"kind {kind!r} finds {article} {spec.presence}, but this block's presence is "
            f"{presence!r}",
        )
        return None
    return Location(kind, target, file)


def _checked_kind(
    raw: Mapping[Any, Any],
    table: Mapping[str, tuple[str, ...]],
    os_family: str,
    default: str | None,
    path: Path,
    wrong_os_path: Path | None,
    report: _Report,
) -> tuple[str | None, bool]:
    """The member's kind (None after reporting a missing or unknown one), and whether it is usable.

    A kind of another OS is reported at ``wrong_os_path`` (None: at ``kind`` itself) and returned
    as not usable, so that the member's own fields are still checked.
    """
    kind = raw.get("kind")
    if type(kind) is str and kind in table and os_family in table[kind]:
        return kind, True  # the common case: a known kind under its own OS
    here = [name for name, valid in table.items() if os_family in valid]
    if kind is None:
        if default is None:
            at_kind = (*path, ("kind", _position(raw, "kind")))
            report.add(at_kind, "missing_key", f"is required: one of {_choices(here)}")
        return default, default is not None
    if not isinstance(kind, str) or kind not in table:
        suggestion = _closest(kind, here)
        code = "invalid_choice" if isinstance(kind, str) else "wrong_type"
        hint = f"did you mean {suggestion!r}?" if suggestion else None
        at_kind = (*path, ("kind", _position(raw, "kind")))
        report.add(at_kind, code, f"must be {_choices(here)}", kind, hint)
        return None, False
    where = wrong_os_path or (*path, ("kind", _position(raw, "kind")))
    _wrong_os(kind, table, where, report)
    return kind, False


def _locations(
    raw: object, os_family: str, presence: str | None, path: Path, report: _Report
) -> tuple[Location, ...] | None:
    """The ``location`` value: one place, or a non-empty list of places."""
    if isinstance(raw, (list, tuple)):
        if not raw:
            report.add(path, "empty", "must not be empty: give a path, a mapping, or a list")
            return None
        found = [
            _location(item, os_family, presence, (*path, (index, index)), report)
            for index, item in enumerate(raw)
        ]
    else:
        found = [_location(raw, os_family, presence, path, report)]
    if any(location is None for location in found):
        return None
    return tuple(location for location in found if location is not None)


def _version(raw: object, os_family: str, path: Path, report: _Report) -> Version | None:
    """The ``version`` mapping; ``kind`` defaults to ``none``."""
    if not isinstance(raw, Mapping):
        kinds = [kind for kind, valid in VERSION_KINDS.items() if os_family in valid]
        report.add(path, "wrong_type", f"must be a mapping with kind {_choices(kinds)}", raw)
        return None
    kind, usable = _checked_kind(raw, VERSION_KINDS, os_family, "none", path, None, report)
    if kind is None:
        return None
    mark = len(report.found)
    fields = _fields(raw, path, _VERSION_KEYS[kind], report)
    if fields is None:
        return None
    prefix = None
    if kind == "uninstall_registry":
        prefix, here = _string(fields, raw, "display_name_prefix", path, report)
        if prefix is not None and not prefix.strip():
            report.add(here, "blank", "must not be blank", prefix)
    if not usable or len(report.found) != mark:
        return None
    return Version(kind, prefix)


_LIVENESS_OS = {"none": OS_FAMILIES, "server_json": OS_FAMILIES}


def _liveness(raw: object, os_family: str, path: Path, report: _Report) -> Liveness | None:
    """The ``liveness`` mapping, with the key and endpoint defaults filled."""
    if not isinstance(raw, Mapping):
        report.add(path, "wrong_type", "must be a mapping with kind 'none' or 'server_json'", raw)
        return None
    kind, usable = _checked_kind(raw, _LIVENESS_OS, os_family, "none", path, None, report)
    if kind is None or not usable:
        return None
    mark = len(report.found)
    fields = _fields(raw, path, _LIVENESS_KEYS[kind], report)
    if fields is None or kind == "none":
        return Liveness() if fields is not None and len(report.found) == mark else None
    file, here = _string(fields, raw, "path", path, report)
    if file is not None:
        file = _path(file, os_family, here, report, star=False)
    keys = {"pid_key": "pid", "url_key": "http", "token_key": "token"}
    for key in keys:
        entry = fields.get(key)
        if entry is not None:
            value, position = entry
            here = (*path, (key, position))
            if not isinstance(value, str):
                report.add(here, "wrong_type", "must be a string", value)
            elif _key_name(value, here, report):
                keys[key] = value
    endpoint = "/mcp"
    entry = fields.get("endpoint_path")
    if entry is not None:
        value, position = entry
        here = (*path, ("endpoint_path", position))
        if not isinstance(value, str):
            report.add(here, "wrong_type", "must be a string", value)
        elif _endpoint_path(value, here, report):
            endpoint = value
    if len(report.found) != mark or file is None:
        return None
    return Liveness(kind, file, keys["pid_key"], keys["url_key"], keys["token_key"], endpoint)


def _app_def(
    raw: object, os_family: str, app_id: str, path: Path, report: _Report
) -> AppDef | None:
    """One OS block: presence, locations, version and liveness."""
    mark = len(report.found)
    fields = _fields(raw, path, _OS_BLOCK_KEYS, report)
    if fields is None:
        return None
    assert isinstance(raw, Mapping)
    presence: str | None = None
    entry = fields.get("presence")
    if entry is None:
        report.add((*path, ("presence", _position(raw, "presence"))), "missing_key", "is required")
    elif _one_of(entry[0], PRESENCES, (*path, ("presence", entry[1])), report):
        presence = entry[0]
    locations = None
    entry = fields.get("location")
    if entry is None:
        report.add((*path, ("location", _position(raw, "location"))), "missing_key", "is required")
    else:
        here = (*path, ("location", entry[1]))
        locations = _locations(entry[0], os_family, presence, here, report)
    version: Version | None = Version()
    entry = fields.get("version")
    if entry is not None:
        version = _version(entry[0], os_family, (*path, ("version", entry[1])), report)
    liveness: Liveness | None = Liveness()
    entry = fields.get("liveness")
    if entry is not None:
        liveness = _liveness(entry[0], os_family, (*path, ("liveness", entry[1])), report)
    if len(report.found) != mark or presence is None or locations is None:
        return None
    if version is None or liveness is None:
        return None
    return AppDef(os_family, app_id, presence, locations, version, liveness)


def _app(raw: object, app_id: str, path: Path, report: _Report) -> AppBlock | None:
    """The ``app`` block: at least one OS block, no other key."""
    mark = len(report.found)
    fields = _fields(raw, path, OS_FAMILIES, report)
    if fields is None:
        return None
    blocks = {
        os_family: _app_def(value, os_family, app_id, (*path, (os_family, position)), report)
        for os_family, (value, position) in fields.items()
    }
    if len(report.found) != mark:
        return None
    if not blocks:
        report.add(path, "no_os_block", f"must declare at least one of {_choices(OS_FAMILIES)}")
        return None
    return AppBlock(blocks.get("win32"), blocks.get("darwin"), blocks.get("linux"))


def _requires(raw: object, path: Path, report: _Report) -> Requires | None:
    """The ``requires`` block on its own, including that min_version needs app: true."""
    mark = len(report.found)
    fields = _fields(raw, path, _REQUIRES_KEYS, report)
    if fields is None:
        return None
    app = False
    entry = fields.get("app")
    if entry is not None:
        if isinstance(entry[0], bool):
            app = entry[0]
        else:
            report.add((*path, ("app", entry[1])), "wrong_type", "must be true or false", entry[0])
    minimum = None
    entry = fields.get("min_version")
    if entry is not None:
        here = (*path, ("min_version", entry[1]))
        if not isinstance(entry[0], str):
            report.add(here, "wrong_type", "must be a string", entry[0])
        elif _min_version(entry[0], here, report):
            minimum = entry[0]
    gpu = None
    entry = fields.get("gpu")
    if entry is not None and _one_of(entry[0], ("nvidia",), (*path, ("gpu", entry[1])), report):
        gpu = entry[0]
    if len(report.found) != mark:
        return None
    if minimum is not None and not app:
        here = (*path, ("min_version", fields["min_version"][1]))
        report.add(here, "min_version_needs_app", "needs app: true", minimum)
        return None
    return Requires(app, minimum, gpu)


def _cross_check(
    app: AppBlock | None, requires: Requires, raw_requires: Any, report: _Report
) -> None:
    """SPEC 3.3's rules between the blocks, once each block is valid on its own."""
    if requires.app and app is None:
        here: Path = (("requires", 2), ("app", _position(raw_requires, "app")))
        report.add(here, "app_block_required", "is true, but there is no app block", True)
        return
    if requires.min_version is None or app is None:
        return
    here = (("requires", 2), ("min_version", _position(raw_requires, "min_version")))
    declared = [block for block in (app.win32, app.darwin, app.linux) if block is not None]
    if len(declared) == 1 and app.linux is not None:
        message = "cannot be checked: Linux has no version source and app declares only linux"
        report.add(here, "min_version_linux_only", message, requires.min_version)
        return
    lacking = [
        block.os_family
        for block in declared
        if block.os_family != "linux" and block.version.kind == "none"
    ]
    if lacking:
        blocks = " and ".join(f"app.{os_family}" for os_family in lacking)
        message = f"needs a version source: set version.kind in {blocks}"
        report.add(here, "min_version_no_version_source", message, requires.min_version)


def parse_declaration(
    name: object, raw_app: object = None, raw_requires: object = None, *, where: str
) -> Declaration:
    """Parse one declaration with plain Python; raise ``BaselineError`` with every problem."""
    report = _Report()
    app_id = name if isinstance(name, str) else ""
    if not isinstance(name, str):
        report.add((("name", 0),), "wrong_type", "must be a string", name)
    elif not name.strip():
        report.add((("name", 0),), "blank", "must not be blank", name)
    app = None if raw_app is None else _app(raw_app, app_id, (("app", 1),), report)
    requires = (
        Requires() if raw_requires is None else _requires(raw_requires, (("requires", 2),), report)
    )
    if not report.found and requires is not None:
        _cross_check(app, requires, raw_requires, report)
    if report.found or requires is None or not isinstance(name, str):
        raise BaselineError(where, report.sorted())
    return Declaration(name, app, requires)
