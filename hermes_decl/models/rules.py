"""The value rules of SPEC 3.1 and 3.2: paths, bare names, relative files, key and endpoint paths.

Each function takes an already type-checked string and returns the value to store, or raises a
``PydanticCustomError`` with a stable code. They are pure and shared by the models.
"""

from __future__ import annotations

import re

from hermes_decl._text import show
from hermes_decl.models import path_atoms
from hermes_decl.models.common import OsFamily, fail
from hermes_decl.models.path_atoms import (
    NETWORK_ROOTS,
    NETWORK_ROOTS_IGNORE_CASE,
    SUPERSCRIPT_DIGITS,
    WINDOWS_DEVICE_NAMES,
    network_root_words,
    spellings,
)
from hermes_decl.models.text_rules import C0_C1_CLASS, TEXT_CONTROL_CLASS

_SEPARATORS = re.compile(path_atoms.SEPARATOR)
_CONTROL = re.compile(f"[{C0_C1_CLASS}]")
_TEXT_CONTROL = re.compile(f"[{TEXT_CONTROL_CLASS}]")
_POWERSHELL_VARIABLE = re.compile(r"\$env:(?P<name>[A-Za-z_][A-Za-z0-9_()]*)", re.IGNORECASE)
_COMMAND_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_LONGEST_HINTED_COMMAND = 64
"""The longest text a hint calls a command name (a message stays short)."""
_DOUBLE_SEPARATOR_START = re.compile(path_atoms.SEPARATOR + "{2}")
DRIVE_ROOT = re.compile(path_atoms.DRIVE_ROOT)
_SCHEME_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-")
_TILDE = re.compile(path_atoms.tilde(r"\Z"))
_POSIX_VARIABLE = re.compile(path_atoms.posix_variable())
_WINDOWS_VARIABLE = re.compile(path_atoms.windows_variable())
_KEY_NAME = re.compile(r"[A-Za-z0-9_.\-]+")
_ENDPOINT_PATH = re.compile(r"/[A-Za-z0-9._~/\-]*")
_WINDOWS_DOTS_ONLY = re.compile(r"\.\.[. ]*")
DEVICE_SEGMENT_MESSAGE = (
    "must not have a segment that Windows opens as a device (CON, PRN, AUX, NUL, COM0-COM9, "
    "LPT0-LPT9, CONIN$ or CONOUT$, in any case, with any extension)"
)

# What each rule says when it is broken: the checks below report these, and
# ``hermes_decl.models.path_rules`` gives editors the same words beside each pattern.
MAX_PATH_CHARS = 4096
"""The longest location or ``liveness.path`` string, as written (surrounding whitespace too)."""

BLANK = "must not be blank"
PATH_TOO_LONG = f"must be at most {MAX_PATH_CHARS} characters long"
PATH_NUL = "must not contain a NUL character"
CONTROL = "must not contain control characters such as a tab or a line break"
PATH_NETWORK = "must not start with two separators: UNC, device and network paths are not allowed"
PATH_URL = "must be a file path, not a URL"
PATH_PARENT = "must not contain a '..' segment"
PATH_DOUBLE_STAR = "must not contain '**'; '*' matches text within one folder"
PATH_STAR = "must not contain '*'"
WINDOWS_NOT_ROOTED = "must start at a drive root (C:\\ or C:/), or with ~, %VAR% or $VAR"
POSIX_NOT_ROOTED = "must start with /, ~ or $VAR"
PATH_NETWORK_ROOT = (
    "must not be under {roots}, where the automounter mounts the host the next folder names: "
    "looking there would contact that host; name a local folder"
)
WINDOWS_VARIABLE = "%VAR% is a Windows form; under app.{os_family} start with /, ~ or $VAR"
POWERSHELL_VARIABLE = "must not start with $env:NAME, which only PowerShell expands; use %NAME%"
BAD_NAME = "must be a bare name without '/', '\\' or ':', and not '..'"
BAD_FILE = (
    "must be a relative path inside the install folder: no leading separator, no ':', "
    "no empty or '..' segment"
)
BAD_KEY_NAME = "must be a simple key name of letters, digits, '_', '.' or '-'"
BAD_ENDPOINT_PATH = (
    "must be a plain absolute path such as '/mcp': letters, digits and . _ ~ / - only, "
    "no '..' segment, query, fragment or leading '//'"
)


def _has_url_scheme(text: str) -> bool:
    """Whether ``scheme://`` occurs anywhere; linear, unlike a regex search on hostile input."""
    start = 0
    while (colon := text.find("://", start)) != -1:
        first = colon
        while first > 0 and text[first - 1] in _SCHEME_CHARACTERS:
            first -= 1
        if any(character.isalpha() for character in text[first:colon]):
            return True
        start = colon + 1
    return False


def has_parent_segment(text: str, os_family: OsFamily | None) -> bool:
    """Whether a path has a '..' segment, with either separator (and Windows' trimming)."""
    if ".." not in text:
        return False
    for segment in _SEPARATORS.split(text):
        if segment == "..":
            return True
        # Windows drops trailing dots and spaces from a segment, so '... ' can act as '..'.
        if os_family == "win32" and _WINDOWS_DOTS_ONLY.fullmatch(segment):
            return True
    return False


def windows_device_name(segment: str) -> str | None:
    """The Windows device a path segment names (``nul.txt``, ``Con .``, ``COM1:``), or None.

    Windows reads a segment whose part before the first '.' or ':', less trailing spaces, is a
    device name as that device, whatever follows.
    """
    base = segment.split(".", 1)[0].split(":", 1)[0].rstrip(" ")
    if not 3 <= len(base) <= 7:  # CON to CONOUT$
        return None
    stem, last = base[:-1], base[-1]
    # Only ASCII letters fold ('ı'.upper() is 'I', yet 'conın$' names no device).
    if not stem.isascii() or not (last.isascii() or last in SUPERSCRIPT_DIGITS):
        return None
    name = (stem + last).upper()
    return name if name in WINDOWS_DEVICE_NAMES else None


def device_segment(text: str) -> str | None:
    """The first segment of a path (either separator) that names a Windows device, or None."""
    for segment in _SEPARATORS.split(text):
        if windows_device_name(segment) is not None:
            return segment
    return None


def starts_with_two_separators(text: str) -> bool:
    """Whether a path starts like a UNC, device or network path (``\\\\x``, ``//x``, ``/\\x``)."""
    return bool(_DOUBLE_SEPARATOR_START.match(text))


_ROOT_INITIALS: dict[str, frozenset[str]] = {
    os_family: frozenset(
        "".join(
            spellings(root[0][0], ignore_case=os_family in NETWORK_ROOTS_IGNORE_CASE)
            for root in roots
        )
    )
    for os_family, roots in NETWORK_ROOTS.items()
}
"""Every character that may start a network root's first word, per OS family with roots."""

_SKIPPED_STARTS = frozenset({"", ".", "/"})
"""What a path's second character is when its first segment may be one the OS skips."""


def network_root(text: str, os_family: OsFamily) -> str | None:
    """The automounter's network root an absolute POSIX path lies under (``/net``), or None.

    Empty and ``.`` segments are skipped as the OS skips them (``/./net//host``); on macOS the
    names are compared without case, as its root volume compares them.
    """
    roots = NETWORK_ROOTS.get(os_family)
    if not roots or not text.startswith("/"):
        return None
    if text[1:2] not in _SKIPPED_STARTS and text[1:2] not in _ROOT_INITIALS[os_family]:
        return None  # the first segment is a name no root's first word starts with
    ignore_case = os_family in NETWORK_ROOTS_IGNORE_CASE
    deepest = max(len(root) for root in roots)
    segments: list[str] = []
    start = 1
    while len(segments) < deepest:
        end = text.find("/", start)
        segment = text[start:] if end == -1 else text[start:end]
        if segment not in ("", "."):
            segments.append(segment)
        if end == -1:
            break
        start = end + 1
    for root in roots:
        if len(segments) >= len(root) and all(
            _spelled(found, word, ignore_case=ignore_case)
            for found, word in zip(segments, root, strict=False)
        ):
            return "/" + "/".join(root)
    return None


def _spelled(found: str, word: str, *, ignore_case: bool) -> bool:
    """Whether a segment names ``word`` (each character one of its spellings)."""
    return len(found) == len(word) and all(
        character in spellings(letter, ignore_case=ignore_case)
        for character, letter in zip(found, word, strict=True)
    )


def _is_rooted(text: str, os_family: OsFamily) -> bool:
    if _TILDE.match(text) or _POSIX_VARIABLE.match(text):
        return True
    if os_family == "win32":
        return bool(DRIVE_ROOT.match(text) or _WINDOWS_VARIABLE.match(text))
    return text.startswith("/")


def location_path(raw: str, os_family: OsFamily, *, allow_star: bool = True) -> str:
    """Check a path string against the rules for its OS block and return it stripped."""
    if len(raw) > MAX_PATH_CHARS:
        fail("path_too_long", f"{PATH_TOO_LONG} (got {len(raw):,} characters)")
    text = raw.strip()
    if not text:
        fail("blank", BLANK, raw)
    if "\x00" in text:
        fail("path_nul", PATH_NUL, text)
    if _CONTROL.search(text):
        fail("control_character", CONTROL, text)
    if _DOUBLE_SEPARATOR_START.match(text):
        fail("path_network", PATH_NETWORK, text)
    if _has_url_scheme(text):
        fail("path_url", PATH_URL, text)
    if has_parent_segment(text, os_family):
        fail("path_parent", PATH_PARENT, text)
    if "**" in text:
        fail("path_double_star", PATH_DOUBLE_STAR, text)
    if not allow_star and "*" in text:
        fail("path_star", PATH_STAR, text)
    if os_family == "win32" and (device := device_segment(text)) is not None:
        fail("path_device", DEVICE_SEGMENT_MESSAGE, text, hint=_names_device(device))
    if os_family == "win32" and (shell := _POWERSHELL_VARIABLE.match(text)) is not None:
        meant = f"%{shell['name']}%{text[shell.end() :]}"
        fail("path_powershell_variable", POWERSHELL_VARIABLE, text, hint=f"write {show(meant)}")
    if not _is_rooted(text, os_family):
        hint = _command_hint(text)
        if os_family == "win32":
            fail("path_not_rooted", WINDOWS_NOT_ROOTED, text, hint=hint)
        if _WINDOWS_VARIABLE.match(text):
            fail("path_windows_variable", WINDOWS_VARIABLE.format(os_family=os_family), text)
        fail("path_not_rooted", POSIX_NOT_ROOTED, text, hint=hint)
    if network_root(text, os_family) is not None:
        message = PATH_NETWORK_ROOT.format(roots=network_root_words(os_family))
        fail("path_network_root", message, text)
    return text


def _command_hint(text: str) -> str | None:
    """For a bare command name written as a path (``gimp``): the location kind that finds it."""
    if (
        len(text) > _LONGEST_HINTED_COMMAND
        or _SEPARATORS.search(text)
        or not _COMMAND_NAME.fullmatch(text)
    ):
        return None
    return f"to find a command on PATH use {{kind: command, name: {text}}}"


BUNDLE_SUBFOLDER = "a bundle in a subfolder needs a path location, such as {path}"
BUNDLE_PATH = "a bundle given by its path needs a path location: write location: {path}"
BUNDLE_NOT_APP = "must be a bundle folder name ending in '.app'"


def bundle_name(raw: str) -> str:
    """Check an ``app_bundle`` name: a bare name (a subfolder needs a path) ending in ``.app``."""
    if raw.strip() and _SEPARATORS.search(raw) and "\x00" not in raw:
        if raw.startswith(("/", "~")):
            fail("bad_name", BAD_NAME, raw, hint=BUNDLE_PATH.format(path=show(raw)))
        path = show("/Applications/" + raw.lstrip("/\\"))
        fail("bad_name", BAD_NAME, raw, hint=BUNDLE_SUBFOLDER.format(path=path))
    bare_name(raw)
    if not raw.endswith(".app"):
        fail("bundle_not_app", BUNDLE_NOT_APP, raw, hint=f"write {show(raw + '.app')}")
    return raw


def bare_name(raw: str) -> str:
    """Check the name a location kind looks for: non-blank, no separator, no ':', not '..'."""
    if not raw.strip():
        fail("blank", BLANK, raw)
    if "\x00" in raw or _SEPARATORS.search(raw) or ":" in raw or raw.strip() == "..":
        fail("bad_name", BAD_NAME, raw, hint=_name_of_path(raw))
    if _CONTROL.search(raw):
        fail("control_character", CONTROL, raw)
    return raw


def _name_of_path(raw: str) -> str | None:
    """For a name written as an absolute path (``/usr/bin/code``), the name alone."""
    last = _SEPARATORS.split(raw.rstrip("/\\"))[-1]
    if not raw.startswith("/") or "\x00" in raw or not last or last == "..":
        return None
    return f"write the name alone, {show(last)}, or give the whole path as a path location"


def relative_file(raw: str) -> str:
    """Check a path relative to an install folder: no root, drive, stream, empty or '..' segment."""
    if not raw.strip():
        fail("blank", BLANK, raw)
    segments = _SEPARATORS.split(raw)
    if (
        "\x00" in raw
        or ":" in raw
        or _SEPARATORS.match(raw)
        or any(segment == "" for segment in segments)
        or has_parent_segment(raw, "win32")
    ):
        fail("bad_file", BAD_FILE, raw, hint=_inside_folder(raw, segments))
    if _CONTROL.search(raw):
        fail("control_character", CONTROL, raw)
    if (device := device_segment(raw)) is not None:
        fail("path_device", DEVICE_SEGMENT_MESSAGE, raw, hint=_names_device(device))
    return raw


def _inside_folder(raw: str, segments: list[str]) -> str | None:
    """For a whole path from a drive given as the file inside an install folder, its own name."""
    if "\x00" in raw or ":" not in raw or len(segments) < 2 or segments[-1] in ("", ".."):
        return None
    return f"write the path from the install folder, such as {show(segments[-1])}"


def _names_device(segment: str) -> str:
    return f"{show(segment)} names the device {windows_device_name(segment)}"


def plain_name(raw: str) -> str:
    """Check a name a person reads (a server name, an entry's prefix): non-blank, and no control,
    format or separator character, nor a lone surrogate, that would hide or reorder its text."""
    if not raw.strip():
        fail("blank", BLANK, raw)
    if _TEXT_CONTROL.search(raw):
        fail("control_character", CONTROL, raw)
    return raw


def entry_prefix(raw: str) -> str:
    """Check an uninstall location's entry prefix: a bare name that is also a plain name."""
    bare_name(raw)
    if _TEXT_CONTROL.search(raw):
        fail("control_character", CONTROL, raw)
    return raw


def non_blank(raw: str) -> str:
    """Check that a free-text value has something in it."""
    if not raw.strip():
        fail("blank", BLANK, raw)
    return raw


def key_name(raw: str) -> str:
    """Check a key of the runtime file: letters, digits, '_', '.' and '-' only."""
    if not _KEY_NAME.fullmatch(raw):
        fail("bad_key_name", BAD_KEY_NAME, raw)
    return raw


def endpoint_path(raw: str) -> str:
    """Check the MCP endpoint path: a plain absolute path, nothing that could change the host."""
    if not _ENDPOINT_PATH.fullmatch(raw) or raw.startswith("//") or ".." in raw.split("/"):
        fail("bad_endpoint_path", BAD_ENDPOINT_PATH, raw)
    return raw
