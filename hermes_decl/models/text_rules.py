"""String rules that are one pattern each, with their code and message in one place.

A ``TextRule`` is a pattern that a valid string matches, the stable code of the issue when it does
not, and the message an author reads. The models check strings with them (``TextRules.check``) and
the JSON Schema states the very same patterns, so the parser and an editor cannot disagree.

Patterns are written for Python's ``re`` and ECMA-262 alike: anchored with ``^``, ended with
``(?![\\s\\S])`` rather than ``$`` (which Python also matches before a final newline), no
lookbehind, only syntax characters escaped, and each runs in time linear in its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hermes_decl.models.common import BUILTIN_ERROR_TYPES, fail


def _space_class_body() -> str:
    """The characters ``str.strip()`` removes (``str.isspace``; all are in the BMP), as a class."""
    codes = [code for code in range(0x10000) if chr(code).isspace()]
    runs: list[list[int]] = []
    for code in codes:
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    return "".join(
        f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}"
        for first, last in runs
    )


SPACE_CLASS = _space_class_body()
"""The body of a character class of every character ``str.strip()`` removes."""

CONTROL_CLASS = r"\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""The body of a class of control characters: C0, DEL, C1, line and paragraph separators, and
the bidirectional embeddings, overrides and isolates that reorder how text is displayed."""

END = r"(?![\s\S])"
"""The end of the text (``$`` would also match before a final newline in Python)."""


@dataclass(frozen=True)
class TextRule:
    """One rule a string must keep: a pattern it matches, the issue code and message if not."""

    code: str
    pattern: str
    message: str
    compiled: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.code in BUILTIN_ERROR_TYPES:
            raise ValueError(f"{self.code!r} is one of Pydantic's error types, not a code of ours")
        object.__setattr__(self, "compiled", re.compile(self.pattern))


@dataclass(frozen=True)
class TextRules:
    """The rules of one string field, checked in order; the first one broken is reported."""

    rules: tuple[TextRule, ...]

    def check(self, value: str) -> str:
        """Return ``value`` when it keeps every rule; raise the first broken rule's problem."""
        for rule in self.rules:
            if rule.compiled.match(value) is None:
                fail(rule.code, rule.message, value)
        return value


def _at_most(count: int, message: str) -> TextRule:
    return TextRule("text_too_long", rf"^[\s\S]{{0,{count}}}{END}", message)


# --- app.display_name ---------------------------------------------------------------------------

DISPLAY_NAME_MAX = 80

DISPLAY_NAME = TextRules(
    (
        TextRule("blank", f"^[{SPACE_CLASS}]*[^{SPACE_CLASS}]", "must not be blank"),
        TextRule(
            "control_character",
            f"^[^{CONTROL_CLASS}]*{END}",
            "must be plain text: no line breaks, tabs or other control characters",
        ),
        TextRule(
            "surrounding_whitespace",
            f"^(?![{SPACE_CLASS}])(?![\\s\\S]*[{SPACE_CLASS}]{END})",
            "must not start or end with whitespace",
        ),
        _at_most(DISPLAY_NAME_MAX, f"must be at most {DISPLAY_NAME_MAX} characters long"),
    )
)


# --- app.<os>.min_os_version --------------------------------------------------------------------

MIN_OS_VERSION = TextRules(
    (
        TextRule(
            "bad_version",
            rf"^[0-9]{{1,9}}(?:\.[0-9]{{1,9}})*{END}",
            "must be a dotted numeric version such as '13.0' or '10.0.19041', "
            "each part at most 9 digits",
        ),
    )
)


# --- app.<os>.install: package names by each package manager's own syntax ------------------------

_WINGET_SEGMENT = "[A-Za-z0-9_+-]{1,32}"
WINGET_ID = TextRules(
    (
        TextRule(
            "bad_winget_id",
            rf"^(?=[\s\S]{{1,128}}{END})(?!-){_WINGET_SEGMENT}(?:\.{_WINGET_SEGMENT}){{1,7}}{END}",
            "must be a winget package identifier such as 'Vendor.Studio': two to eight "
            "dot-separated parts of letters, digits, '_', '+' or '-' (at most 32 each, 128 in "
            "all), not starting with '-'",
        ),
    )
)

_TAP = "(?:[A-Za-z0-9][A-Za-z0-9_-]*/[A-Za-z0-9][A-Za-z0-9_-]*/)?"
"""An optional ``user/tap/`` before a Homebrew name: the tap the formula or cask comes from."""

CASK_TOKEN = TextRules(
    (
        TextRule(
            "bad_cask_token",
            rf"^(?=[\s\S]{{1,128}}{END}){_TAP}[a-z0-9][a-z0-9_-]*(?:@[a-z0-9][a-z0-9._-]*)?{END}",
            "must be a Homebrew cask token such as 'vendor-studio' or 'vendor-studio@beta': "
            "lowercase letters, digits, '-' and '_', an optional '@' suffix, optionally after "
            "'user/tap/'; at most 128 characters",
        ),
    )
)

FORMULA = TextRules(
    (
        TextRule(
            "bad_formula",
            rf"^(?=[\s\S]{{1,128}}{END}){_TAP}[a-z0-9][a-z0-9+_.@-]*{END}",
            "must be a Homebrew formula name such as 'vendor-cli' or 'vendor@2': lowercase "
            "letters, digits and '+', '-', '_', '.', '@', optionally after 'user/tap/'; "
            "at most 128 characters",
        ),
    )
)

_FLATPAK_SEGMENT = "[A-Za-z_][A-Za-z0-9_]*"
FLATPAK_APP_ID = TextRules(
    (
        TextRule(
            "bad_flatpak_id",
            rf"^(?=[\s\S]{{1,255}}{END}){_FLATPAK_SEGMENT}(?:\.{_FLATPAK_SEGMENT})+"
            rf"\.[A-Za-z_-][A-Za-z0-9_-]*{END}",
            "must be a Flatpak application id such as 'com.vendor.Studio': at least three "
            "dot-separated parts of letters, digits and '_', none starting with a digit, '-' "
            "only in the last part; at most 255 characters",
        ),
    )
)

FLATPAK_REMOTE = TextRules(
    (
        TextRule(
            "bad_flatpak_remote",
            rf"^[A-Za-z0-9_][A-Za-z0-9._-]{{0,254}}{END}",
            "must be a Flatpak remote name such as 'flathub': letters, digits, '.', '_' and "
            "'-', not starting with '.' or '-'; at most 255 characters",
        ),
    )
)

SNAP_NAME = TextRules(
    (
        TextRule(
            "bad_snap_name",
            rf"^(?=[\s\S]{{2,40}}{END})(?=[0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*{END}",
            "must be a Snap name such as 'vendor-studio': 2 to 40 lowercase letters, digits and "
            "single hyphens, at least one letter, no hyphen first or last",
        ),
    )
)

URL_MAX = 2048
_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = rf"(?:{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]+\])"
HTTPS_URL = TextRules(
    (
        _at_most(URL_MAX, f"must be at most {URL_MAX} characters long"),
        TextRule("url_not_https", "^https://", "must be an https:// URL"),
        TextRule(
            "url_bad_character",
            f"^[^{SPACE_CLASS}{CONTROL_CLASS}\\\\]*{END}",
            "must not contain whitespace, control characters or '\\'",
        ),
        TextRule(
            "url_userinfo",
            "^https://(?![^/?#]*@)",
            "must not carry a user name or password before the host",
        ),
        TextRule(
            "url_bad_host",
            rf"^https://{_HOST}(?::[0-9]{{1,5}})?(?:[/?#][\s\S]*)?{END}",
            "must name a host (letters, digits, '-' and '.', or a bracketed IPv6 address), "
            "then an optional port, path, query and fragment",
        ),
    )
)
