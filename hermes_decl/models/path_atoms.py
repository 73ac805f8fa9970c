"""The atoms of every path grammar, written once: separators, ``~``, ``$VAR``/``${VAR}``, ``%VAR%``,
a drive root and the names Windows opens as a device.

The path checks (``rules``), the editor patterns (``path_rules``), the lookaround-free patterns
pydantic-core runs (``fast_patterns``) and the expansion at lookup (``resolver.expand``) each
build their grammar from these pieces, so a path that one of them reads as rooted or as a
variable is read the same way by the others. Each piece is regex text valid in Python's ``re``,
ECMA-262 and Rust's ``regex`` alike.
"""

from __future__ import annotations

SEPARATORS = r"\\/"
"""The body of a character class of both separators (Windows accepts either)."""
SEPARATOR = f"[{SEPARATORS}]"

DRIVE_ROOT = f"[A-Za-z]:{SEPARATOR}"
"""A Windows drive root: a letter, ':' and a separator (``C:\\``, ``c:/``)."""

_VARIABLE_START = "[A-Za-z_]"
_VARIABLE_NAME = _VARIABLE_START + "[A-Za-z0-9_]*"

WINDOWS_VARIABLE_EXCLUDED = r"%=/\\"
"""What a ``%VAR%`` name never holds: the ``%`` that ends it, ``=`` and the separators."""


def tilde(end: str, *, user_group: bool = False, keep_separator: bool = False) -> str:
    """``~`` or ``~user``, then a separator or ``end`` (the end of the text in the caller's
    dialect); ``user_group`` captures the user, ``keep_separator`` leaves the separator unread."""
    user = f"([^{SEPARATORS}]*)" if user_group else f"[^{SEPARATORS}]*"
    follows = "(?=" if keep_separator else "(?:"
    return f"~{user}{follows}{SEPARATOR}|{end})"


def posix_variable(*, whole: bool = True, name_groups: bool = False) -> str:
    """``$NAME`` or ``${NAME}``: without ``whole`` only how it starts (the rest of a ``$NAME``
    is path text to a pattern); ``name_groups`` captures the name of each form."""
    name = f"({_VARIABLE_NAME})" if name_groups else _VARIABLE_NAME
    bare = name if whole else _VARIABLE_START
    return rf"\$(?:{bare}|\{{{name}\}})"


def windows_variable(*, name_group: bool = False) -> str:
    """``%NAME%``: a name of anything but ``WINDOWS_VARIABLE_EXCLUDED``, between two ``%``."""
    name = f"[^{WINDOWS_VARIABLE_EXCLUDED}]+"
    return f"%({name})%" if name_group else f"%{name}%"


SUPERSCRIPT_DIGITS = "\u00b9\u00b2\u00b3"
WINDOWS_DEVICE_NAMES = frozenset(
    {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"}
    | {f"{port}{digit}" for port in ("COM", "LPT") for digit in "0123456789" + SUPERSCRIPT_DIGITS}
)
"""Names Windows opens as a device in any folder: any case, any extension, trailing dots or spaces
(``COM¹``-``COM³`` and ``LPT¹``-``LPT³`` with superscript digits too)."""

WINDOWS_DEVICE_NAME = (
    r"(?:[Cc][Oo][Nn](?:[Ii][Nn]\$|[Oo][Uu][Tt]\$)?|[Pp][Rr][Nn]|[Aa][Uu][Xx]|[Nn][Uu][Ll]"
    r"|(?:[Cc][Oo][Mm]|[Ll][Pp][Tt])[0-9\u00b9\u00b2\u00b3])"
)
"""``WINDOWS_DEVICE_NAMES`` as one pattern, in any case of their letters (a test checks that it
matches exactly those names)."""

NETWORK_ROOTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "linux": (("net",),),
    "darwin": (("net",), ("Network", "Servers")),
}
"""The folders, as segments from ``/``, where an OS's automounter mounts whatever host the next
segment names (autofs ``-hosts`` on ``/net``; macOS's ``auto_master`` mounts ``-hosts`` on
``/net`` and ``-fstab`` on ``/Network/Servers`` by default): looking below one contacts that host.
"""

NETWORK_ROOTS_IGNORE_CASE = frozenset({"darwin"})
"""The OS families whose root volume ignores case (macOS's default), so ``/NET`` is ``/net``."""

CASE_FOLDS = {"k": "\u212a", "s": "\u017f"}
"""The characters besides an ASCII letter's two cases that fold to it (KELVIN SIGN, LONG S); a
test derives them from ``str.casefold`` again."""


def spellings(letter: str, *, ignore_case: bool) -> str:
    """Every character that spells ``letter`` in a name compared with or without case."""
    if not ignore_case or not letter.isascii() or not letter.isalpha():
        return letter
    lower = letter.lower()
    return lower + lower.upper() + CASE_FOLDS.get(lower, "")


def network_root_words(os_family: str) -> str:
    """The network roots of an OS family in words (``/net or /Network/Servers``), or ``""``."""
    return " or ".join("/" + "/".join(root) for root in NETWORK_ROOTS.get(os_family, ()))
