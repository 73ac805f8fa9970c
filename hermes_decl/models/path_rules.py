"""The string rules of paths, names, files, keys and versions, each one ``TextRules`` object.

Each object says a rule once: the check that explains a refusal (``hermes_decl.models.rules``,
linear scans with the exact wording), the patterns editors are given (ECMA-262, one per issue
code, with the same message), and the lookaround-free pattern the fast validator accepts
(``hermes_decl.models.fast_patterns``). The models annotate their strings with these objects;
the JSON Schema and the fast validator read the patterns from them.

The editor patterns judge the value as written: a path's surrounding whitespace is allowed where
the parser strips it.
"""

from __future__ import annotations

from pydantic.json_schema import JsonSchemaValue

from hermes_decl.models import fast_patterns, path_atoms, rules
from hermes_decl.models.common import OS_FAMILIES, OsFamily, fail
from hermes_decl.models.text_rules import (
    C0_C1_CLASS,
    CONTROL_CLASS,
    DOTTED,
    DOTTED_VERSION,
    END,
    PLAIN_SPACE_CLASS,
    SPACE_CLASS,
    TEXT_CONTROL_CLASS,
    Accept,
    TextRule,
    TextRules,
)
from hermes_decl.versions import MAX_PART_DIGITS, MIN_VERSION_FORM, min_version_problem

_WS = f"[{SPACE_CLASS}]*"
_ANY = r"[\s\S]*"
_SEP = path_atoms.SEPARATOR
_POSIX_VAR = path_atoms.posix_variable(whole=False)
_TILDE = path_atoms.tilde(END)
_DRIVE = path_atoms.DRIVE_ROOT
_WINDOWS_VAR = path_atoms.windows_variable()

NOT_A_URL = f"^(?:[^A-Za-z]|[A-Za-z][A-Za-z0-9+.-]*(?:[^A-Za-z0-9+.:-]|:(?!//)|{END}))*{END}"
"""No ``scheme://`` anywhere: each run of scheme characters that starts with a letter ends at
something other than ``://``. Runs cannot overlap, so no engine backtracks more than linearly."""

PATH_TOO_LONG_RULE = TextRule(
    "path_too_long", rf"^[\s\S]{{0,{rules.MAX_PATH_CHARS}}}{END}", rules.PATH_TOO_LONG
)
"""A path as written is at most ``rules.MAX_PATH_CHARS`` characters."""

BLANK_RULE = TextRule("blank", f"[^{SPACE_CLASS}]", rules.BLANK)
"""Something besides whitespace (searched anywhere, as JSON Schema patterns are)."""

CONTROL_RULE = TextRule("control_character", f"^[^{C0_C1_CLASS}]*{END}", rules.CONTROL)
"""No control character anywhere (a name or a file, kept as written)."""

_HARD_CONTROL = r"\u0000-\u0008\u000e-\u001b\u007f-\u0084\u0086-\u009f"
"""The control characters that ``str.strip`` never removes."""
_SOFT_CONTROL = r"\u0009-\u000d\u001c-\u001f\u0085"
"""The control characters that ``str.strip`` removes, and so refused only inside a path."""

_INSIDE = f"[^{SPACE_CLASS}][{PLAIN_SPACE_CLASS}]*[{_SOFT_CONTROL}][{SPACE_CLASS}]*[^{SPACE_CLASS}]"
"""A control character ``str.strip`` removes, with something besides whitespace either side."""
PATH_CONTROL_RULE = TextRule(
    "control_character", f"^(?!{_ANY}[{_HARD_CONTROL}])(?!{_ANY}{_INSIDE})", rules.CONTROL
)
"""No control character in a path once it is stripped of surrounding whitespace."""


def _parent_segment(dots: str, *, stripped: bool) -> str:
    """A lookahead refusing a segment of ``dots`` bounded by separators or the text's ends."""
    edge = _WS if stripped else ""
    segment_end = f"(?:{_SEP}|{edge}{END})"
    return f"^(?!{edge}{dots}{segment_end})(?!{_ANY}{_SEP}{dots}{segment_end})"


_DEVICE_NAME = path_atoms.WINDOWS_DEVICE_NAME


def _device_segment(*, stripped: bool) -> TextRule:
    """A lookahead refusing a segment Windows opens as a device (``rules.windows_device_name``)."""
    edge = _WS if stripped else ""
    segment = f"{_DEVICE_NAME} *(?:[.:]|{_SEP}|{edge}{END})"
    return TextRule(
        "path_device",
        f"^(?!{edge}{segment})(?!{_ANY}{_SEP}{segment})",
        rules.DEVICE_SEGMENT_MESSAGE,
    )


def _one_of(characters: str) -> str:
    """A character class of ``characters`` (non-ASCII ones escaped), or the one character."""
    if len(characters) == 1 and characters.isascii() and characters.isalnum():
        return characters
    return "[" + "".join(c if c.isascii() else f"\\u{ord(c):04x}" for c in characters) + "]"


def _network_roots(os_family: OsFamily) -> TextRule | None:
    """A lookahead refusing a path under one of the OS's network roots (``rules.network_root``)."""
    roots = path_atoms.NETWORK_ROOTS.get(os_family)
    if not roots:
        return None
    ignore_case = os_family in path_atoms.NETWORK_ROOTS_IGNORE_CASE

    def word(text: str) -> str:
        return "".join(_one_of(path_atoms.spellings(c, ignore_case=ignore_case)) for c in text)

    skipped = r"(?:\.?/)*"  # empty and '.' segments
    spelled = "|".join(f"/{skipped}".join(word(part) for part in root) for root in roots)
    message = rules.PATH_NETWORK_ROOT.format(roots=path_atoms.network_root_words(os_family))
    return TextRule(
        "path_network_root",
        f"^(?!{_WS}/{skipped}(?:{spelled})(?:/|{_WS}{END}))",
        message,
    )


def _path_rules(os_family: OsFamily, *, star: bool) -> tuple[TextRule, ...]:
    """The rules of ``rules.location_path`` for one OS, on the unstripped string."""
    if os_family == "win32":
        roots = [_DRIVE, _TILDE, _POSIX_VAR, _WINDOWS_VAR]
        rooted = rules.WINDOWS_NOT_ROOTED
        dots = r"\.\.[. ]*"
    else:
        roots = ["/", _TILDE, _POSIX_VAR]
        # One pattern for both of the parser's refusals of an unrooted path.
        rooted = f"{rules.POSIX_NOT_ROOTED} (a leading %VAR% is a Windows form)"
        dots = r"\.\."
    patterns = [
        PATH_TOO_LONG_RULE,
        BLANK_RULE,
        TextRule("path_nul", r"^[^\u0000]*" + END, rules.PATH_NUL),
        PATH_CONTROL_RULE,
        TextRule("path_network", f"^{_WS}(?![{SPACE_CLASS}]|{_SEP}{_SEP})", rules.PATH_NETWORK),
        TextRule("path_url", NOT_A_URL, rules.PATH_URL),
        TextRule("path_parent", _parent_segment(dots, stripped=True), rules.PATH_PARENT),
        TextRule("path_double_star", rf"^(?!{_ANY}\*\*)", rules.PATH_DOUBLE_STAR),
    ]
    if not star:
        patterns.append(TextRule("path_star", r"^[^*]*" + END, rules.PATH_STAR))
    if os_family == "win32":
        patterns.append(_device_segment(stripped=True))
        patterns.append(
            TextRule(
                "path_powershell_variable",
                f"^{_WS}(?![$][Ee][Nn][Vv]:[A-Za-z_])",
                rules.POWERSHELL_VARIABLE,
            )
        )
    patterns.append(TextRule("path_not_rooted", f"^{_WS}(?:{'|'.join(roots)})", rooted))
    network = _network_roots(os_family)
    if network is not None:
        patterns.append(network)
    return tuple(patterns)


def _left_to_check(os_family: OsFamily) -> str:
    """What a path's fast pattern leaves to ``rules.location_path``: surrounding whitespace,
    which the pattern refuses (it matches the path as written, so that its length bound is the
    rule's), a segment that starts or ends with whitespace, or has whitespace after its leading
    dots or, on Windows, after a start of a device name (``A B``), a ':' other than a drive's
    (then no URL rule is needed), a separator right after a drive root (``C:\\\\x``), or a
    POSIX first segment that is '.' or starts like a network root.

    On Windows a drive's ':' is the second character, after a letter: a ':' first, after a
    first character that is no letter (``~:``, ``%:%``), later, or twice is another one.
    """
    colon = ":"
    if os_family == "win32":
        colon = (
            f":[\\s\\S]*:|^[{SPACE_CLASS}]*:|^[{SPACE_CLASS}]*[^:{SPACE_CLASS}][^:]+:"
            f"|^[{SPACE_CLASS}]*[^A-Za-z:{SPACE_CLASS}]:"
            f"|^[{SPACE_CLASS}]*[A-Za-z]:[\\\\/][\\\\/]"
        )
    devices = f"|{fast_patterns.device_name_prefixes()}" if os_family == "win32" else ""
    spaced = f"[{SPACE_CLASS}](?:[\\\\/]|$)|(?:^|[\\\\/])(?:\\.+{devices})?[{SPACE_CLASS}]"
    left = f"{spaced}|{colon}"
    initials = fast_patterns.network_root_initials(os_family)
    if initials:
        # A first segment that is '.' or starts like a network root (``/net``, ``/Network``).
        left += f"|^[{SPACE_CLASS}]*/[.{initials}]"
    return left


class _PathRules(TextRules):
    """A path's rules, whose length bound editors get as ``maxLength`` with the rule's message."""

    def with_patterns(self, generated: JsonSchemaValue) -> JsonSchemaValue:
        """The rules' patterns, the length bound's as ``maxLength``."""
        generated = super().with_patterns(generated)
        generated["allOf"] = [
            {"maxLength": rules.MAX_PATH_CHARS, "errorMessage": rules.PATH_TOO_LONG}
            if entry == PATH_TOO_LONG_RULE.json_schema()
            else entry
            for entry in generated["allOf"]
        ]
        return generated


def _path(os_family: OsFamily, *, star: bool) -> TextRules:
    def explain(raw: str) -> str:
        return rules.location_path(raw, os_family, allow_star=star)

    accept = Accept(
        fast_patterns.location_path(os_family, star=star),
        max_length=rules.MAX_PATH_CHARS,
        leaves=_left_to_check(os_family),
    )
    return _PathRules(_path_rules(os_family, star=star), accept, explain)


LOCATION_PATHS: dict[OsFamily, TextRules] = {
    os_family: _path(os_family, star=True) for os_family in OS_FAMILIES
}
"""A path in an OS block's ``location``: stored stripped, ``*`` within one segment."""

RUNTIME_FILES: dict[OsFamily, TextRules] = {
    os_family: _path(os_family, star=False) for os_family in OS_FAMILIES
}
"""``liveness.path``: the rules of a location path, without ``*``."""


_SEGMENT = r"(?!\.\.[. ]*(?:[\\/]|" + END + r"))[^\\/:\u0000]+"

BARE_NAME = TextRules(
    (
        BLANK_RULE,
        TextRule("bad_name", r"^[^\u0000\\/:]*" + END, rules.BAD_NAME),
        TextRule("bad_name", f"^(?!{_WS}\\.\\.{_WS}{END})", rules.BAD_NAME),
        CONTROL_RULE,
    ),
    Accept(fast_patterns.bare_name()),
    rules.bare_name,
)
"""The name a location kind looks for (a command, an entry's prefix)."""

APP_BUNDLE_NAME = TextRules(
    (
        *BARE_NAME.rules,
        TextRule("bundle_not_app", rf"^[\s\S]*\.app{END}", rules.BUNDLE_NOT_APP),
    ),
    Accept(f"^[^{C0_C1_CLASS}\\\\/:]*\\.app$"),
    rules.bundle_name,
)
"""An ``app_bundle`` name: a bare name ending in ``.app`` (a bundle's folder)."""

RELATIVE_FILE = TextRules(
    (
        BLANK_RULE,
        TextRule("bad_file", f"^{_SEGMENT}(?:{_SEP}{_SEGMENT})*{END}", rules.BAD_FILE),
        CONTROL_RULE,
        _device_segment(stripped=False),
    ),
    Accept(
        fast_patterns.relative_file(),
        leaves=f"(?:^|[\\\\/])[{SPACE_CLASS}]+(?:[\\\\/]|$)",  # a segment of whitespace only
    ),
    rules.relative_file,
)
"""A path inside an install folder (``uninstall_registry``'s ``file``)."""

TEXT_CONTROL_RULE = TextRule("control_character", f"^[^{TEXT_CONTROL_CLASS}]*{END}", rules.CONTROL)
"""No control, format or line separator character, nor a lone surrogate, anywhere."""

PLAIN_NAME = TextRules(
    (BLANK_RULE, TEXT_CONTROL_RULE),
    Accept(f"^[^{CONTROL_CLASS}]*[^{SPACE_CLASS}{CONTROL_CLASS}][^{CONTROL_CLASS}]*$"),
    rules.plain_name,
)
"""A name a person reads, with something in it (the server name, a version source's entry
prefix): no character that hides or reorders text."""

ENTRY_PREFIX = TextRules(
    (*BARE_NAME.rules, TEXT_CONTROL_RULE),
    Accept(
        f"^[^{CONTROL_CLASS}{SPACE_CLASS}\\\\/:.][^{CONTROL_CLASS}\\\\/:]*$",
        leaves=f"^[{SPACE_CLASS}.]",  # a name starting with whitespace or '.' is checked in full
    ),
    rules.entry_prefix,
)
"""An ``uninstall_registry`` location's entry prefix: a bare name that is a plain name too."""

KEY_NAME = TextRules(
    (TextRule("bad_key_name", "^[A-Za-z0-9_.-]+" + END, rules.BAD_KEY_NAME),),
    Accept("^[A-Za-z0-9_.-]+$"),
    rules.key_name,
)
"""A key of the runtime file (``pid_key``, ``url_key``, ``token_key``)."""

ENDPOINT_PATH = TextRules(
    (
        TextRule("bad_endpoint_path", "^/[A-Za-z0-9._~/-]*" + END, rules.BAD_ENDPOINT_PATH),
        TextRule("bad_endpoint_path", "^(?!//)", rules.BAD_ENDPOINT_PATH),
        TextRule("bad_endpoint_path", f"^(?!{_ANY}/\\.\\.(?:/|{END}))", rules.BAD_ENDPOINT_PATH),
    ),
    Accept(fast_patterns.endpoint_path()),
    rules.endpoint_path,
)
"""``liveness.endpoint_path``: the path MCP ``initialize`` is sent to."""


def _min_version(value: str) -> str:
    """``requires.min_version``: dotted numeric, each part at most nine digits."""
    wrong = min_version_problem(value)
    if wrong is not None:
        fail("bad_version", wrong, value)
    return value


MIN_VERSION = TextRules(
    (
        TextRule(
            "bad_version",
            DOTTED + END,
            f"{MIN_VERSION_FORM}, each part at most {MAX_PART_DIGITS} digits",
        ),
    ),
    Accept(DOTTED_VERSION),
    _min_version,
)
"""``requires.min_version``."""
