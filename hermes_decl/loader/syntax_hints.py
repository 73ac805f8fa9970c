"""The fix for each YAML syntax error an author commonly meets.

PyYAML names a syntax error only in words (its problem, and the context it was reading), so the
fix is chosen by how those words start; the words themselves are reported unchanged.
"""

from __future__ import annotations

from hermes_decl.loader.document import ESCAPE_HINT

SYNTAX_HINTS = (
    ("found unknown escape character", ESCAPE_HINT),
    ("expected escape sequence", ESCAPE_HINT),
    (
        "found character '%' that cannot start any token",
        "a value starting with '%' must be quoted: '%ProgramFiles%/Vendor/vendor.exe'",
    ),
    (
        "found character '\\t' that cannot start any token",
        "indent with spaces: YAML allows no tabs there",
    ),
    ("found character '@' that cannot start any token", "a value starting with '@' must be quoted"),
    ("found character '`' that cannot start any token", "a value starting with '`' must be quoted"),
    (
        "mapping values are not allowed here",
        "write a space after each key's ':', and quote a value that holds ': '",
    ),
    (
        "expected <block end>, but found",
        "the keys of one mapping must start in the same column: check the indentation",
    ),
)
"""The fix for each YAML syntax error an author commonly meets, by the start of its problem."""

CONTEXT_HINTS = (
    ("while scanning an alias", "a value starting with '*' must be quoted: '*.exe'"),
    ("while scanning an anchor", "a value starting with '&' must be quoted"),
)
"""The fix for a YAML syntax error by the start of its context: what was being read."""


def syntax_hints(problem: str | None, context: str | None) -> list[str]:
    """The fixes for a syntax error with this problem and context, in that order."""
    hints = [hint for start, hint in SYNTAX_HINTS if problem and problem.startswith(start)]
    hints.extend(hint for start, hint in CONTEXT_HINTS if context and context.startswith(start))
    return hints
