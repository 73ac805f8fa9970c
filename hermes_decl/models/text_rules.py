"""String rules, each written once: what a valid value is, and what is said when it is not.

A ``TextRules`` holds, for one kind of string value:

- its rules, in order: each a ``TextRule`` with a pattern, the stable code of the issue when a
  value does not match and the message an author reads. The JSON Schema states these very
  patterns, so that an editor names the same rule the parser does; unless the rules are given an
  ``explain`` check, the parser checks them too, the first one broken being reported;
- ``accept``: one pattern that the values keeping every rule match, written without lookaround so
  that pydantic-core's Rust regex engine runs it; it is how a valid declaration is validated
  without a Python call. The tests prove that it and the rules agree.

The rules' patterns are written for Python's ``re`` and ECMA-262 alike: anchored with ``^``, ended
with ``(?![\\s\\S])`` rather than ``$`` (which Python also matches before a final newline), no
lookbehind, only syntax characters escaped, and each runs in time linear in its input.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from hermes_decl._record import FieldwiseRecord
from hermes_decl.models.common import BUILTIN_ERROR_TYPES, fail
from hermes_decl.models.rule_object import Derivation, Node, Renderer, RuleObject

SPACE_CLASS = (
    r"\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028-\u2029\u202f\u205f\u3000"
)
"""The body of a character class of every character ``str.strip()`` removes (``str.isspace``;
all are in the Basic Multilingual Plane). A test derives it from ``str.isspace`` again."""

PLAIN_SPACE_CLASS = r"\u0020\u00a0\u1680\u2000-\u200a\u2028-\u2029\u202f\u205f\u3000"
"""The whitespace of ``SPACE_CLASS`` that is not a control character (a test derives it too)."""

C0_C1_CLASS = r"\u0000-\u001f\u007f-\u009f"
"""The body of a class of the C0 controls, DEL and the C1 controls: what no path, name or id
may hold (a path's surrounding whitespace aside, which is stripped)."""

_FORMAT_RANGES = (
    (0x00AD, 0x00AD),
    (0x0600, 0x0605),
    (0x061C, 0x061C),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x180E, 0x180E),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x2064),
    (0x2066, 0x206F),
    (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)
"""Unicode's format characters (category Cf: zero-width spaces and joiners, direction marks,
embeddings, overrides and isolates, the byte order mark, tag characters…); a test derives them
from ``unicodedata`` again."""


def _class_body(ranges: tuple[tuple[int, int], ...]) -> str:
    """Ranges as a class body every engine reads alike: a ``\\u`` escape in the Basic
    Multilingual Plane, the character itself beyond it (one code point for Python, Rust and
    ECMA-262's ``u`` mode, which editors use, where no escape is common to all three)."""

    def one(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in ranges)


FORMAT_CLASS = _class_body(_FORMAT_RANGES)
"""The body of a class of every format character."""

CONTROL_CLASS = C0_C1_CLASS + r"\u2028\u2029" + FORMAT_CLASS
"""The body of a class of what free text may not hold: C0, DEL, C1, line and paragraph
separators, and every format character (the bidirectional embeddings, overrides and isolates
that reorder how text is displayed, the invisible ones that make two names look alike)."""

TEXT_CONTROL_CLASS = CONTROL_CLASS + r"\ud800-\udfff"
"""``CONTROL_CLASS`` and the lone surrogates, for the rules' patterns: pydantic-core's patterns
cannot name a surrogate, and match no string holding one (``Accept.may_leave``)."""

END = r"(?![\s\S])"
"""The end of the text (``$`` would also match before a final newline in Python)."""


class TextRule(FieldwiseRecord):
    """One rule a string must keep: a pattern it matches, the issue code and message if not."""

    code: str
    pattern: str
    message: str

    def __post_init__(self) -> None:
        if self.code in BUILTIN_ERROR_TYPES:
            raise ValueError(f"{self.code!r} is one of Pydantic's error types, not a code of ours")

    @functools.cached_property
    def compiled(self) -> re.Pattern[str]:
        """The pattern compiled for Python, on first use: most rules never explain a refusal."""
        return re.compile(self.pattern)

    def json_schema(self) -> dict[str, str]:
        """The rule for editors: its pattern, and its message where the pattern fails."""
        return {"pattern": self.pattern, "patternErrorMessage": self.message}


@functools.cache
def _lone_surrogate() -> re.Pattern[str]:
    """Compiled on first use: only the tests ask what a pattern leaves to its check."""
    return re.compile(r"[\ud800-\udfff]")


class Accept(FieldwiseRecord):
    """What the fast validator accepts for a string: one lookaround-free pattern, length bounds,
    matched against the value as written (a rule that strips, as a path's does, has a pattern
    that refuses surrounding whitespace and leaves such values to its check)."""

    pattern: str
    min_length: int | None = None
    max_length: int | None = None
    leaves: str | None = None
    """A Python pattern, searched: the values it finds may be valid yet are not accepted here,
    but left to the explaining check (None: the pattern accepts every valid value)."""

    def may_leave(self, value: str) -> bool:
        """Whether the pattern may refuse ``value`` even if it is valid, leaving it to the check.

        pydantic-core matches no pattern against a lone surrogate; ``leaves`` says the rest.
        """
        if _lone_surrogate().search(value):
            return True
        return self.leaves is not None and re.search(self.leaves, value) is not None

    def core_schema(self) -> CoreSchema:
        """The pydantic-core schema that accepts exactly the values this pattern allows."""
        return core_schema.str_schema(
            pattern=self.pattern,
            min_length=self.min_length,
            max_length=self.max_length,
            strict=True,
        )


class TextRules(RuleObject):
    """The rules of one string field, checked in order; the first one broken is reported.

    ``explain``, when given, is the check that reports a refusal instead of the rules (a path
    rule needs more than patterns: a linear scan for URLs, the device a segment names).
    """

    rules: tuple[TextRule, ...]
    accept: Accept
    explain: Callable[[str], str] | None = None

    def check(self, value: str) -> str:
        """Return the value to keep (a path stripped); raise the first broken rule's problem."""
        if self.explain is not None:
            return self.explain(value)
        for rule in self.rules:
            if rule.compiled.match(value) is None:
                fail(rule.code, rule.message, value)
        return value

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return core_schema.no_info_after_validator_function(self.check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        """The string's schema with the rules' patterns, one ``allOf`` entry each in the order
        the parser checks them, so that an editor names the one broken."""
        return self.with_patterns(handler(schema))

    def with_patterns(self, generated: JsonSchemaValue) -> JsonSchemaValue:
        """``generated`` with the rules' patterns added to its ``allOf``."""
        generated.setdefault("allOf", []).extend(rule.json_schema() for rule in self.rules)
        return generated

    def json_schema(self, schema: Node, renderer: Renderer) -> JsonSchemaValue:
        """The string's own schema: the patterns are added as metadata, on the way back."""
        return renderer.generate_inner(schema["schema"])

    def fast_schema(self) -> CoreSchema:
        """What the fast validator runs instead of ``check``: the lookaround-free pattern."""
        return self.accept.core_schema()

    def fast_form(self, schema: Node, derivation: Derivation, presence: str | None) -> Any:
        return self.fast_schema()


def _at_most(count: int, message: str) -> TextRule:
    return TextRule("text_too_long", rf"^[\s\S]{{0,{count}}}{END}", message)


# --- app.display_name ---------------------------------------------------------------------------

DISPLAY_NAME_MAX = 80

DISPLAY_NAME = TextRules(
    (
        TextRule("blank", f"^[{SPACE_CLASS}]*[^{SPACE_CLASS}]", "must not be blank"),
        TextRule(
            "control_character",
            f"^[^{TEXT_CONTROL_CLASS}]*{END}",
            "must be plain text: no line breaks, tabs or other control characters",
        ),
        TextRule(
            "surrounding_whitespace",
            f"^(?![{SPACE_CLASS}])(?![\\s\\S]*[{SPACE_CLASS}]{END})",
            "must not start or end with whitespace",
        ),
        _at_most(DISPLAY_NAME_MAX, f"must be at most {DISPLAY_NAME_MAX} characters long"),
    ),
    Accept(
        f"^[^{SPACE_CLASS}{CONTROL_CLASS}](?:[^{CONTROL_CLASS}]*[^{SPACE_CLASS}{CONTROL_CLASS}])?$",
        max_length=DISPLAY_NAME_MAX,
    ),
)


# --- app.<os>.min_os_version --------------------------------------------------------------------

DOTTED = r"^[0-9]{1,9}(?:\.[0-9]{1,9})*"
"""The start of a dotted numeric version, each part at most 9 digits: what its rules check."""

DOTTED_VERSION = DOTTED + "$"
"""A dotted numeric version, as the fast validator matches it."""

MIN_OS_VERSION = TextRules(
    (
        TextRule(
            "bad_version",
            DOTTED + END,
            "must be a dotted numeric version such as '13.0' or '10.0.19041', "
            "each part at most 9 digits",
        ),
    ),
    Accept(DOTTED_VERSION),
)


# --- app.<os>.install: package names by each package manager's own syntax ------------------------

_WINGET_SEGMENT = "[A-Za-z0-9_+-]{1,32}"
_STORE_ID = re.compile(r"[9X][A-Z0-9]{11}")
"""A Microsoft Store product id (``9NBLGGH4NNS1``), which winget finds only in the Store."""
STORE_ID_HINT = "a Microsoft Store id is no winget id: use a url: hint to the Store page"


def _winget_id(value: str) -> str:
    """Check a winget id; a Microsoft Store id is told the hint that fits it."""
    for rule in _WINGET_RULES:
        if rule.compiled.match(value) is None:
            hint = STORE_ID_HINT if _STORE_ID.fullmatch(value) else None
            fail(rule.code, rule.message, value, hint=hint)
    return value


_WINGET_RULES = (
    TextRule(
        "bad_winget_id",
        rf"^(?=[\s\S]{{1,128}}{END})(?!-){_WINGET_SEGMENT}(?:\.{_WINGET_SEGMENT}){{1,7}}{END}",
        "must be a winget package identifier such as 'Vendor.Studio': two to eight "
        "dot-separated parts of letters, digits, '_', '+' or '-' (at most 32 each, 128 in "
        "all), not starting with '-'",
    ),
)
WINGET_ID = TextRules(
    _WINGET_RULES,
    # The first part, which does not start with '-', then one to seven more.
    Accept(rf"^[A-Za-z0-9_+][A-Za-z0-9_+-]{{0,31}}(?:\.{_WINGET_SEGMENT}){{1,7}}$", max_length=128),
    _winget_id,
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
    ),
    Accept(rf"^{_TAP}[a-z0-9][a-z0-9_-]*(?:@[a-z0-9][a-z0-9._-]*)?$", max_length=128),
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
    ),
    Accept(rf"^{_TAP}[a-z0-9][a-z0-9+_.@-]*$", max_length=128),
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
    ),
    Accept(
        rf"^{_FLATPAK_SEGMENT}(?:\.{_FLATPAK_SEGMENT})+\.[A-Za-z_-][A-Za-z0-9_-]*$",
        max_length=255,
    ),
)

FLATPAK_REMOTE = TextRules(
    (
        TextRule(
            "bad_flatpak_remote",
            rf"^[A-Za-z0-9_][A-Za-z0-9._-]{{0,254}}{END}",
            "must be a Flatpak remote name such as 'flathub': letters, digits, '.', '_' and "
            "'-', not starting with '.' or '-'; at most 255 characters",
        ),
    ),
    Accept(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,254}$"),
)

SNAP_NAME = TextRules(
    (
        TextRule(
            "bad_snap_name",
            rf"^(?=[\s\S]{{2,40}}{END})(?=[0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*{END}",
            "must be a Snap name such as 'vendor-studio': 2 to 40 lowercase letters, digits and "
            "single hyphens, at least one letter, no hyphen first or last",
        ),
    ),
    # Digit-only parts, then the part with the first letter, then any parts.
    Accept(r"^(?:[0-9]+-)*[0-9]*[a-z][a-z0-9]*(?:-[a-z0-9]+)*$", min_length=2, max_length=40),
)

URL_MAX = 2048
# The rules after the scheme's hold for any other scheme, so that an editor says only that an
# http:// URL must be https:// (the parser reports the first rule broken anyway).
_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = rf"(?:{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]+\])"
HTTPS_URL = TextRules(
    (
        _at_most(URL_MAX, f"must be at most {URL_MAX} characters long"),
        TextRule("url_not_https", "^https://", "must be an https:// URL"),
        TextRule(
            "url_bad_character",
            f"^[^{SPACE_CLASS}{TEXT_CONTROL_CLASS}\\\\]*{END}",
            "must not contain whitespace, control characters or '\\'",
        ),
        TextRule(
            "url_userinfo",
            "^(?:(?!https://)|https://(?![^/?#]*@))",
            "must not carry a user name or password before the host",
        ),
        TextRule(
            "url_bad_host",
            rf"^(?:(?!https://)|https://{_HOST}(?::[0-9]{{1,5}})?(?:[/?#][\s\S]*)?{END})",
            "must name a host (letters, digits, '-' and '.', or a bracketed IPv6 address), "
            "then an optional port, path, query and fragment",
        ),
    ),
    Accept(
        rf"^https://{_HOST}(?::[0-9]{{1,5}})?(?:[/?#][^{SPACE_CLASS}{CONTROL_CLASS}\\]*)?$",
        max_length=URL_MAX,
    ),
)
